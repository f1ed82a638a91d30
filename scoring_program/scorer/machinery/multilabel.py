"""Multilabel micro- and macro-F1 over a fixed class list, as scikit-learn computes them.

The SemEval-2021 T6 ST1/ST3 scorer calls ``sklearn.metrics.f1_score(average="micro"|"macro",
zero_division=1)`` on MultiLabelBinarizer rows. Its statistics are per-class true positives,
false positives and false negatives, counted here per document and summed.

``aggregate`` is the tracks' scores from per-class totals (columns ``tp|<class>``, ``fp|<class>``,
``fn|<class>``): the headline (``class_totals`` of the counts) and every resample go through it.
The multilabel track modules bind it (their per-item statistics are ``meme_multilabel``'s); the
per-class table (``class_rows``) and the micro P and R come from the same totals, with its steps.

``zero_division=1`` means: a precision or recall of 0/0 is 1. So a class absent from both gold and
predictions has P = R = F1 = 1 and lifts the macro average; a class on one side only scores 0.
"""

from __future__ import annotations

from typing import AbstractSet, Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from .per_item import ItemStatistics, ScalarOps, Totals
from ..readers.result import TechniqueRow

KINDS = ("tp", "fp", "fn")  # the per-class columns, "<kind>|<class>"


class ClassCounts:
    """One class's true positives, false positives and false negatives."""

    __slots__ = ("true_positives", "false_positives", "false_negatives")

    def __init__(self, true_positives: int = 0, false_positives: int = 0, false_negatives: int = 0) -> None:
        self.true_positives = true_positives
        self.false_positives = false_positives
        self.false_negatives = false_negatives

    @property
    def gold(self) -> int:
        return self.true_positives + self.false_negatives

    @property
    def predicted(self) -> int:
        return self.true_positives + self.false_positives


def count_classes(pairs: Iterable[Tuple[AbstractSet[str], AbstractSet[str]]],
                  classes: Sequence[str]) -> Dict[str, ClassCounts]:
    """Sum per-class counts over (gold labels, predicted labels) pairs, one pass.

    Parameters
    ----------
    pairs : iterable of (set of str, set of str)
        Each document's gold labels and predicted labels.
    classes : sequence of str
        The class list; every label of ``pairs`` must be one of them.

    Returns
    -------
    dict of class -> ClassCounts
    """
    counts = {label: ClassCounts() for label in classes}
    for gold, predicted in pairs:
        for label in gold:
            if label in predicted:
                counts[label].true_positives += 1
            else:
                counts[label].false_negatives += 1
        for label in predicted:
            if label not in gold:
                counts[label].false_positives += 1
    return counts


class MultilabelScores:
    """Micro- and macro-F1, the micro precision and recall, and the per-class table rows."""

    __slots__ = ("micro_f1", "macro_f1", "micro_precision", "micro_recall", "rows")

    def __init__(self, micro_f1: float, macro_f1: float, micro_precision: float, micro_recall: float,
                 rows: List[TechniqueRow]) -> None:
        self.micro_f1 = micro_f1
        self.macro_f1 = macro_f1
        self.micro_precision = micro_precision
        self.micro_recall = micro_recall
        self.rows = rows


def micro_macro(counts: Dict[str, ClassCounts], classes: Sequence[str]) -> MultilabelScores:
    """Micro-F1 over pooled counts and the unweighted macro-F1 over every listed class.

    Parameters
    ----------
    counts : dict of class -> ClassCounts
        ``count_classes``' result.
    classes : sequence of str
        The class list, in the task's order (the table's).

    Returns
    -------
    MultilabelScores

    Bit-identical to ``f1_score(y_true, y_pred, average=..., zero_division=1)`` of scikit-learn
    0.23.2 on ``MultiLabelBinarizer().fit([classes])`` rows: per-class P, R and F1 as
    ``sklearn_prf`` evaluates them, the macro mean over the classes in sorted order with numpy's
    pairwise summation.
    """
    totals = class_totals(counts, classes)
    scores = aggregate(ItemStatistics("", [], [], [], classes), totals)
    micro_precision, micro_recall = micro_precision_recall(totals, classes)
    return MultilabelScores(scores["_f1_micro"], scores["_f1_macro"], micro_precision, micro_recall,
                            class_rows(totals, classes))


def class_rows(totals: Totals, classes: Sequence[str]) -> List[TechniqueRow]:
    """One table row per class, in list order, from the column totals: its P, R and F1 are the
    steps of ``aggregate`` (``sklearn_prf``) on that class's counts."""
    rows = []
    for label in classes:
        tp, fp, fn = totals["tp|" + label], totals["fp|" + label], totals["fn|" + label]
        precision, recall, f1 = sklearn_prf(tp, fp, fn)
        rows.append(TechniqueRow(label, precision, recall, f1, tp + fn, tp + fp, tp, fp, fn))
    return rows


def micro_precision_recall(totals: Totals, classes: Sequence[str]) -> Tuple[float, float]:
    """The micro precision and recall: ``aggregate``'s steps on the counts pooled in list order."""
    tp = fp = fn = 0
    for label in classes:
        tp, fp, fn = tp + totals["tp|" + label], fp + totals["fp|" + label], fn + totals["fn|" + label]
    precision, recall, _ = sklearn_prf(tp, fp, fn)
    return precision, recall


def class_columns(classes: Sequence[str]) -> List[str]:
    """The per-item (and total) columns over ``classes``: tp, fp, fn of each class, in list order."""
    return ["%s|%s" % (kind, label) for label in classes for kind in KINDS]


