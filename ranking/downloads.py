"""Finding the submissions in what an organiser downloaded, all of it untrusted: one submission's
zip or folder, a folder of them, or a platform's download (Codabench's bulk zip:
``codabench_download``; the folder ``codabench.py download`` writes: ``client_download``; Codalab
v1.5's leaderboard download: ``codalab_download``), zipped or unzipped. Each submission is an
``Entry``, unread until it is scored (``unpacking.stage``); the platform's notes (``failed.txt``) and
v1.5's ``method.txt`` descriptions found beside them come with it."""

from __future__ import annotations

import os
import zipfile
import zlib
from typing import Dict, List

from scorer.tracks.registry import BY_FILE
from scorer.run.submission import is_junk

from .client_download import CLIENT_MANIFEST, client_records
from .codabench_download import codabench_entry, failed_lines, site_entry
from .codalab_download import CODALAB_ENTRY, CODALAB_EXTRAS, codalab_entry, method_file_owner, parse_method_txt
from .entries import Download, Entry
from .names import shown

PLATFORM_FILES = ("failed.txt", "team_names_and_members.txt", "detailed_results.html")


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
                found.notes.extend(failed_lines(_read_text(full)))
            elif method_file_owner(name):
                found.descriptions[method_file_owner(name)] = parse_method_txt(_read_text(full))
            elif _is_platform_extra(name):
                continue
            elif os.path.isdir(full) or name.lower().endswith(".zip"):
                entry = described = describe_entry(name)
                if name in listed:
                    entry = site_entry(*listed[name])
                    if described.platform_id == entry.platform_id:  # the file name its bulk name ends with
                        entry.aliases = described.aliases
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
                found.notes.extend(failed_lines(_read_member(archive, member, found.notes)))
            elif method_file_owner(name):
                found.descriptions[method_file_owner(name)] = parse_method_txt(_read_member(archive, member, found.notes))
            elif name.lower().endswith(".zip") and not _is_platform_extra(name):
                entry = describe_entry(name)
                entry.source, entry.member = path, member.filename
                found.entries.append(entry)
        found.platform = _kind(found.entries, top)
    found.entries.sort(key=_platform_order)
    _name_files_apart(found.entries)
    return found


def describe_entry(filename: str) -> Entry:
    """An Entry (without its source) from a platform's file name."""
    found = codabench_entry(filename) or codalab_entry(filename)
    if found is not None:
        return found
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


def _read_member(archive: zipfile.ZipFile, member: zipfile.ZipInfo, notes: List[str], limit: int = 1 << 20) -> str:
    """A small text member (at most ``limit`` bytes read), as UTF-8 with replacements; "" and a
    note naming it when it cannot be read (zlib.error: a damaged deflate stream)."""
    try:
        with archive.open(member) as handle:
            return handle.read(limit).decode("utf-8", "replace")
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError, zlib.error) as error:
        notes.append("%s: cannot be read from the download (%s)" % (shown(member.filename), error))
        return ""


def _read_text(path: str, limit: int = 1 << 20) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read(limit).decode("utf-8", "replace")
    except OSError:
        return ""
