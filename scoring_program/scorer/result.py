"""What a track hands back to the Codalab contract: scores, counts, a table, private details."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .structs import factory, struct


# Both platforms store a score as DecimalField(max_digits=20, decimal_places=10): |x| < 1e10.
MAX_STORABLE = 1e10


def unstorable_scores(scores: Dict[str, float]) -> List[str]:
    """The keys whose value the platforms cannot store (not finite, or too large)."""
    return [key for key, value in scores.items() if not (abs(float(value)) < MAX_STORABLE)]


class Columns:
    """Private details held as columns: ``names``, and ``values(i)``, the i-th column as a list.

    Written as one JSON object of lists, a column at a time, so that the rows never exist as
    Python lists all at once (an FLC test set at 100 times the real size has 400k rows).
    ``items``: every item (document) in order, where the rows skip items that have none (a span
    track's document with no span on either side): the resampling unit needs them all.
    """

    __slots__ = ("names", "values", "items")

    def __init__(self, names: Sequence[str], values: Callable[[int], list],
                 items: Optional[List[str]] = None) -> None:
        self.names = list(names)
        self.values = values
        self.items = items


@struct
class TechniqueRow:
    """One row of a per-technique (per-class) table."""

    label: str
    precision: float
    recall: float
    f1: float
    gold: int
    predicted: int
    # The per-item statistics behind the row, summed by the track: multilabel tracks count true
    # positives, false positives and false negatives; span tracks sum |p∩g|/|p| and |p∩g|/|g|.
    true_positives: Optional[int] = None
    false_positives: Optional[int] = None
    false_negatives: Optional[int] = None
    precision_sum: Optional[float] = None
    recall_sum: Optional[float] = None


@struct
class ItemView:
    """One item as the local error analysis shows it: its text (None when the gold has none) and
    both sides, as (technique, start, end) spans (span tracks) or labels (multilabel tracks)."""

    text: Optional[str]
    gold: List[Any]
    predicted: List[Any]


@struct
class TrackResult:
    track: str
    title: str
    scores: Dict[str, float]  # leaderboard key -> value, in display order
    details: Dict[str, float] = factory(dict)  # e.g. "gold spans" -> 403 (public)
    table: Optional[List[TechniqueRow]] = None
    table_note: str = ""
    notes: List[str] = factory(list)  # shown to the participant (public)
    warnings: List[str] = factory(list)  # printed on stdout (public)
    private: Any = factory(list)  # per-item details, organisers only: a list of rows, or Columns
    # Span tracks: (predicted technique X, gold technique Y) -> number of (predicted, gold) span
    # pairs, X != Y, that share a character, summed over the documents (public: an aggregate).
    confusions: Optional[Dict[Tuple[str, str], int]] = None
    # For local error analysis only (``score.py --items``): item id -> ItemView (gold, text).
    # score.py drops it on the platform, where nothing per item may be written.
    item_view: Optional[Callable[[str], Any]] = None
