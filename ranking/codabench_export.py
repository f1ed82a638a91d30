"""Codabench's results export (``/api/competitions/<id>/results.json|.csv|.zip``, read in Codabench's
``api/views/competitions.py`` ``results``): per board ``"<title> - <phase>(<id>)"``, one entry per
board row keyed ``<owner>-<submission id>`` with its ``fact_sheet_answers`` (CSV: a ``Username``
column and the answers as a Python dict's text) and its scores."""

from __future__ import annotations

import ast
import csv
import io
import json
import os
import re
import zipfile
import zlib
from dataclasses import dataclass
from typing import Dict, List, Tuple

from .entries import Entry
from .names import shown
from .team_sheets import read_organiser_text

BOARD_PHASE = re.compile(r"\((\d+)\)\s*$")
MAX_EXPORT_MEMBER_BYTES = 50 * 1024 ** 2


@dataclass
class ExportEntry:
    owner: str
    submission_id: str
    answers: Dict[str, str]
    phase: str = ""  # the phase id of its board ("<title> - <phase>(<id>)"); "" when unknown

    def key(self) -> str:
        """``<owner>-<submission id>``, as ``Entry.export_key`` names the downloaded submission."""
        return "%s-%s" % (self.owner, self.submission_id)


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


def owners_from_export(entries: List[Entry], export: List[ExportEntry]) -> None:
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
