"""A competition's phases as the site holds them: found by id (or a name that is one phase's only),
ordered by their ``index`` (refused in one line when the site's answer gives no order), their
tasks (those the site lists for that phase's id) and their dates on the site's clock.

Codabench's unpacker numbers the phases 0, 1, ... in the yaml's order (``V2Unpacker``); the phase
answer's ``status`` is the site's own reading of its clock (``PhaseDetailSerializer.get_status``:
``Previous`` once the end has passed).
"""

from __future__ import annotations

import datetime
from typing import List, Optional

from ranking.names import shown

from .errors import CodabenchError


def where(comp_id: int, phase: dict) -> str:
    """How every line names a phase: ``competition 12, phase Evaluation (id 32)``."""
    return "competition %d, phase %s (id %s)" % (comp_id, shown(str(phase.get("name", ""))), phase.get("id"))


def phase_of(comp: dict, wanted: str) -> dict:
    """The phase with the id ``wanted``, or the one phase named ``wanted`` (case and spaces
    ignored); two phases of that name are one line asking for the id."""
    phases = comp.get("phases") or []
    text = wanted.strip()
    by_id = [p for p in phases if text.isdigit() and str(p.get("id")) == text]
    by_name = [p for p in phases if " ".join(str(p.get("name", "")).split()).lower() == " ".join(text.split()).lower()]
    found = by_id or by_name
    if len(found) == 1:
        return found[0]
    listed = ", ".join("%s (id %s)" % (shown(p.get("name", "")), p.get("id")) for p in phases) or "none"
    if len(found) > 1:
        raise CodabenchError("competition %s: %d phases are named %s: give its id (phases: %s)"
                             % (comp.get("id"), len(found), shown(wanted), listed))
    raise CodabenchError("competition %s has no phase %s (its phases: %s)" % (comp.get("id"), shown(wanted), listed))


def ordered(comp: dict) -> List[dict]:
    """The phases in the site's order (``index``); one line when an index is missing, not an
    integer or repeated: which phase comes before which is then unknown, and nothing is decided."""
    phases = comp.get("phases") or []
    seen = {}
    for phase in phases:
        index = phase.get("index")
        if isinstance(index, bool) or not isinstance(index, int):
            raise CodabenchError("competition %s: the site gives phase %s (id %s) the index %s, not a number: the "
                                 "phases have no order, so no phase is taken for the one before another"
                                 % (comp.get("id"), shown(str(phase.get("name", ""))), phase.get("id"),
                                    shown(repr(index), 40)))
        if index in seen:
            raise CodabenchError("competition %s: the site gives phases %s (id %s) and %s (id %s) the same index %d: "
                                 "the phases have no order, so no phase is taken for the one before another"
                                 % (comp.get("id"), shown(str(seen[index].get("name", ""))), seen[index].get("id"),
                                    shown(str(phase.get("name", ""))), phase.get("id"), index))
        seen[index] = phase
    return [seen[index] for index in sorted(seen)]


def previous(comp: dict, phase: dict) -> Optional[dict]:
    """The phase just before ``phase`` in the site's order; None for the first."""
    phases = ordered(comp)
    number = [p.get("id") for p in phases].index(phase.get("id"))
    return phases[number - 1] if number else None


def later(comp: dict, phase: dict) -> List[dict]:
    """The phases after ``phase`` in the site's order."""
    phases = ordered(comp)
    return phases[[p.get("id") for p in phases].index(phase.get("id")) + 1:]


def tasks_of(phase: dict) -> List[dict]:
    """The phase's tasks the site lists for this phase's id (a task listed under another phase is
    not this phase's, whatever the answer nests it in)."""
    return [task for task in phase.get("tasks") or [] if str(task.get("phase")) == str(phase.get("id"))]


def utc(text: object) -> Optional[datetime.datetime]:
    """A date the site gives (ISO 8601), as an aware UTC datetime; None when it is not one."""
    if not isinstance(text, str) or not text:
        return None
    try:
        moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.timezone.utc)


def now_utc() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


def ended(phase: dict, now: datetime.datetime) -> bool:
    """Whether the phase has ended on the site's clock: its end has passed, and the site says so
    (``status`` ``Previous``)."""
    end = utc(phase.get("end"))
    return end is not None and end <= now and phase.get("status") == "Previous"


def dates(phase: dict) -> str:
    """The phase's dates as the site holds them now."""
    return "%s to %s, %s on the site" % (shown(str(phase.get("start") or "no start")),
                                        shown(str(phase.get("end") or "no end")),
                                        shown(str(phase.get("status") or "no status")))
