"""Each submission's team: the organisers' ``--teams`` CSV (submission -> team) over the team a
participant's description gives, over the platform's; and how a text file an organiser passes
(``--teams``, a results export's JSON or CSV) is decoded."""

from __future__ import annotations

import csv
import io
import unicodedata
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Tuple

from scorer.readers.problems import did_you_mean

from .entries import Entry
from .names import shown


def read_organiser_text(path: str, what: str) -> Tuple[str, List[str]]:
    """A text file: UTF-8 (with or without BOM), else cp1252 (Excel's "CSV" on Windows) with a
    warning; every OSError is one line."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise SystemExit("rank_submissions: %s %s: cannot be read (%s)"
                         % (what, shown(path), error.strerror or error)) from None
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError:
        pass
    # Line by line: a file saved by Excel is Windows-1252 throughout, but one edited in two
    # programs may hold both; each line is read as it was written, and the warning names them.
    lines, legacy = [], []
    for number, line in enumerate(data.split(b"\n"), start=1):
        try:
            lines.append(line.decode("utf-8-sig" if number == 1 else "utf-8"))
        except UnicodeDecodeError:
            lines.append(line.decode("cp1252", "replace"))
            legacy.append(number)
    shown_lines = ", ".join(map(str, legacy[:10])) + (" and %d more" % (len(legacy) - 10) if len(legacy) > 10 else "")
    return ("\n".join(lines),
            ["%s %s is not UTF-8: line%s %s read as Windows-1252 (cp1252), the others as UTF-8; check the names"
             % (what, shown(path), "s" if len(legacy) > 1 else "", shown_lines)])


# A first row whose first cell is one of these (any case) is the sheet's header, not a submission.
HEADER_WORDS = ("submission", "submission id", "id", "file", "file name", "owner", "user", "name")
KEY_KINDS = "its id, owner, file name or Codalab v1.5's '<user> - <n>'"


@dataclass
class TeamSheet:
    """The ``--teams`` CSV: key -> (line number, team). ``export``: Codabench's submissions export
    (id -> owner), which lists the submissions of every phase the organiser had in view."""

    path: str
    rows: Dict[str, Tuple[int, str]] = field(default_factory=dict)
    export: bool = False

    def teams(self) -> Dict[str, str]:
        return {key: team for key, (_, team) in self.rows.items()}


def read_teams(path: str) -> Tuple[TeamSheet, List[str]]:
    """The sheet (submission id, name, file name or owner -> team name) and the warnings.

    Codabench's submissions CSV export (columns "Submission ID", "Owner", ...) maps ids to their
    owners; any other CSV is read as two columns, key and team (a header row is allowed). Two rows
    naming one key with different teams stop the run in one line.
    """
    text, warnings = read_organiser_text(path, "--teams")
    sheet = TeamSheet(path)
    reader = csv.reader(io.StringIO(text, newline=""))
    rows = [(reader.line_num, row) for row in reader if any(cell.strip() for cell in row)]
    if not rows:
        return sheet, warnings
    header = [cell.strip() for cell in rows[0][1]]
    if "Submission ID" in header and "Owner" in header:
        sheet.export = True
        id_column, owner_column = header.index("Submission ID"), header.index("Owner")
        sheet.rows = {row[id_column].strip(): (line, row[owner_column].strip()) for line, row in rows[1:]
                      if len(row) > max(id_column, owner_column)}
        return sheet, warnings
    seen: Dict[str, Tuple[int, str]] = {}
    for number, (line, row) in enumerate(rows):
        if len(row) < 2:
            raise SystemExit("rank_submissions: --teams %s, line %d: expected two columns (submission, team)"
                             % (shown(path), line))
        if number == 0 and row[0].strip().lower() in HEADER_WORDS:
            continue
        key, team = row[0].strip(), row[1].strip()
        earlier = seen.setdefault(team_key(key), (line, team))
        if earlier[1] != team:
            raise SystemExit("rank_submissions: --teams %s, lines %d and %d: both name %s, as %s and as %s; keep one"
                             % (shown(path), earlier[0], line, shown(key), shown(earlier[1]), shown(team)))
        sheet.rows[key] = (line, team)
    return sheet, warnings


def team_key(text: str) -> str:
    """A --teams key as it is matched: stripped, each run of spaces one space (v1.5 writes a team's
    "Team x  - 4" with two), in Unicode's composed form (NFC: "josé" typed on one keyboard or
    another, or decoded from Windows-1252, is one key)."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def _participant(entry: Entry) -> str:
    return entry.owner or "\0%s\0%s" % (entry.source, entry.member)


