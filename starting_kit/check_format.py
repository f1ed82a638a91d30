#!/usr/bin/env python3
"""Check a submission's format before uploading it; no gold needed.

    python3 check_format.py SUBMISSION [--public public_data/dev]

It builds a stand-in "gold" from the phase's public inputs (the right ids, texts and article
lengths, no answers) and runs the scoring program on it, so every check the platform makes (file
names, ids, technique names, offsets, overlaps, CSV/JSON syntax) is made here
too. The scores it computes mean nothing and are not shown; everything else the scoring program
says is (files it ignores, its warnings, the tracks the submission does not enter). It finds the
submitted files with the scoring program's own code (``scorer/run/submission.py``), as score.py does.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

from score_locally import program_tracks, score_submission, verdict, write_other_phases
from staging import HERE, KitError, run_command


def stand_in_gold(public_dir: str, gold_dir: str) -> list:
    """Write a gold with empty answers for every track whose public input is in ``public_dir``
    (each track module of the scoring program knows how: ``write_stand_in_gold``)."""
    os.makedirs(gold_dir, exist_ok=True)
    written = []
    for track in program_tracks():
        written += track.write_stand_in_gold(public_dir, gold_dir, track.filename)
    write_other_phases(gold_dir, os.path.dirname(os.path.abspath(public_dir)), public_dir)
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Check a submission's format against a phase's public inputs.")
    parser.add_argument("submission", help="the submission zip (or a folder with the same files)")
    parser.add_argument("--public", default=os.path.join(HERE, "public_data", "dev"),
                        help="the phase's public data (default: public_data/dev of the starting kit)")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.public):
        print("check_format: no public data in %s (pass --public)" % args.public, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="check-format-") as work:
        gold = os.path.join(work, "gold")
        try:
            tracks = stand_in_gold(args.public, gold)
        except (OSError, ValueError, KeyError, TypeError) as error:
            print("check_format: the public data in %s cannot be read (%s)" % (args.public, error), file=sys.stderr)
            return 2
        try:
            run = score_submission(gold, args.submission, os.path.join(work, "output"), quiet=True,
                                   check_staged=lambda res_dir: metadata_problem(args.submission, res_dir))
        except (KitError, OSError) as error:
            print("check_format: %s" % error, file=sys.stderr)
            return 2
    if run.code == 0:
        print("format OK%s (checked against %s; files of this phase: %s)"
              % (" for the files it scored" if run.located is not None and run.located.ignored else "",
                 args.public, ", ".join(tracks)))
    print(verdict(run.code, run.stderr, run.located, checked_only=True), file=sys.stdout if run.code == 0 else sys.stderr)
    meant = [notice.split(": ignored", 1)[0] for notice in (run.located.notices if run.located is not None else ())
             if ": ignored" in notice and ("; expected " in notice or "at the top level" in notice)]
    if run.code == 0 and meant:
        # accepted by the platform, but a file meant for a track (a near miss of its name, or one
        # folder too deep) was not scored: a script that checks the exit status must not read
        # that as success
        print("check_format: not checked: %s (the lines above say why); exit status 1" % ", ".join(meant),
              file=sys.stderr)
        return 1
    return run.code


def metadata_problem(submission: str, res_dir: str) -> str:
    """A file named ``metadata`` at the top of the submission, or of the folder the scoring program
    reads the files from (its one wrapping folder): Codabench would take the submission for code.
    The problem line, or ''."""
    from scorer.run.submission import submission_folder  # (program_tracks put the program on sys.path)
    folder = submission_folder(res_dir)[0]
    for base in (res_dir, folder):
        if os.path.isfile(os.path.join(base, "metadata")):
            inside = os.path.relpath(os.path.join(base, "metadata"), res_dir).replace(os.sep, "/")
            where = os.path.join(submission, inside) if os.path.isdir(submission) else "%s:%s" % (submission, inside)
            return ("%s: a file named metadata makes Codabench take the submission for code (a program to run) "
                    "instead of results; remove it from the zip" % where)
    return ""


if __name__ == "__main__":
    sys.exit(run_command(main))
