"""The inputs of the track-parametrised tests, built from the registry and the metric cards' worked
examples (which ``tests/test_metric_cards.py`` scores): a track added to the registry with its card
is in every such test without an edit of the tests.

``EXAMPLES[name]``: (gold files, submitted files, printed scores) of the track's card, the files as
paths under ``ref/`` and ``res/``; ``REF`` and ``SUBMITTED``: every track's together (each track's
files are its own names); ``ONE``: the track a test enters alone.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List, Tuple

import conftest  # noqa: F401  (puts the scoring program on sys.path)
from scorer.tracks.registry import TRACKS

_FILE_LINE = re.compile(r"^(?:Gold|Submission|Reference data|The submission).*`((?:ref|res)/[^`]+)`.*:$")
_SCORE_ROW = re.compile(r"^\|\s*`([a-z0-9_]+)`\s*\|\s*(-?[0-9]+(?:\.[0-9]+)?)")

# The tracks that read nltk 3.7 when they score (their module uses scorer/machinery/nltk_tokens.py;
# tests/test_nltk_tokens.py); every other track is the standard library only, as the scoring program
# must be on a stock image.
NEEDS_NLTK = tuple(track.name for track in TRACKS
                   if any("nltk_tokens" in open(path, encoding="utf-8").read() for path in track.source_paths))


def sections(card: str) -> List[Tuple[str, str]]:
    """(title, body) of each ``##`` section, in order."""
    parts = re.split(r"^## (.+)\n", card, flags=re.M)
    return [(parts[i].strip(), parts[i + 1]) for i in range(1, len(parts), 2)]


def worked_example(card: str) -> Tuple[Dict[str, str], Dict[str, str]]:
    """(path under input/ -> content, key -> the value as printed) of the card's Example section."""
    (body,) = [body for title, body in sections(card) if "Example" in title]
    files: Dict[str, str] = {}
    scores: Dict[str, str] = {}
    lines = body.split("\n")
    i = 0
    while i < len(lines):
        match = _FILE_LINE.match(lines[i])
        if match:
            i += 1
            while i < len(lines) and not lines[i].strip():
                i += 1
            block = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                block.append(lines[i][4:])
                i += 1
            assert match.group(1) not in files, "two blocks for %s" % match.group(1)
            files[match.group(1)] = "\n".join(block).strip("\n") + "\n"
            continue
        row = _SCORE_ROW.match(lines[i])
        if row:
            scores[row.group(1)] = row.group(2)
        i += 1
    return files, scores


def card_example(card_path) -> Tuple[Dict[str, str], Dict[str, str], Dict[str, str]]:
    """(gold files, submitted files, printed scores) of a card's worked example; file names relative
    to ``ref/`` and ``res/``."""
    files, scores = worked_example(card_path.read_text(encoding="utf-8"))
    ref = {path[len("ref/"):]: content for path, content in files.items() if path.startswith("ref/")}
    res = {path[len("res/"):]: content for path, content in files.items() if path.startswith("res/")}
    return ref, res, scores


CARDS = {track.name: Path(track.card_path) for track in TRACKS}
EXAMPLES = {name: card_example(path) for name, path in CARDS.items()}
REF = {name: content for ref, _, _ in EXAMPLES.values() for name, content in ref.items()}
SUBMITTED = {name: content for _, res, _ in EXAMPLES.values() for name, content in res.items()}
STDLIB_TRACKS = [track for track in TRACKS if track.name not in NEEDS_NLTK]
STDLIB_REF = {name: content for track in STDLIB_TRACKS for name, content in EXAMPLES[track.name][0].items()}
STDLIB_SUBMITTED = {name: content for track in STDLIB_TRACKS for name, content in EXAMPLES[track.name][1].items()}
ONE = STDLIB_TRACKS[0]  # the track a test enters alone
ONE_SUBMITTED = EXAMPLES[ONE.name][1]
