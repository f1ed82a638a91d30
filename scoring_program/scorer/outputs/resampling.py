"""Per-item statistics and bootstrap resamples: what confidence intervals and significance stand on.

Generic: each track's ``score`` gives its per-item statistics (``result.statistics``, an
``ItemStatistics``) and its module declares their ``aggregate(statistics, totals, ops, key)`` and
its ``LEADERBOARDS``; this module dispatches to them through the registry (``result.statistics``,
``aggregate``), lists the leaderboards, and holds what is the same for every track: the
resamples and the intervals (scoring a submission in process: ``in_process.py``). The row type, the column totals
and the scalar operations live in ``per_item.py`` (light: the scoring path imports them; this
module stays off it but where a phase shows intervals).

Over all items, each once, the aggregate equals the track's headline scores bit for bit (the
tracks compute their headline with the same aggregate; ``tests/test_resampling.py``); over a
bootstrap resample it is the resample's score.

``resample_indices`` is the one definition of the resamples (``random.Random(seed)``): the
organisers' ``rank_submissions.py`` (numpy) and the participants' ``score_locally.py`` (this
module, standard library only) draw the same ones.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..machinery.per_item import ItemStatistics, ScalarOps, Totals, column_totals, nonzero_count  # noqa: F401 (the public names)
from ..tracks.registry import BY_NAME, TRACKS
from ..readers.result import TrackResult

# The scores that get a confidence interval, a rank and significance groups: one leaderboard per
# entry, (name, track, key, higher is better), from the track modules' LEADERBOARDS (each track's
# ranking score; absita's the three subtasks of EVALITA 2020), the direction from their LOWER_IS_BETTER.
LEADERBOARDS: Tuple[Tuple[str, str, str, bool], ...] = tuple(
    (name, track.name, key, key not in track.lower_is_better) for track in TRACKS for name, key in track.leaderboards)

# 95%, as a ratio of integers (numerator, denominator): the ranks are exact integer arithmetic (a
# Fraction is taken too; ``fractions`` is left off the run's path, where its import is a tenth of the
# intervals' cost).
CONFIDENCE = (95, 100)


def _ratio(value) -> Tuple[int, int]:
    """(numerator, denominator) of a (numerator, denominator) pair, a Fraction or an int."""
    return (value.numerator, value.denominator) if hasattr(value, "numerator") else (int(value[0]), int(value[1]))


def aggregate(statistics: ItemStatistics, totals: Totals, ops=ScalarOps, key: Optional[str] = None
              ) -> Dict[str, Any]:
    """The track's scores from column totals (a mapping column -> number, or -> array with
    ``ops=ranking.statistics.ArrayOps``), by its track module's ``aggregate``. ``key``: only that
    score is needed (a hint: the multilabel tracks then skip the 20-odd per-class F1 of the macro
    average; other keys may come too)."""
    return BY_NAME[statistics.track].aggregate(statistics, totals, ops, key)


# --- resamples --------------------------------------------------------------------------------------

def resample_indices(n_items: int, resamples: int, seed: int) -> List[List[int]]:
    """``resamples`` bootstrap samples of ``n_items`` item indices drawn with replacement.

    The one definition both the organisers' tool and ``score_locally.py`` use: ``random.Random(seed)``
    and ``choices`` (whose draws are the same on every Python since 3.6).
    """
    import random
    rng = random.Random(seed)
    population = range(n_items)
    return [rng.choices(population, k=n_items) for _ in range(resamples)]


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


def confidence_interval(statistics: ItemStatistics, key: str, resamples: Sequence[Sequence[int]],
                        confidence=CONFIDENCE) -> Tuple[float, float]:
    """The percentile bootstrap interval of score ``key`` over ``resamples`` (standard library; the
    sums of only what the score reads: ``fast_intervals.py``)."""
    from .drawn_resamples import resampled_values
    values = sorted(resampled_values(statistics, [key], resamples)[key])
    low, high = interval_positions(len(values), confidence)
    return values[low], values[high]


# --- the intervals of the detailed results and of score_locally.py ----------------------------------

# The detailed results (phase settings "full" and ``interval_resamples``, 1000 in Development) and
# score_locally.py (--resamples, 1000 by default) show each ranking score's interval from these
# resamples: the same draws, so the same numbers.
INTERVAL_RESAMPLES = 1000
INTERVAL_SEED = 0
# Where a run must draw the resamples (no count lanes of the build fit: resample_counts.py), score.py
# computes the page's intervals only while resamples x (nonzero statistics + columns) stays below
# this: about 2-4 s of pure Python, which every real-size phase of the tasks is below (flc's 350
# training articles: 1.3e7); a phase ten times larger gets a line saying where to compute them
# (score_locally.py, rank_submissions.py) instead of minutes of waiting. The count lanes are bounded
# by their own size (MAX_LANES).
MAX_INTERVAL_WORK = 20_000_000


def interval_signature(resamples: int = INTERVAL_RESAMPLES, seed: int = INTERVAL_SEED, confidence=CONFIDENCE) -> str:
    """How the intervals were drawn, as a signature part: ``ci95|bootstrap:1000|seed:0``."""
    numerator, denominator = _ratio(confidence)
    if numerator * 100 % denominator:  # (not a whole percent: as a fraction, 199/2)
        from fractions import Fraction
        percent = str(Fraction(numerator * 100, denominator))
    else:
        percent = str(numerator * 100 // denominator)
    return "ci%s|bootstrap:%d|seed:%d" % (percent, resamples, seed)


def interval_work(statistics: ItemStatistics, resamples: int = INTERVAL_RESAMPLES) -> int:
    return resamples * (nonzero_count(statistics) + len(statistics.columns))


def ranking_intervals(result: TrackResult, resamples: int = INTERVAL_RESAMPLES, seed: int = INTERVAL_SEED,
                      max_work: Optional[int] = None, reference_dir: Optional[str] = None
                      ) -> Optional[Dict[str, Tuple[float, float]]]:
    """key -> the 95% percentile bootstrap interval of each ranking score of ``result`` (its
    track's ``LEADERBOARDS`` keys it reported), from ``resample_indices(items, resamples, seed)``;
    None when drawing them would cost more than ``max_work`` (``interval_work``). ``reference_dir``:
    the phase's reference data, whose count lanes (``resample_counts.py``) spare the draws (and
    bound the cost by their size)."""
    from .fast_intervals import bootstrap_intervals
    keys = [key for _, key in BY_NAME[result.track].leaderboards if key in result.scores]
    return bootstrap_intervals(result.statistics, keys, resamples, seed, CONFIDENCE, reference_dir, max_work)
