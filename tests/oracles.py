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


def naive_nlu_scores(gold_rows, submitted, tokens):
    """(nlu_score, nlu_q, nlu_r) of AI CUP 2022 explainable NLU, from the metric card (nlu.md).

    ``gold_rows``: (id, q', r') rows, several accepted answers per id; ``submitted``: id -> (q', r');
    ``tokens(text)``: the task's tokens. Per id, the answer with the largest LCS/union of q' plus
    that of r' (the first in file order on a tie); the score is Σ / 2N, q and r the means of the
    chosen answer's halves. The textbook LCS; 0/0 counts 0.
    """
    def ratio(a, b):
        common = naive_lcs(a, b)
        union = len(a) + len(b) - common
        return common / union if union else 0.0

    answers = {}
    for identifier, q, r in gold_rows:
        answers.setdefault(identifier, []).append((tokens(q), tokens(r)))
    total = q_total = r_total = 0.0
    for identifier, accepted in answers.items():
        q, r = (tokens(text) for text in submitted[identifier])
        best = None
        for gold_q, gold_r in accepted:
            pair = (ratio(q, gold_q), ratio(r, gold_r))
            if best is None or pair[0] + pair[1] > best[0] + best[1]:
                best = pair
        total += best[0] + best[1]
        q_total += best[0]
        r_total += best[1]
    n = len(answers)
    return total / (2 * n), q_total / n, r_total / n


def naive_absita_scores(gold_reviews, predicted_reviews):
    """The scores of EVALITA 2020 ATE_ABSITA from its metric card (absita.md), the naive way.

    Reviews are ``{"id_sentence", "aspects", "polarities", "score"}``; the predictions may lack
    ``polarities`` and ``score`` (that subtask is then not scored). Terms lower-cased with white
    space collapsed, as sets; exact matches, then the largest one-to-one matching of the remaining
    terms that share a word (``\\w+``), found by trying every assignment; pooled over the reviews.
    Returns (scores, counts): counts per subtask (exact, partial, predicted, gold).
    """
    import math
    import re

    def normalise(term):
        return " ".join(term.lower().split())

    def words(term):
        return set(re.findall(r"\w+", term.lower()))

    def compatible(a, b):
        if isinstance(a, tuple):
            return a[1] == b[1] and compatible(a[0], b[0])
        return bool(words(a) & words(b))

    def largest_matching(left, right):
        def best(i, used):
            if i == len(left):
                return 0
            found = best(i + 1, used)
            for j, b in enumerate(right):
                if j not in used and compatible(left[i], b):
                    found = max(found, 1 + best(i + 1, used | {j}))
            return found
        return best(0, frozenset())

    gold_by_id = {review["id_sentence"]: review for review in gold_reviews}
    counts = {"ate": [0, 0, 0, 0], "absa": [0, 0, 0, 0]}
    squared_errors = []
    for prediction in predicted_reviews:
        gold = gold_by_id[prediction["id_sentence"]]
        sides = {}
        if "aspects" in prediction:
            sides["ate"] = ({normalise(a) for a in prediction["aspects"]}, {normalise(a) for a in gold["aspects"]})
        if "polarities" in prediction:
            sides["absa"] = ({(normalise(a), tuple(p)) for a, p in zip(prediction["aspects"], prediction["polarities"])},
                             {(normalise(a), tuple(p)) for a, p in zip(gold["aspects"], gold["polarities"])})
        for task, (predicted, expected) in sides.items():
            exact = predicted & expected
            partial = largest_matching(list(expected - exact), list(predicted - exact))
            for position, value in enumerate((len(exact), partial, len(predicted), len(expected))):
                counts[task][position] += value
        if "score" in prediction:
            squared_errors.append((prediction["score"] - gold["score"]) ** 2)
    scores = {}
    tasks = [task for task, field in (("ate", "aspects"), ("absa", "polarities"))
             if all(field in p for p in predicted_reviews)]
    for task in tasks:
        exact, partial, predicted, expected = counts[task]
        matched = exact + 0.5 * partial
        precision = matched / predicted if predicted else 0.0
        recall = matched / expected if expected else 0.0
        scores[task + "_f1"] = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        scores[task + "_precision"], scores[task + "_recall"] = precision, recall
    if squared_errors:
        scores["sa_rmse"] = math.sqrt(sum(squared_errors) / len(squared_errors))
    return scores, {task: tuple(counts[task]) for task in tasks}
