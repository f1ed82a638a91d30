"""Per-item statistics, their column totals and the arithmetic of the aggregates: the shared
machinery under every track's statistics and ``aggregate`` (``contract.py``).

An *item* is a track's unit of resampling, with all of its rows (a meme, an article, an id, a
review). A track's ``score`` gives one row of numbers per item, the item's sufficient statistics
(``result.statistics``, an ``ItemStatistics``), and its module turns the column totals of any
selection of items into its scores (``aggregate(statistics, totals, ops, key)``). Its headline
scores and tables are that aggregate over every item once, computed from totals the track sums
while it scores (the per-item rows are built when first asked); the bootstrap resamples
(``scorer/outputs/resampling.py``) are the same aggregate over other selections.

The aggregates are written once for two kinds of numbers through the operations of an ``ops``
object: plain floats (``ScalarOps``, here) and arrays of resamples (``ranking.statistics.ArrayOps``,
the organisers' tool). Standard library only.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Mapping, Sequence

Totals = Mapping[str, Any]  # column name -> its total (a number, or an array of resamples)


class ItemStatistics:
    """One row of sufficient statistics per item, in the gold's item order.

    ``columns`` name the statistics; ``rows[i][j]`` is statistic j of item i (int or float).
    ``labels``: the technique (class) list the columns are built on, in the track's order.
    ``keys``: the score keys the track reported for this submission (absita reports only the
    subtasks a submission entered). The headline path builds one with no items and no rows: the
    aggregate reads only ``track``, ``labels`` and ``keys``.
    """

    __slots__ = ("track", "items", "columns", "rows", "labels", "keys")

    def __init__(self, track: str, items: List[str], columns: List[str], rows: List[tuple],
                 labels: Sequence[str] = (), keys: Sequence[str] = ()) -> None:
        self.track = track
        self.items = items
        self.columns = columns
        self.rows = rows
        self.labels = tuple(labels)
        self.keys = tuple(keys)


def column_totals(statistics: ItemStatistics) -> Dict[str, Any]:
    """Each column summed over every item once, item by item in the gold's order as the tracks add
    them while they score (a plain loop, never ``sum()``, which Python 3.12 made compensated for
    floats). A column starts at 0.0 when its value in the first item is a float, else at 0."""
    totals = []
    for column in zip(*statistics.rows) if statistics.rows else [()] * len(statistics.columns):
        total = 0.0 if column and isinstance(column[0], float) else 0
        for value in column:
            total += value
        totals.append(total)
    return dict(zip(statistics.columns, totals))


def numpy_mean(values: Sequence[float]) -> float:
    """The mean as numpy computes it for a contiguous float64 vector (pairwise summation).

    numpy adds blocks of up to 128 elements with eight running partial sums; reproducing that
    order keeps the macro average bit-identical to ``np.average``, not just within an ulp.
    """
    return _pairwise_sum(list(values)) / len(values) if values else 0.0


def _pairwise_sum(values: List[float]) -> float:
    n = len(values)
    if n < 8:
        total = -0.0
        for value in values:
            total += value
        return total
    if n <= 128:
        partial = values[:8]
        whole = n - n % 8
        for i in range(8, whole, 8):
            for j in range(8):
                partial[j] += values[i + j]
        total = ((partial[0] + partial[1]) + (partial[2] + partial[3])) + \
                ((partial[4] + partial[5]) + (partial[6] + partial[7]))
        for i in range(whole, n):
            total += values[i]
        return total
    half = n // 2
    half -= half % 8
    return _pairwise_sum(values[:half]) + _pairwise_sum(values[half:])


class ScalarOps:
    """The aggregates' operations on plain numbers, in the float steps of the tracks' own code."""

    @staticmethod
    def divide(numerator, denominator, default):
        return numerator / denominator if denominator else default

    @staticmethod
    def where(condition, if_true, if_false):
        return if_true if condition else if_false

    sqrt = staticmethod(math.sqrt)
    mean = staticmethod(numpy_mean)  # numpy's pairwise order: bit-identical to scikit-learn's macro
