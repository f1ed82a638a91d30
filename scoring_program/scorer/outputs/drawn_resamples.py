"""The bootstrap resamples drawn in the run, where no count lanes of the build fit
(``resample_counts.py``): the same resamples (``resampling.resample_indices``), drawn one at a time,
each summed over the reduced statistics of ``fast_intervals.py`` (integer and exact float columns
packed into one big integer per item, a field per column; the others added item by item in the
resample's order, as ``per_item.column_totals`` adds them), and the track's aggregate on each.
The numbers are those of the count lanes (``tests/test_fast_intervals.py``). Standard library only.
"""

from __future__ import annotations

import operator
from functools import reduce
from itertools import repeat, starmap
from math import floor
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..machinery.per_item import ItemStatistics, column_totals
from .fast_intervals import ResampleSums, _plans


class PackedSums:
    """The totals of ``sums``' columns over the items of any drawn resample: its integer columns
    share one big integer per item (a field per column, wide enough for any resample's total), so a
    resample's totals are one ``sum`` of big integers, then cut into fields; its other float columns
    are added item by item in the resample's order."""

    def __init__(self, sums: ResampleSums) -> None:
        self.sums = sums
        self.fields: List[Tuple[str, int, int, Optional[int]]] = []  # (column, shift, mask, float scale bits)
        self.items = [0] * len(sums.statistics.rows)
        shift = 0
        for column, integers, scale in sums.integer_columns:
            width = (max(integers, default=0) * len(integers)).bit_length() + 1
            self.fields.append((column, shift, (1 << width) - 1, scale))
            self.items = [item | (value << shift) for item, value in zip(self.items, integers)]
            shift += width

    def totals(self, indices: Sequence[int]) -> Dict[str, Any]:
        """The column totals over the items at ``indices`` (a non-empty resample)."""
        totals = dict(self.sums.base)
        if self.fields:
            packed = sum(map(self.items.__getitem__, indices))
            for column, shift, mask, scale in self.fields:
                total = (packed >> shift) & mask
                totals[column] = total if scale is None else total / (1 << scale)  # (correctly rounded)
        for column, values in self.sums.float_columns:
            start = 0.0 if isinstance(values[indices[0]], float) else 0
            totals[column] = reduce(operator.add, map(values.__getitem__, indices), start)
        return totals


def resampled_values(statistics: ItemStatistics, keys: Sequence[str],
                     resamples: Sequence[Sequence[int]]) -> Dict[str, List[Any]]:
    """key -> its value on each resample (``resamples``: lists of item indices), from the reduced
    statistics (``fast_intervals.py``: bit-identical to ``per_item.column_totals`` and the
    aggregate, but for float sums' last bit)."""
    from .resampling import aggregate
    values: Dict[str, List[Any]] = {key: [] for key in keys}
    if not len(statistics.items):
        for indices in resamples:
            totals = column_totals(statistics, indices)
            for key in keys:
                values[key].append(aggregate(statistics, totals, key=key)[key])
        return values
    plans = [(PackedSums(sums), form_keys) for sums, form_keys in _plans(statistics, keys)]
    for indices in resamples:
        for packed, form_keys in plans:
            scores = aggregate(packed.sums.statistics, packed.totals(indices),
                               key=form_keys[0] if len(form_keys) == 1 else None)
            for key in form_keys:
                values[key].append(scores[key])
    return values


def drawn_resamples(n_items: int, resamples: int, seed: int):
    """``resampling.resample_indices(n_items, resamples, seed)``, one resample at a time, without
    holding them all: the same draws, ``floor(random() * n)`` as ``random.Random(seed).choices``
    makes them on every Python since 3.6 (``int()`` before 3.9: the same for these nonnegative
    values), with the loop in C (``starmap``) instead of a list comprehension: the draws are most
    of the drawn intervals' cost."""
    import random
    draw = random.Random(seed).random
    size = float(n_items)
    for _ in range(resamples):
        yield list(map(floor, map(size.__mul__, starmap(draw, repeat((), n_items)))))


# The last draws made, for the next track with as many items: (n_items, resamples, seed), the draws.
_LAST_DRAWS: List[Any] = [None, None]
SHARED_DRAWS_LIMIT = 1_000_000  # items x resamples kept (8 bytes a draw); larger ones are streamed


def shared_draws(n_items: int, resamples: int, seed: int):
    """``drawn_resamples(n_items, resamples, seed)``, kept for the next call with the same arguments
    (tracks with as many items, SemEval-2021 Task 6's subtasks on one set of memes, draw once; up
    to ``SHARED_DRAWS_LIMIT`` draws; larger ones are drawn one resample at a time)."""
    key = (n_items, resamples, seed)
    if _LAST_DRAWS[0] == key:
        return _LAST_DRAWS[1]
    if n_items * resamples > SHARED_DRAWS_LIMIT:
        return drawn_resamples(n_items, resamples, seed)
    draws = list(drawn_resamples(n_items, resamples, seed))
    _LAST_DRAWS[0], _LAST_DRAWS[1] = key, draws
    return draws
