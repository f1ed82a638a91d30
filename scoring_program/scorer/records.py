"""Shared checks for files made of records keyed by an id: list shape, ids, alignment with gold."""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from .problems import Problems, did_you_mean
from .readers import record_where

# How many ids a "missing ids" / "unknown ids" line lists before it says "and N more".
MAX_IDS_LISTED = 10


def list_of_objects(value: Any, problems: Problems, what: str) -> List[Tuple[int, Dict[str, Any]]]:
    """(index, record) for each element of a JSON list of objects; problems for anything else."""
    if not isinstance(value, list):
        kind = "an object" if isinstance(value, dict) else type(value).__name__
        problems.add("top level", "expected a JSON list of %s, found %s" % (what, kind))
        return []
    records = []
    for index, record in enumerate(value):
        if not isinstance(record, dict):
            problems.add(record_where(index, record), "expected an object with \"id\" and \"labels\"")
        else:
            records.append((index, record))
    return records


def string_id(record: Dict[str, Any], index: int, problems: Problems, field: str = "id") -> Any:
    """The record's id if it is a non-empty string, else a problem and None."""
    value = record.get(field)
    if type(value) is str and value:  # the usual case first
        return value
    if field not in record:
        problems.add(record_where(index, record, field), "missing field %r" % field)
        return None
    value = record[field]
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        problems.add(record_where(index, record, field), "field %r must be a string" % field)
        return None
    if isinstance(value, int):
        problems.add(record_where(index, record, field),
                     "field %r must be a string (write \"%d\", not %d)" % (field, value, value))
        return None
    if not value:
        problems.add(record_where(index, record, field), "field %r is empty" % field)
        return None
    return value


LAST_COPY_WINS = ("%d id appears more than once; its last copy is scored, as the official scorer does",
                  "%d ids appear more than once; the last copy of each is scored, as the official "
                  "scorer does")


def check_duplicates(identifiers: Iterable[str], problems: Problems, place=None,
                     last_wins: bool = False) -> None:
    """A problem for every id seen twice; ``place(i)`` names the i-th (0-based) item.

    ``last_wins``: the official scorer keeps the last copy of an id (it builds a dict), so each
    repeated id is one counted warning instead; the caller keeps the last copy. Last-wins cannot
    raise a score above that of the file without the earlier copies.
    """
    identifiers = list(identifiers)
    if len(set(identifiers)) == len(identifiers):  # the usual case, at C speed
        return
    place = place or (lambda i: "record %d" % (i + 1))
    first: Dict[str, int] = {}
    for index, identifier in enumerate(identifiers):
        seen = first.setdefault(identifier, index)
        if seen == index:
            continue
        if last_wins:
            if seen >= 0:  # once per id
                problems.warn(LAST_COPY_WINS, "%s (id %r)" % (place(index), identifier))
                first[identifier] = -1
        else:
            problems.add(place(index), "duplicate id %r (first at %s); give each id once"
                         % (identifier, place(seen)))


def check_id_sets(gold_ids: Sequence[str], submitted_ids: Iterable[str], problems: Problems,
                  noun: str = "ids", allow_extra: bool = False) -> List[str]:
    """Report missing ids (and unknown ones unless ``allow_extra``); return the unknown ids.

    Listing ids is safe: the public inputs already show every id of the phase.
    """
    submitted = list(submitted_ids)
    submitted_set = set(submitted)
    gold = set(gold_ids)
    if submitted_set == gold:  # the usual case: nothing to list
        return []
    missing = [identifier for identifier in gold_ids if identifier not in submitted_set]
    unknown = [identifier for identifier in dict.fromkeys(submitted) if identifier not in gold]
    if missing:
        problems.add("", "%d of the %d %s of this phase are missing: %s"
                     % (len(missing), len(gold), noun, _listing(missing)))
    if unknown and not allow_extra:
        problems.add("", "%d %s are not in this phase: %s"
                     % (len(unknown), noun, _listing(unknown)))
    return unknown


def _listing(ids: Sequence[str]) -> str:
    shown = ", ".join(repr(i) for i in ids[:MAX_IDS_LISTED])
    if len(ids) > MAX_IDS_LISTED:
        shown += " and %d more" % (len(ids) - MAX_IDS_LISTED)
    return shown


def label_problem(label: Any, classes: Sequence[str]) -> str:
    """The message for a label that is not one of ``classes``."""
    if not isinstance(label, str):
        return "labels must be strings"
    return "unknown technique %r%s" % (label if len(label) <= 60 else label[:57] + "...",
                                       did_you_mean(label, classes))


def record_limit(gold_count: int) -> int:
    """The most records a submission may hold before it is refused unread: a generous margin
    over the phase's own count (an honest file has exactly that many)."""
    return 2 * gold_count + 1000


def too_many_records(value: Any, limit: Optional[int], problems: Problems, noun: str) -> bool:
    """True when ``value`` may be read record by record; a problem when it has far too many."""
    if limit is not None and isinstance(value, list) and len(value) > limit:
        problems.add("top level", "%d records, but this phase has far fewer %s; give one record "
                     "per item of the phase" % (len(value), noun))
        return False
    return True
