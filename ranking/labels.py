"""The paper's words for keys and tracks: each leaderboard column's ``label`` and its
``column_group`` label (the track's title) in ``competition.yaml``, as the platforms show them;
the key itself and the track module's ``TITLE`` where the file has none."""

from __future__ import annotations

import os
from typing import Dict, Optional, Tuple

from scorer.tracks.registry import BY_NAME, LOWER_IS_BETTER, TRACKS
from scorer.outputs.resampling import LEADERBOARDS

from . import ROOT

COMPETITION_YAML = os.path.join(ROOT, "competition.yaml")


def _columns(path: Optional[str]) -> Dict[str, dict]:
    """competition.yaml's leaderboard columns, in the file's order ({} when it cannot be read)."""
    try:
        import yaml

        with open(path or COMPETITION_YAML, encoding="utf-8") as handle:
            document = yaml.safe_load(handle) or {}
        found = (document.get("leaderboard") or {}).get("columns") or {}
        if isinstance(found, dict):
            return {str(k): v for k, v in found.items() if isinstance(v, dict)}
    except Exception:  # a broken file (unreadable, not YAML, no yaml module): the plain names
        pass
    return {}


def primary_column(path: Optional[str] = None) -> Tuple[str, str, bool]:
    """(track, key, higher is better) of the board's primary column, as the platforms take it:
    the column with ``selection_default`` (Codabench's ``primary_index``, the board's order), taken
    as ``bundle.platforms.v2_config`` takes it: the highest, else the first column by ``rank``;
    the first track's leaderboard when competition.yaml cannot be read.

    >>> primary_column()
    ('t6_st1', 't6_st1_f1_micro', True)
    """
    track_of = {key: track.name for track in TRACKS for key in track.keys}
    def rank(item) -> float:
        value = item[1].get("rank")
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) else float("inf")

    columns = sorted(((key, column) for key, column in _columns(path).items() if key in track_of), key=rank)
    if not columns:
        return LEADERBOARDS[0][1], LEADERBOARDS[0][2], LEADERBOARDS[0][3]

    def default(item) -> int:
        value = item[1].get("selection_default", 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    key = max(columns, key=default)[0]
    return track_of[key], key, key not in LOWER_IS_BETTER


def load_labels(path: Optional[str] = None) -> Tuple[Dict[str, str], Dict[str, str]]:
    """(key -> column label, track name -> title)."""
    columns = _columns(path)
    labels = {key: str(columns.get(key, {}).get("label") or key) for track in TRACKS for key in track.keys}
    titles = {}
    for track in TRACKS:
        group = columns.get(track.keys[0], {}).get("column_group") or {}
        titles[track.name] = str(group.get("label") or track.title) if isinstance(group, dict) else track.title
    return labels, titles


def board_title(track: str, key: str, labels: Dict[str, str], titles: Dict[str, str]) -> str:
    """A leaderboard's title: the track's title, and the key's label when the track has several
    leaderboards (absita's ATE, ABSA and SA)."""
    if len(BY_NAME[track].leaderboards) > 1:
        return "%s: %s" % (titles[track], labels[key])
    return titles[track]
