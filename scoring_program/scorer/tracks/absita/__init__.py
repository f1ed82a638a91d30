"""Track ``absita``: EVALITA 2020 ATE_ABSITA, aspect terms, their polarity, and the review score.

- ATE: per review, sets of normalised terms; exact matches, then partial matches (a shared word)
  among the rest, one-to-one (a maximum matching); pooled over reviews,
  P = (Σexact + 0.5·ΣPAR) / Σ|S|, R = (Σexact + 0.5·ΣPAR) / Σ|G|, F1 their harmonic mean.
- ABSA: the same over (term, polarity) pairs; a partial match also needs the same polarity.
- SA: root mean squared error of the review score (lower is better).

Metric card: ``absita.md`` beside this folder. This file holds the declarations and ``score``; the
package's modules: ``names`` (the track's name and file), ``reviews`` (reading the JSON Lines
files, and their canonical predictions), ``terms`` (the terms and their matching), ``statistics``
(the per-review rows and their groups), ``item_view`` (the local error analysis), ``public_side``
(the public input, stand-in gold and baseline) and ``sample_data``.
"""

from __future__ import annotations

import math
from typing import Any, Dict, Optional

from ...machinery.per_item import ItemStatistics, ScalarOps, Totals
from ...readers.options import Options, other_phase_ids
from ...readers.problems import Problems, clip, reading_reference
from ...readers.records import check_duplicates, check_id_sets, record_limit
from ...readers.result import TrackResult
from .item_view import item_view
from .reviews import SCORE_OUTSIDE, FieldPresence, parse_reviews
from .statistics import TERM_FIELDS, Statistics, review_row, review_statistics
from .terms import TermCounts
# Declarations made in the package's modules: the contract reads them as this module's attributes.
from .names import FILE_NAME, NAME
from .public_side import public_ids, write_baseline, write_public_input, write_stand_in_gold
from .reviews import prediction_digests
from .sample_data import write_benchmark_input, write_sample_gold
from .statistics import GROUP_TABLES

TITLE = "EVALITA 2020 ATE_ABSITA: aspect terms, aspect polarity, review score"
GOLD_NAMES = (FILE_NAME,)
KEYS = ("ate_f1", "ate_precision", "ate_recall", "absa_f1", "absa_precision", "absa_recall",
        "sa_rmse")
LOWER_IS_BETTER = frozenset({"sa_rmse"})
# The three subtasks of EVALITA 2020.
LEADERBOARDS = ((NAME, "ate_f1"), ("absita_absa", "absa_f1"), ("absita_sa", "sa_rmse"))
RELEASED_GOLD = {"train": "ate_absita_training.ndjson", "dev": "ate_absita_dev.ndjson"}
ITEM_ERROR = ("unmatched aspect terms (ATE) + unmatched (term, polarity) pairs (ABSA), a partial match "
              "counting half on each side, + |predicted − gold score|")


