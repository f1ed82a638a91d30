"""Each ranked row's prediction files in the release (``release_task.py --download``), and
``predictions/manifest.json``, which ties each folder to its row of the final tables.

The ranked rows are those of ``results/<board>.csv`` (``rank_submissions.py``'s tables, baselines
left out); each is found in the download the tables were made from by its submission (the
Evaluation id, v1.5's number with its owner, or the file's name), as the tables show them
(``ranking.names``). Everything in the download is untrusted: a folder is read only when no link
leads out of it, each submission is unpacked with the bounds ``rank_submissions.py`` applies
(``ranking.unpacking``) into a folder the release made, and only the files the scorer reads are
copied, under their track's file name.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import tempfile
from typing import Any, Dict, List, Sequence, Tuple

from bundle.links import tree_problems
from ranking.downloads import discover
from ranking.entries import Entry
from ranking.names import csv_cell, shown
from ranking.unpacking import KitError, prediction_files
from scorer.outputs.resampling import LEADERBOARDS

from .errors import ReleaseError

MANIFEST = "predictions/manifest.json"
ROW_FIELDS = ("name", "team", "owner", "submission", "migrated_submission")


def read_table(path: str) -> Tuple[str, List[Dict[str, str]]]:
    """A table of ``rank_submissions.py``: its signature line and its rows."""
    with open(path, encoding="utf-8", newline="") as handle:
        first = handle.readline()
        rows = list(csv.DictReader(io.StringIO(handle.read(), newline="")))
    return first.rstrip("\n")[len("# signature: "):], rows


def board_tables(results: str) -> List[Tuple[str, str, str]]:
    """(board name, track, path) of each board table in ``results``, in the boards' order."""
    return [(name, track, os.path.join(results, name + ".csv")) for name, track, _, _ in LEADERBOARDS
            if os.path.isfile(os.path.join(results, name + ".csv"))]


def ranked_rows(results: str) -> List[Dict[str, str]]:
    """The participants' rows of every board table, once each (by their name), in the order of
    the first table that has them."""
    rows: Dict[str, Dict[str, str]] = {}
    for _, _, path in board_tables(results):
        for row in read_table(path)[1]:
            if row.get("baseline") != "yes":
                rows.setdefault(row["name"], {key: row.get(key, "") for key in ROW_FIELDS})
    return list(rows.values())


def _shown(text: str) -> str:
    """A name as the tables' CSV cells hold it."""
    return csv_cell(shown(text))


def _entry_of(row: Dict[str, str], entries: Sequence[Entry], where: str) -> Entry:
    """The download's submission of a table's row: by its submission, then by its owner too."""
    same = [entry for entry in entries if _shown(entry.submission) == row["submission"]]
    if len(same) > 1:
        same = [entry for entry in same if _shown(entry.owner) == row["owner"]]
    if len(same) != 1:
        raise ReleaseError("--download %s: %s submission %s of %s (row %s of the tables); give the download the "
                           "tables were made from" % (where, "holds no" if not same else "holds more than one",
                                                       row["submission"], row["owner"] or "no owner", row["name"]), 2)
    return same[0]


def write_predictions(staging: str, download: str, results: str, tracks: Sequence, gold: str, settings: str
                      ) -> int:
    """Each ranked row's prediction files into ``staging/predictions/<n>/`` and the manifest;
    the number of rows. ``gold`` and ``settings``: the release's paths of the test set's gold
    ('' when the release holds none) and settings, which the manifest names."""
    if os.path.isdir(download):
        problems = tree_problems(download, "--download %s" % download)
        if problems:
            raise ReleaseError(problems[0] + (" (and %d more)" % (len(problems) - 1) if len(problems) > 1 else ""), 2)
    elif not os.path.isfile(download):
        raise ReleaseError("--download %s: no such file or folder (the download rank_submissions.py ranked)"
                           % download, 2)
    rows = ranked_rows(results)
    if not rows:
        raise ReleaseError("--results %s: no ranked row in its tables, so no prediction to release" % results, 2)
    entries = discover(download).entries
    listed: List[Dict[str, Any]] = []
    for number, row in enumerate(rows, start=1):
        entry = _entry_of(row, entries, download)
        folder = "predictions/%03d" % number
        files: Dict[str, str] = {}
        with tempfile.TemporaryDirectory(prefix=".predictions-", dir=staging) as work:
            try:
                found = prediction_files(entry, work, tracks)
            except (KitError, OSError) as error:
                raise ReleaseError("--download %s: row %s: %s" % (download, row["name"], error)) from None
            target = os.path.join(staging, *folder.split("/"))
            os.makedirs(target)
            for track in tracks:
                if track.filename in found:
                    shutil.copyfile(found[track.filename], os.path.join(target, track.filename))
                    files[track.name] = track.filename
        listed.append(dict({"predictions": folder, "files": files}, **row))
    manifest = {"about": "each ranked row of results/ (its name there, team, owner, the Evaluation submission and "
                         "its migrated copy on the public board) and its prediction files, by track; re-scored with "
                         "the scorer on the gold and settings named here, they give the tables' numbers",
                "gold": gold or None, "settings": settings or None, "tables": "results", "rows": listed}
    with open(os.path.join(staging, *MANIFEST.split("/")), "w", encoding="utf-8", newline="\n") as handle:
        handle.write(json.dumps(manifest, indent=2, ensure_ascii=False, sort_keys=True) + "\n")
    return len(listed)
