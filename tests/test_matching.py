"""``machinery.matching.maximum_matching`` against every matching of small random bipartite graphs."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.machinery.matching import maximum_matching


def largest_matching(left, right, compatible) -> int:
    """The size of a largest one-to-one matching, the slow way: every partner (or none) of each
    element of ``right``."""
    best = 0
    for partners in itertools.product([None] + list(range(len(left))), repeat=len(right)):
        chosen = [(i, j) for j, i in enumerate(partners) if i is not None]
        if len({i for i, _ in chosen}) == len(chosen) and all(compatible(left[i], right[j]) for i, j in chosen):
            best = max(best, len(chosen))
    return best


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 4), st.integers(0, 4), st.sets(st.tuples(st.integers(0, 3), st.integers(0, 3))))
def test_the_matching_is_one_to_one_compatible_and_largest(n_left, n_right, edges):
    left, right = ["l%d" % i for i in range(n_left)], ["r%d" % j for j in range(n_right)]

    def compatible(a, b):
        return (int(a[1:]), int(b[1:])) in edges

    owner = maximum_matching(left, right, compatible)
    assert len(owner) == len(right)
    chosen = [(i, j) for j, i in enumerate(owner) if i is not None]
    assert len({i for i, _ in chosen}) == len(chosen)  # one-to-one
    assert all(compatible(left[i], right[j]) for i, j in chosen)
    assert len(chosen) == largest_matching(left, right, compatible)


def test_a_greedy_first_choice_is_not_kept():
    """"a b" could take "b" first; the maximum pairs it with "a" and "b" with "b"."""
    assert maximum_matching(["a b", "b"], ["b", "a"], lambda a, b: bool(set(a.split()) & set(b.split()))) == [1, 0]
