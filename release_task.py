#!/usr/bin/env python3
"""The task's release for a long-term archive (Zenodo), written after the competition.

    .venv/bin/python release_task.py --out DIR [--results RESULTS_DIR [--download DOWNLOAD]] [--gold PHASE ...]
        [--reference-data DIR] [--cache build/wheels]
    .venv/bin/python release_task.py --verify DIR [--python PYTHON ...]

DIR receives, byte-identical for the same inputs:

    README.md              what is in it, and how to score on the test set in two commands
    CITATION.cff           Citation File Format 1.2.0 (title, abstract, date from competition.yaml;
                           authors, licence, keywords from release.yaml)
    .zenodo.json           Zenodo's deposit metadata, from the same fields
    SHA256SUMS             sha256 of every other file (``sha256sum -c SHA256SUMS``, or --verify)
    scorer/<wheel>         the installable scorer: the same wheel as build_bundle.py writes
    cards/<track>.md       each track's metric card: what it computes, its refusals, its citation
    settings/<folder>.json each phase's scoring settings (phase_settings/), for --settings
    public_data/<folder>/  each phase's public inputs (derived from the gold, as the build does)
    gold/<folder>/         the gold of the phases named by --gold only (its licence is the
                           organisers' decision: none by default)
    results/               the final tables: rank_submissions.py's --out folder, as written (its
                           signatures must name this scorer's version)
    predictions/           with --download (the download the tables were made from): each ranked
                           row's prediction files, predictions/<n>/<the track's file>, and
                           manifest.json tying each folder to its row (team, owner, the Evaluation
                           submission, its migrated copy on the public board: rank_submissions.py
                           --migrated) and naming the gold and settings that re-score them

The phases, their folders and labels come from competition.yaml (``reference_data:
<folder>_reference_data.zip``); the test set is the last phase's folder. ``--gold`` takes a
phase's label or folder and may be repeated. An earlier release in DIR is replaced; any other
non-empty DIR is refused.

``--verify DIR`` checks every file against SHA256SUMS, then, when the release holds predictions and
the test gold, installs its wheel into a fresh venv of each ``--python`` and re-scores every
prediction with the README's command: every ranked cell of ``results/<board>.csv`` must come out
the same float, with the table's signature (``task_release/rescoring.py``).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Optional, Sequence

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "scoring_program"))

from task_release.checksums import SUMS, verify  # noqa: E402
from task_release.errors import ReleaseError  # noqa: E402
from task_release.rescoring import rescoring_problems  # noqa: E402
from task_release.write import write_release  # noqa: E402


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="the release's folder (an earlier release there is replaced)")
    parser.add_argument("--verify", metavar="DIR", help="check a release against its %s, and re-score its "
                        "predictions with its wheel to its tables' numbers" % SUMS)
    parser.add_argument("--results", help="rank_submissions.py's --out folder: the final tables")
    parser.add_argument("--download", help="the download those tables were made from (codabench.py download's folder "
                        "or a platform's bulk download): each ranked row's prediction files go in predictions/")
    parser.add_argument("--python", action="append", default=[], metavar="PYTHON",
                        help="with --verify: re-score the predictions with the release's wheel installed in a fresh "
                             "venv of this Python (repeatable; default: the Python running this tool)")
    parser.add_argument("--gold", action="append", default=[], metavar="PHASE",
                        help="put this phase's gold in the release (a label or folder; repeatable)")
    parser.add_argument("--reference-data", default=os.path.join(ROOT, "reference_data"),
                        help="one folder per phase, as for build_bundle.py")
    parser.add_argument("--cache", default=os.path.join(ROOT, "build", "wheels"), help="where downloaded wheels are kept")
    args = parser.parse_args(argv)
    if (args.out is None) == (args.verify is None):
        print("release_task.py: give --out DIR (write a release) or --verify DIR (check one)", file=sys.stderr)
        return 2
    if args.python and args.verify is None:
        print("release_task.py: --python goes with --verify DIR (the Pythons that re-score its predictions)",
              file=sys.stderr)
        return 2
    if args.verify is not None:
        problems = verify(args.verify)
        if not problems:
            print("%s: every file matches %s" % (args.verify, SUMS))
            problems = rescoring_problems(os.path.abspath(args.verify), args.python or [sys.executable], print)
        for line in problems:
            print(line, file=sys.stderr)
        return 1 if problems else 0
    try:
        lines = write_release(os.path.abspath(args.out), os.path.abspath(args.reference_data),
                              os.path.abspath(args.results) if args.results else None, args.gold, args.cache,
                              os.path.abspath(args.download) if args.download else None)
    except ReleaseError as error:
        print(str(error), file=sys.stderr)
        return error.code
    except OSError as error:  # a full disk, a file that vanished: one line, never a traceback
        print("release_task.py: %s%s" % (error.strerror or error, ": %s" % error.filename if error.filename else ""),
              file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    from scorer.run.closed_pipe import exit_status
    sys.exit(exit_status(main))