def check_team_rows(sheet: TeamSheet, entries: List[Entry], limit: int = 50) -> List[str]:
    """Every row of an organiser's sheet names the submissions of one participant (by id, name, file
    name, owner, or the platform's own name: ``Entry.keys``): the first row that names none, or
    several participants', stops the run in one line, before any scoring (a paper with the wrong
    name otherwise). Rows of Codabench's submissions export that name none (another phase's
    submissions) are warnings, one line each."""
    named: Dict[str, List[Entry]] = {}
    for entry in entries:
        for key in entry.keys():
            named.setdefault(team_key(key), []).append(entry)
    missing = [key for key in sheet.rows if team_key(key) not in named]
    where = "--teams %s" % shown(sheet.path)
    if sheet.export:
        lines = ["%s: %s names no submission of the download (no id, file name or owner is %s); the team name %s "
                 "is not applied" % (where, shown(key), shown(key), shown(sheet.rows[key][1])) for key in missing[:limit]]
        if len(missing) > limit:
            lines.append("%s: ... and %d more rows that name no submission" % (where, len(missing) - limit))
        return lines
    if missing:
        key = missing[0]
        example = ", ".join("'%s'" % shown(k) for k in list(dict.fromkeys(entries[0].keys()))[:4]) if entries else ""
        raise SystemExit("rank_submissions: %s, line %d: '%s' names no submission of the download%s; a row names a "
                         "submission by %s (the download's %d submissions, the first: %s)%s; nothing was scored"
                         % (where, sheet.rows[key][0], shown(key), did_you_mean(team_key(key), named), KEY_KINDS,
                            len(entries), example or "none",
                            "; %d more rows name none" % (len(missing) - 1) if len(missing) > 1 else ""))
    for key, (line, _) in sheet.rows.items():
        participants = list(dict.fromkeys(_participant(entry) for entry in named[team_key(key)]))
        if len(participants) > 1:
            owners = [entry.owner or entry.submission for entry in named[team_key(key)]]
            raise SystemExit("rank_submissions: %s, line %d: '%s' names the submissions of %d participants (%s); name "
                             "one by %s; nothing was scored"
                             % (where, line, shown(key), len(participants),
                                ", ".join(shown(o) for o in list(dict.fromkeys(owners))[:5]), KEY_KINDS))
    return []


def name_teams(entries: List[Entry], described: Dict[str, Dict[str, str]], teams: Dict[str, str],
               baseline_owners: Iterable[str]) -> None:
    """Each entry's description (``described``: by its results-export key, else its owner), system
    and team: from ``teams`` (--teams), else the one its description gives, else the platform's;
    the submissions of ``baseline_owners`` (the organisers' own accounts: codabench.py baselines)
    are baselines, named by their system."""
    baseline_owners = set(baseline_owners)
    by_key = {team_key(key): team for key, team in teams.items()}
    for entry in entries:
        description = entry.description = described.get(entry.export_key()) or described.get(entry.owner) or {}
        entry.system = description.get("system", "")
        organisers = next((by_key[team_key(key)] for key in entry.keys() if team_key(key) in by_key), None)
        entry.claimed = not organisers and bool(description.get("team"))
        entry.team = organisers or description.get("team") or entry.team
        if entry.owner and entry.owner in baseline_owners:
            entry.baseline = True
            entry.team = entry.system or entry.team
