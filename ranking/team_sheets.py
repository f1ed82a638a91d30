"""Each submission's team: the organisers' ``--teams`` CSV (submission -> team) over the team a
participant's description gives, over the platform's; and how a text file an organiser passes
(``--teams``, a results export's JSON or CSV) is decoded."""

from __future__ import annotations

import csv
import io
import unicodedata
from typing import Dict, Iterable, List, Optional, Tuple

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


def read_teams(path: str) -> Tuple[Dict[str, str], List[str]]:
    """Submission id, name, file name or owner -> team name; and the warnings.

    Codabench's submissions CSV export (columns "Submission ID", "Owner", ...) maps ids to their
    owners; any other CSV is read as two columns, key and team (a header row is allowed).
    """
    text, warnings = read_organiser_text(path, "--teams")
    rows = [row for row in csv.reader(io.StringIO(text, newline="")) if any(cell.strip() for cell in row)]
    if not rows:
        return {}, warnings
    header = [cell.strip() for cell in rows[0]]
    if "Submission ID" in header and "Owner" in header:
        id_column, owner_column = header.index("Submission ID"), header.index("Owner")
        return ({row[id_column].strip(): row[owner_column].strip() for row in rows[1:]
                 if len(row) > max(id_column, owner_column)}, warnings)
    teams = {}
    for number, row in enumerate(rows):
        if len(row) < 2:
            raise SystemExit("rank_submissions: --teams %s, line %d: expected two columns (submission, team)"
                             % (shown(path), number + 1))
        if number == 0 and [c.strip().lower() for c in row[:2]] in (["submission", "team"], ["file", "team"]):
            continue
        teams[row[0].strip()] = row[1].strip()
    return teams, warnings


def team_key(text: str) -> str:
    """A --teams key as it is matched: stripped, in Unicode's composed form (NFC: "josé" typed on
    one keyboard or another, or decoded from Windows-1252, is one key)."""
    return unicodedata.normalize("NFC", text.strip())


def unmatched_team_rows(teams: Dict[str, str], entries: List[Entry], path: Optional[str], limit: int = 50
                        ) -> List[str]:
    """One warning per --teams row whose key names no submission of the download (by id, name,
    file name or owner): its team name is not applied, and the organiser is told which."""
    known = {team_key(key) for entry in entries for key in entry.keys()}
    missing = [key for key in teams if team_key(key) not in known]
    lines = ["--teams %s: %s names no submission of the download (no id, file name or owner is %s); the team "
             "name %s is not applied" % (shown(path or ""), shown(key), shown(key), shown(teams[key]))
             for key in missing[:limit]]
    if len(missing) > limit:
        lines.append("--teams %s: ... and %d more rows that name no submission" % (shown(path or ""),
                                                                                 len(missing) - limit))
    return lines


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
