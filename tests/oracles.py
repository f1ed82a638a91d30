"""Naive reference implementations: slow, obviously right, used to check the fast ones."""

from __future__ import annotations

from typing import List, Sequence, Tuple

Span = Tuple[int, int]


def naive_overlap_sums(predicted: Sequence[Span], gold: Sequence[Span]) -> Tuple[float, float]:
    """The official definition: spans as sets of characters, every pair, one division per pair."""
    precision_sum = recall_sum = 0.0
    for ps, pe in predicted:
        p_chars = set(range(ps, pe))
        for gs, ge in gold:
            inter = len(p_chars & set(range(gs, ge)))
            precision_sum += inter / len(p_chars)
            recall_sum += inter / (ge - gs)
    return precision_sum, recall_sum


def naive_merge(spans: Sequence[Span]) -> List[Span]:
    """Union of character sets, then maximal runs, keeping runs that came from overlapping spans.

    Spans that only touch stay separate, so the merge is done on a graph of "shares a character".
    """
    spans = list(spans)
    groups = [{i} for i in range(len(spans))]
    changed = True
    while changed:
        changed = False
        for a in range(len(groups)):
            for b in range(a + 1, len(groups)):
                if any(set(range(*spans[i])) & set(range(*spans[j])) for i in groups[a] for j in groups[b]):
                    groups[a] |= groups.pop(b)
                    changed = True
                    break
            if changed:
                break
    return sorted((min(spans[i][0] for i in g), max(spans[i][1] for i in g)) for g in groups)


def naive_lcs(a: Sequence[str], b: Sequence[str]) -> int:
    """The textbook dynamic program."""
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def naive_span_scores(gold, predicted):
    """P, R, F1 of the partial-overlap measure, the official way (documents -> [(technique, start, end)]).

    Both sides are merged per technique first (``naive_merge``), then every same-technique pair of
    one document is compared as sets of characters.
    """
    def merged(spans):
        by_technique = {}
        for technique, start, end in spans:
            by_technique.setdefault(technique, []).append((start, end))
        return {technique: naive_merge(group) for technique, group in by_technique.items()}
    precision_sum = recall_sum = 0.0
    predicted_count = gold_count = 0
    for document in gold:
        gold_spans, predicted_spans = merged(gold[document]), merged(predicted.get(document, []))
        gold_count += sum(len(group) for group in gold_spans.values())
        predicted_count += sum(len(group) for group in predicted_spans.values())
        for technique, group in predicted_spans.items():
            p, r = naive_overlap_sums(group, gold_spans.get(technique, []))
            precision_sum += p
            recall_sum += r
    precision = precision_sum / predicted_count if predicted_count else 0.0
    recall = recall_sum / gold_count if gold_count else 0.0
    if precision > 0 and recall > 0:
        return precision, recall, 2 * precision * recall / (precision + recall)
    return precision, recall, 1.0 if predicted_count == gold_count == 0 else 0.0


def sklearn_0232_micro_macro(gold, predicted, classes):
    """(micro-F1, macro-F1) of the official ST1/ST3 scorer, written out with numpy.

    The official scorer calls ``MultiLabelBinarizer().fit([classes])`` (which sorts the class
    names) and scikit-learn 0.23.2's ``f1_score(average=..., zero_division=1)``: per class
    P = tp/pred and R = tp/true (0/0 -> 1), F = 2·P·R / (P + R) with a zero denominator replaced
    by 1, micro on the pooled counts, macro as ``np.average`` of the per-class F over the columns.
    """
    import numpy as np

    columns = sorted(classes)
    index = {label: i for i, label in enumerate(columns)}

    def binarize(label_sets):
        matrix = np.zeros((len(label_sets), len(columns)), dtype=np.int64)
        for row, labels in enumerate(label_sets):
            for label in labels:
                matrix[row, index[label]] = 1
        return matrix

    y_true, y_pred = binarize(gold), binarize(predicted)
    tp = (y_true & y_pred).sum(axis=0)
    pred = y_pred.sum(axis=0)
    true = y_true.sum(axis=0)

    def divide(numerator, denominator):
        mask = denominator == 0
        result = numerator / np.where(mask, 1, denominator)
        result[mask] = 1.0  # zero_division=1
        return result

    def f_scores(tp, pred, true):
        precision, recall = divide(tp, pred), divide(tp, true)
        denominator = 1 * precision + recall  # beta² · P + R
        denominator[denominator == 0.0] = 1
        return (1 + 1) * precision * recall / denominator

    micro = np.average(f_scores(np.array([tp.sum()]), np.array([pred.sum()]), np.array([true.sum()])))
    macro = np.average(f_scores(tp, pred, true))
    return float(micro), float(macro)


def naive_st2_scores(gold_records, predicted_records):
    """P, R, F1 of the official SemEval-2021 ST2 scorer, the naive way.

    Records are ``{"id", "labels": [{"technique", "start", "end"}]}``; offsets go through int()
    and the last copy of a repeated id wins, as in the official loader; nothing is merged or
    clipped to the text; every same-technique pair of a meme is compared as sets of characters.
    """
    def by_id(records):
        memes = {}
        for record in records:
            memes[record["id"]] = [(label["technique"], int(label["start"]), int(label["end"]))
                                   for label in record["labels"]]
        return memes

    gold, predicted = by_id(gold_records), by_id(predicted_records)
    precision_sum = recall_sum = 0.0
    predicted_count = sum(len(spans) for spans in predicted.values())
    gold_count = sum(len(spans) for spans in gold.values())
    for meme, gold_spans in gold.items():
        for technique, ps, pe in predicted.get(meme, []):
            p_chars = set(range(ps, pe))
            for gold_technique, gs, ge in gold_spans:
                if gold_technique == technique:
                    inter = len(p_chars & set(range(gs, ge)))
                    precision_sum += inter / len(p_chars)
                    recall_sum += inter / (ge - gs)
    precision = precision_sum / predicted_count if predicted_count else 0.0
    recall = recall_sum / gold_count if gold_count else 0.0
    if precision > 0 and recall > 0:
        return precision, recall, 2 * precision * recall / (precision + recall)
    return precision, recall, 1.0 if predicted_count == gold_count == 0 else 0.0
