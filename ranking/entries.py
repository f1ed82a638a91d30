"""What a download is made of, whichever platform wrote it: one ``Entry`` per submission to score,
and the ``Download`` that holds them with the platform's notes and descriptions. Every text field
is as the platform wrote it (untrusted: shown through ``names.shown``)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple


@dataclass
class Entry:
    """One submission to score: a zip, a folder, or a zip inside a bulk download (``member``)."""

    submission: str  # what names it on the platform: its id, "<n>" on v1.5, or its file name
    team: str
    source: str
    member: str = ""
    platform_id: str = ""  # Codabench's submission id
    owner: str = ""  # the participant (Codabench owner, v1.5 user or team); "" for a plain file
    order: Optional[int] = None  # the platform's submission order (Codabench id, v1.5 number)
    baseline: bool = False
    name: str = ""  # unique, shown: the row's name in every table (set by the tool)
    system: str = ""  # the system's name from a description, when one was given
    phase: str = ""  # Codabench's phase id (the PhaseId in a bulk name); "" when unknown
    claimed: bool = False  # the team name is the participant's own (fact sheet, method.txt)
    description: Dict[str, str] = field(default_factory=dict)  # its team, system, description, external data
    # other names the platform shows the organiser: the participant's file name (Codabench's bulk
    # name ends with it), v1.5's "<user> - <n>" (its download's "<user> - <n> submission.zip")
    aliases: List[str] = field(default_factory=list)
    migrated: str = ""  # its copy's id on the next phase's board (rank_submissions.py --migrated)
    readings: Tuple[Tuple[str, str, str], ...] = ()  # (owner, phase, file) of a name that reads several ways

    def keys(self) -> List[str]:
        """What a --teams CSV may name this submission by."""
        return [k for k in [self.platform_id, self.submission, os.path.basename(self.member or self.source),
                            self.owner] + self.aliases if k]

    def export_key(self) -> str:
        """The key of this submission in Codabench's results export."""
        return "%s-%s" % (self.owner, self.platform_id) if self.platform_id else ""


@dataclass
class Download:
    entries: List[Entry] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)  # the platform's own notes (failed.txt)
    descriptions: Dict[str, Dict[str, str]] = field(default_factory=dict)  # owner -> v1.5 method.txt fields
    platform: str = "folder"  # "codabench", "codalab-v1.5" or "folder"
