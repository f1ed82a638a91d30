"""The detailed results' tables by group (a track's ``GROUP_TABLES``, ``contract.py``).

Per group, the totals of the group's statistics stand for the item's totals and go through the
track's ``aggregate``, the one definition of its scores.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

from ..machinery.per_item import ScalarOps, column_totals
from ..tracks.registry import BY_NAME
from ..readers.result import TrackResult

GroupRow = Tuple[str, List[Any], List[Optional[float]]]  # (group, counts, scores: None where undefined)


def group_tables(result: TrackResult) -> List[Tuple[str, str, List[str], List[str], List[GroupRow], str]]:
    """The track's ``GROUP_TABLES`` for one scored file, each as (title, dimension, count labels,
    score keys, rows, note): per group, the totals of its statistics (``<column>|<dimension>:<group>``)
    stand for the item's totals and go through the track's ``aggregate``. A table whose scores the
    file was not scored on (absita without polarities: no ABSA) is left out."""
    track = BY_NAME[result.track]
    if not track.group_tables:
        return []
    statistics = result.statistics
    totals = column_totals(statistics)
    tables = []
    for title, dimension, groups, counts, keys, note in track.group_tables:
        if not all(key in result.scores for key in keys):
            continue
        rows: List[GroupRow] = []
        for group in groups:
            suffix = "|%s:%s" % (dimension, group)
            own = {name[:-len(suffix)]: value for name, value in totals.items() if name.endswith(suffix)}
            restricted = dict(totals, **own)
            try:  # a group without any statistic: no score (—), not the aggregate's 0 for 0/0
                scores = track.aggregate(statistics, restricted, ScalarOps) if any(own.values()) else {}
            except ZeroDivisionError:
                scores = {}
            rows.append((group, [restricted[column] for _, column in counts], [scores.get(key) for key in keys]))
        tables.append((title, dimension, [label for label, _ in counts], list(keys), rows, note))
    return tables
