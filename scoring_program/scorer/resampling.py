"""Per-item statistics and bootstrap resamples: what confidence intervals and significance stand on.

An *item* is the task's unit of resampling, with all of its rows: a meme (t6_st1, t6_st2, t6_st3),
an article (flc), an id (nlu), a review (absita). ``item_statistics`` turns a ``TrackResult`` (its
in-memory per-item details, ``result.private``) into one row of numbers per item, the item's
sufficient statistics; ``aggregate`` turns the column totals of any selection of items into the
track's scores. Over all items, each once, the aggregate equals the track's headline scores bit for
bit (``tests/test_resampling.py``); over a bootstrap resample it is the resample's score.

``resample_indices`` is the one definition of the resamples (``random.Random(seed)``): the
organisers' ``rank_submissions.py`` (numpy) and the participants' ``score_locally.py`` (this
module, standard library only) draw the same ones.

The aggregates are written once for two kinds of numbers: plain floats (``ScalarOps``, here) and
arrays of resamples (``ranking.statistics.ArrayOps``, the organisers' tool), through the four
operations of an ``ops`` object. Issue 14 may move each track's part into its track module; it is
kept in one place here (``ITEM_STATISTICS``, ``AGGREGATES``) so that the move is a cut and paste.
"""

from __future__ import annotations

import math
import os
import random
from fractions import Fraction
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from .multilabel import numpy_mean
from .registry import LOWER_IS_BETTER
from .result import TrackResult

# The scores that get a confidence interval, a rank and significance groups: one leaderboard per
# entry, (name, track, key, higher is better). Each track's ranking score; absita has the three
# subtasks of EVALITA 2020 (ATE, ABSA, SA). The direction is the registry's.
LEADERBOARDS: Tuple[Tuple[str, str, str, bool], ...] = tuple(
    (name, track, key, key not in LOWER_IS_BETTER) for name, track, key in (
        ("t6_st1", "t6_st1", "t6_st1_f1_micro"),
        ("t6_st2", "t6_st2", "t6_st2_f1"),
        ("t6_st3", "t6_st3", "t6_st3_f1_micro"),
        ("flc", "flc", "flc_f1"),
        ("nlu", "nlu", "nlu_score"),
        ("absita", "absita", "ate_f1"),
        ("absita_absa", "absita", "absa_f1"),
        ("absita_sa", "absita", "sa_rmse")))

CONFIDENCE = Fraction(95, 100)


