"""Shared checks for files made of records keyed by an id (list shape, ids, alignment with gold), and
for the items of a positional track (no ids: by their inputs, or by their count only)."""

from __future__ import annotations

from typing import AbstractSet, Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple

from .json_list import MAX_RECORD_CHARS, iter_json_values
from .problems import Problems, clip, did_you_mean

# How many ids a "missing ids" / "unknown ids" line lists before it says "and N more".
MAX_IDS_LISTED = 10


def record_where(index: int, record: Any, id_field: str = "id") -> str:
    """``record 5 (id '34')`` for the 0-based ``index`` of a JSON list element."""
    if isinstance(record, dict):
        value = record.get(id_field)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and len(str(value)) <= 40:
            return "record %d (%s %r)" % (index + 1, id_field, value)
    return "record %d" % (index + 1)


def json_values(path: str, name: str, max_bytes: Optional[int], problems: Problems,
                max_records: Optional[int], noun: str) -> Iterator[Tuple[int, Any]]:
    """(index, value) for each element of a file's top-level JSON list. Reading stops after
    ``max_records`` records (more than the phase could use: refused before they are built) or
    after many problems."""
    for index, value in iter_json_values(path, name, max_bytes, None if max_records is None else MAX_RECORD_CHARS):
        if problems.entries and problems.saturated:
            return
        if max_records is not None and index >= max_records:
            problems.add("top level", "more than %d records, but this phase has far fewer %s; give one "
                                      "record per item of the phase" % (max_records, noun))
            return
        yield index, value


def json_records(path: str, name: str, max_bytes: Optional[int], problems: Problems,
                 max_records: Optional[int], noun: str) -> Iterator[Tuple[int, Dict[str, Any]]]:
    """(index, record) for each object of a file's top-level JSON list (``json_values``);
    anything else than an object is a problem."""
    for index, record in json_values(path, name, max_bytes, problems, max_records, noun):
        if type(record) is dict:
            yield index, record
        else:
            problems.add(record_where(index, record), "expected an object with \"id\" and \"labels\"")


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
                problems.warn(LAST_COPY_WINS, "%s (id %s)" % (place(index), clip(identifier)))
                first[identifier] = -1
        else:
            problems.add(place(index), "duplicate id %s (first at %s); give each id once"
                         % (clip(identifier), place(seen)))


def check_id_sets(gold_ids: Sequence[str], submitted_ids: Iterable[str], problems: Problems,
                  noun: str = "ids", allow_extra: bool = False,
                  other_phases: Optional[Mapping[str, AbstractSet[str]]] = None) -> List[str]:
    """Report missing ids (and unknown ones unless ``allow_extra``); return the unknown ids.

    ``other_phases`` (phase label -> its public ids): unknown ids that are mostly another phase's
    are named as a prediction for that phase's inputs. Listing ids is safe: the public inputs
    already show every id of the phase.
    """
    submitted = list(submitted_ids)
    submitted_set = set(submitted)
    gold = set(gold_ids)
    if submitted_set == gold:  # the usual case: nothing to list
        return []
    missing = [identifier for identifier in gold_ids if identifier not in submitted_set]
    unknown = [identifier for identifier in dict.fromkeys(submitted) if identifier not in gold]
    other_phase = other_phase_line(unknown, other_phases, len(submitted_set)) if unknown and not allow_extra else ""
    if other_phase:  # the one line that says what happened, first; the counts after it, without lists
        problems.add("", other_phase)
    if missing:
        problems.add("", "%d of the %d %s of this phase are missing%s"
                     % (len(missing), len(gold), noun, "" if other_phase else ": " + _listing(missing)))
    if unknown and not allow_extra:
        problems.add("", "%d %s are not in this phase%s"
                     % (len(unknown), noun, "" if other_phase else ": " + _listing(unknown)))
    return unknown


def other_phase_line(unknown: Sequence[str], other_phases: Optional[Mapping[str, AbstractSet[str]]],
                     submitted: int) -> str:
    """The line naming the phase whose inputs these predictions were made for, when (nearly) all of
    the file's ``submitted`` ids (90%) are that phase's ids, else "": never for a few ids, so that
    adding an id to a submission cannot tell whether it belongs to another phase."""
    for label, ids in sorted((other_phases or {}).items()):
        found = sum(1 for identifier in unknown if identifier in ids)
        if ids and found * 10 >= submitted * 9:
            return ("these are predictions for the %s phase's inputs (%d of the %d ids not in this phase are "
                    "its ids); run your system on this phase's inputs (its public data) and submit those"
                    % (label, found, len(unknown)))
    return ""


