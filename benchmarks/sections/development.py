"""A Development submission with its intervals: one generated ×1 submission per track and one of
all six, scored as a worker scores it with the Development phase's settings."""

from __future__ import annotations

import os
import random
import shutil
import sys

from .measuring import ROOT, TRACKS, built_phase_extras, cold_env, input_folder, load_average, measure_all, program_copy

NAME = "development"
HEADER = "## A Development submission, with its intervals"
ALONE = True

DEVELOPMENT_TARGET_S = 1.0  # a Development run (phase_settings/dev.json) of every track at ×1, cold, wall


def add_arguments(parser):
    parser.add_argument("--development-repeat", type=int, default=5,
                        help="runs of each submission in the Development step (the fastest is kept)")


def collect(args, folder):
    return development(args.development_repeat, folder, program_copy(folder, "program-development"))


def development(repeat, folder, cold_program):
    """One generated ×1 submission per track and one of all six, scored as a worker scores it (a
    fresh copy, no bytecode cache) with the Development phase's settings (``phase_settings/dev.json``:
    full detail, each ranking score's interval from 1,000 resamples), the gold as built: the
    fastest of ``repeat`` runs (wall and CPU)."""
    rows = []
    for label, tracks in [(name, [name]) for name in TRACKS] + [("all six", list(TRACKS))]:
        base = input_folder(folder, "development-" + label.replace(" ", "-"))
        for track in tracks:
            TRACKS[track](base, 1, random.Random(1))
            built_phase_extras(track, os.path.join(base, "ref"))
        shutil.copyfile(os.path.join(ROOT, "phase_settings", "dev.json"),
                        os.path.join(base, "ref", "scoring_config.json"))
        found = []
        for _ in range(repeat):
            seconds, _, _, cpu, _ = measure_all([sys.executable, cold_program, base, os.path.join(base, "out")],
                                                cold_env())
            found.append((seconds, cpu))
        with open(os.path.join(base, "out", "detailed_results.html"), encoding="utf-8") as handle:
            page = handle.read()
        shutil.rmtree(base, ignore_errors=True)
        rows.append({"label": label, "wall_s": min(w for w, _ in found), "cpu_s": min(c for _, c in found),
                     "intervals": page.count('class="intervals"')})
        print("development %-8s %.3f s wall, %.3f s CPU, %d tables of intervals"
              % (label, rows[-1]["wall_s"], rows[-1]["cpu_s"], rows[-1]["intervals"]), flush=True)
    return rows


def markdown(rows, results, args):
    lines = [HEADER, "",
             "A Development submission (`phase_settings/dev.json`: full detail and each ranking score's 95%% "
             "interval from 1,000 bootstrap resamples, `scorer/outputs/resampling.py`), `score.py` as a worker "
             "runs it (a fresh copy, no bytecode cache), the gold as built; one generated ×1 submission per track "
             "and one of all six; the fastest of %d runs, wall time (CPU time beside it: the machine is shared; "
             "load average %s at the end)." % (args.development_repeat, load_average()), "",
             "| submission | wall | CPU | tracks with intervals on the page |",
             "|---|---|---|---|"]
    for row in rows:
        lines.append("| %s | %.3f s | %.3f s | %d |" % (row["label"], row["wall_s"], row["cpu_s"], row["intervals"]))
    tracks = [row for row in rows if row["label"] != "all six"]
    worst = max(tracks, key=lambda row: row["wall_s"])
    holds = worst["wall_s"] <= DEVELOPMENT_TARGET_S and all(row["intervals"] == 1 for row in tracks)
    lines += ["", "- every track's Development run at ×1, cold, with its intervals, ≤ %.1f s: **%s** (worst: %s, "
              "%.2f s)" % (DEVELOPMENT_TARGET_S, "holds" if holds else "does not hold", worst["label"],
                           worst["wall_s"])]
    return "\n".join(lines)