def class_totals(counts: Dict[str, ClassCounts], classes: Sequence[str]) -> Dict[str, int]:
    """The column totals of every item: the per-class counts as ``aggregate`` reads them."""
    totals = {}
    for label in classes:
        c = counts[label]
        totals["tp|" + label] = c.true_positives
        totals["fp|" + label] = c.false_positives
        totals["fn|" + label] = c.false_negatives
    return totals


def sklearn_prf(tp, fp, fn, ops=ScalarOps):
    """Precision, recall and F1 exactly as scikit-learn 0.23.2 evaluates them with
    ``zero_division=1`` (same float steps), through ``ops``: on numbers or on arrays of resamples.
    (scikit-learn divides 2·P·R by 1 when P + R is 0, here the default 0.0: the same 0.0.)

    >>> sklearn_prf(0, 0, 0)  # absent on both sides
    (1.0, 1.0, 1.0)
    >>> sklearn_prf(0, 0, 3)  # gold only: P is 0/0 -> 1, R = 0, F1 = 0
    (1.0, 0.0, 0.0)
    """
    precision = ops.divide(tp, tp + fp, 1.0)
    recall = ops.divide(tp, tp + fn, 1.0)
    return precision, recall, ops.divide(2.0 * precision * recall, precision + recall, 0.0)


def multilabel_keys(track: str) -> Tuple[str, str]:
    """The keys ``aggregate`` names a multilabel track's scores: its ``KEYS``.

    Parameters
    ----------
    track : str
        The track's ``NAME`` (the keys' prefix).

    Returns
    -------
    tuple of str
        ``<track>_f1_micro`` (the primary key), ``<track>_f1_macro``.

    >>> multilabel_keys("t6_st1")
    ('t6_st1_f1_micro', 't6_st1_f1_macro')
    """
    return (track + "_f1_micro", track + "_f1_macro")


def aggregate(statistics: ItemStatistics, totals: Totals, ops=ScalarOps, key: Optional[str] = None
              ) -> Dict[str, Any]:
    """The multilabel scores from per-class column totals (the contract's ``aggregate``).

    Micro-F1 on the counts pooled in list order; macro-F1 as numpy's mean over the classes in
    sorted order (scikit-learn's MultiLabelBinarizer().fit([classes]) sorts the class names, so the
    official macro average adds the per-class F1 in that order; the floats of another order can
    differ in the last bit; the table keeps the task's own order).

    Parameters
    ----------
    statistics : ItemStatistics
        Its ``track`` (the keys' prefix) and ``labels`` (the classes).
    totals : dict
        ``tp|<class>``, ``fp|<class>``, ``fn|<class>``: numbers, or arrays of resamples.
    ops : ScalarOps or ArrayOps
        The operations on the totals.
    key : str or None
        Ending in ``_micro``: only the micro score is needed (the per-class F1 are skipped).

    Returns
    -------
    dict
        ``multilabel_keys(track)``: ``<track>_f1_micro``, ``<track>_f1_macro`` (not with a micro ``key``).
    """
    classes = statistics.labels
    prefix = statistics.track
    micro_only = key is not None and key.endswith("_micro")
    tp = fp = fn = 0
    f1_by_class = {}
    for label in classes:
        c_tp, c_fp, c_fn = totals["tp|" + label], totals["fp|" + label], totals["fn|" + label]
        if not micro_only:
            f1_by_class[label] = sklearn_prf(c_tp, c_fp, c_fn, ops)[2]
        tp, fp, fn = tp + c_tp, fp + c_fp, fn + c_fn
    scores = {prefix + "_f1_micro": sklearn_prf(tp, fp, fn, ops)[2]}
    if not micro_only:
        scores[prefix + "_f1_macro"] = ops.mean([f1_by_class[label] for label in sorted(classes)])
    return scores


def multilabel_scores(gold: Mapping[str, Iterable[str]], predicted: Mapping[str, Iterable[str]],
                      classes: Sequence[str]) -> Dict[str, float]:
    """The multilabel scores of in-memory labels (a notebook's entry point): what the meme
    multilabel tracks compute, without files.

    Parameters
    ----------
    gold, predicted : dict of document -> iterable of class names
        A document missing from ``predicted`` has no predicted label.
    classes : sequence of str
        The class list: every label must be one of them (a ``ValueError`` names the first that
        is not); the macro average is over all of them.

    Returns
    -------
    dict
        ``f1_micro``, ``f1_macro``, ``precision_micro``, ``recall_micro``.

    >>> multilabel_scores({"1": ["A", "B"], "2": []}, {"1": ["A"], "2": ["B"]}, ["A", "B", "C"])
    {'f1_micro': 0.5, 'f1_macro': 0.6666666666666666, 'precision_micro': 0.5, 'recall_micro': 0.5}
    """
    known = set(classes)
    pairs = []
    for document, labels in gold.items():
        pair = (frozenset(labels), frozenset(predicted.get(document, ())))
        unknown = sorted((pair[0] | pair[1]) - known)
        if unknown:
            raise ValueError("document %s: %r is not one of the classes" % (document, unknown[0]))
        pairs.append(pair)
    scores = micro_macro(count_classes(pairs, classes), classes)
    return {"f1_micro": scores.micro_f1, "f1_macro": scores.macro_f1,
            "precision_micro": scores.micro_precision, "recall_micro": scores.micro_recall}
