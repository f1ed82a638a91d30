"""Partial-overlap precision, recall and F1 over labelled spans (SemEval-2021 T6 ST2, NLP4IF FLC).

Statistics are computed per document and technique (``SpanCounts``), then aggregated: the headline
numbers, the per-technique table and any resampling are sums of the same statistics.
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from .result import TechniqueRow, TrackResult
from .spans import Span, first_overlap, merge_overlapping, overlap_sums

# document id -> technique -> spans
SpansByDocument = Mapping[str, Mapping[str, Sequence[Span]]]


class SpanCounts:
    """Sufficient statistics of the partial-overlap measure for any group of spans.

    Written by hand (not ``@struct``): one is made per document and technique, a hot path.
    """

    __slots__ = ("precision_sum", "recall_sum", "predicted", "gold")

    def __init__(self, precision_sum: float = 0.0, recall_sum: float = 0.0, predicted: int = 0,
                 gold: int = 0) -> None:
        self.precision_sum = precision_sum  # Σ |p∩g| / |p| over same-technique pairs
        self.recall_sum = recall_sum  # Σ |p∩g| / |g| over same-technique pairs
        self.predicted = predicted  # number of predicted spans
        self.gold = gold  # number of gold spans

    def add(self, other: "SpanCounts") -> None:
        self.precision_sum += other.precision_sum
        self.recall_sum += other.recall_sum
        self.predicted += other.predicted
        self.gold += other.gold

    def __repr__(self) -> str:
        return "SpanCounts(%r, %r, %d, %d)" % (self.precision_sum, self.recall_sum, self.predicted, self.gold)


# One row of statistics: (document, technique, precision_sum, recall_sum, predicted, gold).
StatisticsRow = Tuple[str, str, float, float, int, int]


def document_statistics(gold: SpansByDocument, predicted: SpansByDocument,
                        documents: Iterable[str]) -> List[StatisticsRow]:
    """Per document (in the order given) and technique on either side: the span statistics."""
    rows: List[StatisticsRow] = []
    append = rows.append
    empty: Mapping[str, Sequence[Span]] = {}
    for document in documents:
        gold_by_technique = gold.get(document, empty)
        predicted_by_technique = predicted.get(document, empty)
        for technique, gold_spans in gold_by_technique.items():
            predicted_spans = predicted_by_technique.get(technique)
            if predicted_spans:
                precision_sum, recall_sum = overlap_sums(predicted_spans, gold_spans)
                append((document, technique, precision_sum, recall_sum, len(predicted_spans), len(gold_spans)))
            else:
                append((document, technique, 0.0, 0.0, 0, len(gold_spans)))
        for technique, predicted_spans in predicted_by_technique.items():
            if technique not in gold_by_technique:
                append((document, technique, 0.0, 0.0, len(predicted_spans), 0))
    return rows


def totals(rows: Iterable[StatisticsRow],
           techniques: Sequence[str]) -> Tuple[SpanCounts, Dict[str, SpanCounts]]:
    """(all techniques pooled, per technique) summed over the rows."""
    by_technique = {technique: SpanCounts() for technique in techniques}
    for _, technique, precision_sum, recall_sum, predicted, gold in rows:
        counts = by_technique.get(technique)
        if counts is None:
            counts = by_technique[technique] = SpanCounts()
        counts.precision_sum += precision_sum
        counts.recall_sum += recall_sum
        counts.predicted += predicted
        counts.gold += gold
    overall = SpanCounts()
    for counts in by_technique.values():
        overall.add(counts)
    return overall, by_technique


def precision_recall_f1(counts: SpanCounts) -> Tuple[float, float, float]:
    """The official micro formula: P = Psum/|S|, R = Rsum/|T|; F1 = 1 when both sides are empty.

    >>> precision_recall_f1(SpanCounts(1.0, 0.5, 1, 1))
    (1.0, 0.5, 0.6666666666666666)
    >>> precision_recall_f1(SpanCounts())
    (0.0, 0.0, 1.0)
    """
    return _prf(counts.precision_sum, counts.recall_sum, counts.predicted, counts.gold)


def official_technique_prf(counts: SpanCounts) -> Tuple[float, float, float]:
    """The official per-technique variant: its "recall" divides the *precision* sum by |T_l|."""
    return _prf(counts.precision_sum, counts.precision_sum, counts.predicted, counts.gold)


def _prf(precision_sum: float, recall_sum: float, predicted: int, gold: int) -> Tuple[float, float, float]:
    precision = precision_sum / predicted if predicted else 0.0
    recall = recall_sum / gold if gold else 0.0
    if precision > 0 and recall > 0:
        f1 = 2 * precision * recall / (precision + recall)
    elif predicted == 0 and gold == 0:
        f1 = 1.0
    else:
        f1 = 0.0
    return precision, recall, f1


def technique_rows(by_technique: Mapping[str, SpanCounts], techniques: Sequence[str],
                   official_recall: bool) -> List[TechniqueRow]:
    """One table row per technique, in list order."""
    prf = official_technique_prf if official_recall else precision_recall_f1
    rows = []
    for technique in techniques:
        counts = by_technique.get(technique, SpanCounts())
        precision, recall, f1 = prf(counts)
        rows.append(TechniqueRow(technique, precision, recall, f1, counts.gold, counts.predicted))
    return rows


def offset_problem(start: object, end: object, text_length: Optional[int]) -> str:
    """Why (start, end) is not a valid span of a text of ``text_length`` characters ('' if it is).

    Offsets are 0-based code-point indices, ``end`` exclusive: 0 <= start < end <= len(text).
    """
    for field, value in (("start", start), ("end", end)):
        if not isinstance(value, int) or isinstance(value, bool):
            return "%s must be an integer character offset" % field
    if start < 0 or end < 0:  # type: ignore[operator]
        return "start and end must be non-negative (found %s, %s)" % (_short(start), _short(end))
    if start >= end:  # type: ignore[operator]
        return "end must be greater than start (found start=%s, end=%s)" % (_short(start), _short(end))
    if text_length is not None and end > text_length:  # type: ignore[operator]
        return "end=%s is beyond the end of the text (%d characters)" % (_short(end), text_length)
    return ""


def _short(value: object) -> str:
    text = str(value)
    return text if len(text) <= 24 else "%s...(%d digits)" % (text[:12], len(text.lstrip("-")))


def apply_overlap_policy(predicted: Dict[str, Dict[str, List[Span]]], documents: Sequence[str],
                         policy: str, problems, noun: str) -> None:
    """Apply ``overlapping_predictions`` to every document's predicted spans, in place.

    "merge": same-technique overlaps become their union; "keep": left as they are; "error": one
    problem per document and technique with an overlap.
    """
    for document in documents:
        spans_by_technique = predicted[document]
        if policy == "merge":
            predicted[document] = {technique: merge_overlapping(spans)
                                   for technique, spans in spans_by_technique.items()}
        elif policy == "error":
            for technique, spans in spans_by_technique.items():
                pair = first_overlap(spans)
                if pair is not None:
                    first, second = pair
                    problems.add("%s %r" % (noun, document),
                                 "two %r spans overlap, [%d, %d) and [%d, %d); predict one span per fragment "
                                 "(the organisers can set overlapping_predictions to merge or keep them)"
                                 % (technique, first[0], first[1], second[0], second[1]))


def span_track_result(track: str, title: str, prefix: str, gold: SpansByDocument,
                      predicted: SpansByDocument, documents: Sequence[str],
                      techniques: Sequence[str], official_recall: bool, noun: str) -> TrackResult:
    """Headline P/R/F1 (keys ``<prefix>_f1``, ``_precision``, ``_recall``), table and details."""
    statistics = document_statistics(gold, predicted, documents)
    overall, by_technique = totals(statistics, techniques)
    precision, recall, f1 = precision_recall_f1(overall)
    table = technique_rows(by_technique, techniques, official_recall) if techniques else None
    note = ("Per technique, official variant: 'recall' is the precision sum over the gold count, "
            "as in the published scorers (it can exceed 1)." if official_recall else
            "Per technique: P = precision sum / predicted spans, R = recall sum / gold spans; "
            "a technique absent from both sides has F1 = 1.")
    private = [[noun, "technique", "precision_sum", "recall_sum", "predicted", "gold"]] + statistics
    return TrackResult(
        track=track,
        title=title,
        scores={prefix + "_f1": f1, prefix + "_precision": precision, prefix + "_recall": recall},
        details={
            noun + "s": len(documents),
            "gold spans": overall.gold,
            "predicted spans": overall.predicted,
            "precision sum": overall.precision_sum,
            "recall sum": overall.recall_sum,
        },
        table=table,
        table_note=note,
        private=private,
    )
