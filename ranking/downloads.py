"""Finding the submissions and what the platforms say about them, all of it untrusted: a folder
of zips or folders, or a platform's download; the team of each (the platform's names, or a
``--teams`` CSV); Codabench's results export (the board's entries and their fact sheets) and
Codalab v1.5's ``method.txt`` files (system descriptions); unpacking one submission as ``res/``.

What the platforms write (read in their code, never copied):

- Codabench, submissions manager, "Download selected" (``api/views/submissions.py``
  ``download_many``; the browser zips them, ``submission_manager.tag``): one member per
  submission named ``<id>_<owner>_PhaseId<n>_<%Y-%m-%d:%M-%S>_<file>`` with ``: / \\`` made
  ``_`` (the date has minutes and seconds, no hour: order by the id), owners may hold ``_``;
  ``failed.txt`` lists what the browser could not fetch. It does not say which submissions
  failed on the platform.
- Codabench results export (``/api/competitions/<id>/results.json|.csv|.zip``,
  ``api/views/competitions.py`` ``results``): per board ``"<title> - <phase>(<id>)"``, one entry
  per board row keyed ``<owner>-<submission id>`` with its ``fact_sheet_answers`` (CSV: a
  ``Username`` column and the answers as a Python dict's text) and its scores.
- Codalab v1.5, "download all submissions on the leaderboard" (``apps/web/views.py``
  ``download_leaderboard_results``): the board's entries, one per participant, as
  ``<user> - <n> submission.zip`` or ``Team <name>  - <n> submission.zip``, each with
  ``... output.zip``, ``... profile.txt`` and ``... method.txt`` (``method_name: ...`` lines),
  and ``team_names_and_members.txt``.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import os
import re
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from scorer.tracks.registry import BY_FILE
from scorer.run.submission import is_junk
from staging import KitError, safe_extract

from .names import shown

# A member of a bulk download is refused, from the zip's directory and before a byte of it is
# written, when it declares more than Codalab v1.5's default upper bound on a submission
# (DEFAULT_UPPER_BOUND_MAX_SUBMISSION_SIZE_MB = 300, in MB of 10^6 bytes; Codabench sets none
# per submission) or when it inflates more than MAX_MEMBER_RATIO times (a submission zip is
# already compressed: a platform stores it as it came).
MAX_MEMBER_BYTES = 300 * 1000 * 1000
MAX_MEMBER_RATIO = 100
RATIO_FLOOR_BYTES = 1 << 20  # below this size any ratio is harmless

# codabench.py download's manifest in its OUT: each file's submission id, owner and phase as the
# site lists them. Where it is, the owners come from it, never from the file names (an owner named
# "alice_PhaseId7_2027-03-02_00-00_x" would otherwise read as alice).
CLIENT_MANIFEST = "codabench_download.json"
CODABENCH_ENTRY = re.compile(r"^(\d+)_(.+?)_PhaseId(\d+)_(\d{4}-\d{2}-\d{2}_\d{2}-\d{2})_(.*)$", re.S)
# The owner of a v1.5 team's submission: "Team <name>", as v1.5 names its files. A team name is
# free text, a user name cannot hold a space: "Team alice" is never the user alice.
TEAM_OWNER = "Team "
CODALAB_TEAM_ENTRY = re.compile(r"^Team (.*)  - (\d+) submission\.zip$", re.S)
CODALAB_ENTRY = re.compile(r"^(.*) - (\d+) submission\.zip$", re.S)
CODALAB_EXTRAS = re.compile(r"^(.*) - (\d+) (output\.zip|profile\.txt|method\.txt)$", re.S)
PLATFORM_FILES = ("failed.txt", "team_names_and_members.txt", "detailed_results.html")
V15_METHOD_FIELDS = ("method_name", "method_description", "project_url", "publication_url", "bibtex", "team_name",
                     "organization_or_affiliation")


@dataclass
class Entry:
    """One submission to score: a zip, a folder, or a zip inside a bulk download (``member``).
    Every text field is as the platform wrote it (untrusted: shown through ``names.shown``)."""

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

    def keys(self) -> List[str]:
        """What a --teams CSV may name this submission by."""
        return [k for k in (self.platform_id, self.submission, os.path.basename(self.member or self.source),
                            self.owner) if k]

    def export_key(self) -> str:
        """The key of this submission in Codabench's results export."""
        return "%s-%s" % (self.owner, self.platform_id) if self.platform_id else ""


