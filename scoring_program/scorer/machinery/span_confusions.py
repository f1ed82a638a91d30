"""The confusion counts of the span tracks' detailed results: per document, the (predicted
technique X, gold technique Y != X) span pairs that share a character. They never enter a score:
the measure pairs spans of one technique only."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from operator import itemgetter, sub
from typing import Dict, Mapping, Sequence, Tuple

from .spans import Span

_first, _second = itemgetter(0), itemgetter(1)


def add_confusions(gold: Mapping[str, Sequence[Span]], predicted: Mapping[str, Sequence[Span]],
                   into: Dict[Tuple[str, str], int]) -> None:
    """Add one document's (predicted X, gold Y) span pairs that share a character, X != Y.

    The gold spans of all techniques sorted by start: a predicted [s, e) can only meet those that
    start before e and after s - (the longest gold span), found by two binary searches; each of
    them meets it when it ends after s. On real data that window holds a span or two. Where the
    windows are wide (long spans: more candidates than 4 per predicted span and gold technique),
    the pairs are counted per gold technique instead, never enumerated: a gold span [gs, ge) meets
    [s, e) when gs < e and ge > s; those with gs < e are ``bisect_left(starts, e)``, and among them
    those ending by s (ge <= s, so gs < s < e) are ``bisect_right(ends, s)``. Either way
    O(n log n) per document, whatever the submission.

    >>> counts = {}
    >>> add_confusions({"Doubt": [(0, 10), (20, 30)]}, {"Smears": [(5, 25), (30, 40)], "Doubt": [(0, 3)]}, counts)
    >>> counts
    {('Smears', 'Doubt'): 2}
    """
    spans = sorted([(start, end, technique) for technique, group in gold.items() for start, end in group])
    starts = list(map(_first, spans))
    longest = max(map(sub, map(_second, spans), starts))
    windows = [(technique, start, bisect_right(starts, start - longest), bisect_left(starts, end))
               for technique, group in predicted.items() for start, end in group]
    if sum([high - low for _, _, low, high in windows]) > 4 * len(windows) * len(gold) + 64:
        _count_confusions_per_technique(gold, predicted, into)  # wide windows: count, not enumerate
        return
    pairs = [(technique, span[2]) for technique, start, low, high in windows for span in spans[low:high]
             if span[1] > start and span[2] != technique]
    if isinstance(into, Counter):
        into.update(pairs)  # (counted in C)
    else:
        for key in pairs:
            into[key] = into.get(key, 0) + 1


def _count_confusions_per_technique(gold: Mapping[str, Sequence[Span]], predicted: Mapping[str, Sequence[Span]],
                                    into: Dict[Tuple[str, str], int]) -> None:
    bounds = [(technique, sorted(start for start, _ in spans), sorted(end for _, end in spans))
              for technique, spans in gold.items() if spans]
    for predicted_technique, spans in predicted.items():
        for gold_technique, starts, ends in bounds:
            if gold_technique == predicted_technique:
                continue
            pairs = 0
            for start, end in spans:
                pairs += bisect_left(starts, end) - bisect_right(ends, start)
            if pairs:
                key = (predicted_technique, gold_technique)
                into[key] = into.get(key, 0) + pairs
