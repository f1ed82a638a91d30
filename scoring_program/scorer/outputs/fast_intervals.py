"""The bootstrap intervals of the detailed results and of ``score_locally.py`` at the price of the
scoring: the same resamples (``resampling.resample_indices``, drawn one at a time), summed over
only what each ranking score reads.

Three reductions of the per-item statistics, each exact or documented:

- **Only the columns the score reads.** ``columns_read`` runs the track's ``aggregate`` once on
  tracers (``_Reads``: numbers that remember which columns flowed into them, through the
  contract's operations), so a resample sums those columns and no others (nlu's ``nlu_score``:
  2 of 60). Other columns are given their all-items totals: they change no value of the score.
- **Integer columns packed into one big integer per item**, one field per column, wide enough for
  any resample's total: a resample's totals are one ``sum`` of big integers, then cut into fields.
  Integer sums are exact in any order: bit-identical.
- **Pooled techniques** for the track's ``POOLED_KEYS`` (micro-F1, span P/R/F1: they read only the
  sums over the techniques), as ``rank_submissions.py`` pools them (``ranking.statistics.pool_labels``):
  each item's per-technique statistics summed, then the resample's sum over its items. For integer
  counts (t6_st1 and t6_st3 micro-F1) that is the same integers: bit-identical. The span tracks'
  float sums (precision and recall sums of partial overlaps: t6_st2, flc) are summed exactly (each
  float is an integer multiple of a power of two: packed as those integers with the counts) and
  rounded once, where the plain definition adds them per technique, item after item, rounding at
  every step: an interval end may differ from it in the last bit (the tracks' cards say so; to
  1e-12, ``tests/test_fast_intervals.py``).

Float columns that are not pooled (nlu's ``q_plus_r``, absita's squared errors) are added one item
at a time in the resample's order, as ``per_item.column_totals`` adds them: bit-identical.

The draws of the resamples depend only on the number of items (and the count and seed): tracks
with as many items (SemEval-2021 Task 6's subtasks on one set of memes) share one set of draws in a
process (``_shared_draws``). Standard library only.
"""

from __future__ import annotations

import math
import operator
import random
from fractions import Fraction
from functools import reduce
from itertools import repeat, starmap
from math import floor
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..machinery.per_item import ItemStatistics, column_totals
from ..tracks.registry import BY_NAME


# --- which columns a score reads ------------------------------------------------------------------

class _Reads:
    """A number standing for the columns that flowed into it (any operation: the union)."""

    __slots__ = ("columns",)

    def __init__(self, columns=frozenset()) -> None:
        self.columns = frozenset(columns)

    def _join(self, other=None):
        return _Reads(self.columns | other.columns) if isinstance(other, _Reads) else self

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _join
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __pow__ = __rpow__ = _join
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _join
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = _join
    __neg__ = __pos__ = __abs__ = __invert__ = _join
    __hash__ = None  # type: ignore[assignment]

    def __bool__(self):  # the contract: an aggregate never branches on a total
        raise TypeError("an aggregate branched on a total")


def _union(*values) -> _Reads:
    found = _Reads()
    for value in values:
        found = found._join(value)
    return found


class _ReadsOps:
    """The contract's operations on ``_Reads``."""

    @staticmethod
    def divide(numerator, denominator, default):
        return _union(numerator, denominator, default)

    @staticmethod
    def where(condition, if_true, if_false):
        return _union(condition, if_true, if_false)

    @staticmethod
    def sqrt(value):
        return _union(value)

    @staticmethod
    def mean(values):
        return _union(*values)


def columns_read(statistics: ItemStatistics, key: str) -> Optional[List[str]]:
    """The columns of ``statistics`` that score ``key`` of its track's ``aggregate`` reads, in column
    order; None when that cannot be told (the aggregate does what the contract does not allow on
    a total, or does not give ``key``): then every column.

    >>> from scorer.machinery.per_item import ItemStatistics
    >>> columns_read(ItemStatistics("nlu", [], ["q_plus_r", "q", "r", "ids"], []), "nlu_score")
    ['q_plus_r', 'ids']
    """
    totals = {column: _Reads((column,)) for column in statistics.columns}
    try:
        value = BY_NAME[statistics.track].aggregate(statistics, totals, _ReadsOps, key)[key]
    except Exception:  # noqa: BLE001 (any failure: fall back to every column, the plain way)
        return None
    read = value.columns if isinstance(value, _Reads) else frozenset()
    return [column for column in statistics.columns if column in read]


