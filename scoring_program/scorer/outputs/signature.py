"""The signature of a track's scores, as sacrebleu's: the track, every setting that changes what the
track computes, and the scoring program's version, in one short string, so that a number can be
traced to how it was computed::

    flc|overlap:error|per_technique_recall:correct|fragments_only:no|v0.1.0

A track module lists the ``Options`` fields it reads as ``SETTINGS`` (none: the track has no
setting). Resource bounds (file size, spans per document) are not in it: they refuse a file or
score it, and never change a score. scores.json, detailed_results.html and rank_submissions.py's
outputs carry it; scores.txt does not (it holds leaderboard keys only).
"""

from __future__ import annotations

from .. import __version__
from ..readers.options import Options

# How a setting is named in a signature (short, and without the track's prefix).
SHORT_NAMES = {
    "overlapping_predictions": "overlap",
    "per_technique_recall": "per_technique_recall",
    "flc_ignore_techniques": "fragments_only",
}


def track_signature(track: str, options: Options) -> str:
    """``track`` (a track's name in the registry) under ``options``.

    >>> track_signature("flc", Options(per_technique_recall="official")).rsplit("|", 1)[0]
    'flc|overlap:error|per_technique_recall:official|fragments_only:no'
    """
    from ..tracks.registry import BY_NAME
    view = BY_NAME[track]
    options = view.options(options)  # with the track's own defaults
    parts = [track] + ["%s:%s" % (SHORT_NAMES.get(name, name), _text(getattr(options, name)))
                       for name in view.settings]
    return "|".join(parts + ["v" + __version__])


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
