"""Copy detection in the organisers' results: ``rank_submissions.py`` on generated teams, with and
without a large file the scorer does not read in every team's zip.

    .venv/bin/python benchmarks/run.py --only-copies [--copy-teams 100,300,1000] [--copy-ignored-mib 8]

A whole run of the benchmark keeps this section as it is in RESULTS.md (``BY_DEFAULT``): at 1,000
teams it takes far longer than the rest together. Each team's zip holds one file of every track whose ``BENCHMARK`` is
not ``slow`` (its module's ``write_benchmark_input`` at ×1, a seed per team: the same items,
other answers); every tenth team submits the previous team's zip, and every tenth from the fifth
the first of its files from the team three before it. The gold is each track's at seed 1. Each
run is a fresh process (``--jobs 1``: one process, whose peak RSS getrusage gives) timing the
whole run, its scoring, the digests copy detection reads while each submission is unpacked
(``copies.submission_digests``) and its pass over the ranked rows (``copies.alike``), in CPU
seconds (the machine is shared).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from concurrent.futures import ProcessPoolExecutor
from typing import Dict, List, Optional, Sequence

from .measuring import ROOT
from scorer.tracks.registry import TRACKS  # (measuring puts the scoring program on sys.path)

NAME = "copies"
HEADER = "## Copy detection in the organisers' results"
ALONE = True
BY_DEFAULT = False
TEAMS = (100, 300, 1000)
IGNORED_MIB = 8
IGNORED_NAME = "notes.txt"
RESAMPLES = 100
GROWTH = 1.25  # per team, the time at the most teams at most this times the time at the fewest
MEMORY_SLACK_MIB = 16  # the ignored files may move the peak RSS by this much at most

# Run in a fresh process: rank_submissions.main, and the CPU time of the whole run, of its scoring,
# of the digests copy detection reads while scoring and of its pass; its wall time and peak RSS.
MEASURED_RUN = r'''
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
import rank_submissions, ranking.scoring
spent = {"scoring": 0.0, "digests": 0.0, "copies": 0.0}
def timed(module, name, key):
    function = getattr(module, name)
    def run(*arguments, **keywords):
        started = time.process_time()
        try:
            return function(*arguments, **keywords)
        finally:
            spent[key] += time.process_time() - started
    setattr(module, name, run)
timed(ranking.scoring, "submission_digests", "digests")
timed(rank_submissions, "score_selected", "scoring")
timed(rank_submissions, "alike", "copies")
wall, cpu = time.perf_counter(), time.process_time()
code = rank_submissions.main(sys.argv[2:])
print(json.dumps(dict(spent, code=code, wall=time.perf_counter() - wall, total=time.process_time() - cpu,
                      rss_kib=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)))
'''


def benchmark_tracks() -> List:
    return [track for track in TRACKS if not track.benchmark.get("slow")]


def _team_files(seed: int) -> Dict[str, bytes]:
    """One generated team's files (every benchmark track's submission at ×1, this seed)."""
    folder = tempfile.mkdtemp(prefix="bench-copies-team-")
    try:
        os.makedirs(os.path.join(folder, "ref"))
        os.makedirs(os.path.join(folder, "res"))
        files = {}
        for track in benchmark_tracks():
            track.write_benchmark_input(folder, 1, random.Random(seed))
            with open(os.path.join(folder, "res", track.filename), "rb") as handle:
                files[track.filename] = handle.read()
        return files
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _planned(teams: Sequence[Dict[str, bytes]]) -> List[Dict[str, bytes]]:
    """Each team's files with the copies planted: every tenth is the previous team's, every tenth
    from the fifth takes its first file from the team three before it."""
    planned: List[Dict[str, bytes]] = []
    for k, files in enumerate(teams):
        if k % 10 == 0 and k:
            files = dict(planned[k - 1])
        elif k % 10 == 5:
            first = sorted(files)[0]
            files = dict(files, **{first: planned[k - 3][first]})
        planned.append(files)
    return planned


def ignored_text(mib: int) -> bytes:
    """``mib`` MiB of text lines no track reads (a team's notes)."""
    block = b"".join(b"note %03d: written by the team, read by no scorer\n" % i for i in range(500))
    return (block * (1 + (mib << 20) // len(block)))[:mib << 20]


def _write_download(folder: str, teams: Sequence[Dict[str, bytes]], ignored: Optional[bytes]) -> str:
    """A folder of team zips, ``team_<k>.zip``, each with ``ignored`` beside its files when given."""
    os.makedirs(folder)
    for k, files in enumerate(teams):
        with zipfile.ZipFile(os.path.join(folder, "team_%04d.zip" % k), "w", zipfile.ZIP_DEFLATED) as archive:
            for name in sorted(files):
                archive.writestr(name, files[name])
            if ignored is not None:
                archive.writestr(IGNORED_NAME, ignored)
    return folder


def _measured(download: str, ref: str, out: str, resamples: int) -> Dict[str, float]:
    process = subprocess.run([sys.executable, "-c", MEASURED_RUN, ROOT, download, "--ref", ref, "--out", out,
                              "--resamples", str(resamples), "--jobs", "1", "--quiet"],
                             capture_output=True, text=True, env=dict(os.environ, MPLBACKEND="Agg"))
    if process.returncode != 0:
        raise SystemExit("copy detection benchmark: rank_submissions.py failed: %s" % process.stderr[-2000:])
    found = json.loads(process.stdout.strip().splitlines()[-1])
    with open(os.path.join(out, "alike.csv"), encoding="utf-8") as handle:
        found["pairs"] = len(handle.read().strip().split("\n")) - 2  # the signature line and the header
    return found


def copy_detection(folder: str, team_counts: Sequence[int] = TEAMS, ignored_mib: int = IGNORED_MIB,
                   resamples: int = RESAMPLES, jobs: int = 2) -> List[Dict[str, float]]:
    """One row per number of teams and with or without the ignored file: the run's wall time,
    scoring, digests, the pass, the pairs found and the peak RSS. ``jobs``: processes generating
    the teams (the runs themselves are one process each)."""
    ref_base = os.path.join(folder, "gold")
    os.makedirs(os.path.join(ref_base, "ref"))
    os.makedirs(os.path.join(ref_base, "res"))
    for track in benchmark_tracks():
        track.write_benchmark_input(ref_base, 1, random.Random(1))
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        teams = _planned(list(pool.map(_team_files, range(2000, 2000 + max(team_counts)), chunksize=8)))
    rows = []
    ignored = ignored_text(ignored_mib)
    for count in team_counts:
        for with_ignored in (False, True):
            name = "%d-%s" % (count, "ignored" if with_ignored else "plain")
            download = _write_download(os.path.join(folder, "download-" + name), teams[:count],
                                       ignored if with_ignored else None)
            row = _measured(download, os.path.join(ref_base, "ref"), os.path.join(folder, "out-" + name), resamples)
            shutil.rmtree(download, ignore_errors=True)
            row.update(teams=count, ignored_mib=ignored_mib if with_ignored else 0, resamples=resamples,
                       copies_s=row["digests"] + row["copies"])
            rows.append(row)
            print("copy detection: %d teams%s: %.1f s of CPU (%.1f s wall), of which digests %.2f s and the pass "
                  "%.2f s (%.1f%%); %d pairs; peak RSS %.0f MiB"
                  % (count, " with a %s of %d MiB each" % (IGNORED_NAME, ignored_mib) if with_ignored else "",
                     row["total"], row["wall"], row["digests"], row["copies"], 100 * row["copies_s"] / row["total"],
                     row["pairs"], row["rss_kib"] / 1024), flush=True)
    return rows


def verdicts(rows: Sequence[Dict[str, float]]) -> List[str]:
    """The section's two claims, each with its numbers."""
    plain = [row for row in rows if not row["ignored_mib"]]
    fewest, most = plain[0], plain[-1]
    per_team = [row["copies_s"] / row["teams"] for row in (fewest, most)]
    growth = per_team[1] / per_team[0] if per_team[0] else 0.0
    lines = ["- copy detection's time per team at %d teams is %.2f times that at %d teams (at most %.2f: "
             "growing at most linearly): **%s**" % (most["teams"], growth, fewest["teams"], GROWTH,
                                                    "holds" if growth <= GROWTH else "does not hold")]
    moved = max(abs(with_file["rss_kib"] - without["rss_kib"]) / 1024
                for without, with_file in zip(rows[0::2], rows[1::2]))
    verdict = "holds" if moved <= MEMORY_SLACK_MIB else "does not hold"
    lines.append("- the peak RSS with a file of %d MiB the scorer does not read in every zip moves by at most %.1f "
                 "MiB (at most %d: independent of it): **%s**" % (rows[1]["ignored_mib"], moved, MEMORY_SLACK_MIB,
                                                               verdict))
    return lines


def copy_detection_section(rows: Sequence[Dict[str, float]]) -> str:
    """The section of RESULTS.md."""
    table = ["| teams | ignored file per zip | whole run (wall) | scoring | digests | the pass | copy detection's "
             "share | pairs found | peak RSS |", "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        table.append("| %d | %s | %.1f s (%.1f s) | %.1f s | %.2f s | %.2f s | %.1f%% | %d | %.0f MiB |" % (
            row["teams"], "%d MiB" % row["ignored_mib"] if row["ignored_mib"] else "none", row["total"],
            row["wall"], row["scoring"], row["digests"], row["copies"], 100 * row["copies_s"] / row["total"],
            row["pairs"], row["rss_kib"] / 1024))
    return "\n".join([
        HEADER, "",
        "`rank_submissions.py` (`--jobs 1`, %d resamples) on a folder of generated team zips, each with one file "
        "of every track whose benchmark is not slow (a seed per team; every tenth team the previous one's zip, "
        "every tenth from the fifth one file of the team three before), as a fresh process each, without and with "
        "a `%s` of %d MiB in every zip. CPU times (the machine is shared: wall time in brackets) of the whole run, "
        "its scoring (which includes the digests), copy detection's digests (read while each submission is "
        "unpacked for scoring) and its pass over the ranked rows (the index of item digests), copy detection's "
        "share of the run (digests and pass), the pairs in `alike.csv` and the peak RSS." % (
            rows[0]["resamples"], IGNORED_NAME, rows[1]["ignored_mib"]), "",
        "\n".join(table), "", "\n".join(verdicts(rows)), ""])


def add_arguments(parser) -> None:
    parser.add_argument("--copy-teams", default=",".join(map(str, TEAMS)), help="copies: numbers of teams, fewest first")
    parser.add_argument("--copy-ignored-mib", type=int, default=IGNORED_MIB, help="copies: the ignored file's MiB")
    parser.add_argument("--copy-resamples", type=int, default=RESAMPLES, help="copies: rank_submissions --resamples")
    parser.add_argument("--copy-jobs", type=int, default=2, help="copies: processes generating the teams")


def collect(args, folder):
    return copy_detection(folder, [int(n) for n in args.copy_teams.split(",")], args.copy_ignored_mib,
                          args.copy_resamples, args.copy_jobs)


def markdown(result, results, args) -> str:
    return copy_detection_section(result)