def _listing(ids: Sequence[str]) -> str:
    shown = ", ".join(clip(i) for i in ids[:MAX_IDS_LISTED])
    if len(ids) > MAX_IDS_LISTED:
        shown += " and %d more" % (len(ids) - MAX_IDS_LISTED)
    return shown


def label_problem(label: Any, classes: Sequence[str]) -> str:
    """The message for a label that is not one of ``classes``."""
    if not isinstance(label, str):
        return "labels must be strings"
    return "unknown technique %s%s" % (clip(label), did_you_mean(label, classes))


def record_limit(gold_count: int) -> int:
    """The most records a submission may hold before it is refused unread: a generous margin
    over the phase's own count (an honest file has exactly that many)."""
    return 2 * gold_count + 1000


def content_id(text: str) -> str:
    """The id of an item that has none (a positional track's sentence), made from its public input:
    the same input gives the same id in every phase, so that ``public_ids`` and ``other_phase_line``
    can tell predictions made for another phase's inputs. ``text``: the item's input as one string
    (e.g. its tokens joined by spaces).

    >>> content_id("EU rejects German call")
    'c:c5fdabaf4a36f08a'
    """
    import hashlib
    return "c:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def check_item_sequence(gold_inputs: Sequence[str], submitted_inputs: Sequence[str], places: Sequence[str],
                        problems: Problems, noun: str = "sentence",
                        other_phases: Optional[Mapping[str, AbstractSet[str]]] = None) -> None:
    """The id check of a track whose items have no ids (positional: sentences in file order): the
    submitted items' inputs must be the gold's, in order.

    Parameters
    ----------
    gold_inputs, submitted_inputs : sequence of str
        Each item's public input as one string (e.g. its tokens joined by spaces), in file order.
    places : sequence of str
        Where each submitted item starts ("line 12"), for the problem line.
    problems : Problems
        Where the problems go: first, when (nearly) all the submitted items are another phase's
        (their ``content_id`` among ``other_phases``' ids, as ``other_phase_line`` decides), the line
        naming that phase; then the first item that differs and the counts.
    noun : str
        What an item is ("sentence").
    other_phases : mapping, optional
        ``options.other_phase_ids`` of the track's file.
    """
    if list(gold_inputs) == list(submitted_inputs):
        return
    ours = set(map(content_id, gold_inputs))
    unknown = [identity for identity in map(content_id, submitted_inputs) if identity not in ours]
    other_phase = other_phase_line(unknown, other_phases, len(submitted_inputs)) if unknown else ""
    if other_phase:
        problems.add("", other_phase)
    for i, (gold, submitted) in enumerate(zip(gold_inputs, submitted_inputs)):
        if gold != submitted:
            problems.add(places[i] if i < len(places) else "", "%s %d is not the phase's input: %s; write the public "
                         "input's %ss in order" % (noun, i + 1, clip(submitted), noun))
            break
    if len(submitted_inputs) != len(gold_inputs):
        problems.add("", "%d %ss; the phase's input has %d" % (len(submitted_inputs), noun, len(gold_inputs)))


def check_item_count(expected: int, submitted: int, problems: Problems, noun: str = "line",
                     other_counts: Optional[Mapping[str, int]] = None) -> str:
    """The phase check of a track whose predictions carry neither ids nor inputs (one per line in
    the public input's order, as machine translation's hypotheses): only their count can be checked.

    Parameters
    ----------
    expected, submitted : int
        How many items the phase has (its public input's) and the file holds.
    problems : Problems
        Where a wrong count goes: first, when the count is another phase's, the line naming that
        phase (as ``other_phase_line`` does for ids); then the counts.
    noun : str
        What an item is ("line", "sentence").
    other_counts : mapping, optional
        ``options.other_phase_counts`` of the track's file: the build writes the earlier phases'
        only (``bundle/upload.py``), whose public data participants hold, so a count says nothing new.

    Returns
    -------
    str
        For the result's ``notes`` (the detailed results page shows them): when the count is right
        but another phase's input has as many items, the note that predictions made for that
        phase's inputs cannot be told from this phase's and are scored; '' otherwise.
    """
    counts = sorted((other_counts or {}).items())
    if submitted == expected:
        same = [label for label, count in counts if count == expected]
        if not same:
            return ""
        return ("The %ss are matched to this phase's inputs by their order only: a file made for the %s phase's "
                "inputs (%d %ss too) is scored here as this phase's, not refused; check that yours was made from "
                "this phase's public data." % (noun, " or ".join(same), expected, noun))
    for label, count in counts:
        if count == submitted:
            problems.add("", "these are predictions for the %s phase's inputs (by their count: %d %ss, as many as "
                             "its input has); run your system on this phase's inputs (its public data) and submit "
                             "those" % (label, submitted, noun))
            break
    problems.add("", "%d %ss; the phase's input has %d" % (submitted, noun, expected))
    return ""
