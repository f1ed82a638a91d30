"""The organisers' re-scoring after the Test phase: ``rank_submissions.py`` end to end on a
Codabench bulk download of every track's generated submissions, as the organisers run it."""

from __future__ import annotations

import os
import random
import re
import shutil
import sys
import time
import zipfile
from concurrent.futures import ProcessPoolExecutor

from .measuring import ROOT, TRACKS, built_phase_extras, input_folder, load_average

NAME = "rescoring"
HEADER = "## Re-scoring after the Test phase (the organisers' results)"
ALONE = True

RESCORING_TARGET_S = 45


def add_arguments(parser):
    parser.add_argument("--teams", type=int, default=30, help="teams of the re-scoring step")
    parser.add_argument("--per-team", type=int, default=5, help="submissions per team of the re-scoring step")
    parser.add_argument("--jobs", type=int, default=2, help="scoring processes of the re-scoring step")


def collect(args, folder):
    return rescoring(args.teams, args.per_team, args.resamples, args.jobs, folder)


def _generated_member(task):
    """Submission ``k`` of the re-scoring's download (all six tracks, seed 1000 + k), zipped: its path."""
    base, k = task
    other = input_folder(base, "generated-%d" % k)
    for generator in TRACKS.values():
        generator(other, 1, random.Random(1000 + k))
    member = os.path.join(base, "member-%d.zip" % k)
    with zipfile.ZipFile(member, "w", compression=zipfile.ZIP_DEFLATED) as submission:
        for name in sorted(os.listdir(os.path.join(other, "res"))):
            submission.write(os.path.join(other, "res", name), name)
    shutil.rmtree(other)
    return member


def bulk_download(base, teams, per_team, jobs):
    """A Codabench bulk download in ``base`` (``<id>_<owner>_PhaseId<n>_<date>_<file>`` members):
    each team's last submission (the highest id) generated (other seeds: the same items, other
    answers), its earlier ones, which the tool does not re-score, copies of other teams' files."""
    bulk = os.path.join(base, "bulk_submissions.zip")
    last = range(teams * (per_team - 1), teams * per_team)
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        members = list(pool.map(_generated_member, [(base, k) for k in last]))
    with zipfile.ZipFile(bulk, "w") as archive:
        for k in range(teams * per_team):
            archive.write(members[(k + (k // teams)) % teams],
                          "%d_team_%02d_PhaseId2_2027-03-%02d_%02d-%02d_predictions.zip"
                          % (1000 + k, k % teams, 1 + k // teams, k % 60, k % 60))
    for member in members:
        os.remove(member)
    return bulk


def rescoring(teams, per_team, resamples, jobs, folder):
    """The organisers' whole re-scoring after the Test phase, as they run it: one gold of every
    track at ×1 (each generator's seed 1, in one ref/, as a built phase holds it) and the bulk
    download of ``teams`` × ``per_team`` submissions. Timed: ``rank_submissions.main`` end to end
    with ``jobs`` processes and ``resamples`` resamples: reading the download, scoring what it
    ranks (each team's last), every board's statistics, the tables and figures. One run."""
    sys.path.insert(0, ROOT)
    import rank_submissions

    base = input_folder(folder, "rescoring")
    for generator in TRACKS.values():
        generator(base, 1, random.Random(1))
    for track in TRACKS:
        built_phase_extras(track, os.path.join(base, "ref"))
    started = time.perf_counter()
    bulk = bulk_download(base, teams, per_team, jobs)
    generated_s = time.perf_counter() - started
    started = time.perf_counter()
    code = rank_submissions.main([bulk, "--ref", os.path.join(base, "ref"), "--out", os.path.join(base, "out"),
                                  "--resamples", str(resamples), "--jobs", str(jobs), "--quiet"])
    total_s = time.perf_counter() - started
    assert code == 0, code
    with open(os.path.join(base, "out", "t6_st1.csv"), encoding="utf-8") as handle:
        ranked = len(handle.read().strip().split("\n")) - 2  # the signature line and the header
    shutil.rmtree(base, ignore_errors=True)
    print("rescoring %d teams × %d submissions, %d resamples, --jobs %d: %.1f s (%d rows per board; generating "
          "the download: %.0f s)" % (teams, per_team, resamples, jobs, total_s, ranked, generated_s), flush=True)
    timings = rank_submissions.TIMINGS
    print("  scoring %.1f s, statistics and their tables %.1f s, figures %.1f s"
          % (timings["scoring"], timings["statistics"], timings["figures"]), flush=True)
    return {"load": load_average(), "teams": teams, "per_team": per_team, "resamples": resamples, "jobs": jobs,
            "total_s": total_s, "ranked": ranked, "scoring_s": timings["scoring"],
            "statistics_s": timings["statistics"], "figures_s": timings["figures"]}


def markdown(row, results, args):
    return "\n".join([
        HEADER, "",
        "`rank_submissions.py` end to end on a Codabench bulk download of %d teams × %d submissions, each "
        "with all six tracks at ×1 (each team's last one generated, its earlier ones copies of other teams' "
        "files; the gold of each track at ×1, as a built phase holds it): reading the download, scoring what it "
        "ranks (`--jobs %d`: each team's last submission), %d resamples on every board, the tables and figures "
        "(in the same processes). One run, load average %s at its end." % (
            row["teams"], row["per_team"], row["jobs"], row["resamples"], row.get("load", "unknown")), "",
        "| teams × submissions | rows per board | scoring | statistics, CSV | figures | wall time | target |",
        "|---|---|---|---|---|---|---|",
        "| %d × %d | %d | %.1f s | %.1f s | %.1f s | %.1f s | ≤ %d s: **%s** |" % (
            row["teams"], row["per_team"], row["ranked"], row["scoring_s"], row["statistics_s"], row["figures_s"],
            row["total_s"], RESCORING_TARGET_S, "holds" if row["total_s"] <= RESCORING_TARGET_S else "does not hold")])


def targets(row, args):
    from .platform_runs import verdict
    return [verdict("the organisers' re-scoring (%d teams × %d submissions, every track, %d resamples, --jobs %d) "
                    "≤ %d s wall" % (row["teams"], row["per_team"], row["resamples"], row["jobs"], RESCORING_TARGET_S),
                    [("re-scoring", row["total_s"])], RESCORING_TARGET_S, unit=" s")]


def kept(text, args):
    """The re-scoring row of a kept section (its table's wall time), for the targets; None without it."""
    match = re.search(r"^\| (\d+) × (\d+) \| \d+ \|.*\| ([0-9.]+) s \| ≤ \d+ s", text, re.M)
    if not match:
        return None
    resamples = re.search(r"(\d+) resamples", text)
    return {"teams": int(match.group(1)), "per_team": int(match.group(2)), "total_s": float(match.group(3)),
            "resamples": int(resamples.group(1)) if resamples else args.resamples, "jobs": args.jobs}