# --- pooling the techniques -----------------------------------------------------------------------

def pooled_statistics(statistics: ItemStatistics) -> Optional[ItemStatistics]:
    """Each item's per-technique columns ``<kind>|<technique>`` summed over the techniques in the
    order of ``statistics.labels`` (one column ``<kind>|all`` per kind, the labels ``("all",)``),
    as ``ranking.statistics.pool_labels`` pools them; None with fewer than two techniques."""
    labels = statistics.labels
    if len(labels) < 2:
        return None
    known = set(labels)
    members: Dict[str, List[int]] = {}
    for position, column in enumerate(statistics.columns):
        kind, bar, label = column.partition("|")
        if bar and label in known:
            members.setdefault(kind, []).append(position)
    groups = list(members.values())
    rows = []
    for row in statistics.rows:
        pooled = []
        for positions in groups:
            total = 0
            for position in positions:
                total += row[position]
            pooled.append(total)
        rows.append(tuple(pooled))
    return ItemStatistics(statistics.track, statistics.items, ["%s|all" % kind for kind in members], rows, ("all",),
                          statistics.keys)


# --- the sums of one resample ---------------------------------------------------------------------

class ResampleSums:
    """The totals of a few columns over the items of any resample.

    Integer columns of nonnegative values share one big integer per item (a field per column);
    the others are added item by item in the resample's order, as ``per_item.column_totals`` does.
    Every other column of ``statistics`` gets its total over all items once (a constant).
    """

    def __init__(self, statistics: ItemStatistics, columns: Sequence[str], exact_floats: bool = False) -> None:
        """``exact_floats``: float columns of finite nonnegative values are summed exactly, as
        integers of their binary fractions packed with the integer columns, and rounded once."""
        self.statistics = statistics
        rows = statistics.rows
        position = {column: i for i, column in enumerate(statistics.columns)}
        self.base = column_totals(statistics)  # every column's total: the constants
        self.packed_fields: List[Tuple[str, int, int, Optional[int]]] = []  # (column, shift, mask, float scale bits)
        self.float_columns: List[Tuple[str, List[Any]]] = []
        shift = 0
        packed_columns = []  # each packed column's nonnegative integers, one per item
        for column in columns:
            values = [row[position[column]] for row in rows]
            scale: Optional[int] = None  # an integer column
            if all(type(value) is int and value >= 0 for value in values):  # noqa: E721 (not bool, not float)
                integers = values
            elif exact_floats and all(type(value) is float and 0.0 <= value < math.inf for value in values):
                ratios = [value.as_integer_ratio() for value in values]  # denominators: powers of two
                scale = max(denominator.bit_length() - 1 for _, denominator in ratios) if ratios else 0
                integers = [numerator << (scale - denominator.bit_length() + 1) for numerator, denominator in ratios]
            else:
                self.float_columns.append((column, values))
                continue
            width = (max(integers, default=0) * len(rows)).bit_length() + 1
            self.packed_fields.append((column, shift, (1 << width) - 1, scale))
            packed_columns.append((integers, shift))
            shift += width
        self.packed = None
        if packed_columns:
            self.packed = [0] * len(rows)
            for integers, at in packed_columns:
                self.packed = [packed | (value << at) for packed, value in zip(self.packed, integers)]

    def totals(self, indices: Sequence[int]) -> Dict[str, Any]:
        """The column totals over the items at ``indices`` (a non-empty resample)."""
        totals = dict(self.base)
        if self.packed is not None:
            packed = sum(map(self.packed.__getitem__, indices))
            for column, shift, mask, scale in self.packed_fields:
                total = (packed >> shift) & mask
                totals[column] = total if scale is None else total / (1 << scale)  # (correctly rounded)
        for column, values in self.float_columns:
            start = 0.0 if isinstance(values[indices[0]], float) else 0
            totals[column] = reduce(operator.add, map(values.__getitem__, indices), start)
        return totals


