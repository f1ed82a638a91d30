"""The phases' dates as each platform shows them, and when a held-back zip is due.

Codabench needs each phase to end before the next starts: each end is one second before the next
start, or ``GOLD_WINDOW`` before a migrating phase whose gold is held back (the day in which the
organiser attaches it, ``held_back.py``). The last phase ends at the competition's ``end_date``, or
never (``phase_never_ends``).
"""

from __future__ import annotations

import datetime
import posixpath
from typing import Any, Dict, List, Optional, Tuple

from .competition import sorted_phases
from .held_back import GOLD_WINDOW


def utc(value: Any) -> datetime.datetime:
    """A YAML date or datetime as an aware UTC datetime (naive values are taken as UTC)."""
    if not isinstance(value, datetime.datetime):
        value = datetime.datetime(value.year, value.month, value.day)
    if value.tzinfo is None:
        value = value.replace(tzinfo=datetime.timezone.utc)
    return value.astimezone(datetime.timezone.utc)


def schedule(config: Dict[str, Any]) -> List[Tuple[Dict[str, Any], datetime.datetime, Optional[datetime.datetime]]]:
    """(phase, start, end) per phase: each end one second before the next phase's start (Codabench
    refuses an end equal to the next start), the last one the competition's end_date, or None when
    the last phase never ends (``phase_never_ends``)."""
    phases = sorted_phases(config)
    starts = [utc(phase["start_date"]) for phase in phases]
    last_end = None if phases[-1].get("phase_never_ends") is True else utc(config["end_date"])
    ends = [start - (GOLD_WINDOW if gold_after_end(phases, number + 1) else datetime.timedelta(seconds=1))
            for number, start in enumerate(starts[1:])] + [last_end]
    return list(zip(phases, starts, ends))


def gold_after_end(phases: List[Dict[str, Any]], number: int) -> bool:
    """Whether phase ``number`` (of ``phases``, sorted) migrates the previous phase's submissions and
    its gold is held back (a later phase's data): the previous phase then ends ``GOLD_WINDOW`` before
    it starts, the day in which the organiser attaches the gold (bundle/held_back.py)."""
    phase = phases[number]
    folder = str(phase.get("reference_data", "")).replace("_reference_data.zip", "").split("-")[0]
    first = str(phases[0].get("reference_data", "")).replace("_reference_data.zip", "").split("-")[0]
    return bool(phase.get("auto_migration")) and folder != first


def due_text(config: Dict[str, Any], phase: Dict[str, Any], blind: bool, where: str) -> str:
    """When a held-back reference data zip (at ``where`` under the output folder) goes up, and the
    command that puts it there."""
    times = {id(p): (start, end) for p, start, end in schedule(config)}
    phases = sorted_phases(config)
    number = [id(p) for p in phases].index(id(phase))
    label, start = phase["label"], times[id(phase)][0]
    if blind:
        return ("when phase %s opens (%s): codabench.py release COMPETITION %s dist/%s/"
                % (label, utc_text(start), label, posixpath.dirname(where)))
    previous = phases[number - 1]
    end = times[id(previous)][1]
    if gold_after_end(phases, number):
        return ("after phase %s ends (%s) and before phase %s starts (%s): codabench.py attach-gold COMPETITION %s "
                "dist/%s" % (previous["label"], utc_text(end), label, utc_text(start), label, where))
    return ("when phase %s opens (%s), not before: codabench.py attach-gold COMPETITION %s dist/%s"
            % (label, utc_text(start), label, where))


def due_from(config: Dict[str, Any], phase: Dict[str, Any], blind: bool) -> datetime.datetime:
    """The moment from which the build's schedule lets a held-back zip of ``phase`` go up: the
    phase's start, or for gold attached before a migrating phase starts, the previous phase's end."""
    times = {id(p): (start, end) for p, start, end in schedule(config)}
    phases = sorted_phases(config)
    number = [id(p) for p in phases].index(id(phase))
    if not blind and gold_after_end(phases, number):
        return times[id(phases[number - 1])][1]
    return times[id(phase)][0]


def utc_text(moment: datetime.datetime) -> str:
    """``moment`` as both platforms' pages and the build's lines write it."""
    return moment.strftime("%Y-%m-%d %H:%M:%S+00:00")


def date_lines(config: Dict[str, Any]) -> List[str]:
    """What each platform shows for the phase dates."""
    lines = []
    for phase, start, end in schedule(config):
        if end is None:
            lines.append("phase %s: Codalab v1.5 opens it %s and never ends it; Codabench shows %s with no end"
                         % (phase["label"], utc_text(start), utc_text(start)))
            continue
        lines.append("phase %s: Codalab v1.5 opens it %s (until the next phase starts or the competition "
                     "ends); Codabench shows %s to %s"
                     % (phase["label"], utc_text(start), utc_text(start), utc_text(end)))
    return lines
