"""Labelled spans of many documents held as machine integers, for the large span tracks (FLC).

Each document has one ``array('q')`` of (technique number, start, end) triples, and a document's
spans become tuples only while that document is scored (``by_technique``): a submission's spans are
all held before its per-article limit is checked, and as tuples in lists the shortest rows would
take more memory than the budget of 5 times the file (the memory table of benchmarks/RESULTS.md).
"""

from __future__ import annotations

from array import array
from typing import Dict, Iterable, Iterator, List, Sequence, Tuple

from .spans import Span, merge_overlapping

MAX_OFFSET = (1 << 63) - 1  # what a signed 64-bit array item holds


class SpanStore:
    """Documents (in order of first appearance) and their labelled spans.

    >>> store = SpanStore(["Doubt", "Smears"])
    >>> store.declare("7").extend([1, 0, 5, 0, 3, 9, 1, 10, 12])  # (technique number, start, end)
    >>> _ = store.declare("8")
    >>> store.order, store.count("7"), store.count("8")
    (['7', '8'], 3, 0)
    >>> store.by_technique("7")
    {'Smears': [(0, 5), (10, 12)], 'Doubt': [(3, 9)]}
    """

    __slots__ = ("techniques", "technique_number", "order", "spans")

    def __init__(self, techniques: Sequence[str]) -> None:
        self.techniques: List[str] = list(techniques)
        self.technique_number: Dict[str, int] = {name: i for i, name in enumerate(self.techniques)}
        self.order: List[str] = []
        self.spans: Dict[str, array] = {}  # document -> flat (technique, start, end) triples

    def declare(self, document: str) -> array:
        """The document's triples, creating an empty entry the first time it is named."""
        triples = self.spans.get(document)
        if triples is None:
            triples = self.spans[document] = array("q")
            self.order.append(document)
        return triples

    def __contains__(self, document: object) -> bool:
        return document in self.spans

    def count(self, document: str) -> int:
        return len(self.spans[document]) // 3

    def _triples(self, document: str) -> Iterator[Tuple[int, int, int]]:
        items = iter(self.spans.get(document, ()))
        return zip(items, items, items)

    def _grouped(self, triples: Iterable[Tuple[int, int, int]]) -> Dict[str, List[Span]]:
        """Spans per technique name, techniques and spans in the order of ``triples``."""
        grouped: Dict[int, List[Span]] = {}
        for technique, start, end in triples:
            spans = grouped.get(technique)
            if spans is None:
                grouped[technique] = [(start, end)]
            else:
                spans.append((start, end))
        names = self.techniques
        return {names[technique]: spans for technique, spans in grouped.items()}

    def by_technique(self, document: str) -> Dict[str, List[Span]]:
        """The document's spans per technique (in order of first appearance), each in file order."""
        return self._grouped(self._triples(document))

    def merged(self, document: str) -> Dict[str, List[Span]]:
        """``merge_overlapping`` of each technique's spans, techniques in list order.

        >>> store = SpanStore(["Doubt", "Smears"])
        >>> store.declare("7").extend([1, 15, 30, 0, 3, 9, 1, 10, 20])  # Smears [15, 30) meets [10, 20)
        >>> store.merged("7")
        {'Doubt': [(3, 9)], 'Smears': [(10, 30)]}
        """
        grouped = self.by_technique(document)
        return {name: merge_overlapping(grouped[name]) for name in self.techniques if name in grouped}

    def all_spans(self, document: str) -> List[Span]:
        """The document's spans whatever their technique, in file order."""
        return [(start, end) for _, start, end in self._triples(document)]