def _plans(statistics: ItemStatistics, keys: Sequence[str]) -> List[Tuple[ResampleSums, List[str]]]:
    """For each reduced form of the statistics, its sums and the keys scored from it."""
    track = BY_NAME[statistics.track]
    by_form: Dict[bool, List[str]] = {}
    for key in keys:
        by_form.setdefault(key in track.pooled_keys, []).append(key)
    plans = []
    for pooled, form_keys in by_form.items():
        form = pooled_statistics(statistics) if pooled else None
        if form is not None and any(columns_read(form, key) is None for key in form_keys):
            form = None
        form = form if form is not None else statistics
        read: set = set()
        for key in form_keys:
            columns = columns_read(form, key)
            read.update(form.columns if columns is None else columns)
        plans.append((ResampleSums(form, [column for column in form.columns if column in read],
                                   exact_floats=form is not statistics), form_keys))
    return plans


def resampled_values(statistics: ItemStatistics, keys: Sequence[str],
                     resamples: Sequence[Sequence[int]]) -> Dict[str, List[Any]]:
    """key -> its value on each resample (``resamples``: lists of item indices), from the reduced
    statistics (the module's docstring: bit-identical to ``per_item.column_totals`` and the
    aggregate, but for the pooled float sums' last bit)."""
    from .resampling import aggregate
    values: Dict[str, List[Any]] = {key: [] for key in keys}
    if not len(statistics.items):
        for indices in resamples:
            totals = column_totals(statistics, indices)
            for key in keys:
                values[key].append(aggregate(statistics, totals, key=key)[key])
        return values
    plans = _plans(statistics, keys)
    for indices in resamples:
        for sums, form_keys in plans:
            scores = aggregate(sums.statistics, sums.totals(indices), key=form_keys[0] if len(form_keys) == 1 else None)
            for key in form_keys:
                values[key].append(scores[key])
    return values


def drawn_resamples(n_items: int, resamples: int, seed: int):
    """``resampling.resample_indices(n_items, resamples, seed)``, one resample at a time, without
    holding them all: the same draws, ``floor(random() * n)`` as ``random.Random(seed).choices``
    makes them on every Python since 3.6 (``int()`` before 3.9: the same for these nonnegative
    values), with the loop in C (``starmap``) instead of a list comprehension: the draws are most
    of the intervals' cost."""
    draw = random.Random(seed).random
    size = float(n_items)
    for _ in range(resamples):
        yield list(map(floor, map(size.__mul__, starmap(draw, repeat((), n_items)))))


# The last draws made, for the next track with as many items: (n_items, resamples, seed), the draws.
_LAST_DRAWS: List[Any] = [None, None]
SHARED_DRAWS_LIMIT = 1_000_000  # items x resamples kept (8 bytes a draw); larger ones are streamed


def _shared_draws(n_items: int, resamples: int, seed: int):
    """``drawn_resamples(n_items, resamples, seed)``, kept for the next call with the same arguments
    (up to ``SHARED_DRAWS_LIMIT`` draws; larger ones are drawn one resample at a time)."""
    key = (n_items, resamples, seed)
    if _LAST_DRAWS[0] == key:
        return _LAST_DRAWS[1]
    if n_items * resamples > SHARED_DRAWS_LIMIT:
        return drawn_resamples(n_items, resamples, seed)
    draws = list(drawn_resamples(n_items, resamples, seed))
    _LAST_DRAWS[0], _LAST_DRAWS[1] = key, draws
    return draws


def bootstrap_intervals(statistics: ItemStatistics, keys: Sequence[str], resamples: int, seed: int,
                        confidence: Fraction) -> Dict[str, Tuple[float, float]]:
    """key -> the percentile bootstrap interval of each of ``keys`` over ``resample_indices(items,
    resamples, seed)``."""
    from .resampling import interval_positions
    values = resampled_values(statistics, keys, _shared_draws(len(statistics.items), resamples, seed))
    intervals = {}
    for key in keys:
        ordered = sorted(values[key])
        low, high = interval_positions(len(ordered), confidence)
        intervals[key] = (ordered[low], ordered[high])
    return intervals
