"""nlu's per-item statistics (one row per id, the resampling unit) and their groups, the tables
of the detailed results: what the organisers' confidence intervals and significance stand on."""

from __future__ import annotations

from typing import Sequence, Tuple

from ...machinery.per_item import ItemStatistics
from .names import NAME

# Per id (gold order): q' + r' of the best gold answer (as the score adds them), q', r' and 1.
COLUMNS = ["q_plus_r", "q", "r", "ids"]
SCORE_BINS = tuple("%.1f-%.1f" % (b / 10, (b + 1) / 10) for b in range(10))
LENGTH_BINS = ("1-10", "11-20", "21-40", "41+")
# The detailed results' tables by group (phase setting "full"): (title, dimension, its groups,
# (label, column) counts shown, the keys of ``aggregate`` over each group's totals, a note). Each
# group's statistics are the item's columns restricted to it: ``<column>|<dimension>:<group>``.
GROUP_TABLES = (
    ("Spread of the ids' scores", "score", SCORE_BINS, (("ids", "ids"),), ("nlu_score",),
     "Each id's score, (q' ratio + r' ratio) / 2 of its best gold answer, in tenths (the last includes 1.0)."),
    ("By the length of the gold answer", "length", LENGTH_BINS, (("ids", "ids"),), ("nlu_score", "nlu_q", "nlu_r"),
     "Tokens of the chosen gold answer, q' and r' together (as scored: 1-character punctuation removed)."),
)
GROUP_COLUMNS = ["%s|%s:%s" % (column, dimension, group) for _, dimension, groups, _, _, _ in GROUP_TABLES
                 for group in groups for column in COLUMNS]


def _groups(score: float, gold_tokens: int) -> Tuple[str, str]:
    """The score and length groups of an id."""
    length = next((bin_ for bin_, top in zip(LENGTH_BINS, (10, 20, 40)) if gold_tokens <= top), LENGTH_BINS[-1])
    return SCORE_BINS[min(int(score * 10), 9)], length


def id_statistics(ids: Sequence[str], rows: Sequence[Tuple[float, float, float, int]], lengths: Sequence[int],
                  keys: Sequence[str]) -> ItemStatistics:
    """Per id (gold order): q' + r' of the best gold answer (as the score adds them), q', r' and 1;
    then the same in the columns of its score and length groups (``GROUP_TABLES``), 0 elsewhere."""
    position = {name: k for k, name in enumerate(GROUP_COLUMNS)}
    zeros = [0.0, 0.0, 0.0, 0] * (len(GROUP_COLUMNS) // 4)
    grouped_rows = []
    for values, length in zip(rows, lengths):
        grouped = list(zeros)
        for dimension, group in zip(("score", "length"), _groups(values[0] / 2, length)):
            for column, value in zip(COLUMNS, values):
                grouped[position["%s|%s:%s" % (column, dimension, group)]] = value
        grouped_rows.append(tuple(values) + tuple(grouped))
    return ItemStatistics(NAME, list(ids), list(COLUMNS) + GROUP_COLUMNS, grouped_rows, (), tuple(keys))



def ratio(common: int, predicted: int, gold: int) -> float:
    """An answer's LCS over the union of its tokens and the gold's (0 when both are empty)."""
    union = predicted + gold - common
    return common / union if union else 0.0
