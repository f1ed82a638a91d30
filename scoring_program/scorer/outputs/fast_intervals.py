"""The bootstrap intervals of the detailed results and of ``score_locally.py`` at the price of the
scoring: the same resamples (``resampling.resample_indices``), summed over only what each ranking
score reads.

Three reductions of the per-item statistics, each exact or documented:

- **Only the columns the score reads.** ``columns_read`` runs the track's ``aggregate`` once on
  tracers (``_Reads``: numbers that remember which columns flowed into them, through the
  contract's operations), so a resample sums those columns and no others (nlu's ``nlu_score``:
  2 of 60). Other columns are given their all-items totals: they change no value of the score.
- **Pooled techniques** for the track's ``POOLED_KEYS`` (micro-F1, span P/R/F1: they read only the
  sums over the techniques), as ``rank_submissions.py`` pools them (``ranking.statistics.pool_labels``):
  each item's per-technique statistics summed, then the resample's sum over its items.
- **Exact sums.** Integer columns are exact in any order: bit-identical. Float columns of finite
  nonnegative values (the span tracks' precision and recall sums, nlu's q' + r' scores, absita's
  squared errors) are summed exactly (each float is an integer multiple of a power of two: summed
  as those integers) and rounded once, where the plain definition (``per_item.column_totals``) adds
  them item after item, rounding at every step: an interval end may differ from it in the last bit
  (the tracks' cards say so; to 1e-12, ``tests/test_fast_intervals.py``). Exact sums do not depend
  on the order of the items, so the resamples can be summed in any form: as drawn, or as counts.

Two ways to the same sums (``bootstrap_intervals``): the build's **count lanes** of the phase
(``resample_counts.py``: every resample's total of a column as one sum of big-integer products,
and the track's aggregate once over all resamples, ``lane_values``), or, without them, the
resamples **drawn** in the run (``drawn_resamples.py``: each summed as one big integer per item,
the columns packed into fields). Columns that are neither (negative values) are added item by
item in each drawn resample's order, as ``per_item.column_totals`` adds them: bit-identical.
Standard library only.
"""

from __future__ import annotations

import math
import operator
from functools import reduce
from itertools import repeat
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..machinery.per_item import ItemStatistics, ScalarOps, column_totals
from ..tracks.registry import BY_NAME
from .resample_counts import count_lanes, lane_totals


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
    columns = list(zip(*statistics.rows))  # (each item's sum over the techniques, in their order, from 0)
    pooled = [list(map(reduce, repeat(operator.add), zip(*[columns[position] for position in positions]), repeat(0)))
              for positions in groups]
    rows = list(zip(*pooled)) if pooled else [() for _ in statistics.rows]
    return ItemStatistics(statistics.track, statistics.items, ["%s|all" % kind for kind in members], rows, ("all",),
                          statistics.keys)


# --- the sums of one resample ---------------------------------------------------------------------

class ResampleSums:
    """What the totals of a few columns over the items of any resample are made of.

    ``integer_columns``: (column, its nonnegative integers, one per item, and None, or for a float
    column the power of two they are in units of): what the count lanes sum, and the drawn
    resamples pack into one big integer per item (``drawn_resamples.PackedSums``);
    ``float_columns``: (column, its values), added item by item in a drawn resample's order, as
    ``per_item.column_totals`` does; ``base``: every column's total over all items (the constants).
    """

    def __init__(self, statistics: ItemStatistics, columns: Sequence[str], exact_floats: bool = False) -> None:
        """``exact_floats``: float columns of finite nonnegative values are summed exactly, as
        integers of their binary fractions packed with the integer columns, and rounded once."""
        self.statistics = statistics
        rows = statistics.rows
        position = {column: i for i, column in enumerate(statistics.columns)}
        self.base = column_totals(statistics)  # every column's total: the constants
        self.float_columns: List[Tuple[str, List[Any]]] = []
        self.integer_columns: List[Tuple[str, List[int], Optional[int]]] = []
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
            self.integer_columns.append((column, integers, scale))