@dataclass
class Download:
    entries: List[Entry] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)  # the platform's own notes (failed.txt)
    descriptions: Dict[str, Dict[str, str]] = field(default_factory=dict)  # owner -> v1.5 method.txt fields
    platform: str = "folder"  # "codabench", "codalab-v1.5" or "folder"


def describe_entry(filename: str) -> Entry:
    """An Entry (without its source) from a platform's file name."""
    match = CODABENCH_ENTRY.match(filename)
    if match:
        identifier, owner = match.group(1), match.group(2)
        return Entry(identifier, owner, "", platform_id=identifier, owner=owner, order=int(identifier),
                     phase=match.group(3))
    match = CODALAB_TEAM_ENTRY.match(filename)
    if match:  # a team's: its owner keeps v1.5's "Team " (a team is named freely, a user is not)
        who, number = match.group(1).strip(), match.group(2)
        return Entry(number, who, "", owner=TEAM_OWNER + who, order=int(number))
    match = CODALAB_ENTRY.match(filename)
    if match:
        who, number = match.group(1).strip(), match.group(2)
        return Entry(number, who, "", owner=who, order=int(number))
    stem = filename[:-4] if filename.lower().endswith(".zip") else filename
    return Entry(stem, stem, "")


def _is_platform_extra(name: str) -> bool:
    return name in PLATFORM_FILES or bool(CODALAB_EXTRAS.match(name)) or is_junk(name)


def _kind(entries: List[Entry], names: List[str]) -> str:
    if any(e.platform_id for e in entries):
        return "codabench"
    if any(CODALAB_ENTRY.match(n) for n in names):
        return "codalab-v1.5"
    return "folder"


def discover(path: str) -> Download:
    """The submissions in ``path`` (each unread until scored), the platform's notes and the
    v1.5 ``method.txt`` descriptions found beside them."""
    found = Download()
    if os.path.isdir(path):
        try:
            names = sorted(os.listdir(path))
        except OSError as error:
            raise SystemExit("rank_submissions: %s cannot be read (%s)" % (shown(path), error.strerror or error))
        if any(name in BY_FILE for name in names):  # one submission's own folder
            name = os.path.basename(os.path.normpath(path))
            found.entries.append(Entry(name, name, path))
            return found
        listed = client_records(path) if CLIENT_MANIFEST in names else {}
        for name in names:
            full = os.path.join(path, name)
            if name == "failed.txt":
                found.notes.extend(_failed_lines(_read_text(full)))
            elif _method_file(name):
                found.descriptions[_method_file(name)] = parse_method_txt(_read_text(full))
            elif _is_platform_extra(name):
                continue
            elif os.path.isdir(full) or name.lower().endswith(".zip"):
                entry = describe_entry(name)
                if name in listed:
                    entry = site_entry(*listed[name])
                entry.source = full
                found.entries.append(entry)
        found.platform = _kind(found.entries, names)
        found.entries.sort(key=_platform_order)
        _name_files_apart(found.entries)
        return found
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as error:
        raise SystemExit("rank_submissions: %s: not a folder or a zip file (%s)" % (shown(path), error))
    with archive:
        members = [m for m in archive.infolist() if not m.is_dir()]
        top = [m.filename.replace("\\", "/").split("/")[-1] for m in members]
        if not any(name.lower().endswith(".zip") for name in top):  # one submission's zip
            name = os.path.basename(path)[:-4] if path.lower().endswith(".zip") else os.path.basename(path)
            found.entries.append(Entry(name, name, path))
            return found
        for member, name in sorted(zip(members, top), key=lambda pair: pair[0].filename):
            if name == "failed.txt":
                found.notes.extend(_failed_lines(_read_member(archive, member, found.notes)))
            elif _method_file(name):
                found.descriptions[_method_file(name)] = parse_method_txt(_read_member(archive, member, found.notes))
            elif name.lower().endswith(".zip") and not _is_platform_extra(name):
                entry = describe_entry(name)
                entry.source, entry.member = path, member.filename
                found.entries.append(entry)
        found.platform = _kind(found.entries, top)
    found.entries.sort(key=_platform_order)
    _name_files_apart(found.entries)
    return found


