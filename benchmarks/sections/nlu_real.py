"""nlu on the real data (``../shared/data/aidea_nlu``): the first-prize team's file against the
1,598-id training gold, beside plain nltk and the code of an earlier commit; its scores with and
without the gold's tokens in ``ref/``; memory at ×1 and ×10; hostile answers; the organisers'
re-scoring of 30 nlu submissions."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import time

from .measuring import (BY_NAME, MIB, ROOT, TRACKS, built_phase_extras, folder_size, input_folder, load_average,
                        measure, measure_all, oracle, program_copy, python_default_env)

NAME = "nlu"
HEADER = "## nlu on the real data"
ALONE = True

REAL_NLU_CPU_S = 0.3  # the real prize-winning nlu file, the gold as built: CPU seconds
NLU_DATA = os.path.join(ROOT, "..", "shared", "data", "aidea_nlu")
NLU_GOLD = "train_answers_subset_1598ids.csv"
# The code the comparisons are against: the scorer before the linear tokenizer.
NLU_BASELINE_COMMIT = "d201b48"
HOSTILE_NLU_ANSWER = "A. " * 33000  # 99,000 characters, under the 100,000-character cap
# Answers under the character cap that the word bound lets through, tokenized: the slowest found.
WORST_NLU_ANSWERS = {"'! ' × 50,000": "! " * 50000, "'. ' × 50,000": ". " * 50000, "'.! ' × 33,333": ".! " * 33333,
                     "'? ' × 50,000": "? " * 50000, "'Mr.' + 99,990 spaces + 'y'": "Mr." + " " * 99990 + "y",
                     "\"'' \" × 33,000": "'' " * 33000, "'( ' × 50,000": "( " * 50000,
                     "'! ' × 16 + 20 letters, × 1,800": ("! " * 16 + "a" * 20 + " ") * 1800}
RESCORE_SCRIPT = ("import sys; sys.path.insert(0, sys.argv.pop(1)); import rank_submissions; "
                  "sys.exit(rank_submissions.main(sys.argv[1:]))")


def add_arguments(parser):
    parser.add_argument("--nlu-rounds", type=int, default=3,
                        help="interleaved rounds of the nlu comparison on the real data")


def collect(args, folder):
    return nlu_real(args.nlu_rounds, folder, program_copy(folder, "program-nlu"))


def _nlu_rows(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return [row for row in csv.reader(handle) if row]


def _write_rows(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)


def _nlu_input(folder, gold_rows, submission_rows, scale=1, cache=False):
    """ref/ (the gold, and its token cache when asked) and res/ at ``scale`` × the real data (ids
    renumbered per copy)."""
    track = BY_NAME["nlu"]
    file_name = track.filename
    header = [row for row in submission_rows[:1] if row[0] == "id"]
    body = submission_rows[len(header):]

    def copies(rows):
        return [[str(int(row[0]) + 100000 * k)] + row[1:] for k in range(scale) for row in rows]
    _write_rows(os.path.join(folder, "ref", file_name), copies(gold_rows))
    _write_rows(os.path.join(folder, "res", file_name), header + copies(body))
    if cache:
        built_phase_extras("nlu", os.path.join(folder, "ref"))
    return folder


def _baseline_program(folder):
    """``scoring_program/`` at NLU_BASELINE_COMMIT (git archive), or None without git or the commit."""
    try:
        archive = subprocess.run(["git", "-C", ROOT, "archive", "--format=tar", NLU_BASELINE_COMMIT, "scoring_program"],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder)
    return os.path.join(folder, "scoring_program", "score.py")


def _scores_json(output):
    with open(os.path.join(output, "scores.json"), encoding="utf-8") as handle:
        return handle.read()


def nlu_real(repeat, folder, program, rescore_count=30):
    """The nlu targets on the real AI CUP 2022 data (../shared/data/aidea_nlu): None without it."""
    if not os.path.isdir(NLU_DATA):
        return None
    env = python_default_env()
    gold_rows = _nlu_rows(os.path.join(NLU_DATA, NLU_GOLD))
    predictions = sorted(os.listdir(os.path.join(NLU_DATA, "subset_predictions")))
    submissions = {name.split("_")[0]: _nlu_rows(os.path.join(NLU_DATA, "subset_predictions", name))
                   for name in predictions}
    first = sorted(submissions)[0]  # ckwu: the first-prize team's own file
    baseline = _baseline_program(os.path.join(folder, "baseline"))
    result = {"file": [n for n in predictions if n.startswith(first)][0], "baseline": NLU_BASELINE_COMMIT
              if baseline else None}
    # 1. side by side, interleaved rounds: score.py (gold tokenized; gold's tokens in ref/), plain
    # nltk on the same texts, today's score.py
    plain = _nlu_input(os.path.join(folder, "nlu-x1"), gold_rows, submissions[first])
    cached = _nlu_input(os.path.join(folder, "nlu-x1-cache"), gold_rows, submissions[first], cache=True)
    runs = {"score": [], "cached": [], "nltk": [], "today": []}
    cpu = {"score": [], "cached": [], "nltk": [], "today": []}
    for warm_up in ([program, plain], [program, cached]) + (([baseline, plain],) if baseline else ()):
        measure([sys.executable] + warm_up + [os.path.join(folder, "out")], env)  # bytecode written
    programs = [("score", program, plain), ("cached", program, cached)] + (
        [("today", baseline, plain)] if baseline else [])

    def timed(chosen):
        for name, prog, base in chosen:
            seconds, _, _, cpu_s, _ = measure_all([sys.executable, prog, base, os.path.join(folder, "out")], env)
            runs[name].append(seconds)
            cpu[name].append(cpu_s)

    for _ in range(repeat):
        timed(programs[:2])
        wall_s, cpu_s = subprocess.run(oracle("nltk_word_tokenize", plain), stdout=subprocess.PIPE,
                                       universal_newlines=True, env=env, check=True).stdout.split()
        runs["nltk"].append(float(wall_s))
        cpu["nltk"].append(float(cpu_s))
        timed(programs[2:])
    result["runs"], result["cpu"] = runs, cpu
    result["load"] = load_average()
    result["ratios"] = {name: statistics.median(t / n for t, n in zip(times, runs["nltk"]))
                        for name, times in runs.items() if times and name != "nltk"}
    result["cpu_ratios"] = {name: statistics.median(t / n for t, n in zip(times, cpu["nltk"]))
                            for name, times in cpu.items() if times and name != "nltk"}
    # 2. scores: bit-identical to today's code on every real prediction file, with and without the cache
    identical = []
    for name, rows in sorted(submissions.items()):
        outputs = []
        for label, with_cache, prog in (("new", False, program), ("cache", True, program), ("today", False, baseline)):
            if prog is None:
                continue
            base = _nlu_input(os.path.join(folder, "identical-%s-%s" % (name, label)), gold_rows, rows, cache=with_cache)
            out = os.path.join(base, "output")
            measure([sys.executable, prog, base, out], env)
            outputs.append(_scores_json(out))
        identical.append((name, len(set(outputs)) == 1, json.loads(outputs[0])))
    result["identical"] = identical
    # 3. memory at ×1 and ×10: the real data and the benchmark's input
    memory = []
    for label, scale, with_cache in (("real ×1", 1, False), ("real ×1, tokens in ref/", 1, True),
                                     ("real ×10", 10, False), ("real ×10, tokens in ref/", 10, True)):
        base = _nlu_input(os.path.join(folder, "memory-%d-%d" % (scale, with_cache)), gold_rows, submissions[first],
                          scale, with_cache)
        seconds, peak, _ = measure([sys.executable, program, base, os.path.join(base, "output")], env)
        memory.append((label, folder_size(base) / 1e6, folder_size(os.path.join(base, "res")) / MIB, peak, seconds))
        shutil.rmtree(base, ignore_errors=True)
    for scale in (1, 10):
        base = input_folder(folder, "memory-benchmark-%d" % scale)
        TRACKS["nlu"](base, scale, random.Random(scale))
        built_phase_extras("nlu", os.path.join(base, "ref"))
        seconds, peak, _ = measure([sys.executable, program, base, os.path.join(base, "output")], env)
        memory.append(("benchmark input ×%d" % scale, folder_size(base) / 1e6,
                       folder_size(os.path.join(base, "res")) / MIB, peak, seconds))
        shutil.rmtree(base, ignore_errors=True)
    result["memory"] = memory
    # 4. hostile: ten ids answered 'A. ' × 33000 (the rest the real file), whole process
    rows = [list(row) for row in submissions[first]]
    for row in rows[1:11]:
        row[1] = '"%s"' % HOSTILE_NLU_ANSWER
    hostile_input = _nlu_input(os.path.join(folder, "nlu-hostile"), gold_rows, rows)
    hostile = [measure_all([sys.executable, program, hostile_input, os.path.join(folder, "out")], env, check=False)
               for _ in range(3)]
    result["hostile"] = (min(h[0] for h in hostile), all(h[4] == 1 for h in hostile))
    # the slowest answers the bound lets through, tokenized in this process
    from scorer.machinery.nltk_tokens import Tokenizer
    tokenizer = Tokenizer()
    worst = []
    for name, text in WORST_NLU_ANSWERS.items():
        started = time.perf_counter()
        tokenizer.tokens(text)
        worst.append((name, len(text), time.perf_counter() - started))
    result["worst"] = worst
    # 5. the organisers' re-scoring: rank_submissions.py on 30 submissions (the three real files,
    # each id's answer taken from another file for a seeded tenth of the ids), against 30 separate
    # score.py runs of today's code on the same files
    rng = random.Random(23)
    names = sorted(submissions)
    by_id = {name: {row[0]: row for row in rows if row[0] != "id"} for name, rows in submissions.items()}
    folders = os.path.join(folder, "rescore", "submissions")
    for k in range(rescore_count):
        own = names[k % len(names)]
        rows = [["id", "q", "r"]]
        for identifier, row in by_id[own].items():
            other = rng.choice(names) if rng.random() < 0.1 else own
            rows.append(by_id[other].get(identifier, row))
        _write_rows(os.path.join(folders, "s%02d" % k, BY_NAME["nlu"].filename), rows)
    reference = os.path.join(folder, "rescore", "ref")
    _write_rows(os.path.join(reference, BY_NAME["nlu"].filename), gold_rows)
    rescore_s, _, _, rescore_cpu, _ = measure_all([sys.executable, "-c", RESCORE_SCRIPT, ROOT, folders, "--ref",
                                                   reference, "--out", os.path.join(folder, "rescore", "out"),
                                                   "--quiet"], env)
    separate_s = separate_cpu = None
    if baseline:
        separate_s = separate_cpu = 0.0
        for k in range(rescore_count):
            staged = os.path.join(folder, "rescore", "one")
            shutil.rmtree(staged, ignore_errors=True)
            shutil.copytree(reference, os.path.join(staged, "ref"))
            shutil.copytree(os.path.join(folders, "s%02d" % k), os.path.join(staged, "res"))
            one = measure_all([sys.executable, baseline, staged, os.path.join(staged, "output")], env)
            separate_s += one[0]
            separate_cpu += one[3]
    result["rescore"] = (rescore_count, rescore_s, separate_s, rescore_cpu, separate_cpu)
    return result


def markdown(result, results, args):
    header = HEADER
    if result is None:
        return "\n".join([header, "", "Not measured: ../shared/data/aidea_nlu is not beside the project."])
    runs, ratios = result["runs"], result["ratios"]
    lines = [header, "",
             "The 1,598-id gold of the AI CUP 2022 training data and the first-prize team's prediction file "
             "`%s` (`ref/` holding only the gold, as in the tests), in %d interleaved rounds on this machine: "
             "`score.py` (whole process), `score.py` with the gold's tokens in `ref/` (the token cache the "
             "track module's `reference_data_extras` adds to the reference data), plain nltk 3.7 `word_tokenize` of every q and r text of the same "
             "gold and submission (the tokenization alone, without nltk's import) and `score.py` of today's "
             "code (commit %s). Times are the fastest of the rounds; ratios are the median of each round's ratio "
             "to nltk's time in the same round; CPU time (user + system) beside wall time, as this machine is "
             "shared (load average %s when the section ran)." % (result["file"], len(runs["score"]), result["baseline"] or "–", result["load"]),
             "", "| program | time (fastest) | ratio to nltk word_tokenize (median of rounds) | CPU time (fastest) "
             "| CPU ratio (median) | target (on the time ratio) |", "|---|---|---|---|---|---|"]
    targets = {"score": 0.5, "cached": 0.35}
    labels = {"score": "score.py", "cached": "score.py, the gold's tokens in ref/", "nltk": "nltk 3.7 word_tokenize",
              "today": "score.py of today's code (%s)" % result["baseline"]}
    for name in ("score", "cached", "nltk", "today"):
        if not runs.get(name):
            continue
        ratio = ratios.get(name, 1.0)
        target = ("≤ %.2f: **%s**" % (targets[name], "holds" if ratio <= targets[name] else "does not hold")
                  if name in targets else "")
        lines.append("| %s | %.2f s | %.2f | %.2f s | %.2f | %s |" % (
            labels[name], min(runs[name]), ratio, min(result["cpu"][name]), result["cpu_ratios"].get(name, 1.0),
            target))
    cached_cpu = min(result["cpu"]["cached"])
    lines += ["", "- the prize-winning file with the gold as built (its token cache in `ref/`), CPU ≤ %.1f s: **%s** "
              "(%.2f s, the fastest of the rounds)" % (REAL_NLU_CPU_S, "holds" if cached_cpu <= REAL_NLU_CPU_S
                                                         else "does not hold", cached_cpu)]
    lines += ["", "Scores, `score.py` against today's code, with and without the gold's tokens in `ref/` "
              "(`scores.json` byte for byte):", ""]
    for name, same, scores in result["identical"]:
        lines.append("- %s: nlu_score %.6f: **%s**" % (name, scores["nlu_score"], "identical" if same else "DIFFERENT"))
    lines += ["", "Peak RSS (getrusage) of `score.py`, one run each; budgets: 5 × submission + 100 MiB and "
              "2 × input + 50 MB:", "",
              "| input | input | submission | peak RSS | ≤ 5×submission+100 MiB | ≤ 2×input+50 MB | time |",
              "|---|---|---|---|---|---|---|"]
    worst_ratio = 0.0
    for label, input_mb, submission_mib, peak_mib, seconds in result["memory"]:
        first_budget = 5 * submission_mib + 100
        second_budget = (2 * input_mb + 50) * 1e6 / MIB
        worst_ratio = max(worst_ratio, peak_mib / first_budget, peak_mib / second_budget)
        lines.append("| %s | %.1f MB | %.1f MiB | %.0f MiB | %s (%.0f MiB) | %s (%.0f MiB) | %.2f s |" % (
            label, input_mb, submission_mib, peak_mib, "yes" if peak_mib <= first_budget else "**no**", first_budget,
            "yes" if peak_mib <= second_budget else "**no**", second_budget, seconds))
    hostile_s, refused = result["hostile"]
    worst = max(result["worst"], key=lambda w: w[2])
    count, rescore_s, separate_s, rescore_cpu, separate_cpu = result["rescore"]
    lines += ["", "- memory within both budgets at ×1 and ×10: **%s** (worst ratio to a budget %.2f)"
              % ("holds" if worst_ratio <= 1 else "does not hold", worst_ratio),
              "- ten ids answered `'A. ' × 33000` (99,000 characters; nltk 3.7 alone takes about 1.8 s per "
              "answer): the whole `score.py` run refuses the file in %.2f s%s: **%s**"
              % (hostile_s, "" if refused else " (**not refused**)",
                 "holds" if refused and hostile_s < 1 else "does not hold"),
              "- the slowest answers found that the word bound lets through (under the character cap), tokenized "
              "one by one: " + "; ".join("%s %.2f s" % (name, seconds) for name, _, seconds in result["worst"])
              + ". Worst: %s, %.2f s per answer." % (worst[0], worst[2])]
    if separate_s:
        lines.append("- the organisers' re-scoring of %d nlu submissions (the three real files, a seeded tenth of "
                     "each one's ids answered from another): `rank_submissions.py` (whole process: scoring, 1,000 "
                     "resamples, tables, figures) %.2f s against %d separate `score.py` runs of today's code "
                     "%.2f s: %.2f × (CPU time %.1f s against %.1f s: %.2f ×), target ≤ 0.2: **%s**"
                     % (count, rescore_s, count, separate_s, rescore_s / separate_s, rescore_cpu, separate_cpu,
                        rescore_cpu / separate_cpu, "holds" if rescore_s / separate_s <= 0.2 else "does not hold"))
    return "\n".join(lines)

