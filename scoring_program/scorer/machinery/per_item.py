"""Per-item statistics, their column totals and the arithmetic of the aggregates: the shared
machinery under every track's statistics and ``aggregate`` (``contract.py``).

An *item* is a track's unit of resampling, with all of its rows (a meme, an article, an id, a
review). A track's ``score`` gives one row of numbers per item, the item's sufficient statistics
(``result.statistics``, an ``ItemStatistics``), and its module turns the column totals of any
selection of items into its scores (``aggregate(statistics, totals, ops, key)``). Its headline
scores and tables are that aggregate over every item once, computed from totals the track sums
while it scores (no per-item rows on the scoring path: the rows are built when first asked); the
bootstrap resamples (``resampling.py``) are the same aggregate over other selections.

The aggregates are written once for two kinds of numbers through the operations of an ``ops``
object: plain floats (``ScalarOps``, here) and arrays of resamples (``ranking.statistics.ArrayOps``,
the organisers' tool). Standard library only, and light: the scoring path imports it.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Mapping, Optional, Sequence

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


def column_totals(statistics: ItemStatistics, indices: Optional[Sequence[int]] = None) -> Dict[str, Any]:
    """Each column summed over the items at ``indices`` (default: every item once), item by item
    in that order as the tracks add them while they score (a plain loop, never ``sum()``, which
    Python 3.12 made compensated for floats). A column starts at 0.0 when its value in the first
    item is a float, else at 0.

    Zeros are skipped: adding 0 changes no total, so the sums are the plain loop's, bit for bit,
    and a resample costs the nonzero statistics of its items, not items x columns (score.py
    computes 1,000 of them per ranking score for the detailed results of a Development phase).
    """
    rows = statistics.rows
    if indices is None:  # every item once: the plain loop (no table of nonzero entries to build)
        totals = []
        for column in zip(*rows) if rows else [()] * len(statistics.columns):
            total = 0.0 if column and isinstance(column[0], float) else 0
            for value in column:
                total += value
            totals.append(total)
        return dict(zip(statistics.columns, totals))
    if not len(indices):
        return dict.fromkeys(statistics.columns, 0)
    totals = [0.0 if isinstance(value, float) else 0 for value in rows[indices[0]]]
    nonzero = _nonzero_entries(statistics)
    for index in indices:
        for column, value in nonzero[index]:
            totals[column] += value
    return dict(zip(statistics.columns, totals))


_NONZERO_CACHE: List[Any] = [None, None]  # [the rows list last seen, its nonzero entries]


def nonzero_count(statistics: ItemStatistics) -> int:
    """How many nonzero statistics the items have: what one resample's totals cost (counted
    without keeping anything: a phase too large for its intervals costs one pass, no memory)."""
    count = 0
    for row in statistics.rows:
        for value in row:
            if value:
                count += 1
    return count


def _nonzero_entries(statistics: ItemStatistics) -> List[List[tuple]]:
    """Per item, its (column number, value) pairs whose value is not zero (computed once for the
    rows of the statistics last resampled)."""
    if _NONZERO_CACHE[0] is not statistics.rows:
        _NONZERO_CACHE[1] = [[(column, value) for column, value in enumerate(row) if value]
                             for row in statistics.rows]
        _NONZERO_CACHE[0] = statistics.rows
    return _NONZERO_CACHE[1]


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
