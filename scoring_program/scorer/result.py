"""What a track hands back to the Codalab contract: scores, counts, a table, private details."""

from __future__ import annotations

from .structs import factory, struct
from typing import Any, Dict, List, Optional


@struct
class TechniqueRow:
    """One row of a per-technique (per-class) table."""

    label: str
    precision: float
    recall: float
    f1: float
    gold: int
    predicted: int


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
    private: List[Dict[str, Any]] = factory(list)  # per-item details, organisers only
