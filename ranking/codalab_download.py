"""Codalab v1.5's "download all submissions on the leaderboard" (read in its ``apps/web/views.py``
``download_leaderboard_results``): the board's entries, one per participant, as ``<user> - <n>
submission.zip`` or ``Team <name>  - <n> submission.zip``, each with ``... output.zip``, ``...
profile.txt`` and ``... method.txt`` (``method_name: ...`` lines), and
``team_names_and_members.txt``."""

from __future__ import annotations

import re
from typing import Dict, Optional

from .entries import Entry

# The owner of a v1.5 team's submission: "Team <name>", as v1.5 names its files. A team name is
# free text, a user name cannot hold a space: "Team alice" is never the user alice.
TEAM_OWNER = "Team "
CODALAB_TEAM_ENTRY = re.compile(r"^Team (.*)  - (\d+) submission\.zip$", re.S)
CODALAB_ENTRY = re.compile(r"^(.*) - (\d+) submission\.zip$", re.S)
CODALAB_EXTRAS = re.compile(r"^(.*) - (\d+) (output\.zip|profile\.txt|method\.txt)$", re.S)
V15_METHOD_FIELDS = ("method_name", "method_description", "project_url", "publication_url", "bibtex", "team_name",
                     "organization_or_affiliation")


def codalab_entry(filename: str) -> Optional[Entry]:
    """The Entry (without its source) a v1.5 submission's file name describes; None for another name."""
    own_name = filename[:-len(" submission.zip")]  # "alice - 1": how v1.5's download names it
    match = CODALAB_TEAM_ENTRY.match(filename)
    if match:  # a team's: its owner keeps v1.5's "Team " (a team is named freely, a user is not)
        who, number = match.group(1).strip(), match.group(2)
        return Entry(number, who, "", owner=TEAM_OWNER + who, order=int(number), aliases=[own_name])
    match = CODALAB_ENTRY.match(filename)
    if match:
        who, number = match.group(1).strip(), match.group(2)
        return Entry(number, who, "", owner=who, order=int(number), aliases=[own_name])
    return None


def method_file_owner(name: str) -> str:
    """The participant a v1.5 ``<who> - <n> method.txt`` belongs to ('' for another file)."""
    match = CODALAB_EXTRAS.match(name)
    if not match or match.group(3) != "method.txt":
        return ""
    who = match.group(1)
    return TEAM_OWNER + who[len("Team "):].strip() if who.startswith("Team ") and who.endswith(" ") else who.strip()


def parse_method_txt(text: str) -> Dict[str, str]:
    """v1.5's ``method.txt``: ``field: value`` lines in a fixed field order; a value (the
    description) may run over several lines."""
    values: Dict[str, str] = {}
    current = ""
    for line in text.split("\n"):
        head, _, rest = line.partition(": ")
        if head in V15_METHOD_FIELDS and head not in values:
            current = head
            values[current] = rest
        elif current:
            values[current] += "\n" + line
    return {k: ("" if v.strip() == "None" else v.strip()) for k, v in values.items()}
