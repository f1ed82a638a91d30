"""A label that is not one of its track's declared ``TECHNIQUES`` gets a suggestion for every near
miss: case, spacing, punctuation, accents, one part of a name made of parts (``Name Calling`` for
``Name calling/Labeling``); the suggestion names the exact declared label, and only declared
labels are ever suggested. Every track's label check goes through ``records.label_problem``
(``score.py``'s lines: tests/test_hostile.py)."""

from __future__ import annotations

import re
import unicodedata

import pytest

from scorer.readers.records import label_problem
from scorer.tracks.registry import TRACKS

pytestmark = pytest.mark.registry

TECHNIQUE_TRACKS = [track for track in TRACKS if track.techniques]


def near_misses(label: str):
    """What participants write for ``label``: another case, other separators, no accents, one part."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", label) if not unicodedata.combining(c))
    words = re.findall(r"[^\W_]+", label)
    misses = {label.lower(), label.upper(), label.swapcase(), label.replace(" ", "_"), label.replace("_", " "),
              label.replace("-", " "), " ".join(words), "_".join(words).lower(), plain, "  %s " % label}
    for separator in "/,":
        if separator in label:
            misses.update(part.strip() for part in label.split(separator) if part.strip())
    return sorted(misses - {label})


def suggested(message: str):
    tail = message.split("(did you mean ", 1)[1] if "(did you mean " in message else ""
    return re.findall(r"""'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)\"""", tail)


def test_there_is_a_track_with_techniques():
    assert TECHNIQUE_TRACKS


@pytest.mark.parametrize("track", TECHNIQUE_TRACKS, ids=lambda track: track.name)
def test_every_near_miss_of_a_declared_label_is_answered_with_it(track):
    for label in track.techniques:
        for miss in near_misses(label):
            if miss in track.techniques:
                continue
            message = label_problem(miss, track.techniques)
            names = [single or double for single, double in suggested(message)]
            assert label in names, (track.name, miss, message)
            assert set(names) <= set(track.techniques), (track.name, miss, message)


@pytest.mark.parametrize("track", TECHNIQUE_TRACKS, ids=lambda track: track.name)
def test_a_label_near_nothing_gets_no_suggestion(track):
    for miss in ("Zzyzx", "x" * 500, "12345", "", "   "):
        assert "did you mean" not in label_problem(miss, track.techniques), miss
