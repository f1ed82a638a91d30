"""The installed scorer's command (the wheel's console script; docs/organisers.md, "After the task")::

    <command> TRACK GOLD PREDICTION [--json] [--settings FILE]
    <command> --card TRACK
    <command> --version

prints the track's leaderboard scores as ``scores.txt`` writes them (``key: value``), then
``signature: ...``; with ``--json``, one JSON object: the leaderboard keys and ``"signature"``.
Warnings are ``score.py``'s (``<file>: warning: ...``: on stdout, on stderr with ``--json`` so
that stdout stays one object). Exit status as ``score.py``: 0 scored, 1 the file was refused or the
gold cannot be read (its lines on stderr, as ``score.py`` prints them), 2 the arguments (one line).
``--settings FILE``: a phase's settings (``scoring_config.json``) over the program's own (and over
those of a reference folder given as GOLD, which count as in ``score.py``).
"""

from __future__ import annotations

import json
import sys
from typing import List, Optional

from .. import __version__

DEFAULT_NAME = "shared-task-score"  # the console script of the wheel (bundle/wheel.py)


def usage(prog: str) -> str:
    return ("usage: %s TRACK GOLD PREDICTION [--json] [--settings FILE] | --card TRACK | --version | --help"
            % prog)


def main(argv: Optional[List[str]] = None, prog: Optional[str] = None) -> int:
    """Run the command on ``argv`` (without the program name); return its exit status."""
    from .closed_pipe import exit_status
    return exit_status(_main, sys.argv[1:] if argv is None else list(argv), prog or DEFAULT_NAME)


def _main(argv: List[str], prog: str) -> int:
    try:
        return _run(argv, prog)
    except Exception:  # never a traceback: one line, and where to report it
        print("%s: internal error of the scoring program (version %s); please report it with the command "
              "you ran" % (prog, __version__), file=sys.stderr)
        return 1


def _run(argv: List[str], prog: str) -> int:
    from .api import ScoringError, score_file, track_named
    if argv in (["--help"], ["-h"]):
        print(usage(prog))
        print(__doc__.split("\n\n", 1)[1].replace("<command>", prog).rstrip())
        return 0
    if argv == ["--version"]:
        print("%s %s" % (prog, __version__))
        return 0
    as_json, settings_file, card, positional = False, None, None, []
    rest = list(argv)
    while rest:
        word = rest.pop(0)
        if word == "--json":
            as_json = True
        elif word in ("--settings", "--card"):
            if not rest:
                print("%s needs a value; %s" % (word, usage(prog)), file=sys.stderr)
                return 2
            if word == "--settings":
                settings_file = rest.pop(0)
            else:
                card = rest.pop(0)
        elif word.startswith("--settings="):
            settings_file = word.split("=", 1)[1]
        elif word.startswith("--card="):
            card = word.split("=", 1)[1]
        elif word.startswith("-") and word != "-":
            print("unknown option %s; %s" % (word, usage(prog)), file=sys.stderr)
            return 2
        else:
            positional.append(word)
    try:
        if card is not None:
            if positional or as_json or settings_file is not None:
                print("--card takes only a track; %s" % usage(prog), file=sys.stderr)
                return 2
            with open(track_named(card).card_path, encoding="utf-8") as handle:
                sys.stdout.write(handle.read())
            return 0
        if len(positional) != 3:
            print(usage(prog), file=sys.stderr)
            return 2
        track, gold, prediction = positional
        scored = score_file(track, gold, prediction, settings_file)
    except ScoringError as error:
        for line in error.lines:
            print(line, file=sys.stderr)
        return error.exit_code
    filename = track_named(track).filename
    for warning in scored.warnings:
        print("%s: warning: %s" % (filename, warning), file=sys.stderr if as_json else sys.stdout)
    if as_json:
        print(json.dumps(scored.as_dict(), indent=1, allow_nan=False))
        return 0
    from ..outputs.scores_files import score_lines
    for line in score_lines(scored.scores):
        print(line)
    print("signature: %s" % scored.signature)
    return 0


if __name__ == "__main__":  # python3 -m scorer.run.cli, in the scoring program's folder
    sys.exit(main())