class ItemStatistics:
    """One row of sufficient statistics per item, in the gold's item order.

    ``columns`` name the statistics; ``rows[i][j]`` is statistic j of item i (int or float).
    ``labels``: the technique (class) list the columns are built on, in the track's order.
    ``keys``: the score keys the track reported for this submission (absita reports only the
    subtasks a submission entered).
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


# --- per track: TrackResult -> ItemStatistics ------------------------------------------------------

def _multilabel_statistics(result: TrackResult) -> ItemStatistics:
    """Per meme and class: true positive, false positive, false negative (0 or 1)."""
    classes = [row.label for row in result.table or ()]
    position = {label: i for i, label in enumerate(classes)}
    columns = ["%s|%s" % (kind, label) for label in classes for kind in ("tp", "fp", "fn")]
    ids, gold, predicted = (result.private.values(i) for i in range(3))
    rows = []
    for gold_labels, predicted_labels in zip(gold, predicted):
        row = [0] * len(columns)
        gold_set, predicted_set = set(gold_labels), set(predicted_labels)
        for label in gold_set:
            row[3 * position[label] + (0 if label in predicted_set else 2)] = 1
        for label in predicted_set - gold_set:
            row[3 * position[label] + 1] = 1
        rows.append(tuple(row))
    return ItemStatistics(result.track, list(ids), columns, rows, classes, tuple(result.scores))


def _span_statistics(result: TrackResult) -> ItemStatistics:
    """Per document and technique: the precision sum, recall sum, predicted and gold spans.

    Techniques in the order the track sums them: its list (the table's rows), then any other one
    found in the rows (flc's fragments-only mode has no list: one pseudo-technique).
    """
    documents, techniques, precision_sums, recall_sums, predicted, gold = (
        result.private.values(i) for i in range(6))
    labels = [row.label for row in result.table or ()]
    for technique in techniques:
        if technique not in labels:
            labels.append(technique)
    position = {label: i for i, label in enumerate(labels)}
    columns = ["%s|%s" % (kind, label) for label in labels
               for kind in ("precision_sum", "recall_sum", "predicted", "gold")]
    items = list(result.private.items)
    where = {item: i for i, item in enumerate(items)}
    width = 4 * len(labels)
    rows: List[Any] = [None] * len(items)
    for document, technique, p_sum, r_sum, n_predicted, n_gold in zip(
            documents, techniques, precision_sums, recall_sums, predicted, gold):
        i = where[document]
        if rows[i] is None:
            rows[i] = [0.0, 0.0, 0, 0] * len(labels)
        base = 4 * position[technique]
        rows[i][base:base + 4] = [p_sum, r_sum, n_predicted, n_gold]
    empty = (0.0, 0.0, 0, 0) * len(labels)
    rows = [empty if row is None else tuple(row) for row in rows]
    assert all(len(row) == width for row in rows)
    return ItemStatistics(result.track, items, columns, rows, labels, tuple(result.scores))


def _nlu_statistics(result: TrackResult) -> ItemStatistics:
    """Per id: q' + r' of the best gold answer (as the track adds them), q', r' and 1."""
    rows = [(row["q"] + row["r"], row["q"], row["r"], 1) for row in result.private]
    return ItemStatistics("nlu", [row["id"] for row in result.private], ["q_plus_r", "q", "r", "ids"],
                          rows, (), tuple(result.scores))


_TERM_FIELDS = ("exact", "partial", "predicted", "gold")


def _absita_statistics(result: TrackResult) -> ItemStatistics:
    """Per review: ATE and ABSA matching counts, the squared score error and 1."""
    columns = (["ate_" + f for f in _TERM_FIELDS] + ["absa_" + f for f in _TERM_FIELDS]
               + ["squared_error", "reviews"])
    rows = [tuple([row["ate"][f] for f in _TERM_FIELDS] + [row["absa"][f] for f in _TERM_FIELDS]
                  + [row["squared_error"], 1]) for row in result.private]
    return ItemStatistics("absita", [row["id_sentence"] for row in result.private], columns, rows, (),
                          tuple(result.scores))


ITEM_STATISTICS: Dict[str, Callable[[TrackResult], ItemStatistics]] = {
    "t6_st1": _multilabel_statistics,
    "t6_st2": _span_statistics,
    "t6_st3": _multilabel_statistics,
    "flc": _span_statistics,
    "nlu": _nlu_statistics,
    "absita": _absita_statistics,
}


def item_statistics(result: TrackResult) -> ItemStatistics:
    """The per-item sufficient statistics of a scored submission (from ``result.private``)."""
    return ITEM_STATISTICS[result.track](result)


# --- per track: column totals -> scores ------------------------------------------------------------

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


Totals = Mapping[str, Any]


def _sklearn_prf(tp, fp, fn, ops):
    """scikit-learn's P, R, F1 with zero_division=1 (``multilabel.sklearn_prf``'s float steps)."""
    precision = ops.divide(tp, tp + fp, 1.0)
    recall = ops.divide(tp, tp + fn, 1.0)
    return precision, recall, ops.divide(2.0 * precision * recall, precision + recall, 0.0)


def _multilabel_scores(statistics: ItemStatistics, totals: Totals, ops, micro_only: bool = False
                       ) -> Dict[str, float]:
    classes = statistics.labels
    prefix = statistics.track
    tp = fp = fn = 0
    f1_by_class = {}
    for label in classes:
        c_tp, c_fp, c_fn = (totals["%s|%s" % (kind, label)] for kind in ("tp", "fp", "fn"))
        if not micro_only:
            f1_by_class[label] = _sklearn_prf(c_tp, c_fp, c_fn, ops)[2]
        tp, fp, fn = tp + c_tp, fp + c_fp, fn + c_fn
    scores = {prefix + "_f1_micro": _sklearn_prf(tp, fp, fn, ops)[2]}
    if not micro_only:
        scores[prefix + "_f1_macro"] = ops.mean([f1_by_class[label] for label in sorted(classes)])
    return scores


def _span_scores(statistics: ItemStatistics, totals: Totals, ops) -> Dict[str, float]:
    """``span_metric._prf`` on the sums over techniques, added in the track's technique order."""
    sums = [0.0, 0.0, 0.0, 0.0]
    for label in statistics.labels:
        for i, kind in enumerate(("precision_sum", "recall_sum", "predicted", "gold")):
            sums[i] = sums[i] + totals["%s|%s" % (kind, label)]
    precision_sum, recall_sum, predicted, gold = sums
    precision = ops.divide(precision_sum, predicted, 0.0)
    recall = ops.divide(recall_sum, gold, 0.0)
    f1 = ops.where((precision > 0) & (recall > 0), ops.divide(2 * precision * recall, precision + recall, 0.0),
                   ops.where((predicted == 0) & (gold == 0), 1.0, 0.0))
    prefix = statistics.track
    return {prefix + "_f1": f1, prefix + "_precision": precision, prefix + "_recall": recall}


def _nlu_scores(statistics: ItemStatistics, totals: Totals, ops) -> Dict[str, float]:
    n = totals["ids"]
    return {"nlu_score": totals["q_plus_r"] / (2 * n), "nlu_q": totals["q"] / n, "nlu_r": totals["r"] / n}


def _absita_scores(statistics: ItemStatistics, totals: Totals, ops) -> Dict[str, float]:
    scores = {}
    for task in ("ate", "absa"):
        if task + "_f1" in statistics.keys:
            matched = totals[task + "_exact"] + 0.5 * totals[task + "_partial"]
            precision = ops.divide(matched, totals[task + "_predicted"], 0.0)
            recall = ops.divide(matched, totals[task + "_gold"], 0.0)
            scores.update({task + "_f1": ops.divide(2 * precision * recall, precision + recall, 0.0),
                           task + "_precision": precision, task + "_recall": recall})
    if "sa_rmse" in statistics.keys:
        scores["sa_rmse"] = ops.sqrt(totals["squared_error"] / totals["reviews"])
    return scores


AGGREGATES = {
    "t6_st1": _multilabel_scores,
    "t6_st2": _span_scores,
    "t6_st3": _multilabel_scores,
    "flc": _span_scores,
    "nlu": _nlu_scores,
    "absita": _absita_scores,
}


def aggregate(statistics: ItemStatistics, totals: Totals, ops=ScalarOps, key: Optional[str] = None
              ) -> Dict[str, Any]:
    """The track's scores from column totals (a mapping column -> number, or -> array with
    ``ops=ranking.statistics.ArrayOps``). ``key``: only that score is needed (a hint: the multilabel
    tracks then skip the 20-odd per-class F1 of the macro average; other keys may come too)."""
    if statistics.track in ("t6_st1", "t6_st3"):
        return _multilabel_scores(statistics, totals, ops, micro_only=key is not None and key.endswith("_micro"))
    return AGGREGATES[statistics.track](statistics, totals, ops)


def column_totals(statistics: ItemStatistics, indices: Optional[Sequence[int]] = None) -> Dict[str, Any]:
    """Each column summed over the items at ``indices`` (default: every item once), item by item
    from 0 as the tracks add them (absita's squared errors use ``sum()``, which Python 3.12 made
    compensated: there the last bit of the RMSE may differ)."""
    rows = statistics.rows if indices is None else [statistics.rows[i] for i in indices]
    totals = []
    for column in zip(*rows) if rows else [()] * len(statistics.columns):
        total = 0.0 if column and isinstance(column[0], float) else 0
        for value in column:
            total += value
        totals.append(total)
    return dict(zip(statistics.columns, totals))


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