def _plans(statistics: ItemStatistics, keys: Sequence[str]) -> List[Tuple[ResampleSums, List[str]]]:
    """For each reduced form of the statistics, its sums and the keys scored from it."""
    track = BY_NAME[statistics.track]
    by_form: Dict[bool, List[str]] = {}
    for key in keys:
        by_form.setdefault(key in track.pooled_keys, []).append(key)
    plans = []
    for pooled, form_keys in by_form.items():
        form = pooled_statistics(statistics) if pooled else None
        found = [columns_read(form, key) for key in form_keys] if form is not None else [None]
        if None in found:  # (not pooled, or pooling does not tell: the statistics as they are)
            form = statistics
            found = [columns_read(form, key) for key in form_keys]
        read: set = set()
        for columns in found:
            read.update(form.columns if columns is None else columns)
        plans.append((ResampleSums(form, [column for column in form.columns if column in read], exact_floats=True),
                       form_keys))
    return plans


# --- every resample at once, from the count lanes -------------------------------------------------

class _Lanes(list):
    """One number's value on each resample: the arithmetic the aggregates' contract allows (the
    operators and ``&``, as on numpy arrays), lane by lane, each lane the very operation a number
    gets, so that every value is the one-resample-at-a-time value bit for bit."""

    __slots__ = ()

    def __bool__(self):  # the contract: an aggregate never branches on a total
        raise TypeError("an aggregate branched on a total")

    __hash__ = None  # type: ignore[assignment]


def _each(value):
    return value if isinstance(value, _Lanes) else repeat(value)


def _lanewise(operation):
    def forward(self, other):
        return _Lanes(map(operation, self, _each(other)))

    def reflected(self, other):
        return _Lanes(map(operation, repeat(other), self))
    return forward, reflected


for _name, _operation in (("add", operator.add), ("sub", operator.sub), ("mul", operator.mul),
                          ("truediv", operator.truediv), ("floordiv", operator.floordiv), ("mod", operator.mod),
                          ("pow", operator.pow), ("and", operator.and_), ("or", operator.or_),
                          ("xor", operator.xor)):
    _forward, _reflected = _lanewise(_operation)
    # (the in-place forms too: a list's += would extend it)
    setattr(_Lanes, "__%s__" % _name, _forward)
    setattr(_Lanes, "__i%s__" % _name, _forward)
    setattr(_Lanes, "__r%s__" % _name, _reflected)
for _name, _operation in (("lt", operator.lt), ("le", operator.le), ("gt", operator.gt), ("ge", operator.ge),
                          ("eq", operator.eq), ("ne", operator.ne)):
    setattr(_Lanes, "__%s__" % _name, _lanewise(_operation)[0])
for _name, _operation in (("neg", operator.neg), ("pos", operator.pos), ("abs", operator.abs),
                          ("invert", operator.invert)):
    setattr(_Lanes, "__%s__" % _name, lambda self, _operation=_operation: _Lanes(map(_operation, self)))


def _over_lanes(function, *values):
    """``function`` of numbers, lane by lane where a value is lanes (a number where none is)."""
    if not any(isinstance(value, _Lanes) for value in values):
        return function(*values)
    return _Lanes(map(function, *map(_each, values)))


class _LaneOps:
    """The contract's operations (``ScalarOps``'s, lane by lane)."""

    @staticmethod
    def divide(numerator, denominator, default):
        if not isinstance(denominator, _Lanes):
            return _over_lanes(ScalarOps.divide, numerator, denominator, default)
        # (ScalarOps.divide's expression, inline: a call per lane would be most of the aggregate's cost)
        return _Lanes([a / b if b else c for a, b, c in zip(_each(numerator), denominator, _each(default))])

    @staticmethod
    def where(condition, if_true, if_false):
        if not isinstance(condition, _Lanes):
            return _over_lanes(ScalarOps.where, condition, if_true, if_false)
        return _Lanes([t if c else f for c, t, f in zip(condition, _each(if_true), _each(if_false))])  # (ScalarOps.where's)

    @staticmethod
    def sqrt(value):
        return _over_lanes(ScalarOps.sqrt, value)

    @staticmethod
    def mean(values):
        return _over_lanes(lambda *lane: ScalarOps.mean(list(lane)), *values)


