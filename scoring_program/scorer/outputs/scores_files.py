"""What the platforms read as scores: ``scores.txt`` and ``scores.json``.

scores.txt: one ``key: value`` line per leaderboard key, ASCII, fixed-point (Codalab v1.5 splits
each line on its one colon and calls float(); Codabench parses the file as YAML, where ``1e-05``
would be a string). Values are written with every digit needed to read back the same float, and
at least nine decimals.

Every leaderboard key is written. A track the submission did not enter gets a value that ranks
last in its column on both platforms: Codabench orders by its primary column on PostgreSQL,
where a missing score (NULL) sorts *first* in descending order, so an absent key would put a
one-track entry above every entrant of the primary track. The values must be storable
(Codabench keeps scores as decimals with 10 digits before the point).

scores.json also holds ``"signature"``: track -> its signature (``scorer/outputs/signature.py``) for every
scored track. Codabench's worker posts the whole object and the platform stores only the keys that
are leaderboard columns (``upload_submission_scores`` skips the others), so this non-numeric entry
is never read as a score; no leaderboard key may be named ``signature``. scores.txt, which v1.5
and Codabench read as ``key: number`` lines, holds the leaderboard keys only.
"""

from __future__ import annotations

import json
import math
import os
from typing import Dict, List, Optional, Sequence

from ..tracks.registry import BY_NAME, LOWER_IS_BETTER
from ..readers.result import TrackResult

MIN_DECIMALS = 9
NOT_ENTERED_HIGHER_IS_BETTER = -1.0  # every real score of these columns is >= 0
NOT_ENTERED_LOWER_IS_BETTER = 9999999999.0  # sa_rmse: above any real error, below 1e10


def not_entered_value(key: str) -> float:
    """What a column shows for a track the submission did not enter: it ranks last."""
    return NOT_ENTERED_LOWER_IS_BETTER if key in LOWER_IS_BETTER else NOT_ENTERED_HIGHER_IS_BETTER


def fixed_point(value: float) -> str:
    """The shortest fixed-point text that reads back as ``value``, with at least 9 decimals.

    >>> fixed_point(0.5), fixed_point(1e-05), fixed_point(0.0449438202247191)
    ('0.500000000', '0.000010000', '0.0449438202247191')
    """
    if not math.isfinite(value):
        raise ValueError("scores must be finite, got %r" % value)
    text = repr(float(value))
    if "e" in text:  # below 1e-4 or from 1e16: written out in full
        from decimal import Decimal
        text = format(Decimal(text), "f")
    if "." not in text:
        text += "."
    decimals = len(text) - text.index(".") - 1
    if decimals < MIN_DECIMALS:
        text += "0" * (MIN_DECIMALS - decimals)
    if text.startswith("-") and float(text) == 0.0:
        text = text[1:]
    return text


def collect_scores(results: Sequence[TrackResult]) -> Dict[str, float]:
    scores: Dict[str, float] = {}
    for result in results:
        for key, value in result.scores.items():
            scores[key] = float(value)
    return scores


def leaderboard_scores(scores: Dict[str, float], phase_tracks: Sequence[str]) -> Dict[str, float]:
    """Every key of the phase's tracks (the build makes each a leaderboard column), in registry
    order: the scored ones, and not-entered values for the others."""
    keys = [key for name in phase_tracks for key in BY_NAME[name].keys]
    return {key: scores[key] if key in scores else not_entered_value(key) for key in keys}


SIGNATURE_KEY = "signature"  # in scores.json: track -> signature, beside the leaderboard keys


def score_lines(scores: Dict[str, float]) -> List[str]:
    """The lines of scores.txt, ``key: value`` (without their newline), as the installed scorer
    prints them too."""
    return ["%s: %s" % (key, fixed_point(value)) for key, value in scores.items()]


def write_scores(output_dir: str, scores: Dict[str, float], signatures: Optional[Dict[str, str]] = None) -> None:
    assert SIGNATURE_KEY not in scores
    lines = [line + "\n" for line in score_lines(scores)]
    with open(os.path.join(output_dir, "scores.txt"), "w", encoding="ascii", newline="\n") as handle:
        handle.writelines(lines)
    with open(os.path.join(output_dir, "scores.json"), "w", encoding="ascii", newline="\n") as handle:
        json.dump(dict(scores, **{SIGNATURE_KEY: dict(signatures or {})}), handle, indent=1, allow_nan=False)
        handle.write("\n")