def site_entry(identifier: str, owner: str, phase: str) -> Entry:
    """An Entry of a Codabench submission from the site's own record (id, owner, phase)."""
    return Entry(identifier, owner, "", platform_id=identifier, owner=owner, order=int(identifier), phase=phase)


def client_records(folder: str) -> Dict[str, Tuple[str, str, str]]:
    """File name -> (submission id, owner, phase id) from codabench.py download's manifest; {} when
    it cannot be read or its entries lack an owner (an older client's: the names are parsed)."""
    path = os.path.join(folder, CLIENT_MANIFEST)
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > 64 << 20:
            return {}
        with open(path, encoding="utf-8") as handle:
            manifest = json.load(handle)
    except (OSError, ValueError, RecursionError):
        return {}
    files = manifest.get("files") if isinstance(manifest, dict) else None
    found: Dict[str, Tuple[str, str, str]] = {}
    for identifier, entry in (files.items() if isinstance(files, dict) else ()):
        if not (isinstance(entry, dict) and str(identifier).isdigit() and isinstance(entry.get("name"), str)
                and isinstance(entry.get("owner"), str) and entry["owner"]):
            continue
        phase = entry.get("phase", manifest.get("phase"))
        found[entry["name"]] = (str(identifier), entry["owner"], str(phase) if str(phase).isdigit() else "")
    return found


def owners_from_export(entries: List[Entry], export: List["ExportEntry"]) -> None:
    """The owner of each Codabench submission on the board as the results export names it (the
    site's ``<owner>-<submission id>``), over what its bulk file name seemed to say: an owner's
    name may hold ``_PhaseId7_...`` and read as another's."""
    owner_of = {entry.submission_id: entry.owner for entry in export}
    for entry in entries:
        owner = owner_of.get(entry.platform_id) if entry.platform_id else None
        if owner is not None and owner != entry.owner:
            if entry.team == entry.owner:
                entry.team = owner
            entry.owner = owner


def _name_files_apart(entries: List[Entry]) -> None:
    """Plain files whose names differ only in the case of ``.zip`` (``x.zip``, ``x.ZIP``) or in
    being a zip or a folder are named by their whole file name: each row says which file it is."""
    stems: Dict[str, int] = {}
    for entry in entries:
        if entry.order is None:
            stems[entry.submission] = stems.get(entry.submission, 0) + 1
    for entry in entries:
        if entry.order is None and stems[entry.submission] > 1:
            entry.submission = os.path.basename(entry.member or os.path.normpath(entry.source))


def _platform_order(entry: Entry) -> tuple:
    """The platform's order (by id: a bulk name's date has no hour), then the name."""
    return (entry.order is None, entry.order or 0, entry.member or entry.source)


def _method_file(name: str) -> str:
    """The participant a v1.5 ``<who> - <n> method.txt`` belongs to ('' for another file)."""
    match = CODALAB_EXTRAS.match(name)
    if not match or match.group(3) != "method.txt":
        return ""
    who = match.group(1)
    return TEAM_OWNER + who[len("Team "):].strip() if who.startswith("Team ") and who.endswith(" ") else who.strip()


