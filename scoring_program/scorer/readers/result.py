"""What a track hands back to the Codalab contract: its per-item statistics, and the scores, counts and
table shown."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple



# Both platforms store a score as DecimalField(max_digits=20, decimal_places=10): |x| < 1e10.
MAX_STORABLE = 1e10


def unstorable_scores(scores: Dict[str, float]) -> List[str]:
    """The keys whose value the platforms cannot store (not finite, or too large)."""
    return [key for key, value in scores.items() if not (abs(float(value)) < MAX_STORABLE)]


class TechniqueRow:
    """One row of a per-technique (per-class) table.

    The per-item statistics behind the row, summed by the track: multilabel tracks count true
    positives, false positives and false negatives; span tracks sum |p∩g|/|p| and |p∩g|/|g|
    (None where the track has no such statistic).
    """

    __slots__ = ("label", "precision", "recall", "f1", "gold", "predicted", "true_positives",
                 "false_positives", "false_negatives", "precision_sum", "recall_sum")

    def __init__(self, label: str, precision: float, recall: float, f1: float, gold: int, predicted: int,
                 true_positives: Optional[int] = None, false_positives: Optional[int] = None,
                 false_negatives: Optional[int] = None, precision_sum: Optional[float] = None,
                 recall_sum: Optional[float] = None) -> None:
        self.label = label
        self.precision = precision
        self.recall = recall
        self.f1 = f1
        self.gold = gold
        self.predicted = predicted
        self.true_positives = true_positives
        self.false_positives = false_positives
        self.false_negatives = false_negatives
        self.precision_sum = precision_sum
        self.recall_sum = recall_sum

    def __repr__(self) -> str:
        return "TechniqueRow(%r, P=%r, R=%r, F1=%r)" % (self.label, self.precision, self.recall, self.f1)


class ItemView:
    """One item as the local error analysis shows it.

    Span and multilabel tracks: its ``text`` (None when the gold has none) and both sides, as
    (technique, start, end) spans or labels (``gold``, ``predicted``). Other tracks give
    ``marked``: texts as (label, pieces), each piece (kind, text, title) with kind "" (plain),
    "b" (in both), "g" (gold only), "p" (predicted only) or "h" (a partial match), the title
    naming what the piece is; ``facts``: (name, value) lines; ``table``: (header, rows) of texts.
    """

    __slots__ = ("text", "gold", "predicted", "marked", "facts", "table")

    def __init__(self, text: Optional[str], gold: List[Any], predicted: List[Any],
                 marked: Optional[List[Tuple[str, List[Tuple[str, str, str]]]]] = None,
                 facts: Optional[List[Tuple[str, str]]] = None,
                 table: Optional[Tuple[List[str], List[List[str]]]] = None) -> None:
        self.text = text
        self.gold = gold
        self.predicted = predicted
        self.marked = marked
        self.facts = [] if facts is None else facts
        self.table = table


def marked_text(text: str, gold: Sequence[Tuple[int, int]], predicted: Sequence[Tuple[int, int]]
                ) -> List[Tuple[str, str, str]]:
    """``text`` as ``ItemView.marked`` pieces: each stretch covered by a gold span only ("g"), a
    predicted span only ("p") or both ("b"), spans as (start, end) character offsets.

    >>> marked_text("abcdef", [(1, 4)], [(3, 5)])
    [('', 'a', ''), ('g', 'bc', 'gold'), ('b', 'd', 'gold and predicted'), ('p', 'e', 'predicted'), ('', 'f', '')]
    """
    sides = [0] * len(text)  # bit 1: gold, bit 2: predicted
    for bit, spans in ((1, gold), (2, predicted)):
        for start, end in spans:
            for position in range(max(0, start), min(end, len(text))):
                sides[position] |= bit
    names = {0: ("", ""), 1: ("g", "gold"), 2: ("p", "predicted"), 3: ("b", "gold and predicted")}
    pieces: List[Tuple[str, str, str]] = []
    start = 0
    for position in range(1, len(text) + 1):
        if position == len(text) or sides[position] != sides[start]:
            kind, title = names[sides[start]]
            pieces.append((kind, text[start:position], title))
            start = position
    return pieces


class TrackResult:
    """What a track's ``score`` returns: the leaderboard scores and what the outputs show.

    ``scores``: leaderboard key -> value, in display order. ``details``: public counts, e.g. "gold
    spans" -> 403. ``table``: the per-technique rows. ``notes`` (shown) and ``warnings`` (printed on
    stdout) are public. ``statistics``: the per-item statistics (``per_item.ItemStatistics``: what
    the resamples, the error analysis and the results tool stand on; never written on the
    platform), given as one or as a function that builds it when first asked (the platform's run
    never asks: no per-item rows on its path). ``item_noun``: what an item is ("meme",
    "article"...). ``confusions`` (span tracks): (predicted technique X, gold technique Y) -> number of
    (predicted, gold) span pairs, X != Y, that share a character, summed over the documents (public:
    an aggregate). ``item_view`` (local error analysis only, ``score.py --items``): item id ->
    ``ItemView``; score.py drops it on the platform, where nothing per item may be written.
    """

    __slots__ = ("track", "title", "scores", "details", "table", "table_note", "notes", "warnings", "_statistics",
                 "item_noun", "confusions", "item_view")

    def __init__(self, track: str, title: str, scores: Dict[str, float], details: Optional[Dict[str, float]] = None,
                 table: Optional[List[TechniqueRow]] = None, table_note: str = "",
                 notes: Optional[List[str]] = None, warnings: Optional[List[str]] = None,
                 statistics: Any = None, item_noun: str = "item", confusions: Optional[Dict[Tuple[str, str], int]] = None,
                 item_view: Optional[Callable[[str], Any]] = None) -> None:
        self.track = track
        self.title = title
        self.scores = scores
        self.details = {} if details is None else details
        self.table = table
        self.table_note = table_note
        self.notes = [] if notes is None else notes
        self.warnings = [] if warnings is None else warnings
        self._statistics = statistics
        self.item_noun = item_noun
        self.confusions = confusions
        self.item_view = item_view

    @property
    def statistics(self) -> Any:
        """The per-item statistics (built on first use when the track gave a function)."""
        if callable(self._statistics):
            self._statistics = self._statistics()
        return self._statistics

    def __repr__(self) -> str:
        return "TrackResult(%r, scores=%r)" % (self.track, self.scores)
