"""The interval arithmetic of the span tracks against the set-of-characters definition."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from oracles import naive_merge, naive_overlap_sums
from scorer.machinery.span_metric import SpanCounts, technique_rows
from scorer.machinery.span_problems import predictions_under_policy
from scorer.machinery.spans import merge_overlapping, overlap_sums


def precision_recall_f1(counts, official_recall=False):
    """P, R and F1 of one technique's counts, as the track's table computes them (its aggregate)."""
    totals = {"precision_sum|A": counts.precision_sum, "recall_sum|A": counts.recall_sum,
              "predicted|A": counts.predicted, "gold|A": counts.gold}
    row = technique_rows("x", totals, ["A"], official_recall)[0]
    return row.precision, row.recall, row.f1


def official_technique_prf(counts):
    return precision_recall_f1(counts, official_recall=True)


def spans_strategy(max_offset: int = 60, max_size: int = 12):
    span = st.tuples(st.integers(0, max_offset), st.integers(1, 25)).map(lambda t: (t[0], t[0] + t[1]))
    return st.lists(span, max_size=max_size)


@settings(max_examples=400, deadline=None)
@given(spans_strategy(), spans_strategy())
def test_overlap_sums_equal_the_all_pairs_definition(predicted, gold):
    fast = overlap_sums(predicted, gold)
    slow = naive_overlap_sums(predicted, gold)
    assert math.isclose(fast[0], slow[0], rel_tol=0, abs_tol=1e-9)
    assert math.isclose(fast[1], slow[1], rel_tol=0, abs_tol=1e-9)


@settings(max_examples=200, deadline=None)
@given(spans_strategy(max_size=40), spans_strategy(max_size=40))
def test_coverage_path_equals_pairwise_path(predicted, gold):
    # Above 64 pairs the coverage table is used; both must give identical floats.
    import scorer.machinery.spans as spans
    fast = overlap_sums(predicted, gold)
    saved = spans._PAIRWISE_LIMIT
    try:
        spans._PAIRWISE_LIMIT = 10 ** 9
        assert overlap_sums(predicted, gold) == fast
        spans._PAIRWISE_LIMIT = -1
        assert overlap_sums(predicted, gold) == fast
    finally:
        spans._PAIRWISE_LIMIT = saved


@settings(max_examples=300, deadline=None)
@given(spans_strategy())
def test_merge_equals_union_of_overlapping_groups(spans):
    assert merge_overlapping(spans) == naive_merge(spans)


def _overlaps(spans):
    """The overlaps the "error" policy finds among one technique's predicted spans."""
    return predictions_under_policy({"Doubt": spans}, "error")[1]


@settings(max_examples=300, deadline=None)
@given(spans_strategy())
def test_the_error_policy_finds_an_overlap_exactly_when_two_spans_share_a_character(spans):
    shares = any(max(a[0], b[0]) < min(a[1], b[1])
                 for i, a in enumerate(spans) for b in spans[i + 1:])
    found = _overlaps(spans)
    assert bool(found) == shares
    if found:
        ((technique, a, b),) = found
        assert technique == "Doubt" and max(a[0], b[0]) < min(a[1], b[1])


def test_touching_spans_do_not_merge_or_overlap():
    assert merge_overlapping([(0, 10), (10, 20)]) == [(0, 10), (10, 20)]
    assert _overlaps([(10, 20), (0, 10)]) == []
    assert _overlaps([(5, 8), (5, 8)]) == [("Doubt", (5, 8), (5, 8))]


def test_huge_offsets_cost_nothing():
    big = 10 ** 18
    assert overlap_sums([(0, big)], [(big - 10, big)]) == (10 / big, 1.0)
    many = [(i * big, i * big + big // 2) for i in range(200)]
    p, r = overlap_sums(many, many)
    assert p == r == 200.0


def test_official_rules_for_empty_sides():
    assert precision_recall_f1(SpanCounts()) == (0.0, 0.0, 1.0)  # nothing on either side
    assert precision_recall_f1(SpanCounts(0.0, 0.0, 0, 3)) == (0.0, 0.0, 0.0)
    assert precision_recall_f1(SpanCounts(0.0, 0.0, 2, 0)) == (0.0, 0.0, 0.0)


def test_research_note_synthetic_st2_cases():
    # gold Smears[0,10) in meme a; prediction [0,20): P 0.5, R 1, F1 0.667, official F1_Smears 0.5
    p_sum, r_sum = overlap_sums([(0, 20)], [(0, 10)])
    counts = SpanCounts(p_sum, r_sum, 1, 1)
    p, r, f1 = precision_recall_f1(counts)
    assert (p, r, round(f1, 3)) == (0.5, 1.0, 0.667)
    assert official_technique_prf(counts)[2] == 0.5
    # prediction [0,5): micro F1 0.667 but the official per-technique F1 is 1.0
    counts = SpanCounts(*overlap_sums([(0, 5)], [(0, 10)]), 1, 1)
    assert round(precision_recall_f1(counts)[2], 3) == 0.667
    assert official_technique_prf(counts)[2] == 1.0
    # split into [0,5) and [5,10): micro 1.0, official per-technique 1.333
    counts = SpanCounts(*overlap_sums([(0, 5), (5, 10)], [(0, 10)]), 2, 1)
    assert precision_recall_f1(counts)[2] == 1.0
    assert round(official_technique_prf(counts)[2], 3) == 1.333


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(0, 60), st.integers(1, 25)), max_size=30))
def test_store_merge_equals_merge_per_technique(rows):
    """An article's merged gold: each technique's merge_overlapping, techniques in list order (the FLC gold)."""
    from scorer.machinery.span_store import SpanStore
    store = SpanStore(["a", "b", "c"])
    store.declare("1")
    for technique, start, length in rows:
        store.declare("1").extend((store.technique_number[technique], start, start + length))
    grouped = store.by_technique("1")
    assert list(store.merged("1").items()) == [(technique, merge_overlapping(grouped[technique]))
                                               for technique in "abc" if technique in grouped]
