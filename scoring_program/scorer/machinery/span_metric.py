"""Partial-overlap precision, recall and F1 over labelled spans (SemEval-2021 T6 ST2, NLP4IF FLC).

Statistics are computed per document and technique (the rows of ``SpanStatistics``), then
aggregated (``SpanCounts``): the headline numbers, the per-technique table and any resampling are
sums of the same rows. ``document_statistics`` (a row per document: the four sums of each technique,
the result's ``statistics``) and ``aggregate`` (the scores from per-technique totals) are the span
tracks' own; the headline is that aggregate over the per-technique totals of every row.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from .per_item import ItemStatistics, ScalarOps, Totals
from ..readers.result import TechniqueRow, TrackResult
from .span_confusions import add_confusions
from .span_problems import overlap_problem, predictions_under_policy
from .spans import Span, merge_overlapping, overlap_sums


class SpanCounts:
    """Sufficient statistics of the partial-overlap measure for any group of spans (summed rows)."""

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


class SpanStatistics:
    """Rows (document, technique, precision_sum, recall_sum, predicted, gold): one per document and
    technique present on either side, in the order documents were added."""

    __slots__ = ("documents", "techniques", "rows", "confusions")

    def __init__(self, techniques: Sequence[str] = (), confusions: bool = True) -> None:
        self.documents: List[str] = []
        self.techniques: List[str] = list(techniques)  # the given ones, then the others as rows name them
        self.rows: List[Tuple[str, str, float, float, int, int]] = []
        # (predicted technique, gold technique) -> overlapping span pairs of two techniques; None:
        # not counted (a phase whose detailed results show the scores only)
        self.confusions: Optional[Dict[Tuple[str, str], int]] = Counter() if confusions else None

    def add_document(self, document: str, gold: Mapping[str, Sequence[Span]],
                     predicted: Mapping[str, Sequence[Span]]) -> None:
        """Append the rows of one document (techniques in gold order, then predicted-only ones)."""
        self.documents.append(document)
        for technique, gold_spans in gold.items():
            predicted_spans = predicted.get(technique, ())
            precision_sum, recall_sum = overlap_sums(predicted_spans, gold_spans)
            self._add(document, technique, precision_sum, recall_sum, len(predicted_spans), len(gold_spans))
        for technique, predicted_spans in predicted.items():
            if technique not in gold:
                self._add(document, technique, 0.0, 0.0, len(predicted_spans), 0)
        if self.confusions is not None and predicted and gold and (len(gold) > 1 or len(predicted) > 1 or gold.keys() != predicted.keys()):
            add_confusions(gold, predicted, self.confusions)

    def _add(self, document: str, technique: str, precision_sum: float, recall_sum: float, predicted: int,
             gold: int) -> None:
        if technique not in self.techniques:
            self.techniques.append(technique)
        self.rows.append((document, technique, precision_sum, recall_sum, predicted, gold))

    def totals(self, techniques: Sequence[str]) -> Tuple[SpanCounts, Dict[str, SpanCounts]]:
        """(all techniques pooled, per technique) summed over the rows in row order.

        Techniques that only occur in the rows come after ``techniques``, in order of appearance.
        """
        by_technique = {technique: SpanCounts() for technique in list(techniques) + self.techniques}
        for _, technique, precision_sum, recall_sum, predicted, gold in self.rows:
            by_technique[technique].add(SpanCounts(precision_sum, recall_sum, predicted, gold))
        overall = SpanCounts()
        for counts in by_technique.values():
            overall.add(counts)
        return overall, by_technique


def technique_rows(track: str, totals: Totals, techniques: Sequence[str], official_recall: bool
                   ) -> List[TechniqueRow]:
    """One table row per technique, in list order: the track's ``aggregate`` over that technique's
    column totals alone. ``official_recall``: the published scorers' per-technique variant, whose
    "recall" divides the *precision* sum by the gold count (the row still shows the recall sum).

    >>> row = technique_rows("x", {"precision_sum|A": 1.0, "recall_sum|A": 0.5, "predicted|A": 1,
    ...                            "gold|A": 1}, ["A", "B"], False)
    >>> [(r.label, r.precision, r.recall, r.f1) for r in row]
    [('A', 1.0, 0.5, 0.6666666666666666), ('B', 0.0, 0.0, 1.0)]
    """
    rows = []
    for technique in techniques:
        sums = [totals.get(kind + "|" + technique, 0.0 if kind.endswith("_sum") else 0) for kind in KINDS]
        scored = dict(zip(KINDS, sums))
        if official_recall:
            scored["recall_sum"] = scored["precision_sum"]
        scores = aggregate(ItemStatistics(track, [], [], [], [technique]),
                           {kind + "|" + technique: value for kind, value in scored.items()})
        precision_sum, recall_sum, predicted, gold = sums
        rows.append(TechniqueRow(technique, scores[track + "_precision"], scores[track + "_recall"],
                                 scores[track + "_f1"], gold, predicted,
                                 precision_sum=precision_sum, recall_sum=recall_sum))
    return rows


KINDS = ("precision_sum", "recall_sum", "predicted", "gold")  # the columns "<kind>|<technique>"


def technique_totals(by_technique: Mapping[str, SpanCounts]) -> Dict[str, Any]:
    """The column totals of every document: the per-technique sums as ``aggregate`` reads them.

    Parameters
    ----------
    by_technique : dict of technique -> SpanCounts

    Returns
    -------
    dict
        ``<kind>|<technique>`` -> total, for the kinds of ``KINDS``.
    """
    totals: Dict[str, Any] = {}
    for technique, counts in by_technique.items():
        totals["precision_sum|" + technique] = counts.precision_sum
        totals["recall_sum|" + technique] = counts.recall_sum
        totals["predicted|" + technique] = counts.predicted
        totals["gold|" + technique] = counts.gold
    return totals


def span_keys(track: str) -> Tuple[str, str, str]:
    """The keys ``aggregate`` and ``span_track_result`` name a track's scores: a span track's ``KEYS``.

    Parameters
    ----------
    track : str
        The track's ``NAME`` (the keys' prefix).

    Returns
    -------
    tuple of str
        ``<track>_f1``, ``<track>_precision``, ``<track>_recall``, the primary key first.

    >>> span_keys("flc")
    ('flc_f1', 'flc_precision', 'flc_recall')
    """
    return (track + "_f1", track + "_precision", track + "_recall")


def aggregate(statistics: ItemStatistics, totals: Totals, ops=ScalarOps, key: Optional[str] = None
              ) -> Dict[str, Any]:
    """The span scores from per-technique column totals (the contract's ``aggregate``).

    The sums over the techniques of ``statistics.labels``, added in that order (as
    ``SpanStatistics.totals`` pools them): precision = Σ precision sums / predicted spans,
    recall = Σ recall sums / gold spans (0 without spans), F1 their harmonic mean when both are
    positive, else 1 when neither side has a span and 0 otherwise.

    Parameters
    ----------
    statistics : ItemStatistics
        Its ``track`` (the keys' prefix) and ``labels`` (the techniques).
    totals : dict
        ``precision_sum|<technique>``, ``recall_sum|…``, ``predicted|…``, ``gold|…``: numbers, or
        arrays of resamples.
    ops : ScalarOps or ArrayOps
        The operations on the totals.
    key : str or None
        Unused (every score is one division away from the sums).

    Returns
    -------
    dict
        ``span_keys(track)``: ``<track>_f1``, ``<track>_precision``, ``<track>_recall``.
    """
    precision_sum = recall_sum = predicted = gold = 0.0
    for label in statistics.labels:
        precision_sum = precision_sum + totals["precision_sum|" + label]
        recall_sum = recall_sum + totals["recall_sum|" + label]
        predicted = predicted + totals["predicted|" + label]
        gold = gold + totals["gold|" + label]
    precision = ops.divide(precision_sum, predicted, 0.0)
    recall = ops.divide(recall_sum, gold, 0.0)
    f1 = ops.where((precision > 0) & (recall > 0), ops.divide(2 * precision * recall, precision + recall, 0.0),
                   ops.where((predicted == 0) & (gold == 0), 1.0, 0.0))
    prefix = statistics.track
    return {prefix + "_f1": f1, prefix + "_precision": precision, prefix + "_recall": recall}


def document_statistics(track: str, statistics: SpanStatistics, techniques: Sequence[str],
                        keys: Sequence[str]) -> ItemStatistics:
    """The per-item statistics of a span track: a row per document.

    Parameters
    ----------
    track : str
        The track's name.
    statistics : SpanStatistics
        The rows gathered while scoring.
    techniques : sequence of str
        The order the track sums techniques in: its list, then any other one found in the rows
        (flc's fragments-only mode has no list: one pseudo-technique).
    keys : sequence of str
        The track's keys.

    Returns
    -------
    ItemStatistics
        Per document (every one, in order, also those with no span on either side) and technique:
        the precision sum, recall sum, predicted and gold spans (columns ``<kind>|<technique>``).
    """
    labels = list(techniques)
    for technique in statistics.techniques:
        if technique not in labels:
            labels.append(technique)
    position = {label: i for i, label in enumerate(labels)}
    columns = ["%s|%s" % (kind, label) for label in labels for kind in KINDS]
    items = list(statistics.documents)
    where = {item: i for i, item in enumerate(items)}
    rows: List[Any] = [None] * len(items)
    for document, technique, p_sum, r_sum, n_predicted, n_gold in statistics.rows:
        i = where[document]
        if rows[i] is None:
            rows[i] = [0.0, 0.0, 0, 0] * len(labels)
        base = 4 * position[technique]
        rows[i][base:base + 4] = [p_sum, r_sum, n_predicted, n_gold]
    empty = (0.0, 0.0, 0, 0) * len(labels)
    rows = [empty if row is None else tuple(row) for row in rows]
    return ItemStatistics(track, items, columns, rows, labels, tuple(keys))


def span_track_result(track: str, title: str, statistics: SpanStatistics,
                      techniques: Sequence[str], official_recall: bool, noun: str) -> TrackResult:
    """A span track's result from its statistics.

    Parameters
    ----------
    track, title : str
        The track's ``NAME`` and ``TITLE``.
    statistics : SpanStatistics
        Every document's rows.
    techniques : sequence of str
        The per-technique table's rows, in order (empty: no table).
    official_recall : bool
        The table's recall as the published scorers compute it (``technique_rows``).
    noun : str
        What a document is ("article", "meme"), in the details and the item pages.

    Returns
    -------
    TrackResult
        Scores ``span_keys(track)`` (``aggregate`` of the per-technique totals), the table, the
        details (documents, span counts, sums) and the per-document statistics.
    """
    overall, by_technique = statistics.totals(techniques)
    totals = technique_totals(by_technique)  # the column totals of every document, summed while scoring
    headline = aggregate(ItemStatistics(track, [], [], [], list(by_technique)), totals)
    table = technique_rows(track, totals, techniques, official_recall) if techniques else None
    note = ("Per technique, official variant: 'recall' is the precision sum over the gold count, "
            "as in the published scorers (it can exceed 1)." if official_recall else
            "Per technique: P = precision sum / predicted spans, R = recall sum / gold spans; "
            "a technique absent from both sides has F1 = 1.")
    return TrackResult(
        track=track,
        title=title,
        scores=headline,
        details={
            noun + "s": len(statistics.documents),
            "gold spans": overall.gold,
            "predicted spans": overall.predicted,
            "precision sum": overall.precision_sum,
            "recall sum": overall.recall_sum,
        },
        table=table,
        table_note=note,
        statistics=lambda: document_statistics(track, statistics, techniques, tuple(headline)),
        item_noun=noun,
        confusions=None if statistics.confusions is None else dict(statistics.confusions),
    )


def span_scores(gold: Mapping[str, Sequence[Tuple[str, int, int]]],
                predicted: Mapping[str, Sequence[Tuple[str, int, int]]],
                overlapping: str = "error", merge_gold: bool = True) -> Dict[str, float]:
    """The partial-overlap scores of in-memory spans (a notebook's entry point): what a span track
    computes, without files.

    Parameters
    ----------
    gold, predicted : dict of document -> list of (technique, start, end)
        Character offsets, end exclusive. Every gold document counts (also one without spans); a
        predicted document not in ``gold`` counts its spans as predicted.
    overlapping : {"error", "merge", "keep"}
        Predicted spans of one technique that share a character: a ``ValueError`` naming them,
        merged into their union (the official scorers' ``-m``), or each pair counted.
    merge_gold : bool
        Merge gold spans of one technique that share a character first (the NLP4IF and
        SemEval-2020 scorers); False: every gold span as given (the SemEval-2021 T6 ST2 scorer).

    Returns
    -------
    dict
        ``f1``, ``precision``, ``recall``, as ``aggregate``.

    >>> span_scores({"1": [("Doubt", 0, 10)]}, {"1": [("Doubt", 5, 10)]})
    {'f1': 0.6666666666666666, 'precision': 1.0, 'recall': 0.5}
    """
    def grouped(spans: Sequence[Tuple[str, int, int]]) -> Dict[str, List[Span]]:
        by_technique: Dict[str, List[Span]] = {}
        for technique, start, end in spans:
            by_technique.setdefault(technique, []).append((start, end))
        return by_technique

    statistics = SpanStatistics(confusions=False)
    for document in list(gold) + [d for d in predicted if d not in gold]:
        gold_spans = grouped(gold.get(document, ()))
        if merge_gold:
            gold_spans = {t: merge_overlapping(s) for t, s in gold_spans.items()}
        checked, overlaps = predictions_under_policy(grouped(predicted.get(document, ())), overlapping)
        if overlaps:
            raise ValueError("document %s: %s" % (document, overlap_problem(overlaps[0])))
        statistics.add_document(document, gold_spans, checked)
    _, by_technique = statistics.totals(())
    scores = aggregate(ItemStatistics("", [], [], [], list(by_technique)), technique_totals(by_technique))
    return {"f1": scores["_f1"], "precision": scores["_precision"], "recall": scores["_recall"]}
