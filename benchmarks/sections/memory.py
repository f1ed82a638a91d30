"""Memory under valid and hostile input: peak RSS and wall time of ``score.py`` on every attack of
``tests/attacks.py`` (at each size where the attack grows with its size) beside the valid inputs
of the platform runs, against the budget of 5 × the submission + 100 MiB."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

from .measuring import MIB, ROOT
from .platform_runs import verdict

NAME = "memory"
HEADER = "## Memory: valid and hostile inputs"
ALONE = False  # its valid rows are the platform runs'


def add_arguments(parser):
    parser.add_argument("--hostile-sizes", default="5,50", help="sizes of the hostile inputs, in MB (10**6 bytes)")


def collect(args, folder):
    return hostile([int(float(s) * 1e6) for s in args.hostile_sizes.split(",") if s])


def hostile(sizes):
    """Every attack of ``tests/attacks.py`` at each size (one run each: peak RSS, wall time)."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from attacks import ATTACKS, GOLD, measure as measure_attack, stage_gold
    rows = []
    for attack in ATTACKS:
        seen = set()
        for size in sizes:
            work = tempfile.mkdtemp(prefix="bench-hostile-")
            try:
                stage_gold(os.path.join(work, "input"), GOLD)
                attack.write(os.path.join(work, "input"), size)
                measured = measure_attack(os.path.join(ROOT, "scoring_program", "score.py"),
                                          os.path.join(work, "input"), os.path.join(work, "output"))
            finally:
                shutil.rmtree(work, ignore_errors=True)
            if measured.submission_bytes in seen:  # a fixed-size attack: once is enough
                continue
            seen.add(measured.submission_bytes)
            rows.append({"attack": attack.name, "expected": attack.exit_code, "code": measured.code,
                         "submission_mib": measured.submission_bytes / MIB, "score_s": measured.seconds,
                         "score_mb": measured.peak_mib, "stderr": len(measured.stderr.encode("utf-8")),
                         "html": measured.html_bytes})
            print("hostile %-45s %7.1f MiB  %6.2f s  %6.0f MiB  exit %s" % (
                attack.name, measured.submission_bytes / MIB, measured.seconds, measured.peak_mib, measured.code),
                flush=True)
    return rows


def memory_budget(submission_mib):
    return 5 * submission_mib + 100


def memory_table(valid_rows, hostile_rows):
    lines = ["| input | kind | submission | peak RSS | budget 5×submission+100 MiB | within | wall time | exit "
             "| stderr | detailed_results.html |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in valid_rows:
        budget = memory_budget(r["submission_mib"])
        lines.append("| %s ×%d | valid | %.1f MiB | %.0f MiB | %.0f MiB | %s | %.2f s | 0 | | |" % (
            r["track"], r["scale"], r["submission_mib"], r["score_mb"], budget,
            "yes" if r["score_mb"] <= budget else "**no**", r["score_s"]))
    for r in hostile_rows:
        budget = memory_budget(r["submission_mib"])
        lines.append("| %s | %s | %.1f MiB | %.0f MiB | %.0f MiB | %s | %.2f s | %s | %d B | %d B |" % (
            r["attack"], "hostile" if r["expected"] else "valid (hostile shape)", r["submission_mib"], r["score_mb"],
            budget, "yes" if r["score_mb"] <= budget else "**no**", r["score_s"],
            r["code"] if r["code"] == r["expected"] else "**%s**" % r["code"], r["stderr"], r["html"]))
    return "\n".join(lines)


def memory_targets(valid_rows, hostile_rows):
    ratios = [("%s ×%d" % (r["track"], r["scale"]), r["score_mb"] / memory_budget(r["submission_mib"]))
              for r in valid_rows] + [(r["attack"], r["score_mb"] / memory_budget(r["submission_mib"]))
                                      for r in hostile_rows]
    worst = max(ratios, key=lambda item: item[1])
    exits = all(r["code"] == r["expected"] for r in hostile_rows)
    small = all(r["stderr"] <= 64 * 1024 and r["html"] <= 256 * 1024 for r in hostile_rows)
    return "\n".join([
        "- peak RSS ≤ 5 × submission + 100 MiB (every valid and hostile row; ratio to that limit): **%s** "
        "(worst: %s, %.2f)" % ("holds" if worst[1] <= 1 else "does not hold", worst[0], worst[1]),
        "- every hostile row exits as expected (1 refused, 0 scored): **%s**" % ("holds" if exits else "does not hold"),
        "- stderr ≤ 64 KiB and detailed_results.html ≤ 256 KiB on every hostile row: **%s**"
        % ("holds" if small else "does not hold")])


def targets(hostile_rows, args):
    grown = {}
    for r in hostile_rows:
        grown.setdefault(r["attack"], []).append((r["submission_mib"], r["score_s"]))
    growth = [(name, (sizes[-1][1] / sizes[0][1]) / (sizes[-1][0] / sizes[0][0]))
              for name, sizes in grown.items() if len(sizes) > 1 and sizes[0][1] > 0]
    return [verdict("linear growth under hostile input: time per MiB at the largest size ≤ 1.5 × at the smallest "
                    "(every attack that grows with its size)", growth, 1.5)]


def markdown(hostile_rows, results, args):
    valid_rows = results.get("platform") or []
    return "\n".join([
        HEADER, "",
        "Peak RSS of the whole `score.py` process (getrusage) and its wall time, one run each, for the valid "
        "inputs above and for every attack of `tests/attacks.py` (the gold is the small one of "
        "`tests/test_hostile.py`), at %s MB where the attack grows with its size (the others have a fixed "
        "size). Budget: peak RSS ≤ 5 × the submission's size + 100 MiB for any input; stderr ≤ 64 KiB, "
        "detailed_results.html ≤ 256 KiB." % " and ".join(args.hostile_sizes.split(",")), "",
        memory_table(valid_rows, hostile_rows), "",
        memory_targets(valid_rows, hostile_rows)])
