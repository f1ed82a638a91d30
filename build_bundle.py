#!/usr/bin/env python3
"""Build the competition's upload (one zip for Codabench and Codalab v1.5), and check it the way the
platforms will use it.

    python3 build_bundle.py [--reference-data DIR] [--out dist] [--release-all] [--per-track] [--no-check]

1. validates competition.yaml (and phase_settings/) against the scoring program's tracks and both
   platforms' rules (bundle/rules.py; the table of every key is bundle/keys.py's KEYS). The
   competition's tracks are those with a column in competition.yaml; gold of other tracks is left
   out, with a line saying so;
2. writes, reproducibly (same sources, same bytes):
   dist/competition_bundle.zip   the upload, for Codabench (it reads competition.yaml, a native
                                 version-2 yaml) and for self-hosted Codalab v1.5 (it reads the first
                                 .yaml entry, codalab_v1.5.yaml), with the pages, the logo and the
                                 nested zips (scoring program with the nltk files it loads vendored,
                                 reference data with the phase's scoring_config.json, the first phase's
                                 public data, starting kit and sample submission);
   dist/starting_kit.zip         the first phase's starting kit (also inside the upload);
   dist/release_<folder>/        for each later phase, what the organisers attach when it opens: its
                                 public data and a starting kit with its inputs and sample submission
                                 (held back from the upload: both platforms list every phase's files to
                                 participants from registration on). --release-all puts them in the
                                 upload instead;
   with --per-track, the same for each track alone in dist/<track>/ (one competition per track);
   dist/shared_task_scorer-<version>-py3-none-any.whl   the scoring program as an installable scorer
                                 (bundle/wheel.py: the command shared-task-score and score() in Python);
3. checks each upload: unpacks it as both platforms do and runs every phase's sample submission, a
   broken one and one single-track entry per track in both workers' layouts (bundle/checker.py,
   the checks in bundle/checks/).

A failed build leaves no zip in the output folder, whatever stage failed (the stages:
bundle/build.py).

``--reference-data DIR`` holds one folder per phase (``dev/``, ``test/``: the ``<folder>`` of each
phase's ``<folder>_reference_data.zip``); it defaults to the sample gold in reference_data/.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(ROOT, "scoring_program"))
sys.path.insert(0, os.path.join(ROOT, "starting_kit"))

from bundle.build import build  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference-data", default=os.path.join(ROOT, "reference_data"),
                        help="one folder per phase (default: the sample gold in reference_data/)")
    parser.add_argument("--out", default=os.path.join(ROOT, "dist"))
    parser.add_argument("--cache", default=os.path.join(ROOT, "build", "wheels"),
                        help="where downloaded wheels are kept")
    parser.add_argument("--release-all", action="store_true",
                        help="put every phase's public data, starting kit and sample submission in the upload "
                             "(for competitions whose test inputs are public anyway)")
    parser.add_argument("--per-track", action="store_true",
                        help="one competition per track: dist/<track>/competition_bundle.zip, each ranked by its "
                             "track's primary score")
    parser.add_argument("--no-check", action="store_true", help="build only")
    parser.add_argument("--python", default=shutil.which("python3") or sys.executable,
                        help="the interpreter the check runs the scoring program with (as -I -S)")
    args = parser.parse_args(argv)
    return build(os.path.abspath(args.reference_data), os.path.abspath(args.out), args.cache,
                 not args.no_check, [args.python, "-I", "-S"], args.release_all, args.per_track)


if __name__ == "__main__":
    from scorer.run.closed_pipe import exit_status
    sys.exit(exit_status(main))
