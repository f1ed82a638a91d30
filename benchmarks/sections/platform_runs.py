"""A participant's platform run of each track at its task's size (×1) and at 10 times it:
``score.py`` cold (a fresh copy of the program, no bytecode ever cached, as a worker runs it) and
warm, the parse floor beside it, and the naive oracles where they finish in reasonable time."""

from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile

from .measuring import (BY_NAME, MIB, SETTINGS, TRACKS, built_phase_extras, cold_env, folder_size, input_folder,
                        measure, oracle, program_copy, python_default_env)

NAME = "platform"
HEADER = "## A platform run of each track"
ALONE = False  # its rows are the memory table's valid inputs and the targets' platform runs

PLATFORM_RUN_S = 0.6  # score.py cold at a task's size, the phase as built
PLATFORM_RUN_10X_S = 6.0  # at 10 times the size
GROWTH = 12.0  # ×10 input: at most 12 times the time (linear, with start-up)

# A minimal script that only reads and parses the same files (the floor of any scorer).
PARSE_FLOOR = r'''
import csv, json, os, sys
input_dir = sys.argv[1]
for side in ("ref", "res"):
    base = os.path.join(input_dir, side)
    for name in os.listdir(base):
        path = os.path.join(base, name)
        paths = [os.path.join(path, n) for n in sorted(os.listdir(path))] if os.path.isdir(path) else [path]
        for p in paths:
            with open(p, encoding="utf-8", newline="") as handle:
                text = handle.read()
            if p.endswith(".json"):
                json.loads(text)
            elif p.endswith(".ndjson"):
                [json.loads(line) for line in text.splitlines() if line.strip()]
            elif p.endswith(".csv"):
                list(csv.reader(text.splitlines()))
            else:
                [line.split("\t") for line in text.splitlines()]
'''


def add_arguments(parser):
    parser.add_argument("--scales", default="1,10", help="multiples of each task's size (100: opt-in)")
    parser.add_argument("--naive-up-to", type=int, default=1,
                        help="largest scale the naive oracles run at (10: opt-in; nlu's plain LCS takes minutes there)")


def collect(args, folder):
    return run([int(s) for s in args.scales.split(",")], args.naive_up_to, args.repeat,
               program_copy(folder, "program"), program_copy(folder, "program-platform"))


def _naive(track, base, scale, naive_limit, repeat, program, env, score_s):
    """The naive oracle's columns of one row: (its text, the notes, and the numbers of the row)."""
    found = {"oracle_s": None, "oracle_mb": None, "tests_s": None, "tokenize_s": None}
    if scale > naive_limit:
        return "", "", found
    if SETTINGS[track].get("oracle") == "spans":
        runs = min(3, repeat)  # the fastest too: noise would flatter score.py
        files = (BY_NAME[track].gold_names[0], BY_NAME[track].filename)  # what the track declares
        tests_t, tests_mem, _ = min((measure(oracle("tests_span_oracle", base, *files)) for _ in range(runs)),
                                    key=lambda m: m[0])
        naive_t, naive_mem, _ = min((measure(oracle("official_structure_spans", base, *files)) for _ in range(runs)),
                                    key=lambda m: m[0])
        found.update(oracle_s=naive_t, oracle_mb=naive_mem, tests_s=tests_t)
        return ("tests' oracle %.2f s / %.0f MB (%.1f× slower); official structure %.2f s / %.0f MB (%.1f× slower)"
                % (tests_t, tests_mem, tests_t / score_s, naive_t, naive_mem, naive_t / score_s)), "", found
    if SETTINGS[track].get("oracle") == "lcs":
        naive_t, naive_mem, _ = measure(oracle("naive_lcs_score", base, os.path.dirname(program)), env)
        tokenize = min(float(subprocess.run(oracle("tokenize_only", base, os.path.dirname(program)),
                                            stdout=subprocess.PIPE, universal_newlines=True, env=env).stdout.strip())
                       for _ in range(repeat))
        found.update(tokenize_s=tokenize)
        return ("%.2f s / %.0f MB (%.1f× slower)" % (naive_t, naive_mem, naive_t / score_s),
                "tokenization %.2f s: total/tokenization %.2f" % (tokenize, score_s / tokenize), found)
    return "", "", found


