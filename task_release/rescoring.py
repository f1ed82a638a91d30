"""``release_task.py --verify``'s second half: the release's predictions re-scored with its own wheel,
installed from the file alone into a fresh virtual environment of each Python given, by the
command its README gives (``shared-task-score TRACK GOLD PREDICTION --settings FILE --json``), and
compared with every ranked cell of its tables: each score of each participant's row of
``results/<board>.csv`` (the same float, every digit) and each track's signature.

Only the release is read (``predictions/manifest.json`` names the gold, the settings and each
row's files, each checked to be a regular file inside the release); nothing in it is changed.
"""

from __future__ import annotations

import csv
import glob
import json
import os
import stat
import subprocess
import tempfile
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from bundle.wheel import COMMAND, PACKAGE
from scorer.tracks.registry import BY_NAME

from .predictions import MANIFEST, board_tables, read_table

Job = Tuple[str, str]  # (track, prediction path in the release)


def _inside(folder: str, relative: object, where: str) -> str:
    """``relative`` as a path inside ``folder`` (no link on the way, no ``..``); ValueError otherwise."""
    if not isinstance(relative, str) or not relative or relative.startswith("/") or "\\" in relative \
            or any(part in ("", ".", "..") for part in relative.split("/")):
        raise ValueError("%s: %r is not a path inside the release" % (where, relative))
    path = os.path.join(folder, *relative.split("/"))
    for depth in range(1, relative.count("/") + 2):
        part = os.path.join(folder, *relative.split("/")[:depth])
        if not os.path.lexists(part) or os.path.islink(part):
            raise ValueError("%s: %s is missing or a link" % (where, relative))
    return path


def read_manifest(folder: str) -> Tuple[Optional[str], Optional[str], Dict[str, Dict[str, str]]]:
    """(gold folder, settings file, row name -> {track: prediction path}) from the manifest."""
    with open(os.path.join(folder, *MANIFEST.split("/")), encoding="utf-8") as handle:
        manifest = json.loads(handle.read(1 << 24))
    if not isinstance(manifest, dict) or not isinstance(manifest.get("rows"), list):
        raise ValueError("%s: expected an object with a list of rows" % MANIFEST)
    gold_dir = None if manifest.get("gold") is None else _inside(folder, manifest["gold"], MANIFEST)
    settings = None if manifest.get("settings") is None else _inside(folder, manifest["settings"], MANIFEST)
    rows: Dict[str, Dict[str, str]] = {}
    for number, row in enumerate(manifest["rows"], start=1):
        where = "%s, row %d" % (MANIFEST, number)
        if not (isinstance(row, dict) and isinstance(row.get("name"), str) and isinstance(row.get("files"), dict)
                and isinstance(row.get("predictions"), str)):
            raise ValueError("%s: expected name, predictions and files" % where)
        rows[row["name"]] = {track: _inside(folder, "%s/%s" % (row["predictions"], name), where)
                             for track, name in row["files"].items() if track in BY_NAME}
    return gold_dir, settings, rows


def installed_command(python: str, wheel: str, folder: str) -> str:
    """A fresh venv of ``python`` in ``folder`` with the wheel pip-installed from the file alone; its command."""
    subprocess.run([python, "-m", "venv", folder], check=True, capture_output=True, timeout=600)
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)
    subprocess.run([os.path.join(folder, "bin", "python"), "-m", "pip", "install", "--no-index", "--no-deps", wheel],
                   check=True, capture_output=True, env=env, timeout=600)
    return os.path.join(folder, "bin", COMMAND)


