"""The folder ``codabench.py download`` writes (OUT): checked before a byte is written (new, empty,
or an earlier download of this tool holding nothing else), its manifest (what is complete, and each
file's submission id, owner and phase as the site lists them: ``ranking/client_download.py`` reads
it), ``submissions.csv`` and ``failed.txt``; every file written whole or not at all."""

from __future__ import annotations

import csv
import io
import json
import os
from typing import Dict, List, Optional

from ranking.client_download import CLIENT_MANIFEST
from ranking.codabench_download import CODABENCH_ENTRY
from ranking.descriptions import fact_sheet_description
from ranking.names import csv_cell, shown

from .errors import CodabenchError
from .site import Site

OWN_FILES = ("results.json", "submissions.csv", "failed.txt")


def check_out(out: str) -> None:
    """OUT is new, empty, or an earlier download of this tool (its manifest) holding nothing but
    what the tool writes: anything else is one line, before a byte is written."""
    if os.path.islink(out) or (os.path.lexists(out) and not os.path.isdir(out)):
        raise CodabenchError("OUT %s: is not a folder; give a new folder (or an earlier download to resume)"
                             % shown(out))
    if not os.path.isdir(out):
        return
    try:
        names = os.listdir(out)
    except OSError as error:
        raise CodabenchError("OUT %s: cannot be read (%s)" % (shown(out), error.strerror or error)) from None
    if names and CLIENT_MANIFEST not in names:
        raise CodabenchError("OUT %s: a folder that holds files of its own (%s); give a new or empty folder "
                             "(or an earlier download to resume)" % (shown(out), shown(sorted(names)[0])))
    if not names:
        return
    manifest = _read_manifest(out)
    ours = {entry.get("name") for entry in manifest["files"].values() if isinstance(entry, dict)}
    for name in names:
        path = os.path.join(out, name)
        written = name in (CLIENT_MANIFEST, CLIENT_MANIFEST + ".tmp") or name in OWN_FILES or name in ours or \
            (name.endswith(".tmp") and name[:-4] in OWN_FILES) or \
            (name.endswith(".part") and CODABENCH_ENTRY.match(name[:-5]) is not None)
        if not written or os.path.islink(path) or not os.path.isfile(path):
            raise CodabenchError("OUT %s: holds %s, which this tool did not write; give a new or empty folder "
                                 "(nothing was changed)" % (shown(out), shown(name)))


def _read_manifest(out: str) -> dict:
    path = os.path.join(out, CLIENT_MANIFEST)
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > 64 << 20:
            raise ValueError("not a regular file of a sensible size")
        with open(path, encoding="utf-8") as handle:
            manifest = json.load(handle)
        if not isinstance(manifest, dict) or not isinstance(manifest.get("files", {}), dict):
            raise ValueError("not this tool's manifest")
    except (OSError, ValueError, RecursionError) as error:
        raise CodabenchError("OUT %s: %s cannot be read (%s); give a new folder"
                             % (shown(out), CLIENT_MANIFEST, shown(str(error), 120))) from None
    return manifest


def load_manifest(out: str, site: Site, comp_id: int, phase_id: int) -> dict:
    path = os.path.join(out, CLIENT_MANIFEST)
    fresh = {"site": site.base, "competition": comp_id, "phase": phase_id, "files": {}}
    if not os.path.exists(path):
        return fresh
    manifest = _read_manifest(out)
    if (manifest.get("site"), manifest.get("competition"), manifest.get("phase")) != (site.base, comp_id, phase_id):
        raise CodabenchError("%s holds a download of competition %s phase %s from %s: give another folder"
                             % (shown(out), manifest.get("competition"), manifest.get("phase"),
                                shown(str(manifest.get("site")))))
    manifest.setdefault("files", {})
    return manifest


def save_manifest(out: str, manifest: dict) -> None:
    write_atomic(os.path.join(out, CLIENT_MANIFEST), json.dumps(manifest, indent=1, sort_keys=True).encode("utf-8"))


def write_atomic(path: str, data: bytes) -> None:
    temporary = path + ".tmp"
    with open(temporary, "wb") as handle:
        handle.write(data)
    os.replace(temporary, path)


def holds(path: str, data: bytes) -> bool:
    """Whether the regular file at ``path`` holds exactly ``data``."""
    try:
        if os.path.islink(path) or not os.path.isfile(path) or os.path.getsize(path) != len(data):
            return False
        with open(path, "rb") as handle:
            return handle.read(len(data) + 1) == data
    except OSError:
        return False


def is_complete(out: str, entry: Optional[dict]) -> bool:
    if not entry:
        return False
    path = os.path.join(out, entry["name"])
    return os.path.isfile(path) and os.path.getsize(path) == entry["bytes"]


def fact_sheet_team(submission: dict) -> str:
    answers = submission.get("fact_sheet_answers")
    if isinstance(answers, dict):
        return fact_sheet_description({str(k): str(v) for k, v in answers.items()}).get("team", "")
    return ""


def write_table(out: str, chosen: List[dict], files: Dict[str, dict]) -> None:
    text = io.StringIO(newline="")
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["id", "owner", "team", "created_when", "status", "on_leaderboard", "file", "bytes", "sha256"])
    for s in chosen:
        entry = files.get(str(s["id"])) or {}
        writer.writerow([s["id"], csv_cell(str(s.get("owner", ""))), csv_cell(fact_sheet_team(s)),
                         csv_cell(str(s.get("created_when", ""))), csv_cell(str(s.get("status", ""))),
                         bool(s.get("on_leaderboard") or s.get("leaderboard")), csv_cell(entry.get("name", "")),
                         entry.get("bytes", ""), entry.get("sha256", "")])
    write_atomic(os.path.join(out, "submissions.csv"), text.getvalue().encode("utf-8"))


def write_failed(out: str, chosen: List[dict], files: Dict[str, dict], problems: Dict[str, str]) -> None:
    path = os.path.join(out, "failed.txt")
    lines = [shown(problems[str(s["id"])], 400) for s in chosen
             if str(s["id"]) in problems and str(s["id"]) not in files]
    if lines:
        write_atomic(path, ("\n".join(lines) + "\n").encode("utf-8"))
    elif os.path.exists(path):
        os.remove(path)
