"""A maximum one-to-one matching between two lists (a maximum bipartite matching), for metrics that
pair each prediction with at most one gold item and each gold item with at most one prediction."""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Set


def maximum_matching(left: Sequence[Any], right: Sequence[Any],
                     compatible: Callable[[Any, Any], bool]) -> List[Optional[int]]:
    """A largest set of one-to-one pairs (a of ``left``, b of ``right``) with ``compatible(a, b)``.

    Kuhn's augmenting paths, each element of ``left`` in turn: the matching found is the same for
    the same lists in the same order.

    Parameters
    ----------
    left, right : sequence
        The two sides.
    compatible : callable
        ``compatible(a, b)``: whether a of ``left`` may be paired with b of ``right``.

    Returns
    -------
    list of int or None
        For each element of ``right``, the index in ``left`` of its partner, or None.

    A greedy first choice would pair "a b" with "b" and leave "a" alone; the maximum pairs both:

    >>> maximum_matching(["a b", "b"], ["b", "a"], lambda a, b: bool(set(a.split()) & set(b.split())))
    [1, 0]
    """
    adjacency = [[j for j, b in enumerate(right) if compatible(a, b)] for a in left]
    owner: List[Optional[int]] = [None] * len(right)
    for i in range(len(left)):
        if adjacency[i]:
            _augment(i, set(), adjacency, owner)
    return owner


def _augment(i: int, seen: Set[int], adjacency: List[List[int]], owner: List[Optional[int]]) -> bool:
    # A module function, not a closure: a recursive closure is a reference cycle, freed only by
    # the cyclic garbage collector, one per call.
    for j in adjacency[i]:
        if j not in seen:
            seen.add(j)
            if owner[j] is None or _augment(owner[j], seen, adjacency, owner):  # type: ignore[arg-type]
                owner[j] = i
                return True
    return False
