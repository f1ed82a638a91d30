"""absita's per-item statistics (one row per review, the resampling unit: ATE and ABSA matching
counts, the squared score error) and their groups, the tables of the detailed results: what the
organisers' confidence intervals and significance stand on."""

from __future__ import annotations

import math
from typing import Dict, Sequence, Tuple

from ...machinery.per_item import ItemStatistics
from .names import NAME
from .reviews import Review
from .terms import TermCounts, normalise, partner_counts, term_partners

def _add(groups: Dict[str, float], column: str, dimension: str, group: str, value: float = 1) -> None:
    name = group_column(column, dimension, group)
    groups[name] = groups.get(name, 0) + value


def group_column(column: str, dimension: str, group: str) -> str:
    """The name of ``column`` restricted to one group: ``absa_exact|polarity:positive``."""
    return "%s|%s:%s" % (column, dimension, group)


def term_length(term: str) -> str:
    """The length group of a (normalised) term: its words, 3 and more together."""
    words_in_term = len(term.split())
    return str(words_in_term) if words_in_term < 3 else "3+"


def rounded_score(score: float) -> int:
    """A review score rounded half up, into 1-5 (the SA confusion's columns and rows)."""
    return max(1, min(5, int(math.floor(score + 0.5))))


TERM_FIELDS = ("exact", "partial", "predicted", "gold")
COLUMNS = (["ate_" + f for f in TERM_FIELDS] + ["absa_" + f for f in TERM_FIELDS]
           + ["squared_error", "reviews"])
POLARITY_NAMES = {(1, 0): "positive", (0, 1): "negative", (0, 0): "neutral", (1, 1): "mixed"}
SCORES = ("1", "2", "3", "4", "5")
# The detailed results' tables by group (phase setting "full"): (title, dimension, its groups,
# (label, column) counts shown, the keys of ``aggregate`` over each group's totals, a note). Each
# group's statistics are columns ``<column>|<dimension>:<group>`` beside the item's totals.
GROUP_TABLES = (
    ("ABSA per polarity", "polarity", ("positive", "negative", "neutral", "mixed"),
     (("gold pairs", "absa_gold"), ("predicted pairs", "absa_predicted"), ("exact", "absa_exact"),
      ("partial", "absa_partial")), ("absa_precision", "absa_recall", "absa_f1"),
     "(term, polarity) pairs of each polarity; a match, exact or partial, joins two pairs of the same polarity."),
    ("ATE by aspect length", "length", ("1", "2", "3+"),
     (("gold terms", "ate_gold"), ("predicted terms", "ate_predicted"), ("exact", "ate_exact"),
      ("partial", "ate_partial")), ("ate_precision", "ate_recall", "ate_f1"),
     "Words of the gold term; a matched predicted term counts in its gold partner's length, an unmatched one "
     "in its own."),
    ("SA: gold score against the rounded predicted score", "gold", SCORES,
     tuple(("predicted %s" % s, "sa_rounded:%s" % s) for s in SCORES) + (("reviews", "reviews"),), ("sa_rmse",),
     "Rows: the gold review score; columns: the predicted score rounded half up into 1-5 (reviews counted); "
     "sa_rmse of the reviews of each gold score."),
)
GROUP_COLUMNS = [group_column(column, dimension, group)
                 for _, dimension, groups, counts, _, _ in GROUP_TABLES for group in groups
                 for column in dict.fromkeys([column for _, column in counts]
                                             + (["squared_error"] if dimension == "gold" else []))]


class Statistics:
    """One review's ATE and ABSA counts and its squared score error; ``groups``: the same counts
    by group (``GROUP_TABLES``), column name -> value, nonzero values only."""

    __slots__ = ("ate", "absa", "squared_error", "groups")

    def __init__(self) -> None:
        self.ate = TermCounts()
        self.absa = TermCounts()
        self.squared_error = 0.0
        self.groups: Dict[str, float] = {}


def review_row(prediction: Review, gold: Review) -> Statistics:
    """One review's statistics for every field the prediction has."""
    statistics = Statistics()
    groups = statistics.groups
    if prediction.aspects is not None:
        predicted_terms = {normalise(a) for a in prediction.aspects}
        gold_terms = {normalise(a) for a in gold.aspects or ()}
        partner = term_partners(predicted_terms, gold_terms)
        statistics.ate = partner_counts(partner, predicted_terms, gold_terms)
        # By length (words of the gold term): a matched predicted term counts in its gold
        # partner's length, an unmatched one in its own.
        for term in gold_terms:
            _add(groups, "ate_gold", "length", term_length(term))
        for term in predicted_terms:
            matched = partner.get(term)
            length = term_length(matched[1] if matched else term)
            _add(groups, "ate_predicted", "length", length)
            if matched:
                _add(groups, "ate_" + matched[0], "length", length)
        if prediction.polarities is not None:
            predicted_pairs = {(normalise(a), p) for a, p in zip(prediction.aspects, prediction.polarities)}
            gold_pairs = {(normalise(a), p) for a, p in zip(gold.aspects or (), gold.polarities or ())}
            partner = term_partners(predicted_pairs, gold_pairs)
            statistics.absa = partner_counts(partner, predicted_pairs, gold_pairs)
            # By polarity: a match joins two pairs of the same polarity.
            for pair in gold_pairs:
                _add(groups, "absa_gold", "polarity", POLARITY_NAMES[pair[1]])
            for pair in predicted_pairs:
                _add(groups, "absa_predicted", "polarity", POLARITY_NAMES[pair[1]])
                if pair in partner:
                    _add(groups, "absa_" + partner[pair][0], "polarity", POLARITY_NAMES[pair[1]])
    if prediction.score is not None:
        statistics.squared_error = (prediction.score - gold.score) ** 2  # type: ignore[operator]
        gold_group = str(rounded_score(gold.score))  # type: ignore[arg-type]
        _add(groups, "sa_rounded:%d" % rounded_score(prediction.score), "gold", gold_group)
        _add(groups, "squared_error", "gold", gold_group, statistics.squared_error)
        _add(groups, "reviews", "gold", gold_group)
    return statistics


def review_statistics(per_review: Sequence[Tuple[str, Statistics]], keys: Sequence[str]) -> ItemStatistics:
    """Per review (gold order): ATE and ABSA matching counts, the squared score error and 1; then
    the same by group (``GROUP_TABLES``: ATE by term length, ABSA by polarity, SA by gold score)."""
    position = {name: len(COLUMNS) + k for k, name in enumerate(GROUP_COLUMNS)}
    zeros = [0.0 if name.startswith("squared_error") else 0 for name in GROUP_COLUMNS]
    rows = []
    for _, s in per_review:
        row = [s.ate.exact, s.ate.partial, s.ate.predicted, s.ate.gold, s.absa.exact, s.absa.partial,
               s.absa.predicted, s.absa.gold, s.squared_error, 1] + zeros  # (TERM_FIELDS' order)
        for name, value in s.groups.items():  # a review's few nonzero group statistics
            row[position[name]] = value
        rows.append(tuple(row))
    return ItemStatistics(NAME, [identifier for identifier, _ in per_review], list(COLUMNS) + GROUP_COLUMNS, rows,
                          (), tuple(keys))
