"""Codabench's bulk download: the submissions manager's "Download selected" (read in Codabench's
``api/views/submissions.py`` ``download_many``; the browser zips them, ``submission_manager.tag``).

One member per submission named ``<id>_<owner>_PhaseId<n>_<%Y-%m-%d:%M-%S>_<file>`` with ``: / \\``
made ``_`` (the date has minutes and seconds, no hour: order by the id), owners may hold ``_``;
``failed.txt`` lists what the browser could not fetch. It does not say which submissions failed
on the platform.
"""

from __future__ import annotations

import re
from typing import List, Optional

from .entries import Entry
from .names import shown

CODABENCH_ENTRY = re.compile(r"^(\d+)_(.+?)_PhaseId(\d+)_(\d{4}-\d{2}-\d{2}_\d{2}-\d{2})_(.*)$", re.S)


def site_entry(identifier: str, owner: str, phase: str) -> Entry:
    """An Entry of a Codabench submission from the site's own record (id, owner, phase)."""
    return Entry(identifier, owner, "", platform_id=identifier, owner=owner, order=int(identifier), phase=phase)


def codabench_entry(filename: str) -> Optional[Entry]:
    """The Entry (without its source) a bulk download's member name describes; None for another name."""
    match = CODABENCH_ENTRY.match(filename)
    if not match:
        return None
    entry = site_entry(match.group(1), match.group(2), match.group(3))
    entry.aliases = [match.group(5)]  # the participant's file name, as the submissions manager shows it
    return entry


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
