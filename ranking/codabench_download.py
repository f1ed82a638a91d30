"""Codabench's bulk download: the submissions manager's "Download selected" (read in Codabench's
``api/views/submissions.py`` ``download_many``; the browser zips them, ``submission_manager.tag``).

One member per submission named ``<id>_<owner>_PhaseId<n>_<%Y-%m-%d:%M-%S>_<file>`` with ``: / \\``
made ``_`` (the date has minutes and seconds, no hour: order by the id); ``failed.txt`` lists what
the browser could not fetch. It does not say which submissions failed on the platform.

The id ends at the first ``_``, but an owner may hold ``_PhaseId7_2027-03-02_00-00_`` (a user
name is free text on some sites) and so may the stored file's name: a name reads as every
``_PhaseId<n>_<date>_`` in it with an owner before it (``bulk_readings``). A name with one reading
is that submission's; one with several is resolved by the site's own record (``codabench.py
download``'s manifest, ``client_download``, or the results export) or by the organiser
(``--teams``), never guessed (``resolve_readings``).
"""

from __future__ import annotations

import os
import re
from typing import Dict, List, Optional, Tuple

from .entries import Entry
from .names import shown
from .team_sheets import team_key

CODABENCH_ENTRY = re.compile(r"^(\d+)_(.+?)_PhaseId(\d+)_(\d{4}-\d{2}-\d{2}_\d{2}-\d{2})_(.*)$", re.S)
_PHASE_AND_DATE = re.compile(r"_PhaseId(\d+)_\d{4}-(\d{2})-(\d{2})_(\d{2})-(\d{2})_")


def site_entry(identifier: str, owner: str, phase: str) -> Entry:
    """An Entry of a Codabench submission from the site's own record (id, owner, phase)."""
    return Entry(identifier, owner, "", platform_id=identifier, owner=owner, order=int(identifier), phase=phase)


def bulk_readings(filename: str) -> List[Tuple[str, str, str]]:
    """Every (owner, phase id, file) a bulk download's member name can be read as, shortest owner
    first; [] for another name. A date must be one (month 1-12, day 1-31, minutes and seconds 0-59)."""
    head = re.match(r"(\d+)_", filename)
    if head is None:
        return []
    rest = filename[head.end():]
    found = []
    for start in range(1, len(rest)):
        match = _PHASE_AND_DATE.match(rest, start)
        if match and 1 <= int(match.group(2)) <= 12 and 1 <= int(match.group(3)) <= 31 and \
                int(match.group(4)) < 60 and int(match.group(5)) < 60:
            found.append((rest[:start], match.group(1), rest[match.end():]))
    return found


def codabench_entry(filename: str) -> Optional[Entry]:
    """The Entry (without its source) a bulk download's member name describes; None for another
    name. A name that reads several ways has no owner yet: its ``readings`` say them."""
    readings = bulk_readings(filename)
    if not readings:
        return None
    identifier = filename.split("_", 1)[0]
    if len({(owner, phase) for owner, phase, _ in readings}) == 1:
        entry = site_entry(identifier, readings[0][0], readings[0][1])
        entry.aliases = [readings[0][2]]  # the participant's file name, as the submissions manager shows it
        return entry
    phases = {phase for _, phase, _ in readings}
    return Entry(identifier, filename, "", platform_id=identifier, order=int(identifier),
                 phase=phases.pop() if len(phases) == 1 else "", readings=tuple(readings))


def resolve_readings(entries: List[Entry], site_owners: Dict[str, str], teams: Dict[str, str], path: str) -> None:
    """The owner of each entry whose name reads several ways: the one of its readings the site's
    record names (``site_owners``: submission id -> owner, from the results export), else the one
    ``teams`` (--teams: submission id or file name -> owner) names; any other entry stops the run
    with one line naming it, its readings and what to do."""
    named = {team_key(key): value for key, value in teams.items()}
    unresolved = []
    for entry in entries:
        if not entry.readings:
            continue
        file_name = os.path.basename(entry.member or os.path.normpath(entry.source))
        owner = site_owners.get(entry.platform_id)
        if owner is None:
            owner = next((named[team_key(key)] for key in (entry.platform_id, file_name) if team_key(key) in named),
                         None)
        chosen = [(o, phase, file) for o, phase, file in entry.readings if o == owner]
        if not chosen:
            unresolved.append((entry, file_name))
            continue
        entry.owner, entry.phase, chosen_file = chosen[0]
        entry.aliases = [chosen_file]
        entry.team, entry.readings = entry.owner, ()
    if unresolved:
        entry, file_name = unresolved[0]
        readings = "; or ".join("submission %s of '%s' with the file '%s' (PhaseId %s)" % (
            entry.platform_id, shown(owner), shown(file), phase) for owner, phase, file in entry.readings)
        more = len(unresolved) - 1
        raise SystemExit("rank_submissions: %s: %s: the name reads %d ways, %s; download the phase with "
                         "codabench.py download (its manifest names each submission's owner), or give the owner "
                         "in --teams (a row %s,<owner>)%s"
                         % (shown(path), shown(file_name), len(entry.readings), readings, entry.platform_id,
                            " (and %d more name%s that read several ways)" % (more, "s" * (more > 1)) if more else ""))


def failed_lines(text: str) -> List[str]:
    """The notes of ``failed.txt``: one per submission the browser could not fetch."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return ["not downloaded from the platform: " + line for line in lines if not line.endswith(":")]


def download_phase(entries: List[Entry], path: str) -> str:
    """The one Codabench phase id of a download's submissions ("" when its names carry none);
    a download mixing phases is refused (its Development and Test entries would share boards)."""
    phases = sorted({entry.phase for entry in entries if entry.phase}, key=int)
    if len(phases) > 1:
        raise SystemExit("rank_submissions: %s mixes phases (PhaseId %s): download one phase's submissions "
                         "(the submissions manager filters by phase)" % (shown(path), ", ".join(phases)))
    return phases[0] if phases else ""
