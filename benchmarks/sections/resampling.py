"""The organisers' statistics against scoring the same submissions once, per track at ×1."""

from __future__ import annotations

import os
import random
import shutil
import sys
import time

from .measuring import ROOT, SETTINGS, TRACKS, built_phase_extras, input_folder

NAME = "resampling"
HEADER = "## Resampling (the organisers' results)"
ALONE = True


def add_arguments(parser):
    parser.add_argument("--submissions", type=int, default=200,
                        help="generated submissions per track for the resampling step")
    parser.add_argument("--nlu-submissions", type=int, default=20,
                        help="the same for nlu, whose tokenization dominates scoring")


def collect(args, folder):
    return resampling(args.submissions, args.nlu_submissions, args.resamples, folder)


def resampling(submissions, nlu_submissions, resamples, folder, repeat=3):
    """Per track, one gold at ×1 (the generator's seed 1) and ``submissions`` generated submissions
    (the same generator's predictions with other seeds: the same items, other answers). Scoring:
    ``ranking.scoring.score_entry`` for each, in one process (the scoring program's code, in
    process, plus turning each result into per-item statistics). Resampling: everything
    ``rank_submissions`` computes from those statistics for each leaderboard of the track (the
    resamples, 95% CIs, ranks and rank ranges, the p-value matrix, groups). Also the standard
    library interval that ``score_locally.py`` prints, for one submission. Scoring: one run; the
    others the fastest of ``repeat`` runs, after one untimed resampling run (numpy's first calls).
    """
    sys.path.insert(0, ROOT)
    from ranking.entries import Entry
    from ranking.scoring import score_entry
    from ranking.statistics import build_board
    from scorer.run.in_process import score_in_process
    from scorer.outputs.resampling import LEADERBOARDS
    from scorer.outputs.run_outputs import shown_intervals

    rows = []
    for track, generator in TRACKS.items():
        count = nlu_submissions if SETTINGS[track].get("slow", False) else submissions
        base = input_folder(folder, "resampling-" + track)
        generator(base, 1, random.Random(1))
        built_phase_extras(track, os.path.join(base, "ref"))
        entries = []
        for k in range(count):
            other = input_folder(base, "generated-%d" % k)
            generator(other, 1, random.Random(1000 + k))
            shutil.rmtree(os.path.join(other, "ref"))
            entries.append(Entry("s%03d" % k, "s%03d" % k, os.path.join(other, "res")))
        reference = os.path.join(base, "ref")
        started = time.perf_counter()
        scored = [score_entry(entry, reference) for entry in entries]
        scoring_s = time.perf_counter() - started
        boards = [(name, key, higher) for name, board_track, key, higher in LEADERBOARDS if board_track == track]
        resampling_s = float("inf")
        for attempt in range(repeat + 1):
            started = time.perf_counter()
            for name, key, higher in boards:
                entered = [s for s in scored if key in s.scores.get(track, {})]
                assert len(entered) == count, (track, key, [s.problems for s in scored][:3])
                build_board(name, track, key, higher, entered, resamples, 0, "bootstrap")
            if attempt:  # the first run is the warm-up
                resampling_s = min(resampling_s, time.perf_counter() - started)
        results = score_in_process(reference, entries[0].source, os.path.join(ROOT, "scoring_program"))[0]
        statistics = results[track].statistics
        local_s = float("inf")
        for _ in range(repeat):
            started = time.perf_counter()
            shown_intervals(results[track], resamples)
            local_s = min(local_s, time.perf_counter() - started)
        rows.append({"track": track, "submissions": count, "items": len(statistics.items),
                     "columns": len(statistics.columns), "boards": len(boards), "scoring_s": scoring_s,
                     "resampling_s": resampling_s, "local_s": local_s})
        print("resampling %-7s %3d submissions × %d items: scoring %.2f s, resampling (%d resamples, %d "
              "leaderboard%s) %.2f s, score_locally interval %.2f s"
              % (track, count, len(statistics.items), scoring_s, resamples, len(boards),
                 "s" if len(boards) > 1 else "", resampling_s, local_s), flush=True)
        shutil.rmtree(base, ignore_errors=True)
    return rows


def resampling_table(rows, resamples):
    lines = ["| track | submissions | items × statistics | scoring them once | %d resamples: CIs, ranks, rank ranges, "
             "p-values, groups | resampling / scoring | score_locally's interval (one submission, standard "
             "library) |" % resamples, "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %d | %d × %d | %.2f s | %.2f s (%d leaderboard%s) | %.2f | %.2f s |" % (
            r["track"], r["submissions"], r["items"], r["columns"], r["scoring_s"], r["resampling_s"], r["boards"],
            "s" if r["boards"] > 1 else "", r["resampling_s"] / r["scoring_s"], r["local_s"]))
    worst = max(rows, key=lambda r: r["resampling_s"] / r["scoring_s"])
    lines += ["", "- resampling takes less time than scoring the same submissions once: **%s** (worst: %s, %.2f)"
              % ("holds" if worst["resampling_s"] < worst["scoring_s"] else "does not hold", worst["track"],
                 worst["resampling_s"] / worst["scoring_s"])]
    return "\n".join(lines)


def markdown(rows, results, args):
    return "\n".join([
        HEADER, "",
        "`rank_submissions.py`'s statistics against scoring the same submissions once, per track at ×1 "
        "(one gold; %d generated submissions, %d for nlu, whose tokenization dominates scoring). Scoring: "
        "the scoring program's code in one process, and turning each result into per-item statistics. "
        "Resampling: all the statistics of each leaderboard of the track from those per-item "
        "statistics (drawing the resamples, CIs, ranks and rank ranges, the full p-value matrix, "
        "groups); absita has three leaderboards (ATE, ABSA, SA). Figures and tables are not included. "
        "Scoring: one run; the others: the fastest of 3 runs. The last column: the standard-library interval "
        "`score_locally.py` prints for one submission." % (args.submissions, args.nlu_submissions), "",
        resampling_table(rows, args.resamples)])
