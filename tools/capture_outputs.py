#!/usr/bin/env python3
"""Capture every output a restructuring must keep byte-identical, to compare two versions of the code.

    .venv/bin/python tools/capture_outputs.py OUT_DIR [--scale 10] [--resamples 200]
    diff -r BEFORE_DIR AFTER_DIR

Writes into OUT_DIR (which must not exist), for the code of the repository this script is in:

- ``sample/<phase>/<submission>/``: ``score.py``'s scores.txt, scores.json, detailed_results.html
  and, with ``--items``, its items folder, for the sample gold of each phase in ``reference_data/``
  and the baseline submissions the build makes from its public data (random seed 42, majority);
  plus its stdout and exit code;
- ``benchmark/<track>/``: the same for each track's benchmark input at ``--scale`` (the track
  module's ``write_benchmark_input`` with ``random.Random(scale)``, as ``benchmarks/run.py``);
- ``phases/<settings>/<track>/``: ``score.py`` on each track's benchmark input at x1 (and ``all``: every
  track's in one phase) under each of ``phase_settings/*.json`` as its ``ref/scoring_config.json``
  (the Development page with its intervals, the Post-Evaluation scores, the blind phase's outputs);
- ``local/<phase>/``: ``starting_kit/score_locally.py``'s stdout (its intervals) on the random
  baseline of seed 42 against that phase's sample gold;
- ``rank/<phase>/``: ``rank_submissions.py``'s outputs on the random baselines of seeds 1, 2, 3 and
  the majority baseline, and ``rank/benchmark/``: on the benchmark submissions of every track at
  ``--scale`` against their gold in one folder. The figures (``*.svg``, ``*.pdf``) are left out:
  matplotlib writes a creation date into them; every other file is deterministic.

Everything runs in subprocesses from this repository's files, so the same script compares two
checkouts: run it in each (the inputs it generates do not depend on the code being compared,
only on the track modules' generators and the baselines, which a restructuring must keep).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _folder in (os.path.join(ROOT, "starting_kit"), os.path.join(ROOT, "scoring_program"), ROOT):
    sys.path.insert(0, _folder)

FIGURES = (".svg", ".pdf")


def run_score(input_dir: str, target: str) -> None:
    output, items = os.path.join(target, "output"), os.path.join(target, "items")
    process = subprocess.run([sys.executable, os.path.join(ROOT, "scoring_program", "score.py"), input_dir, output,
                              "--items", items], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True)
    with open(os.path.join(target, "run.txt"), "w", encoding="utf-8") as handle:
        handle.write("exit %d\n--- stdout\n%s--- stderr\n%s" % (process.returncode, process.stdout, process.stderr))


def run_local(submission: str, ref: str, target: str) -> None:
    with tempfile.TemporaryDirectory() as out:
        process = subprocess.run([sys.executable, os.path.join(ROOT, "starting_kit", "score_locally.py"), submission,
                                  "--ref", ref, "--out", os.path.join(out, "scoring_output")],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, cwd=out)
    with open(os.path.join(target, "run.txt"), "w", encoding="utf-8") as handle:
        handle.write("exit %d\n--- stdout\n%s--- stderr\n%s" % (process.returncode,
                                                               process.stdout.replace(out, "OUT"),
                                                               process.stderr.replace(out, "OUT")))


def capture_phases(out_dir: str, work: str, tracks) -> None:
    """Each track's benchmark input at x1 (and all of them together) under each phase's settings."""
    settings_dir = os.path.join(ROOT, "phase_settings")
    inputs = {}
    everything = os.path.join(work, "phases_input", "all")
    for track in tracks:
        input_dir = os.path.join(work, "phases_input", track.name)
        os.makedirs(os.path.join(input_dir, "ref"))
        os.makedirs(os.path.join(input_dir, "res"))
        track.write_benchmark_input(input_dir, 1, random.Random(1))
        inputs[track.name] = input_dir
        for side in ("ref", "res"):
            for name in os.listdir(os.path.join(input_dir, side)):
                source, copy = os.path.join(input_dir, side, name), os.path.join(everything, side, name)
                os.makedirs(os.path.dirname(copy), exist_ok=True)
                (shutil.copytree if os.path.isdir(source) else shutil.copyfile)(source, copy)
    inputs["all"] = everything
    for settings in sorted(os.listdir(settings_dir)):
        for name, input_dir in inputs.items():
            config = os.path.join(input_dir, "ref", "scoring_config.json")
            shutil.copyfile(os.path.join(settings_dir, settings), config)
            target = os.path.join(out_dir, "phases", os.path.splitext(settings)[0], name)
            os.makedirs(target)
            run_score(input_dir, target)
            os.remove(config)


def run_rank(submissions: str, ref: str, target: str, resamples: int, baselines=()) -> None:
    out = os.path.join(target, "all")
    argv = [sys.executable, os.path.join(ROOT, "rank_submissions.py"), submissions, "--ref", ref, "--out", out,
            "--resamples", str(resamples), "--seed", "0", "--quiet"]
    for name, path in baselines:
        argv += ["--baseline", "%s=%s" % (name, path)]
    process = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                             cwd=ROOT)
    with open(os.path.join(target, "run.txt"), "w", encoding="utf-8") as handle:
        handle.write("exit %d\n--- stdout\n%s--- stderr\n%s" % (process.returncode, process.stdout,
                                                                 process.stderr.replace(ROOT, "ROOT")))
    for name in sorted(os.listdir(out)) if os.path.isdir(out) else ():
        if not name.endswith(FIGURES):
            shutil.copy(os.path.join(out, name), os.path.join(target, name))
    shutil.rmtree(out, ignore_errors=True)


def capture(out_dir: str, scale: int, resamples: int) -> None:
    from baselines import write_submission
    from bundle.public_data import derive_public_data
    from scorer.tracks.registry import TRACKS

    os.makedirs(out_dir)
    with tempfile.TemporaryDirectory() as work:
        for phase in sorted(os.listdir(os.path.join(ROOT, "reference_data"))):
            gold = os.path.join(ROOT, "reference_data", phase)
            public = os.path.join(work, phase, "public")
            derive_public_data(gold, public)
            submissions = os.path.join(work, phase, "submissions")
            for name, kwargs in (("random_42", {}), ("majority", {"multilabel": "majority"}),
                                 ("random_1", {"seed": 1}), ("random_2", {"seed": 2}), ("random_3", {"seed": 3})):
                folder = os.path.join(submissions, name)
                write_submission(public, folder, **kwargs)
                if name in ("random_42", "majority"):
                    input_dir = os.path.join(work, phase, "input_" + name)
                    shutil.copytree(gold, os.path.join(input_dir, "ref"))
                    shutil.copytree(folder, os.path.join(input_dir, "res"))
                    target = os.path.join(out_dir, "sample", phase, name)
                    os.makedirs(target)
                    run_score(input_dir, target)
                if name == "random_42":
                    target = os.path.join(out_dir, "local", phase)
                    os.makedirs(target)
                    run_local(folder, gold, target)
            majority = os.path.join(work, phase, "majority")
            shutil.move(os.path.join(submissions, "majority"), majority)
            shutil.rmtree(os.path.join(submissions, "random_42"))
            target = os.path.join(out_dir, "rank", phase)
            os.makedirs(target)
            run_rank(submissions, gold, target, resamples, [("majority", majority)])

        capture_phases(out_dir, work, TRACKS)
        all_gold = os.path.join(work, "benchmark_gold")
        one_submission = os.path.join(work, "benchmark_submissions", "all_tracks")
        os.makedirs(all_gold)
        os.makedirs(one_submission)
        for track in TRACKS:
            input_dir = os.path.join(work, "benchmark", track.name)
            scales = track.benchmark.get("scales", (1, 10, 100))  # (nlu: 1 only)
            at = scale if scale in scales else max(scales)
            os.makedirs(os.path.join(input_dir, "ref"))
            os.makedirs(os.path.join(input_dir, "res"))
            track.write_benchmark_input(input_dir, at, random.Random(at))
            target = os.path.join(out_dir, "benchmark", track.name)
            os.makedirs(target)
            run_score(input_dir, target)
            for side, folder in (("ref", all_gold), ("res", one_submission)):
                for name in os.listdir(os.path.join(input_dir, side)):
                    os.rename(os.path.join(input_dir, side, name), os.path.join(folder, name))
        target = os.path.join(out_dir, "rank", "benchmark")
        os.makedirs(target)
        run_rank(os.path.dirname(one_submission), all_gold, target, max(10, resamples // 10))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Capture the outputs to compare before/after a change.")
    parser.add_argument("out_dir")
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--resamples", type=int, default=200)
    args = parser.parse_args(argv)
    capture(args.out_dir, args.scale, args.resamples)
    return 0


if __name__ == "__main__":
    from scorer.run.closed_pipe import exit_status
    sys.exit(exit_status(main))
