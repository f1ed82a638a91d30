"""Multilabel micro/macro-F1 against scikit-learn's f1_score(zero_division=1)."""

from __future__ import annotations

import math
import random

import pytest

from oracles import sklearn_0232_micro_macro
from scorer.machinery.multilabel import count_classes, micro_macro, sklearn_prf
from scorer.machinery.per_item import numpy_mean
from scorer.machinery.techniques import SEMEVAL2021_T6_ST1_ST2, SEMEVAL2021_T6_ST3

sklearn_metrics = pytest.importorskip("sklearn.metrics")
preprocessing = pytest.importorskip("sklearn.preprocessing")
np = pytest.importorskip("numpy")

CLASSES = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]


def sklearn_scores(gold, predicted, classes):
    binarizer = preprocessing.MultiLabelBinarizer()
    binarizer.fit([classes])
    y_true = binarizer.transform(gold)
    y_pred = binarizer.transform(predicted)
    return (sklearn_metrics.f1_score(y_true, y_pred, average="micro", zero_division=1),
            sklearn_metrics.f1_score(y_true, y_pred, average="macro", zero_division=1))


def sklearn_per_class_f1(gold, predicted, classes):
    binarizer = preprocessing.MultiLabelBinarizer()
    binarizer.fit([classes])
    values = sklearn_metrics.f1_score(binarizer.transform(gold), binarizer.transform(predicted),
                                      average=None, zero_division=1)
    return dict(zip(binarizer.classes_, map(float, values)))


@pytest.mark.parametrize("seed", range(60))
def test_random_label_sets_match_sklearn(seed):
    rng = random.Random(seed)
    # (at least 2 classes: with one column scikit-learn switches to binary classification)
    classes = CLASSES[: rng.randint(2, len(CLASSES))]
    n = rng.randint(1, 30)
    density = rng.random()
    gold = [{c for c in classes if rng.random() < density * 0.5} for _ in range(n)]
    predicted = [{c for c in classes if rng.random() < rng.random() * 0.6} for _ in range(n)]
    scores = micro_macro(count_classes(zip(gold, predicted), classes), classes)
    micro, macro = sklearn_scores(gold, predicted, classes)
    assert (scores.micro_f1, scores.macro_f1) == (micro, macro)  # the installed 1.2.2: the same float steps


def test_zero_division_semantics():
    assert sklearn_prf(0, 0, 0) == (1.0, 1.0, 1.0)  # absent everywhere: 1.0 in the macro mean
    assert sklearn_prf(0, 2, 0)[2] == 0.0  # predicted only
    assert sklearn_prf(0, 0, 2)[2] == 0.0  # gold only
    # an all-empty submission: micro 0; macro = share of classes absent from gold
    gold = [{"a"}, {"b"}, set()]
    scores = micro_macro(count_classes(zip(gold, [set()] * 3), ["a", "b", "c"]), ["a", "b", "c"])
    assert scores.micro_f1 == 0.0 and scores.macro_f1 == pytest.approx(1 / 3)


def test_all_empty_on_both_sides_is_perfect():
    scores = micro_macro(count_classes(zip([set()] * 2, [set()] * 2), ["a"]), ["a"])
    assert scores.micro_f1 == 1.0 and scores.macro_f1 == 1.0


@pytest.mark.parametrize("n", [1, 7, 8, 9, 20, 22, 129, 300])
def test_numpy_mean_is_bit_identical(n):
    rng = random.Random(n)
    values = [rng.random() for _ in range(n)]
    assert numpy_mean(values) == float(np.mean(np.array(values)))


def random_label_sets(rng, classes, n):
    density = rng.random()
    gold = [{c for c in classes if rng.random() < density * 0.4} for _ in range(n)]
    predicted = [{c for c in classes if rng.random() < rng.random() * 0.5} for _ in range(n)]
    return gold, predicted


@pytest.mark.parametrize("classes", [SEMEVAL2021_T6_ST1_ST2, SEMEVAL2021_T6_ST3], ids=["st1_st2", "st3"])
@pytest.mark.parametrize("seed", range(100))
def test_real_technique_lists_bit_identical_to_the_official_float_steps(classes, seed):
    # The real lists are not in sorted order; the official macro mean runs over sorted columns.
    assert list(classes) != sorted(classes)
    rng = random.Random(seed)
    gold, predicted = random_label_sets(rng, classes, rng.randint(1, 60))
    scores = micro_macro(count_classes(zip(gold, predicted), classes), classes)
    assert (scores.micro_f1, scores.macro_f1) == sklearn_0232_micro_macro(gold, predicted, classes)
    # The installed scikit-learn is pinned to 1.2.2, the last release whose f1_score runs 0.23.2's
    # code (F from rounded P and R; 1.3 changed the zero-division masks, 1.4 computes
    # F = 2TP / (2TP + FP + FN), up to 2 ulp away per class and 3 in the macro mean on these
    # inputs): it agrees within one ulp — in fact exactly.
    micro, macro = sklearn_scores(gold, predicted, list(classes))
    assert abs(scores.micro_f1 - micro) <= math.ulp(micro)
    mine = {row.label: row.f1 for row in scores.rows}
    for label, f1 in sklearn_per_class_f1(gold, predicted, classes).items():
        assert abs(mine[label] - f1) <= math.ulp(f1)
    assert abs(scores.macro_f1 - macro) <= math.ulp(macro)
    assert (scores.micro_f1, scores.macro_f1) == (micro, macro)


def test_the_class_order_of_the_macro_mean_matters():
    """Per-class F1 summed in the list's order and in sorted order differ in the last bit on some
    inputs; the scorer follows the sorted order of the official MultiLabelBinarizer."""
    classes = SEMEVAL2021_T6_ST3
    for seed in range(2000):
        rng = random.Random(seed)
        gold, predicted = random_label_sets(rng, classes, 30)
        scores = micro_macro(count_classes(zip(gold, predicted), classes), classes)
        in_list_order = numpy_mean([row.f1 for row in scores.rows])
        if in_list_order != scores.macro_f1:
            assert scores.macro_f1 == sklearn_0232_micro_macro(gold, predicted, classes)[1]
            return
    pytest.fail("no input where the order changes the last bit")
