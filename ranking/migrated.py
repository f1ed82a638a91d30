"""Each ranked row's migrated copy (``--migrated``): the submission the public board shows for it.

A migration (Codabench's ``do_phase_migrations``, v1.5's ``apply_phase_migration``) copies each
board entry of the Evaluation phase into the next phase with its owner and its file, under a new
id; the copies are scored on the test gold and fill the permanent board. Nothing in a download
names a copy's source, so the copy of a ranked row is, in the next phase's download, a
submission of the same owner whose prediction files (the files the scorer reads) are the row's,
byte for byte; when the download holds that phase's results export (``codabench.py download``'s
``results.json``), one on its board. Of several (a copy re-run once the gold was attached, or the
same file submitted again), the latest: what Force_Last shows.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from typing import Dict, List, Sequence

from .codabench_download import download_phase
from .codabench_export import export_of_phase, read_results_export
from .downloads import discover
from .entries import Entry
from .names import shown
from .unpacking import KitError, prediction_files

EXPORT_NAME = "results.json"  # codabench.py download's copy of the phase's results export


def predictions_digest(entry: Entry, tracks: Sequence) -> str:
    """sha256 over the file names and bytes of the submission's prediction files ('' when it
    cannot be unpacked: it is no one's copy)."""
    with tempfile.TemporaryDirectory(prefix="rank-submissions-copy-") as work:
        try:
            files = prediction_files(entry, work, tracks)
        except (KitError, OSError):
            return ""
        digest = hashlib.sha256()
        for name in sorted(files):
            digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
            with open(files[name], "rb") as handle:
                for chunk in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(chunk)
            digest.update(b"\0")
    return digest.hexdigest()


@dataclass
class NextPhase:
    """The next phase's download: its submissions of each owner (on its board, when it holds the
    export), as ``--migrated`` gave it."""

    path: str
    by_owner: Dict[str, List[Entry]]
    with_export: bool


def read_next_phase(path: str, phase: str) -> NextPhase:
    """The next phase's download at ``path``, before any scoring: refused in one line when it is
    not one, or when it is the ranked download's own phase (``phase``)."""
    copies = discover(path).entries
    theirs = download_phase(copies, path)
    if phase and theirs == phase:
        raise SystemExit("rank_submissions: --migrated %s: the download's own phase (PhaseId %s); give the next "
                         "phase's download (codabench.py download COMPETITION Post-Evaluation OUT)"
                         % (shown(path), phase))
    on_board = None
    export_path = os.path.join(path, EXPORT_NAME)
    if os.path.isdir(path) and os.path.isfile(export_path):
        export, _ = read_results_export(export_path)
        on_board = {entry.key() for entry in export_of_phase(export, theirs, export_path)} or None
    by_owner: Dict[str, List[Entry]] = {}
    for copy in copies:
        if copy.owner and (on_board is None or copy.export_key() in on_board):
            by_owner.setdefault(copy.owner, []).append(copy)
    return NextPhase(path, by_owner, on_board is not None)


def name_copies(ranked: Sequence[Entry], next_phase: NextPhase, tracks: Sequence) -> List[str]:
    """Set ``migrated`` on each ranked participant's entry whose copy is in the next phase's
    download; one warning line per row without one."""
    warnings: List[str] = []
    digests: Dict[int, str] = {}
    for entry in ranked:
        if entry.baseline or not entry.owner:
            continue
        mine = predictions_digest(entry, tracks)
        same = [copy for copy in next_phase.by_owner.get(entry.owner, ())
                if mine and digests.setdefault(id(copy), predictions_digest(copy, tracks)) == mine]
        if same:
            latest = max(same, key=lambda copy: (copy.order is not None, copy.order or 0))
            entry.migrated = latest.platform_id or latest.submission
        else:
            warnings.append("--migrated %s: no submission of %s %swith the predictions of %s (%s): its row names "
                            "no copy" % (shown(next_phase.path), shown(entry.owner), "on its board (%s) " % EXPORT_NAME
                                         if next_phase.with_export else "", shown(entry.submission),
                                         shown(entry.name)))
    return warnings
