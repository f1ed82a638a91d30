"""Bootstrap resamples of a track's items and the percentile intervals of its ranking scores.

An item is a track's unit of resampling (a meme, an article, an id, a review) with its row of
sufficient statistics (``result.statistics``, ``per_item.ItemStatistics``); the track's
``aggregate`` turns the column totals of any selection of items into its scores (over every item
once: its headline scores, bit for bit). A resample draws as many items as there are, with
replacement: ``random.Random(seed)``, then ``choices(range(n), k=n)`` once per resample
(``resample_draws``; the same draws on every Python from 3.6, and those of the organisers'
``rank_submissions.py`` and of ``score_locally.py``). Its score is the aggregate of its totals:
each column the score reads summed over the drawn items, integers exactly and floats with
``math.fsum`` (correctly rounded, so the same on every Python); for the keys of the track's
``POOLED_KEYS`` each item's techniques are pooled first, as ``ranking.statistics.pool_labels``
pools them. The interval's ends are the nearest-rank percentiles of the resamples' scores
(``interval_positions``). Standard library only.
"""

from __future__ import annotations

import math
import random
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from ..machinery.per_item import ItemStatistics, ScalarOps, Totals, column_totals
from ..readers.result import TrackResult
from ..tracks.registry import BY_NAME, TRACKS

# The scores that get a confidence interval, a rank and significance groups: one leaderboard per
# entry, (name, track, key, higher is better), from the track modules' LEADERBOARDS (each track's
# ranking score; absita's the three subtasks of EVALITA 2020), the direction from their LOWER_IS_BETTER.
LEADERBOARDS: Tuple[Tuple[str, str, str, bool], ...] = tuple(
    (name, track.name, key, key not in track.lower_is_better) for track in TRACKS for name, key in track.leaderboards)

CONFIDENCE = (95, 100)  # as (numerator, denominator): the percentile positions are integer arithmetic
INTERVAL_RESAMPLES = 1000  # score_locally.py's default; a phase's interval_resamples sets the page's
INTERVAL_SEED = 0
# The page's bound on the values a phase's intervals draw and sum: resamples x items x (columns
# read + 1, the draw), about a second of the loop (benchmarks/RESULTS.md). A larger phase draws fewer
# resamples, never fewer than MIN_INTERVAL_RESAMPLES: with 100, each 2.5% tail still holds two
# resamples beyond its end (below 40 the end would be the extreme value itself).
MAX_INTERVAL_SUMS = 20_000_000
MIN_INTERVAL_RESAMPLES = 100


def aggregate(statistics: ItemStatistics, totals: Totals, ops=ScalarOps, key: Optional[str] = None
              ) -> Dict[str, Any]:
    """The track's scores from column totals (a mapping column -> number, or -> array with
    ``ops=ranking.statistics.ArrayOps``), by its track module's ``aggregate``. ``key``: only that
    score is needed (a hint; other keys may come too)."""
    return BY_NAME[statistics.track].aggregate(statistics, totals, ops, key)


def resample_draws(n_items: int, resamples: int, seed: int) -> Iterator[List[int]]:
    """The ``resamples`` bootstrap samples of ``n_items`` item indices, one at a time."""
    rng = random.Random(seed)
    population = range(n_items)
    for _ in range(resamples):
        yield rng.choices(population, k=n_items)


def resample_indices(n_items: int, resamples: int, seed: int) -> List[List[int]]:
    """``resample_draws`` as a list (the organisers' tool counts them into a matrix)."""
    return list(resample_draws(n_items, resamples, seed))


def _ratio(value) -> Tuple[int, int]:
    """(numerator, denominator) of a (numerator, denominator) pair, a Fraction or an int."""
    return (value.numerator, value.denominator) if hasattr(value, "numerator") else (int(value[0]), int(value[1]))