def run(scales, naive_limit, repeat, program, cold_program=None):
    """Each track at each scale of its task's size: score.py warm (Python's bytecode cache) and, with
    ``cold_program``, as a platform run does it (a fresh copy, no bytecode ever cached: start-up
    included), the parse floor, and the naive oracles."""
    rows = []
    env = python_default_env()
    for track, generator in TRACKS.items():
        for scale in scales:
            if scale not in SETTINGS[track].get("scales", (1, 10, 100)):
                continue  # (nlu: the input is the size of the real test set)
            work = tempfile.mkdtemp(prefix="bench-%s-%d-" % (track, scale))
            try:
                base = input_folder(work, "input")
                generator(base, scale, random.Random(scale))
                built_phase_extras(track, os.path.join(base, "ref"))
                size_mb = folder_size(base) / 1e6
                submission_mib = folder_size(os.path.join(base, "res")) / MIB
                score_argv = [sys.executable, program, base, os.path.join(work, "output")]
                scores, floors = [], []
                for _ in range(repeat):  # alternated, so that both see the same machine load
                    scores.append(measure(score_argv, env))
                    floors.append(measure([sys.executable, "-c", PARSE_FLOOR, base]))
                score = min(scores, key=lambda m: m[0])
                floor = min(floors, key=lambda m: m[0])
                cold_s = None
                if cold_program is not None:
                    cold_argv = [sys.executable, cold_program, base, os.path.join(work, "output-cold")]
                    cold_s = min(measure(cold_argv, cold_env())[0] for _ in range(repeat))
                # Each pair ran back to back, under the same machine load: the median of the pairs'
                # ratios is steadier than the ratio of the two fastest runs on a noisy machine.
                paired = statistics.median(s[0] / f[0] for s, f in zip(scores, floors))
                naive, extra, found = _naive(track, base, scale, naive_limit, repeat, program, env, score[0])
                rows.append(dict(found, track=track, scale=scale, input_mb=size_mb, submission_mib=submission_mib,
                                 score_s=score[0], cold_s=cold_s, score_mb=score[1], floor_s=floor[0],
                                 floor_mb=floor[1], paired=paired, naive=naive, extra=extra))
                print("%-7s ×%-3d input %7.1f MB  score.py %6.2f s %6.0f MB  floor %6.2f s  %s %s"
                      % (track, scale, size_mb, score[0], score[1], floor[0], naive, extra), flush=True)
            finally:
                shutil.rmtree(work, ignore_errors=True)
    return rows


def table(rows):
    by = {(r["track"], r["scale"]): r for r in rows}
    lines = ["| track | scale | input | platform run (cold) | score.py time (warm) | score.py peak RSS | parse floor "
             "| time / floor | peak ≤ 2×input+50 MB | growth from the scale below | naive oracle | notes |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        memory_ok = r["score_mb"] <= 2 * r["input_mb"] + 50
        growth = ""
        below = max((scale for track, scale in by if track == r["track"] and scale < r["scale"]), default=None)
        if below is not None:
            growth = "%.1f× (×%d)" % (r["score_s"] / by[(r["track"], below)]["score_s"], below)
        cold = "%.2f s" % r["cold_s"] if r.get("cold_s") else "–"
        lines.append("| %s | ×%d | %.1f MB | %s | %.2f s | %.0f MB | %.2f s | %.2f | %s | %s | %s | %s |"
                     % (r["track"], r["scale"], r["input_mb"], cold, r["score_s"], r["score_mb"], r["floor_s"],
                        r["paired"], "yes" if memory_ok else "**no**", growth, r["naive"] or "–", r["extra"] or ""))
    return "\n".join(lines)


def markdown(rows, results, args):
    return "\n".join([
        HEADER, "",
        "Times are whole-process wall times (start-up included), the fastest of %d runs. The platform run "
        "is score.py as a compute worker runs it: a fresh copy of the program whose bytecode is never "
        "cached (cold start); the warm time uses Python's default bytecode cache, run back to back with the "
        "parse floor (a minimal script that only reads and parses the same files); time / floor is the "
        "median of the pairs' ratios; peak RSS from getrusage. Scales are multiples of each task's size "
        "(×1: the size of the task's real data; `--scales 1,10,100` for more). The targets are in the next "
        "section." % args.repeat, "", table(rows)])


def verdict(name, values, limit, unit=""):
    """A target's line: whether the worst of ``values`` ((label, value) pairs) is at most ``limit``."""
    if not values:
        return None
    worst = max(values, key=lambda v: v[1])
    return "- %s: **%s** (worst: %s, %.2f%s)" % (name, "holds" if worst[1] <= limit else "does not hold",
                                                  worst[0], worst[1], unit)


def targets(rows, args):
    by = {(r["track"], r["scale"]): r for r in rows}
    return [
        verdict("a platform run of every track at its task's size (×1), cold start included (a fresh copy of the "
                "program, no bytecode cache), the phase as built, ≤ %g s" % PLATFORM_RUN_S,
                [("%s ×1" % key[0], r["cold_s"]) for key, r in by.items() if key[1] == 1 and r.get("cold_s")],
                PLATFORM_RUN_S, unit=" s"),
        verdict("the same at 10 times the size, ≤ %g s" % PLATFORM_RUN_10X_S,
                [("%s ×10" % key[0], r["cold_s"]) for key, r in by.items() if key[1] == 10 and r.get("cold_s")],
                PLATFORM_RUN_10X_S, unit=" s"),
        verdict("linear growth: the ×10 time ≤ %.0f × the ×1 time (valid inputs)" % GROWTH,
                [(track, by[(track, 10)]["score_s"] / by[(track, 1)]["score_s"]) for track, scale in by
                 if scale == 10 and (track, 1) in by], GROWTH),
        verdict("peak RSS ≤ 2 × input + 50 MB (valid inputs, every track; ratio to that limit)",
                [("%s ×%d" % key, r["score_mb"] / (2 * r["input_mb"] + 50)) for key, r in by.items()], 1.0),
        "- for information, not targets (they measure generated ×10 and ×100 inputs "
        "no user waits on): time / parse floor, the naive span oracle at ×10 flc, nlu's total / "
        "tokenization; their columns stay in the table above."]
