"""A later phase's reference data, held back from the upload until it is due.

The Codabench that exists serves any dataset by its key to anyone (codalab/codabench#2345's class)
and lists every task's reference-data key to every visitor of a published competition, and both
platforms list every phase's files from registration on. So the upload holds nothing made from a
later phase's data: in its place each later phase's reference data is a **placeholder**, a zip
holding only ``held_back.json`` (which file it stands for, its sha256 and kind, which phase and
tracks, when it is due), which both platforms' unpackers accept (a task needs a reference data file
on Codalab v1.5). The real zips go to ``dist/release_<folder>/`` (``dist/<track>/release_<folder>/``
per track), and ``codabench.py`` sets them on the phase's task when due, only the zip the
placeholder names (its sha256), each kind by its own command:

- a blind phase's stand-in (the public inputs, no answers) with the phase's public data and starting
  kit, when the phase opens (``codabench.py release``);
- gold (``dist/release_<folder>/gold/``), once the phase before has ended: for a phase that migrates
  the previous phase's submissions, in the day between the previous phase's end and its start (the
  build leaves that day: ``GOLD_WINDOW``), so that the migrated copies are scored on it
  (``codabench.py attach-gold``).

Standard library only: ``codabench_client`` reads placeholders too.
"""

from __future__ import annotations

import datetime
import io
import json
import zipfile
from typing import Any, Dict, Optional, Sequence

from .zips import FIXED_TIME

PLACEHOLDER_ENTRY = "held_back.json"
GOLD_FOLDER = "gold"
GOLD, STAND_IN = "gold", "blind stand-in"  # a placeholder's kinds
# Between the end of a phase and the start of the phase that migrates its submissions when that
# phase's gold is held back: the organiser attaches the gold in this window (Codabench migrates once
# the later phase's start has passed; its site worker runs every 5 minutes).
GOLD_WINDOW = datetime.timedelta(days=1)


def placeholder(reference_data: str, phase: str, kind: str, release: str, due: str, after: str, sha256: str,
                tracks: Sequence[str]) -> bytes:
    """The zip standing in the upload for the reference data ``reference_data`` of ``phase``:
    ``kind`` is ``GOLD`` or ``STAND_IN``; ``release`` the path under the build's output folder of
    the real zip (``<track>/release_<folder>/...`` in a ``--per-track`` build); ``due`` when it goes
    up, in words, and ``after`` (ISO 8601, UTC) the moment the build's schedule allows it from;
    ``sha256`` the real zip's and ``tracks`` the competition's: ``codabench.py`` sets no other zip in
    its place. Reproducible bytes."""
    note = {"held_back": reference_data, "phase": phase, "kind": kind, "release": release, "due": due,
            "after": after, "sha256": sha256, "tracks": list(tracks),
            "why": "nothing of a later phase's data is in the upload: the Codabench that exists serves any "
                   "dataset by its key to anyone; the organisers attach it when it is due"}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        info = zipfile.ZipInfo(PLACEHOLDER_ENTRY, FIXED_TIME)
        info.create_system = 3
        info.external_attr = (0o100644 & 0xFFFF) << 16
        archive.writestr(info, json.dumps(note, indent=1, sort_keys=True) + "\n", compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def read_placeholder(data: bytes) -> Optional[Dict[str, Any]]:
    """The note of a placeholder zip (``placeholder``), or None for any other bytes."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if archive.namelist() != [PLACEHOLDER_ENTRY]:
                return None
            with archive.open(PLACEHOLDER_ENTRY) as handle:
                note = json.loads(handle.read(1 << 16).decode("utf-8"))
    except (zipfile.BadZipFile, KeyError, ValueError, UnicodeDecodeError, OSError, RuntimeError):
        return None
    if not isinstance(note, dict) or not isinstance(note.get("held_back"), str):
        return None
    return note