def _scores(command: str, jobs: Sequence[Job], gold: str, settings: Optional[str], work: str
            ) -> Dict[Job, Dict[str, object]]:
    """Each job's ``--json`` answer (or ``{"error": its first line}``), run as a researcher runs it."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    answers: Dict[Job, Dict[str, object]] = {}
    for track, prediction in jobs:
        argv = [command, track, gold, prediction, "--json"] + (["--settings", settings] if settings else [])
        run = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=work, timeout=3600)
        try:
            answers[(track, prediction)] = json.loads(run.stdout) if run.returncode == 0 else \
                {"error": (run.stderr.strip().splitlines() or ["exit %d" % run.returncode])[0]}
        except ValueError:
            answers[(track, prediction)] = {"error": "not one JSON object on stdout"}
    return answers


def rescoring_problems(folder: str, pythons: Sequence[str], say: Callable[[str], None]) -> List[str]:
    """What differs between the tables and the release's predictions re-scored on each of
    ``pythons`` (one line each); nothing to do without predictions (a release without
    ``--download``)."""
    if not os.path.isfile(os.path.join(folder, *MANIFEST.split("/"))):
        return []
    try:
        gold, settings, rows = read_manifest(folder)
    except (OSError, ValueError, RecursionError) as error:
        return ["%s: cannot be read (%s)" % (MANIFEST, error)]
    if gold is None:
        say("%s: the release holds no test gold, so its predictions are not re-scored (release_task.py --gold "
            "adds it)" % folder)
        return []
    wheels = sorted(glob.glob(os.path.join(folder, "scorer", PACKAGE + "-*.whl")))
    if len(wheels) != 1 or not stat.S_ISREG(os.lstat(wheels[0]).st_mode):
        return ["scorer/: expected one wheel %s-*.whl" % PACKAGE]
    problems: List[str] = []
    cells: List[Tuple[str, str, str, str, float, Job]] = []  # (table, row, key, signature, value, job)
    for name, track, path in board_tables(os.path.join(folder, "results")):
        table_name = "results/%s.csv" % name
        try:
            signature, table = read_table(path)
            for row in table:
                if row.get("baseline") == "yes":
                    continue
                if track not in rows.get(row.get("name"), {}):
                    problems.append("%s: row %s has no %s prediction in %s" % (table_name, row.get("name"), track,
                                                                             MANIFEST))
                    continue
                for key in BY_NAME[track].keys:
                    if row.get(key):
                        cells.append((table_name, row["name"], key, signature, float(row[key]),
                                      (track, rows[row["name"]][track])))
        except (OSError, UnicodeDecodeError, ValueError, csv.Error) as error:
            problems.append("%s: cannot be read (%s)" % (table_name, error))
    jobs = sorted({cell[5] for cell in cells})
    versions = []
    for python in pythons:
        with tempfile.TemporaryDirectory(prefix="release-verify-") as work:
            try:
                command = installed_command(python, wheels[0], os.path.join(work, "venv"))
            except (OSError, subprocess.SubprocessError) as error:
                said = (getattr(error, "stderr", None) or b"").decode("utf-8", "replace").strip().splitlines()
                problems.append("--python %s: the wheel cannot be installed in a fresh venv of it (%s)"
                                % (python, said[-1] if said else error))
                continue
            version = subprocess.run([os.path.join(work, "venv", "bin", "python"), "-c",
                                      "import platform; print(platform.python_version())"],
                                     capture_output=True, text=True).stdout.strip()
            versions.append(version)
            answers = _scores(command, jobs, gold, settings, work)
        for table_name, row_name, key, signature, value, job in cells:
            answer = answers[job]
            where = "%s, row %s, %s (%s, Python %s)" % (table_name, row_name, key, os.path.relpath(job[1], folder),
                                                        version)
            if "error" in answer:
                problems.append("%s: not scored: %s" % (where, answer["error"]))
            elif answer.get(key) != value:
                problems.append("%s: %r in the table, %r re-scored" % (where, value, answer.get(key)))
            elif "; %s;" % answer.get("signature") not in signature + ";":
                problems.append("%s: the signature %s is not the table's" % (where, answer.get("signature")))
    if not problems:
        say("%s: the predictions of %d rows re-scored with %s on Python %s: every ranked cell of the tables (%d) "
            "equals them" % (folder, len(rows), os.path.relpath(wheels[0], folder), " and ".join(versions),
                             len(cells)))
    return problems