def _read_member(archive: zipfile.ZipFile, member: zipfile.ZipInfo, notes: List[str], limit: int = 1 << 20) -> str:
    """A small text member (at most ``limit`` bytes read), as UTF-8 with replacements; "" and a
    note naming it when it cannot be read (zlib.error: a damaged deflate stream)."""
    try:
        with archive.open(member) as handle:
            return handle.read(limit).decode("utf-8", "replace")
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError, zlib.error) as error:
        notes.append("%s: cannot be read from the download (%s)" % (shown(member.filename), error))
        return ""


def _failed_lines(text: str) -> List[str]:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return ["not downloaded from the platform: " + line for line in lines if not line.endswith(":")]


def _read_text(path: str, limit: int = 1 << 20) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read(limit).decode("utf-8", "replace")
    except OSError:
        return ""


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


# --- files an organiser passes ----------------------------------------------------------------------

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


@dataclass
class ExportEntry:
    owner: str
    submission_id: str
    answers: Dict[str, str]
    phase: str = ""  # the phase id of its board ("<title> - <phase>(<id>)"); "" when unknown

    def key(self) -> str:
        """``<owner>-<submission id>``, as ``Entry.export_key`` names the downloaded submission."""
        return "%s-%s" % (self.owner, self.submission_id)


BOARD_PHASE = re.compile(r"\((\d+)\)\s*$")
MAX_EXPORT_MEMBER_BYTES = 50 * 1024 ** 2


def _board_phase(title: str) -> str:
    """The phase id a board's title (or a CSV named after it) ends with: ``Results - Test(77)``."""
    stem = title[:-4] if title.lower().endswith(".csv") else title
    match = BOARD_PHASE.search(os.path.basename(stem.replace("\\", "/")))
    return match.group(1) if match else ""


def _answers(value) -> Dict[str, str]:
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return {}
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            try:
                value = ast.literal_eval(text)  # the CSV export writes the dict's Python text
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                return {"answers": text}
    if not isinstance(value, dict):
        return {} if value is None else {"answers": str(value)}
    return {str(k): (", ".join(map(str, v)) if isinstance(v, list) else str(v)) for k, v in value.items()}


def _export_rows_from_csv(text: str) -> List[Dict[str, object]]:
    return [dict(row) for row in csv.DictReader(io.StringIO(text, newline=""))]


def read_results_export(path: str) -> Tuple[List[ExportEntry], List[str]]:
    """Codabench's results export (.json, .csv or .zip of CSVs): one entry per board row."""
    warnings: List[str] = []
    rows: List[Dict[str, object]] = []
    phases: List[str] = []  # the phase id of each row's board
    if zipfile.is_zipfile(path):
        try:
            with zipfile.ZipFile(path) as archive:
                for member in archive.infolist():
                    if not member.filename.lower().endswith(".csv"):
                        continue
                    if member.file_size >= MAX_EXPORT_MEMBER_BYTES:
                        warnings.append("results export %s: %s skipped: %d bytes, at most %d are read"
                                        % (shown(path), shown(member.filename), member.file_size,
                                           MAX_EXPORT_MEMBER_BYTES))
                        continue
                    found = _export_rows_from_csv(archive.read(member).decode("utf-8-sig", "replace"))
                    rows += found
                    phases += [_board_phase(member.filename)] * len(found)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError,
                zlib.error) as error:
            raise SystemExit("rank_submissions: results export %s: cannot be read (%s)" % (shown(path), error))
    else:
        text, warnings = read_organiser_text(path, "results export")
        stripped = text.lstrip()
        if stripped.startswith("{"):
            try:
                boards = json.loads(stripped)
            except ValueError as error:
                raise SystemExit("rank_submissions: results export %s: not JSON (%s)" % (shown(path), error))
            except RecursionError:
                raise SystemExit("rank_submissions: results export %s: nested too deeply to be read" % shown(path))
            for title, board in boards.items() if isinstance(boards, dict) else ():
                for key, values in (board.items() if isinstance(board, dict) else ()):
                    row = dict(values) if isinstance(values, dict) else {}
                    row["Username"] = key
                    rows.append(row)
                    phases.append(_board_phase(str(title)))
        else:
            rows = _export_rows_from_csv(text)
            phases = [_board_phase(path)] * len(rows)  # Codabench names the file after the board
    if not rows:
        raise SystemExit("rank_submissions: results export %s: no leaderboard entries (expected Codabench's "
                         "/api/competitions/<id>/results.json, .csv or .zip of the phase's board)" % shown(path))
    entries = []
    for number, row in enumerate(rows):
        key = str(row.get("Username") or "")
        owner, _, identifier = key.rpartition("-")
        if not owner or not identifier.isdigit():
            raise SystemExit("rank_submissions: results export %s, entry %d: %s is not <owner>-<submission id>"
                             % (shown(path), number + 1, shown(key)))
        entries.append(ExportEntry(owner, identifier, _answers(row.get("fact_sheet_answers")), phases[number]))
    return entries, warnings


