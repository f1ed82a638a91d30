#!/usr/bin/env python3
"""Apply new tracks to a copy of this repository, as their authors would add them, and run the checks.

    .venv/bin/python tools/try_track.py COPY_DIR TRACK.py [TRACK.py ...] [--columns COLUMNS.yaml]
                                        [--groups GROUPS.yaml] [--quick] [--build]

For each ``TRACK.py`` or package folder ``TRACK/`` (its metric card ``TRACK.md`` beside it): copies
this repository's tracked files (``git ls-files``) into ``COPY_DIR`` (which must not exist), puts the
module (or package) and its card in ``scoring_program/scorer/tracks/``, appends its name to the registry's ``MODULES``, appends the
leaderboard columns of ``COLUMNS.yaml`` (the YAML of ``leaderboard.columns`` entries, indented as in
``competition.yaml``) to ``competition.yaml`` and the entries of ``GROUPS.yaml`` to its
``leaderboard.column_groups``, writes the sample data (``tools/make_sample_data.py``)
and commits it all in the copy (the tests that copy the repository copy its tracked files). Then
runs ``pytest -m registry`` (default), the quick loop (``--quick``) and, with ``--build``,
``build_bundle.py``. No test is edited. Exit status: the first failing step's.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))


def copy_repository(target: str) -> None:
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, stdout=subprocess.PIPE, check=True).stdout
    for name in names.decode("utf-8").split("\0"):
        source = os.path.join(ROOT, name)
        if name and os.path.isfile(source) and not os.path.islink(source):
            os.makedirs(os.path.dirname(os.path.join(target, name)), exist_ok=True)
            shutil.copy2(source, os.path.join(target, name))
    wheels = os.path.join(ROOT, "build", "wheels")  # the pinned nltk wheel, not downloaded again
    if os.path.isdir(wheels):
        shutil.copytree(wheels, os.path.join(target, "build", "wheels"))
    os.symlink(os.path.join(ROOT, ".venv"), os.path.join(target, ".venv"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("copy")
    parser.add_argument("modules", nargs="+")
    parser.add_argument("--columns", action="append", default=[])
    parser.add_argument("--groups", action="append", default=[])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--build", action="store_true")
    args = parser.parse_args()
    if os.path.exists(args.copy):
        parser.error("%s exists; give a new folder" % args.copy)
    from conftest import register_track
    copy_repository(args.copy)
    tracks = os.path.join(args.copy, "scoring_program", "scorer", "tracks")
    for module in args.modules:
        module = module.rstrip(os.sep)
        if os.path.isdir(module):  # a package track
            shutil.copytree(module, os.path.join(tracks, os.path.basename(module)),
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(module, tracks)
        shutil.copy2(os.path.splitext(module)[0] + ".md", tracks)

        register_track(os.path.join(args.copy, "scoring_program"), os.path.splitext(os.path.basename(module))[0])
    def read(path: str) -> str:
        with open(path, encoding="utf-8") as source:
            return source.read().rstrip("\n") + "\n"
    yaml_path = os.path.join(args.copy, "competition.yaml")
    text = read(yaml_path)
    groups = "".join(read(path) for path in args.groups)
    if groups:
        text = text.replace("\n  column_groups:\n", "\n  column_groups:\n" + groups, 1)
    with open(yaml_path, "w", encoding="utf-8") as handle:
        handle.write(text + "".join(read(path) for path in args.columns))
    python = os.path.join(args.copy, ".venv", "bin", "python")
    subprocess.run(["git", "init", "-q"], cwd=args.copy, check=True)
    with open(os.path.join(args.copy, ".git", "info", "exclude"), "a", encoding="utf-8") as handle:
        handle.write(".venv\n")  # (a link to this repository's environment, not a folder: .gitignore's .venv/ misses it)
    steps = [[python, "tools/make_sample_data.py"], ["git", "add", "-A", "."],
             ["git", "-c", "user.name=track author", "-c", "user.email=author@example.org", "commit", "-qm",
              "new tracks"]]
    steps.append([python, "-m", "pytest", "-q", "-m", "not slow" if args.quick else "registry"])
    if args.build:
        steps.append([python, "build_bundle.py", "--out", os.path.join(args.copy, "dist")])
    for step in steps:
        print("try_track: " + " ".join(step), flush=True)
        code = subprocess.run(step, cwd=args.copy).returncode
        if code:
            return code
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(ROOT, "scoring_program"))
    from scorer.run.closed_pipe import exit_status
    sys.exit(exit_status(main))
