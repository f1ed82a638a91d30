#!/usr/bin/env python3
"""Score a submission on your machine with the very same scoring program as the platform.

    python3 score_locally.py SUBMISSION [--phase dev] [--ref GOLD_DIR] [--out scoring_output]

SUBMISSION is the zip you would upload (or a folder with the same files). The gold of the phase is
GOLD_DIR, or reference_data/<phase> of the repository when it is there. This builds Codalab's
layout (input/ref, input/res, output) in a temporary folder, runs scoring_program/score.py, prints
the scores, and keeps the outputs (scores.txt, detailed_results.html) in --out.
Standard library only; Python 3.7 or newer.
"""

from __future__ import annotations

import argparse
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_UNPACKED_BYTES = 2 * 1024 ** 3  # a zip that unpacks to more is refused (zip bomb)
MAX_MEMBERS = 10000


class KitError(Exception):
    pass


def find_program() -> str:
    for candidate in (os.path.join(HERE, "scoring_program", "score.py"),
                      os.path.join(HERE, "..", "scoring_program", "score.py")):
        if os.path.isfile(candidate):
            return os.path.abspath(candidate)
    raise KitError("cannot find scoring_program/score.py next to this script")


def safe_extract(zip_path: str, destination: str) -> None:
    """Extract a submission zip, refusing absolute or ``..`` paths, links, and zip bombs."""
    try:
        archive = zipfile.ZipFile(zip_path)
    except zipfile.BadZipFile:
        raise KitError("%s is not a zip file" % zip_path) from None
    with archive:
        members = archive.infolist()
        if len(members) > MAX_MEMBERS:
            raise KitError("%s has %d entries; at most %d are accepted" % (zip_path, len(members), MAX_MEMBERS))
        total = sum(member.file_size for member in members)
        if total > MAX_UNPACKED_BYTES:
            raise KitError("%s unpacks to %d bytes; at most %d are accepted" % (zip_path, total, MAX_UNPACKED_BYTES))
        for member in members:
            name = member.filename
            parts = name.replace("\\", "/").split("/")
            if name.startswith(("/", "\\")) or ".." in parts or (len(name) > 1 and name[1] == ":"):
                raise KitError("%s: refusing the entry %r (absolute path or '..')" % (zip_path, name))
            if stat.S_ISLNK(member.external_attr >> 16):
                raise KitError("%s: refusing the symbolic link %r" % (zip_path, name))
        archive.extractall(destination)


def stage_submission(submission: str, res_dir: str) -> None:
    if os.path.isdir(submission):
        shutil.copytree(submission, res_dir)
    elif os.path.isfile(submission):
        os.makedirs(res_dir)
        safe_extract(submission, res_dir)
    else:
        raise KitError("no such file or folder: %s" % submission)


def default_reference(phase: str) -> str:
    for candidate in (os.path.join(HERE, "reference_data", phase),
                      os.path.join(HERE, "..", "reference_data", phase)):
        if os.path.isdir(candidate):
            return os.path.abspath(candidate)
    raise KitError("no gold for phase %r here; pass --ref GOLD_DIR (a folder with the phase's gold "
                   "files), or check the format only with check_format.py" % phase)


def run_scoring(reference_dir: str, submission: str, out_dir: str, quiet: bool = False,
                resamples: int = 0) -> int:
    program = find_program()
    with tempfile.TemporaryDirectory(prefix="score-locally-") as work:
        input_dir = os.path.join(work, "input")
        shutil.copytree(reference_dir, os.path.join(input_dir, "ref"))
        stage_submission(submission, os.path.join(input_dir, "res"))
        if os.path.isdir(out_dir):
            shutil.rmtree(out_dir)
        process = subprocess.run([sys.executable, program, input_dir, out_dir],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        if not quiet:
            sys.stdout.write(process.stdout)
        if process.returncode == 0 and resamples > 0 and not quiet:
            print_confidence_intervals(os.path.join(input_dir, "ref"), os.path.join(input_dir, "res"), resamples)
    sys.stderr.write(process.stderr)
    return process.returncode


def print_confidence_intervals(reference_dir: str, res_dir: str, resamples: int, seed: int = 0) -> None:
    """The 95% bootstrap interval of each primary score, from the same resamples of the items as the
    organisers' results (``scorer/resampling.py``): how much the score owes to the test set's draw."""
    program_dir = os.path.dirname(find_program())
    sys.path.insert(0, program_dir)
    from scorer.resampling import (LEADERBOARDS, confidence_interval, item_statistics, resample_indices,
                                   score_in_process)

    results = score_in_process(reference_dir, res_dir, program_dir)[0]
    for _, track, key, _ in LEADERBOARDS:
        if track in results and key in results[track].scores:
            statistics = item_statistics(results[track])
            low, high = confidence_interval(statistics, key, resample_indices(len(statistics.items), resamples, seed))
            print("%s: %.6f, 95%% confidence interval [%.6f, %.6f] (%d resamples of the %d items, seed %d)"
                  % (key, results[track].scores[key], low, high, resamples, len(statistics.items), seed))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Score a submission locally with the platform's scoring program.")
    parser.add_argument("submission", help="the submission zip (or a folder with the same files)")
    parser.add_argument("--phase", default="dev", help="the phase whose gold to use (default: dev)")
    parser.add_argument("--ref", help="the folder with the phase's gold files")
    parser.add_argument("--out", default="scoring_output", help="where to keep the outputs")
    parser.add_argument("--resamples", type=int, default=1000,
                        help="bootstrap resamples for the confidence intervals (0: none)")
    args = parser.parse_args(argv)
    try:
        reference = os.path.abspath(args.ref) if args.ref else default_reference(args.phase)
        out_dir = os.path.abspath(args.out)
        code = run_scoring(reference, args.submission, out_dir, resamples=args.resamples)
    except KitError as error:
        print("score_locally: %s" % error, file=sys.stderr)
        return 2
    page = os.path.join(out_dir, "detailed_results.html")
    if code == 0:
        print("detailed results: %s" % page)
    else:
        print("the submission was not scored (exit %d); the lines above say why" % code, file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