def score(gold_path: str, submission_path: str, name: str, options: Options,
          reference_dir: str) -> TrackResult:
    gold_problems = Problems(name)
    with reading_reference():
        gold_reviews = list(parse_reviews(gold_path, name, None, gold_problems, True, 1 << 62))
    check_duplicates((r.identifier for r in gold_reviews), gold_problems,
                     lambda i: "line %d" % gold_reviews[i].line)
    gold_problems.raise_as_reference_error()
    gold_by_id = {review.identifier: review for review in gold_reviews}

    # Each submitted review is scored as soon as it is read: what is kept per review is its
    # statistics, never its terms (memory grows with the phase, not with the file).
    problems = Problems(name)
    first_line: Dict[str, int] = {}  # every submitted id -> its line
    statistics_of: Dict[str, Statistics] = {}
    presence = {field_name: FieldPresence() for field_name in ("aspects", "polarities", "score")}
    for prediction in parse_reviews(submission_path, name, options.max_file_bytes, problems, False,
                                    options.max_spans_per_document, record_limit(len(gold_reviews))):
        seen = first_line.setdefault(prediction.identifier, prediction.line)
        if seen != prediction.line:
            problems.add("line %d" % prediction.line, "duplicate id %s (first at line %d); give each id once"
                         % (clip(prediction.identifier), seen))
        for field_name, tracker in presence.items():
            tracker.add(getattr(prediction, field_name) is not None, prediction.line)
        if prediction.score is not None and not 1 <= prediction.score <= 5:
            problems.warn(SCORE_OUTSIDE, "line %d" % prediction.line)
        gold = gold_by_id.get(prediction.identifier)
        if gold is not None and not problems:
            statistics_of[prediction.identifier] = review_row(prediction, gold)
    problems.raise_if_any()
    check_id_sets([r.identifier for r in gold_reviews], first_line, problems, "review ids",
                  other_phases=other_phase_ids(reference_dir, name))
    has_aspects = presence["aspects"].consistent("aspects", problems)
    has_polarities = presence["polarities"].consistent("polarities", problems)
    has_score = presence["score"].consistent("score", problems)
    if has_polarities and not has_aspects:
        problems.add("", "polarities without aspects; give 'aspects' on every line")
    if not (has_aspects or has_score) and not problems:
        problems.add("", "no line has 'aspects' or 'score'; nothing to score")
    problems.raise_if_any()
    per_review = [(gold.identifier, statistics_of[gold.identifier]) for gold in gold_reviews]

    details: Dict[str, float] = {"reviews": len(gold_reviews)}
    # The headline: the aggregate of the totals of every review's row, summed in review order as
    # ``per_item.column_totals`` sums them for a resample (a loop, not sum(): Python 3.12's sum()
    # of floats is compensated)
    ate, absa = TermCounts(), TermCounts()
    squared_error = 0.0
    for _, statistics in per_review:
        ate.add(statistics.ate)
        absa.add(statistics.absa)
        squared_error += statistics.squared_error
    totals: Dict[str, Any] = {"squared_error": squared_error, "reviews": len(per_review)}
    for task, counts in (("ate", ate), ("absa", absa)):
        totals.update({task + "_" + field: getattr(counts, field) for field in TERM_FIELDS})
    reported = [key for key, entered in (("ate_f1", has_aspects), ("absa_f1", has_polarities),
                                         ("sa_rmse", has_score)) if entered]
    scores = aggregate(ItemStatistics(NAME, [], [], [], (), reported), totals)
    if has_aspects:
        details.update({"ATE exact matches": ate.exact, "ATE partial matches": ate.partial,
                        "ATE predicted terms": ate.predicted, "ATE gold terms": ate.gold})
    if has_polarities:
        details.update({"ABSA exact matches": absa.exact, "ABSA partial matches": absa.partial})
    notes = []
    if not has_polarities and has_aspects:
        notes.append("No polarities were submitted: ABSA is not reported.")
    if not has_score:
        notes.append("No scores were submitted: SA is not reported.")
    if not has_aspects:
        notes.append("No aspects were submitted: ATE and ABSA are not reported.")
    return TrackResult(
        track=NAME, title=TITLE, scores=scores, details=details, notes=notes, warnings=problems.warnings,
        statistics=lambda: review_statistics(per_review, tuple(scores)), item_noun="review",
        item_view=item_view(gold_path, submission_path, name, options, gold_by_id),
    )



def aggregate(statistics: ItemStatistics, totals: Totals, ops=ScalarOps, key: Optional[str] = None
              ) -> Dict[str, Any]:
    """The scores of the subtasks the submission entered (``statistics.keys``): ATE and ABSA
    P, R, F1 (``precision_recall_f1``'s steps on the pooled counts) and SA's RMSE."""
    scores = {}
    for task in ("ate", "absa"):
        if task + "_f1" in statistics.keys:
            matched = totals[task + "_exact"] + 0.5 * totals[task + "_partial"]
            precision = ops.divide(matched, totals[task + "_predicted"], 0.0)
            recall = ops.divide(matched, totals[task + "_gold"], 0.0)
            scores.update({task + "_f1": ops.divide(2 * precision * recall, precision + recall, 0.0),
                           task + "_precision": precision, task + "_recall": recall})
    if "sa_rmse" in statistics.keys:
        scores["sa_rmse"] = ops.sqrt(ops.divide(totals["squared_error"], totals["reviews"], 0.0))
    return scores



def item_error(totals: Totals) -> float:
    """The error analysis's error of one review (the totals of its one row)."""
    error = math.sqrt(totals["squared_error"])
    for task in ("ate", "absa"):
        matched = totals[task + "_exact"] + 0.5 * totals[task + "_partial"]
        error += totals[task + "_predicted"] + totals[task + "_gold"] - 2 * matched
    return error

