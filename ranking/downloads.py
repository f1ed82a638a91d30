"""Finding the submissions: a folder of zips or folders, or a platform's bulk download, and the
team of each (the platform's names, or a --teams CSV); unpacking one as a ``res/`` folder."""

from __future__ import annotations

import csv
import os
import re
import zipfile
from dataclasses import dataclass
from typing import Dict, List, Tuple

from scorer.registry import BY_FILE
from scorer.submission import is_junk
from score_locally import KitError, safe_extract

MAX_MEMBER_BYTES = 2 * 1024 ** 3  # a submission zip inside a bulk download larger than this is refused

# download_many; submission_manager.tag). A username may itself hold '_'.
CODABENCH_ENTRY = re.compile(r"^(\d+)_(.+)_PhaseId(\d+)_(\d{4}-\d{2}-\d{2}_\d{2}-\d{2})_(.+)$")
# Codalab v1.5's leaderboard download: "<username> - <n> submission.zip", or "Team <name>  - <n>
# submission.zip" for a user with a team name, beside "... output.zip", "... profile.txt",
# "... method.txt", team_names_and_members.txt and detailed_results.html (apps/web/views.py,
# download_leaderboard_results).
CODALAB_ENTRY = re.compile(r"^(.*?) - (\d+) submission\.zip$")
CODALAB_EXTRAS = re.compile(r"^(.*) - (\d+) (output\.zip|profile\.txt|method\.txt)$")
PLATFORM_FILES = ("failed.txt", "team_names_and_members.txt", "detailed_results.html")


@dataclass
class Entry:
    """One submission to score: a zip, a folder, or a zip inside a bulk download (``member``)."""

    name: str  # unique; the row's name in every table
    team: str
    source: str
    member: str = ""
    platform_id: str = ""
    owner: str = ""
    baseline: bool = False

    def keys(self) -> List[str]:
        """What a --teams CSV may name this submission by."""
        return [k for k in (self.platform_id, self.name, os.path.basename(self.member or self.source),
                            self.owner) if k]


def describe_entry(filename: str) -> Tuple[str, str, str]:
    """(name, owner or team, platform submission id) from a platform's file name."""
    match = CODABENCH_ENTRY.match(filename)
    if match:
        identifier, owner = match.group(1), match.group(2)
        return "%s-%s" % (owner, identifier), owner, identifier
    match = CODALAB_ENTRY.match(filename)
    if match:
        who, number = match.group(1).strip(), match.group(2)
        team = who[len("Team "):].strip() if who.startswith("Team ") else who
        return "%s - %s" % (team, number), team, ""
    stem = filename[:-4] if filename.lower().endswith(".zip") else filename
    return stem, stem, ""


def _is_platform_extra(name: str) -> bool:
    return name in PLATFORM_FILES or bool(CODALAB_EXTRAS.match(name)) or is_junk(name)


def discover(path: str) -> Tuple[List[Entry], List[str]]:
    """The submissions in ``path`` and the platform's notes (failed.txt lines)."""
    notes: List[str] = []
    if os.path.isdir(path):
        names = sorted(os.listdir(path))
        if any(name in BY_FILE for name in names):  # one submission's own folder
            name = os.path.basename(os.path.normpath(path))
            return [Entry(name, name, path)], notes
        entries = []
        for name in names:
            full = os.path.join(path, name)
            if name == "failed.txt":
                notes.extend(_failed_lines(_read_text(full)))
            elif _is_platform_extra(name):
                continue
            elif os.path.isdir(full) or name.lower().endswith(".zip"):
                label, owner, identifier = describe_entry(name)
                entries.append(Entry(label, owner, full, platform_id=identifier, owner=owner))
        return entries, notes
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as error:
        raise SystemExit("rank_submissions: %s: not a folder or a zip file (%s)" % (path, error))
    with archive:
        members = [m for m in archive.infolist() if not m.is_dir()]
        top = [m.filename.replace("\\", "/").split("/")[-1] for m in members]
        if not any(name.lower().endswith(".zip") for name in top):  # one submission's zip
            name = os.path.basename(path)[:-4] if path.lower().endswith(".zip") else os.path.basename(path)
            return [Entry(name, name, path)], notes
        entries = []
        for member, name in sorted(zip(members, top), key=lambda pair: pair[0].filename):
            if name == "failed.txt":
                notes.extend(_failed_lines(archive.read(member).decode("utf-8", "replace")))
            elif name.lower().endswith(".zip") and not _is_platform_extra(name):
                label, owner, identifier = describe_entry(name)
                entries.append(Entry(label, owner, path, member.filename, identifier, owner))
    return entries, notes


def _failed_lines(text: str) -> List[str]:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return ["not downloaded from the platform: " + line for line in lines if not line.endswith(":")]


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


def unique_names(entries: List[Entry]) -> None:
    seen: Dict[str, int] = {}
    for entry in entries:
        count = seen.get(entry.name, 0) + 1
        seen[entry.name] = count
        if count > 1:
            entry.name = "%s (%d)" % (entry.name, count)


def read_teams(path: str) -> Dict[str, str]:
    """Submission id, name, file name or owner -> team name.

    Codabench's submissions CSV export (columns "Submission ID", "Owner", ...) maps ids to their
    owners; any other CSV is read as two columns, key and team (a header row is allowed).
    """
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = [row for row in csv.reader(handle) if any(cell.strip() for cell in row)]
    if not rows:
        return {}
    header = [cell.strip() for cell in rows[0]]
    if "Submission ID" in header and "Owner" in header:
        id_column, owner_column = header.index("Submission ID"), header.index("Owner")
        return {row[id_column].strip(): row[owner_column].strip() for row in rows[1:]
                if len(row) > max(id_column, owner_column)}
    teams = {}
    for number, row in enumerate(rows):
        if len(row) < 2:
            raise SystemExit("rank_submissions: %s, line %d: expected two columns (submission, team)"
                             % (path, number + 1))
        if number == 0 and [c.strip().lower() for c in row[:2]] in (["submission", "team"], ["file", "team"]):
            continue
        teams[row[0].strip()] = row[1].strip()
    return teams


def stage(entry: Entry, work: str) -> str:
    """The submission's files as a ``res/`` folder."""
    if os.path.isdir(entry.source):
        return entry.source
    res = os.path.join(work, "res")
    os.makedirs(res)
    archive_path = entry.source
    if entry.member:
        with zipfile.ZipFile(entry.source) as bulk:
            info = bulk.getinfo(entry.member)
            if info.file_size > MAX_MEMBER_BYTES:
                raise KitError("%s: %d bytes; at most %d are accepted" % (entry.member, info.file_size,
                                                                         MAX_MEMBER_BYTES))
            archive_path = os.path.join(work, "submission.zip")
            with bulk.open(info) as source, open(archive_path, "wb") as target:
                while True:
                    chunk = source.read(1 << 20)
                    if not chunk:
                        break
                    target.write(chunk)
    safe_extract(archive_path, res)
    return res
