"""What the span tracks say about a span they refuse or warn about, and the overlapping-predictions
policy (``overlapping_predictions``: "error", "merge" or "keep") that decides what is scored."""

from __future__ import annotations

from typing import Dict, List, Mapping, Optional, Tuple

from .spans import Span, first_overlap_in_sorted, merge_overlapping

Overlap = Tuple[str, Span, Span]  # technique, and two of its predicted spans that share a character


def offset_problem(start: object, end: object, text_length: Optional[int] = None) -> str:
    """Why (start, end) is not a span ('' if it is): integers with 0 <= start < end, as the official
    scorers require; with ``text_length`` (reference data only) also end <= len(text).

    Parameters
    ----------
    start, end : object
        The offsets as read.
    text_length : int or None
        The document's length in characters (gold only).

    Returns
    -------
    str
        The problem in words, or ''.

    Offsets are 0-based code-point indices, ``end`` exclusive. A submitted span past its text is
    not a problem but a warning (``past_the_text``).
    """
    for field, value in (("start", start), ("end", end)):
        if not isinstance(value, int) or isinstance(value, bool):
            return "%s must be an integer character offset" % field
    if start < 0 or end < 0:  # type: ignore[operator]
        return "start and end must be non-negative (found %s, %s)" % (_short(start), _short(end))
    if start >= end:  # type: ignore[operator]
        return "end must be greater than start (found start=%s, end=%s)" % (_short(start), _short(end))
    if text_length is not None and end > text_length:  # type: ignore[operator]
        return "end=%s is beyond the end of the text (%d characters)" % (_short(end), text_length)
    return ""


def past_the_text(noun: str) -> Tuple[str, str]:
    """The warning for submitted spans that end past their document's text.

    The official scorers never read the texts and score such spans as given; so do we. They
    cannot raise a score: the characters past the text meet no gold character, so they add to
    the span's length (lowering precision) and to no intersection (recall is that of the span
    cut at the end of the text).
    """
    return ("%%d span ends past its %s's text; scored as given (it can only lower precision)" % noun,
            "%%d spans end past their %s's text; scored as given (they can only lower precision)" % noun)


def wholly_past_the_text(noun: str) -> Tuple[str, str]:
    """The warning for submitted spans that start at or past the end of their text (counted also
    by ``past_the_text``)."""
    return ("%%d span starts at or past the end of its %s's text; it matches no gold span" % noun,
            "%%d spans start at or past the end of their %s's text; they match no gold span" % noun)


def warn_if_past_the_text(start: int, end: int, length: Optional[int], noun: str, problems, where: str) -> None:
    """Count the warnings for a submitted span ``where`` of a text of ``length`` characters
    (None: unknown)."""
    if length is not None and end > length:
        problems.warn(past_the_text(noun), where)
        if start >= length:
            problems.warn(wholly_past_the_text(noun), where)


def _short(value: object) -> str:
    text = str(value)
    return text if len(text) <= 24 else "%s...(%d digits)" % (text[:12], len(text.lstrip("-")))


def predictions_under_policy(by_technique: Mapping[str, List[Span]], policy: str
                             ) -> Tuple[Mapping[str, List[Span]], List[Overlap]]:
    """One document's predictions under ``overlapping_predictions``, and the overlaps found.

    Parameters
    ----------
    by_technique : dict of technique -> list of (start, end)
        One document's predicted spans.
    policy : {"error", "merge", "keep"}

    Returns
    -------
    (dict of technique -> list of (start, end), list of Overlap)

    "merge": same-technique overlaps become their union; "keep": left as they are; "error": one
    overlap per technique that has one (technique, first span, second span), for problem lines.
    Under "merge" and "error" the returned lists are sorted and disjoint. The mapping given is
    never changed; it is returned as it is when nothing needs to change (most documents).
    """
    if policy == "keep":
        return by_technique, []
    if policy == "merge":
        return {technique: merge_overlapping(spans) for technique, spans in by_technique.items()}, []
    ordered: Optional[Dict[str, List[Span]]] = None
    overlaps: List[Overlap] = []
    for technique, spans in by_technique.items():
        if len(spans) > 1:  # one span is sorted and has no overlap
            if ordered is None:
                ordered = dict(by_technique)
            ordered[technique] = spans = sorted(spans)
            pair = first_overlap_in_sorted(spans)
            if pair is not None:
                overlaps.append((technique, pair[0], pair[1]))
    return (by_technique if ordered is None else ordered), overlaps


def overlap_problem(overlap: Overlap) -> str:
    technique, first, second = overlap
    return ("two %r spans overlap, [%d, %d) and [%d, %d); predict one span per fragment "
            "(the organisers can set overlapping_predictions to merge or keep them)"
            % (technique, first[0], first[1], second[0], second[1]))
