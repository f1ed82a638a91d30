"""The paper's words for keys and tracks: each leaderboard column's ``label`` and its
``column_group`` label (the track's title) in ``competition.yaml``, as the platforms show them;
the key itself and the track module's ``TITLE`` where the file has none."""

from __future__ import annotations

import os
from typing import Dict, Tuple

from scorer.registry import BY_NAME, TRACKS

from . import ROOT


def load_labels(path: str = os.path.join(ROOT, "competition.yaml")) -> Tuple[Dict[str, str], Dict[str, str]]:
    """(key -> column label, track name -> title)."""
    columns: Dict[str, dict] = {}
    try:
        import yaml

        with open(path, encoding="utf-8") as handle:
            document = yaml.safe_load(handle) or {}
        found = (document.get("leaderboard") or {}).get("columns") or {}
        if isinstance(found, dict):
            columns = {str(k): v for k, v in found.items() if isinstance(v, dict)}
    except (OSError, ImportError, AttributeError, ValueError, Exception):  # a broken file: the plain names
        columns = {}
    labels = {key: str(columns.get(key, {}).get("label") or key) for track in TRACKS for key in track.keys}
    titles = {}
    for track in TRACKS:
        group = columns.get(track.keys[0], {}).get("column_group") or {}
        titles[track.name] = str(group.get("label") or track.title) if isinstance(group, dict) else track.title
    return labels, titles


def board_title(board_name: str, track: str, key: str, labels: Dict[str, str], titles: Dict[str, str]) -> str:
    """A leaderboard's title: the track's title, and the key's label when the track has several
    leaderboards (absita's ATE, ABSA and SA)."""
    if len(BY_NAME[track].leaderboards) > 1:
        return "%s: %s" % (titles[track], labels[key])
    return titles[track]