def download_phase(entries: List[Entry], path: str) -> str:
    """The one Codabench phase id of a download's submissions ("" when its names carry none);
    a download mixing phases is refused (its Development and Test entries would share boards)."""
    phases = sorted({entry.phase for entry in entries if entry.phase}, key=int)
    if len(phases) > 1:
        raise SystemExit("rank_submissions: %s mixes phases (PhaseId %s): download one phase's submissions "
                         "(the submissions manager filters by phase)" % (shown(path), ", ".join(phases)))
    return phases[0] if phases else ""


def export_of_phase(export: List[ExportEntry], phase: str, path: str) -> List[ExportEntry]:
    """The results export's entries on the board of ``phase`` (Codabench exports every phase's
    board unless asked for one with ``?phase=<id>``); ``phase`` "" (a download without phase ids):
    the export must hold one phase's board."""
    boards = sorted({entry.phase for entry in export if entry.phase}, key=int)
    if not phase:
        if len(boards) > 1:
            raise SystemExit("rank_submissions: results export %s holds the boards of several phases (ids %s): "
                             "export one with results.json?phase=<id>" % (shown(path), ", ".join(boards)))
        return export
    if boards and phase not in boards:
        raise SystemExit("rank_submissions: results export %s holds no board of the download's phase %s (its "
                         "boards: phase ids %s): export it with results.json?phase=%s"
                         % (shown(path), phase, ", ".join(boards), phase))
    return [entry for entry in export if entry.phase in (phase, "")]


def check_export_meets_download(export: List[ExportEntry], entries: List[Entry], path: str, download: str) -> None:
    """Refuse a results export none of whose entries is in the download, before any scoring: every
    submission would then be listed as not on the board and nothing ranked (another phase's or
    competition's export, or a v1.5 download, whose names carry no submission ids)."""
    on_board = [entry.key() for entry in export]
    downloaded = {entry.export_key() for entry in entries} - {""}
    if on_board and not downloaded.intersection(on_board):
        raise SystemExit("rank_submissions: none of the %d entries of results export %s is in the download %s "
                         "(the export's first: %s; the download's first: %s): export the board of the phase whose "
                         "submissions were downloaded, from the same competition"
                         % (len(on_board), shown(path), shown(download), shown(on_board[0]),
                            shown(min(downloaded)) if downloaded else "no Codabench submission id"))


def fact_sheet_description(answers: Dict[str, str]) -> Dict[str, str]:
    """(team, system, description, external data) from fact-sheet answers, by question key: the
    first key naming a team, a method or system, a description, external data or resources
    (the bundle's default sheet: ``team_name``, ``system_name``, ``description``,
    ``external_data`` (a checkbox: yes or no)).

    >>> fact_sheet_description({"team_name": "T", "system_name": "S", "description": "D", "external_data": "True"})
    {'team': 'T', 'system': 'S', 'description': 'D', 'external data': 'yes'}
    """
    def first(*words: str, exclude: Tuple[str, ...] = ()) -> str:
        for key, value in answers.items():
            low = key.lower()
            if any(w in low for w in words) and not any(x in low for x in exclude):
                return value
        return ""

    external = one_line(first("external", "resource", "data", exclude=("desc",)))
    return {"team": one_line(first("team")),
            "system": one_line(first("system", "method", "name", exclude=("team", "desc", "url"))),
            "description": one_line(first("desc", "approach", "summary")),
            "external data": {"True": "yes", "False": "no", "true": "yes", "false": "no"}.get(external, external)}