def lane_values(statistics: ItemStatistics, keys: Sequence[str], lanes: Sequence[int],
                resamples: int) -> Optional[Dict[str, List[Any]]]:
    """key -> its value on each resample that the count ``lanes`` count (``resample_counts.py``):
    the values ``resampled_values`` gives on those resamples, in the same order; None when a column
    read is not of nonnegative integers or floats (then they must be drawn).

    The track's aggregate runs once on every resample's totals (``_Lanes``), or, if it does what
    lanes cannot, once per resample."""
    from .resampling import aggregate
    plans = _plans(statistics, keys)
    if not len(statistics.items) or any(sums.float_columns for sums, _ in plans):
        return None
    values: Dict[str, List[Any]] = {key: [] for key in keys}
    for sums, form_keys in plans:
        names = [column for column, _, _ in sums.integer_columns]
        found_totals = lane_totals(lanes, [integers for _, integers, _ in sums.integer_columns], resamples)
        if found_totals is None:
            return None
        columns = [totals if scale is None else list(map((1 << scale).__rtruediv__, totals))  # (total / 2**scale)
                   for totals, (_, _, scale) in zip(found_totals, sums.integer_columns)]
        hint = form_keys[0] if len(form_keys) == 1 else None
        found = None
        try:
            scores = aggregate(sums.statistics, dict(sums.base, **{name: _Lanes(column) for name, column
                                                                   in zip(names, columns)}), _LaneOps, key=hint)
            found = {key: list(scores[key]) if isinstance(scores[key], _Lanes) else [scores[key]] * resamples
                     for key in form_keys}
            if any(len(found[key]) != resamples for key in form_keys):
                found = None
        except Exception:  # noqa: BLE001 (what lanes cannot do: one resample at a time, the plain way)
            found = None
        if found is None:
            found = {key: [] for key in form_keys}
            for row in (zip(*columns) if columns else repeat((), resamples)):
                totals = dict(sums.base)
                totals.update(zip(names, row))
                scores = aggregate(sums.statistics, totals, key=hint)
                for key in form_keys:
                    found[key].append(scores[key])
        for key in form_keys:
            values[key].extend(found[key])
    return values


def bootstrap_intervals(statistics: ItemStatistics, keys: Sequence[str], resamples: int, seed: int,
                        confidence: Tuple[int, int], reference_dir: Optional[str] = None,
                        max_work: Optional[int] = None) -> Optional[Dict[str, Tuple[float, float]]]:
    """key -> the percentile bootstrap interval of each of ``keys`` over ``resample_indices(items,
    resamples, seed)``: from the count lanes the build wrote into ``reference_dir`` where they fit,
    else drawn (the same numbers); None when drawing would cost more than ``max_work``
    (``resampling.interval_work``)."""
    from .resampling import interval_positions, interval_work
    values = None
    if reference_dir is not None and len(statistics.items):
        lanes = count_lanes(reference_dir, len(statistics.items), resamples, seed)
        if lanes is not None:
            values = lane_values(statistics, keys, lanes, resamples)
    if values is None:
        if max_work is not None and interval_work(statistics, resamples) > max_work:
            return None
        from .drawn_resamples import resampled_values, shared_draws
        values = resampled_values(statistics, keys, shared_draws(len(statistics.items), resamples, seed))
    intervals = {}
    for key in keys:
        ordered = sorted(values[key])
        low, high = interval_positions(len(ordered), confidence)
        intervals[key] = (ordered[low], ordered[high])
    return intervals
