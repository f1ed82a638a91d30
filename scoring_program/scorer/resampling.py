"""Per-item statistics and bootstrap resamples: what confidence intervals and significance stand on.

Generic: each track module declares its own per-item statistics and aggregate
(``item_statistics(result) -> ItemStatistics``, ``aggregate(statistics, totals, ops, key)``) and
its ``LEADERBOARDS``; this module dispatches to them through the registry (``item_statistics``,
``aggregate``), lists the leaderboards, and holds what is the same for every track: the
resamples, the intervals, and scoring a submission in process. The row type, the column totals
and the scalar operations live in ``per_item.py`` (light: the scoring path imports them; this
module, with ``fractions``, stays off it).

Over all items, each once, the aggregate equals the track's headline scores bit for bit (the
tracks compute their headline with the same aggregate; ``tests/test_resampling.py``); over a
bootstrap resample it is the resample's score.

``resample_indices`` is the one definition of the resamples (``random.Random(seed)``): the
organisers' ``rank_submissions.py`` (numpy) and the participants' ``score_locally.py`` (this
module, standard library only) draw the same ones.
"""

from __future__ import annotations

import math
import os
import random
from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .per_item import ItemStatistics, ScalarOps, Totals, column_totals  # noqa: F401 (the public names)
from .registry import BY_NAME, TRACKS
from .result import TrackResult

# The scores that get a confidence interval, a rank and significance groups: one leaderboard per
# entry, (name, track, key, higher is better), from the track modules' LEADERBOARDS (each track's
# ranking score; absita's the three subtasks of EVALITA 2020), the direction from their LOWER_IS_BETTER.
LEADERBOARDS: Tuple[Tuple[str, str, str, bool], ...] = tuple(
    (name, track.name, key, key not in track.lower_is_better) for track in TRACKS for name, key in track.leaderboards)

CONFIDENCE = Fraction(95, 100)


def item_statistics(result: TrackResult) -> ItemStatistics:
    """The per-item sufficient statistics of a scored submission (from ``result.private``), by
    its track module's ``item_statistics``."""
    return BY_NAME[result.track].implementation().item_statistics(result)


def aggregate(statistics: ItemStatistics, totals: Totals, ops=ScalarOps, key: Optional[str] = None
              ) -> Dict[str, Any]:
    """The track's scores from column totals (a mapping column -> number, or -> array with
    ``ops=ranking.statistics.ArrayOps``), by its track module's ``aggregate``. ``key``: only that
    score is needed (a hint: the multilabel tracks then skip the 20-odd per-class F1 of the macro
    average; other keys may come too)."""
    return BY_NAME[statistics.track].implementation().aggregate(statistics, totals, ops, key)


# --- resamples --------------------------------------------------------------------------------------

def resample_indices(n_items: int, resamples: int, seed: int) -> List[List[int]]:
    """``resamples`` bootstrap samples of ``n_items`` item indices drawn with replacement.

    The one definition both the organisers' tool and ``score_locally.py`` use: ``random.Random(seed)``
    and ``choices`` (whose draws are the same on every Python since 3.6).
    """
    rng = random.Random(seed)
    population = range(n_items)
    return [rng.choices(population, k=n_items) for _ in range(resamples)]


def nearest_rank(count: int, fraction: Fraction) -> int:
    """The 0-based position of the nearest-rank ``fraction`` percentile in ``count`` sorted values
    (the smallest value with at least that fraction of the values at or below it).

    >>> nearest_rank(1000, Fraction(25, 1000)), nearest_rank(1000, Fraction(975, 1000))
    (24, 974)
    """
    return max(0, math.ceil(Fraction(fraction) * count) - 1)


def interval_positions(count: int, confidence: Fraction = CONFIDENCE) -> Tuple[int, int]:
    """Positions of the two ends of the central ``confidence`` interval among ``count`` sorted values."""
    tail = (1 - Fraction(confidence)) / 2
    return nearest_rank(count, tail), nearest_rank(count, 1 - tail)


def confidence_interval(statistics: ItemStatistics, key: str, resamples: Sequence[Sequence[int]],
                        confidence: Fraction = CONFIDENCE) -> Tuple[float, float]:
    """The percentile bootstrap interval of score ``key`` over ``resamples`` (standard library)."""
    values = sorted(aggregate(statistics, column_totals(statistics, indices), key=key)[key] for indices in resamples)
    low, high = interval_positions(len(values), confidence)
    return values[low], values[high]


class ReferenceDataProblem(Exception):
    """The phase's gold cannot be read: nothing can be scored (an organiser's problem)."""


def score_in_process(reference_dir: str, res_dir: str, program_dir: str
                     ) -> Tuple[Dict[str, TrackResult], Dict[str, List[str]], List[str]]:
    """Score a submission's ``res/`` folder as ``score.py`` does, in this process.

    Returns (track name -> result, track name -> the problem lines of a refused file,
    problem lines of the submission as a whole). ``program_dir`` holds ``scoring_config.json``.
    A fault of the scoring program on one file is that file's problem line, as in ``score.py``.
    """
    from .options import load_options
    from .problems import ProgramError, ReferenceDataError, SubmissionError
    from .registry import TRACKS
    from .submission import locate_submission

    try:
        options = load_options(program_dir, reference_dir)
    except ReferenceDataError as error:
        raise ReferenceDataProblem("reference data: " + "; ".join(error.private[:5])) from None
    phase_tracks = [(track, track.find_gold(reference_dir)) for track in TRACKS]
    phase_tracks = [(track, gold) for track, gold in phase_tracks if gold is not None]
    results: Dict[str, TrackResult] = {}
    refused: Dict[str, List[str]] = {}
    try:
        submission = locate_submission(res_dir, [track for track, _ in phase_tracks])
    except SubmissionError as error:
        return results, refused, list(error.lines)
    for track, gold_path in phase_tracks:
        submitted = submission.files.get(track.filename)
        if submitted is None:
            continue
        try:
            results[track.name] = track.scorer()(gold_path, submitted, track.filename, options, reference_dir)
        except SubmissionError as error:
            refused[track.name] = list(error.lines)
        except ReferenceDataError as error:
            raise ReferenceDataProblem("reference data: " + "; ".join(error.private[:5])) from None
        except ProgramError as error:  # as score.py words it
            refused[track.name] = ["%s: the scoring program cannot score this file as installed: %s"
                                   % (track.filename, error)]
        except Exception as error:  # a bug of ours: this file's problem, not the end of the run
            refused[track.name] = ["%s: internal error of the scoring program (%s: %s)"
                                   % (track.filename, type(error).__name__, error)]
    return results, refused, []


def default_program_dir() -> str:
    """The scoring program this module belongs to."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
