"""Character spans: merging, overlap checks and the all-pairs partial-overlap sums.

The official SemEval-2021 T6 ST2 and NLP4IF-2019 FLC scorers turn every span into a set of
character positions and loop over all (prediction, gold) pairs of one technique in one document:

    precision_sum += |p ∩ g| / |p|        recall_sum += |p ∩ g| / |g|

Here the same sums come from interval arithmetic. For one prediction p,
``Σ_g |p ∩ g|`` is the integral of the gold *coverage* (how many gold spans cover a character)
over p; with the coverage integral tabulated at the sorted span end points, that is two binary
searches. The integer numerator is exact, so the only rounding is the one division per span
(the official loop rounds once per pair; the two agree to far below 1e-9). Cost: O((n + m) log(n + m))
time and O(n + m) memory, whatever the span lengths (offsets of 10**18 cost the same as 10).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Dict, List, Optional, Sequence, Tuple

Span = Tuple[int, int]  # (start, end): 0 <= start < end, end exclusive

# Below this many (prediction x gold) pairs the direct pairwise loop is cheaper than building the
# coverage table. Both paths compute the same integer numerators, so results are identical.
_PAIRWISE_LIMIT = 64


def merge_overlapping(spans: Sequence[Span]) -> List[Span]:
    """Union of spans that share at least one character (transitively); touching spans stay apart.

    >>> merge_overlapping([(15, 30), (10, 20), (30, 35)])
    [(10, 30), (30, 35)]
    """
    merged: List[Span] = []
    for start, end in sorted(spans):
        if merged and start < merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def first_overlap_in_sorted(ordered: Sequence[Span]) -> Optional[Tuple[Span, Span]]:
    """Some pair of the sorted spans ``ordered`` that share a character, or None. Exact duplicates
    overlap; touching spans do not."""
    widest: Optional[Span] = None
    for span in ordered:
        if widest is not None and span[0] < widest[1]:
            return widest, span
        if widest is None or span[1] > widest[1]:
            widest = span
    return None


class Coverage:
    """The coverage function of a multiset of spans and its running integral.

    ``covered(a, b)`` = Σ over spans s of |s ∩ [a, b)|, exactly, in O(log n).
    """

    __slots__ = ("points", "integral", "depth")

    def __init__(self, spans: Sequence[Span]) -> None:
        delta: Dict[int, int] = {}
        for start, end in spans:
            delta[start] = delta.get(start, 0) + 1
            delta[end] = delta.get(end, 0) - 1
        self.points = sorted(delta)
        self.integral: List[int] = []  # ∫ coverage from points[0] to points[k]
        self.depth: List[int] = []  # coverage on [points[k], points[k+1])
        area = depth = 0
        previous = self.points[0] if self.points else 0
        for point in self.points:
            area += depth * (point - previous)
            depth += delta[point]
            self.integral.append(area)
            self.depth.append(depth)
            previous = point

    def _area_to(self, x: int) -> int:
        k = bisect_right(self.points, x) - 1
        if k < 0:
            return 0
        return self.integral[k] + self.depth[k] * (x - self.points[k])

    def covered(self, start: int, end: int) -> int:
        return self._area_to(end) - self._area_to(start)


def _divided_sums(spans: Sequence[Span], intersections: Sequence[int]) -> float:
    total = 0.0
    for (start, end), inter in zip(spans, intersections):
        if inter:
            total += inter / (end - start)
    return total


def overlap_sums(predicted: Sequence[Span], gold: Sequence[Span]) -> Tuple[float, float]:
    """(Σ_p Σ_g |p∩g|/|p|, Σ_g Σ_p |p∩g|/|g|) over all pairs, as the official scorers define it.

    >>> overlap_sums([(0, 5)], [(0, 10)])
    (1.0, 0.5)
    >>> overlap_sums([(0, 5), (0, 5)], [(0, 10)])  # a duplicated prediction counts twice
    (2.0, 1.0)
    """
    if not predicted or not gold:
        return 0.0, 0.0
    if len(predicted) * len(gold) <= _PAIRWISE_LIMIT:
        per_prediction = [0] * len(predicted)
        per_gold = [0] * len(gold)
        for i, (ps, pe) in enumerate(predicted):
            for j, (gs, ge) in enumerate(gold):
                inter = (pe if pe < ge else ge) - (ps if ps > gs else gs)
                if inter > 0:
                    per_prediction[i] += inter
                    per_gold[j] += inter
    else:
        gold_coverage = Coverage(gold)
        predicted_coverage = Coverage(predicted)
        per_prediction = [gold_coverage.covered(s, e) for s, e in predicted]
        per_gold = [predicted_coverage.covered(s, e) for s, e in gold]
    return _divided_sums(predicted, per_prediction), _divided_sums(gold, per_gold)
