"""Multilabel micro/macro-F1 against scikit-learn's f1_score(zero_division=1)."""

from __future__ import annotations

import random

import pytest

from scorer.multilabel import count_classes, micro_macro, numpy_mean, sklearn_prf

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
    # Modern scikit-learn evaluates F from counts, 0.23.2 (the task's pin) from P and R:
    # they differ by at most an ulp; we follow 0.23.2.
    assert scores.micro_f1 == pytest.approx(micro, abs=1e-12)
    assert scores.macro_f1 == pytest.approx(macro, abs=1e-12)


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