def nearest_rank(count: int, fraction) -> int:
    """The 0-based position of the nearest-rank ``fraction`` percentile in ``count`` sorted values
    (the smallest value with at least that fraction of the values at or below it); ``fraction``:
    (numerator, denominator), or a Fraction.

    >>> nearest_rank(1000, (25, 1000)), nearest_rank(1000, (975, 1000))
    (24, 974)
    """
    numerator, denominator = _ratio(fraction)
    return max(0, -(-count * numerator // denominator) - 1)


def interval_positions(count: int, confidence=CONFIDENCE) -> Tuple[int, int]:
    """Positions of the two ends of the central ``confidence`` interval among ``count`` sorted values."""
    numerator, denominator = _ratio(confidence)  # the tails: (1 - c) / 2 and (1 + c) / 2
    return (nearest_rank(count, (denominator - numerator, 2 * denominator)),
            nearest_rank(count, (denominator + numerator, 2 * denominator)))


def interval_signature(resamples: int = INTERVAL_RESAMPLES, seed: int = INTERVAL_SEED, confidence=CONFIDENCE) -> str:
    """How the intervals were drawn, as a signature part: ``ci95|bootstrap:1000|seed:0``.

    >>> interval_signature(200, 3, (995, 1000))
    'ci99.5|bootstrap:200|seed:3'
    """
    numerator, denominator = _ratio(confidence)
    percent = "%.10g" % (100.0 * numerator / denominator)
    return "ci%s|bootstrap:%d|seed:%d" % (percent, resamples, seed)


# --- the scores of resamples ----------------------------------------------------------------------

class _ReadColumns(dict):
    """Totals that record which columns an aggregate reads (the contract: by ``totals[column]``
    only, never branching on a value, so one call tells them all)."""

    def __init__(self, totals: Dict[str, Any]) -> None:
        super().__init__(totals)
        self.read: set = set()

    def __getitem__(self, column: str) -> Any:
        self.read.add(column)
        return dict.__getitem__(self, column)


def _summer(values: Sequence):
    """How a column's values add up over a resample: integers exactly, floats correctly rounded."""
    return math.fsum if any(isinstance(value, float) for value in values) else sum


def pooled_techniques(statistics: ItemStatistics) -> Tuple[ItemStatistics, Dict[str, List[Any]]]:
    """The statistics with each item's techniques pooled: each ``<kind>|<technique>`` column summed
    over the techniques in the order of ``statistics.labels`` into one column ``<kind>|all`` (the
    labels ``("all",)``), as ``ranking.statistics.pool_labels`` pools them; with the pooled columns'
    values, one per item."""
    known = set(statistics.labels)
    members: Dict[str, List[int]] = {}
    for position, column in enumerate(statistics.columns):
        kind, bar, label = column.partition("|")
        if bar and label in known:
            members.setdefault(kind, []).append(position)
    columns: Dict[str, List[Any]] = {}
    for kind, positions in members.items():
        pooled = []
        for row in statistics.rows:
            total = 0
            for position in positions:
                total = total + row[position]
            pooled.append(total)
        columns[kind + "|all"] = pooled
    form = ItemStatistics(statistics.track, statistics.items, list(columns), [], ("all",), statistics.keys)
    return form, columns


def _scored_forms(statistics: ItemStatistics, keys: Sequence[str]) -> List[tuple]:
    """For each form the keys are scored on (the statistics as they are; the techniques pooled for
    the keys of the track's ``POOLED_KEYS``): (form, the key hint, its keys, [(column, its values,
    how they add up)] for the columns its keys read)."""
    pooled_keys = BY_NAME[statistics.track].pooled_keys
    by_form: Dict[bool, List[str]] = {}
    for key in keys:
        by_form.setdefault(key in pooled_keys and len(statistics.labels) > 1, []).append(key)
    forms = []
    for pooled, form_keys in by_form.items():
        if pooled:
            form, columns = pooled_techniques(statistics)
            totals = {column: _summer(values)(values) for column, values in columns.items()}
        else:
            form, columns, totals = statistics, {}, column_totals(statistics)
        hint = form_keys[0] if len(form_keys) == 1 else None
        reads = _ReadColumns(totals)
        aggregate(form, reads, key=hint)
        read = []
        for position, column in enumerate(form.columns):
            if column in reads.read:
                values = columns[column] if pooled else [row[position] for row in statistics.rows]
                read.append((column, values, _summer(values)))
        forms.append((form, hint, form_keys, read))
    return forms


def _scores(forms: List[tuple], keys: Sequence[str], resamples: Iterable[Sequence[int]]) -> Dict[str, List[Any]]:
    """key -> its score on each of ``resamples`` (lists of item indices), in their order."""
    scores: Dict[str, List[Any]] = {key: [] for key in keys}
    for indices in resamples:
        for form, hint, form_keys, read in forms:
            totals = {column: add(map(values.__getitem__, indices)) for column, values, add in read}
            found = aggregate(form, totals, key=hint)
            for key in form_keys:
                scores[key].append(found[key])
    return scores


def bootstrap_intervals(statistics: ItemStatistics, keys: Sequence[str], resamples: int, seed: int,
                        confidence=CONFIDENCE, max_sums: Optional[int] = None
                        ) -> Tuple[int, Dict[str, Tuple[Any, Any]]]:
    """(the resamples drawn, key -> the percentile bootstrap interval (low, high) of each of
    ``keys`` over ``resample_draws(items, resamples, seed)``). With ``max_sums``, fewer resamples
    when drawing and summing ``resamples`` would take more than that many values (resamples x
    items x (columns read + 1)), never fewer than ``MIN_INTERVAL_RESAMPLES``."""
    forms = _scored_forms(statistics, keys)
    n_items = len(statistics.items)
    per_resample = max(1, n_items * (1 + sum(len(read) for _, _, _, read in forms)))
    if max_sums is not None and resamples * per_resample > max_sums:
        resamples = min(resamples, max(MIN_INTERVAL_RESAMPLES, max_sums // per_resample))
    scores = _scores(forms, keys, resample_draws(n_items, resamples, seed))
    low, high = interval_positions(resamples, confidence)
    intervals = {}
    for key in keys:
        ordered = sorted(scores[key])
        intervals[key] = (ordered[low], ordered[high])
    return resamples, intervals


def ranking_intervals(result: TrackResult, resamples: int = INTERVAL_RESAMPLES, seed: int = INTERVAL_SEED,
                      max_sums: Optional[int] = None) -> Tuple[int, Dict[str, Tuple[Any, Any]]]:
    """``bootstrap_intervals`` of each ranking score of ``result`` (its track's ``LEADERBOARDS``
    keys it reported)."""
    keys = [key for _, key in BY_NAME[result.track].leaderboards if key in result.scores]
    return bootstrap_intervals(result.statistics, keys, resamples, seed, max_sums=max_sums)