def method_description(fields: Dict[str, str]) -> Dict[str, str]:
    return {"team": one_line(fields.get("team_name", "")), "system": one_line(fields.get("method_name", "")),
            "description": one_line(fields.get("method_description", "")), "external data": ""}


def one_line(text: str) -> str:
    """A description for a table cell: its lines joined by spaces (other characters stay, to be
    shown by ``names.shown``)."""
    return re.sub(r"\s*[\r\n\t]+\s*", " ", text).strip()


def read_descriptions(path: str) -> Dict[str, Dict[str, str]]:
    """owner -> description, from a results export, a v1.5 download, or a folder of method.txt."""
    if os.path.isdir(path) or zipfile.is_zipfile(path):
        try:
            found = discover(path)
        except SystemExit:
            found = Download()
        if found.descriptions:
            return method_descriptions(found)
    entries, _ = read_results_export(path)
    return export_descriptions(entries)


def method_descriptions(found: Download) -> Dict[str, Dict[str, str]]:
    """owner -> description, from the download's method.txt files (Codalab v1.5)."""
    return {owner: method_description(fields) for owner, fields in found.descriptions.items()}


def export_descriptions(export: List[ExportEntry]) -> Dict[str, Dict[str, str]]:
    """``<owner>-<submission id>`` -> description, from a results export's fact-sheet answers."""
    return {entry.key(): fact_sheet_description(entry.answers) for entry in export if entry.answers}


# --- one submission as res/ ---------------------------------------------------------------------------

def stage(entry: Entry, work: str) -> str:
    """The submission's files as a ``res/`` folder; every problem a KitError naming the
    submission by its own name (never a temporary path)."""
    if os.path.isdir(entry.source):
        return entry.source
    res = os.path.join(work, "res")
    os.makedirs(res)
    archive_path = entry.source
    shown_as = shown(entry.member or os.path.basename(entry.source))
    if entry.member:
        with zipfile.ZipFile(entry.source) as bulk:
            info = bulk.getinfo(entry.member)
            if info.file_size > MAX_MEMBER_BYTES:
                raise KitError("%s: declares %d bytes; a submission may have at most %d (Codalab v1.5's "
                               "upper bound)" % (shown_as, info.file_size, MAX_MEMBER_BYTES))
            if info.file_size > RATIO_FLOOR_BYTES and info.file_size > MAX_MEMBER_RATIO * max(1, info.compress_size):
                raise KitError("%s: inflates %d times (%d bytes from %d); at most %d times is accepted"
                               % (shown_as, info.file_size // max(1, info.compress_size), info.file_size,
                                  info.compress_size, MAX_MEMBER_RATIO))
            archive_path = os.path.join(work, "submission.zip")
            try:
                with bulk.open(info) as source, open(archive_path, "wb") as target:
                    written = 0
                    while True:
                        chunk = source.read(1 << 20)
                        if not chunk:
                            break
                        written += len(chunk)
                        if written > info.file_size:
                            raise KitError("%s: unpacks to more bytes than its header says" % shown_as)
                        target.write(chunk)
            except (zipfile.BadZipFile, EOFError, NotImplementedError, RuntimeError, ValueError, OSError,
                    zlib.error) as error:  # zlib.error: a damaged deflate stream
                raise KitError("%s: cannot be unpacked from the download (%s)" % (shown_as, error)) from None
    try:
        safe_extract(archive_path, res)
    except KitError as error:
        raise KitError(str(error).replace(archive_path, shown_as)) from None
    return res
