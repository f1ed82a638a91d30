"""Multilabel micro- and macro-F1 over a fixed class list, as scikit-learn computes them.

The SemEval-2021 T6 ST1/ST3 scorer calls ``sklearn.metrics.f1_score(average="micro"|"macro",
zero_division=1)`` on MultiLabelBinarizer rows. Its statistics are per-class true positives,
false positives and false negatives, counted here per document and summed.

``zero_division=1`` means: a precision or recall of 0/0 is 1. So a class absent from both gold and
predictions has P = R = F1 = 1 and lifts the macro average; a class on one side only scores 0.
"""

from __future__ import annotations

from .structs import struct
from typing import AbstractSet, Dict, Iterable, List, Sequence, Tuple

from .result import TechniqueRow


@struct
class ClassCounts:
    true_positives: int = 0
    false_positives: int = 0
    false_negatives: int = 0

    @property
    def gold(self) -> int:
        return self.true_positives + self.false_negatives

    @property
    def predicted(self) -> int:
        return self.true_positives + self.false_positives


def count_classes(pairs: Iterable[Tuple[AbstractSet[str], AbstractSet[str]]],
                  classes: Sequence[str]) -> Dict[str, ClassCounts]:
    """Sum per-class counts over (gold labels, predicted labels) pairs, one pass."""
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


def sklearn_prf(tp: int, fp: int, fn: int, zero_division: float = 1.0) -> Tuple[float, float, float]:
    """Precision, recall and F1 exactly as scikit-learn 0.23.2 evaluates them (same float steps).

    >>> sklearn_prf(0, 0, 0)  # absent on both sides
    (1.0, 1.0, 1.0)
    >>> sklearn_prf(0, 0, 3)  # gold only: P is 0/0 -> 1, R = 0, F1 = 0
    (1.0, 0.0, 0.0)
    """
    precision = tp / (tp + fp) if tp + fp else float(zero_division)
    recall = tp / (tp + fn) if tp + fn else float(zero_division)
    denominator = precision + recall  # beta² · P + R with beta = 1
    if denominator == 0.0:
        denominator = 1.0
    return precision, recall, 2.0 * precision * recall / denominator


def numpy_mean(values: Sequence[float]) -> float:
    """The mean as numpy computes it for a contiguous float64 vector (pairwise summation).

    numpy adds blocks of up to 128 elements with eight running partial sums; reproducing that
    order keeps the macro average bit-identical to ``np.average``, not just within an ulp.
    """
    return _pairwise_sum(list(values)) / len(values) if values else 0.0


def _pairwise_sum(values: List[float]) -> float:
    n = len(values)
    if n < 8:
        total = -0.0
        for value in values:
            total += value
        return total
    if n <= 128:
        partial = values[:8]
        whole = n - n % 8
        for i in range(8, whole, 8):
            for j in range(8):
                partial[j] += values[i + j]
        total = ((partial[0] + partial[1]) + (partial[2] + partial[3])) + \
                ((partial[4] + partial[5]) + (partial[6] + partial[7]))
        for i in range(whole, n):
            total += values[i]
        return total
    half = n // 2
    half -= half % 8
    return _pairwise_sum(values[:half]) + _pairwise_sum(values[half:])


@struct
class MultilabelScores:
    micro_f1: float
    macro_f1: float
    micro_precision: float
    micro_recall: float
    rows: List[TechniqueRow]


def micro_macro(counts: Dict[str, ClassCounts], classes: Sequence[str]) -> MultilabelScores:
    """Micro-F1 over pooled counts and the unweighted macro-F1 over every listed class.

    Bit-identical to ``f1_score(y_true, y_pred, average=..., zero_division=1)`` of scikit-learn
    0.23.2 on ``MultiLabelBinarizer().fit([classes])`` rows: per-class P, R and F1 as
    ``sklearn_prf`` evaluates them, the macro mean over the classes in sorted order with numpy's
    pairwise summation.
    """
    rows = []
    for label in classes:
        c = counts[label]
        precision, recall, f1 = sklearn_prf(c.true_positives, c.false_positives, c.false_negatives)
        rows.append(TechniqueRow(label, precision, recall, f1, c.gold, c.predicted, c.true_positives,
                                 c.false_positives, c.false_negatives))
    tp = sum(counts[label].true_positives for label in classes)
    fp = sum(counts[label].false_positives for label in classes)
    fn = sum(counts[label].false_negatives for label in classes)
    micro_precision, micro_recall, micro_f1 = sklearn_prf(tp, fp, fn)
    # scikit-learn's MultiLabelBinarizer().fit([classes]) sorts the class names, so the official
    # macro average adds the per-class F1 in sorted order; the floats of another order can differ
    # in the last bit. The table keeps the task's own order.
    f1_by_class = {row.label: row.f1 for row in rows}
    macro_f1 = numpy_mean([f1_by_class[label] for label in sorted(classes)])
    return MultilabelScores(micro_f1, macro_f1, micro_precision, micro_recall, rows)
