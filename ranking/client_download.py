"""The folder ``codabench.py download`` writes (``codabench_client/download.py``): the submissions
under their bulk names and a manifest, ``codabench_download.json``, giving each file's submission
id, owner and phase as the site lists them. Where the manifest is, the owners come from it, never
from the file names (an owner named "alice_PhaseId7_2027-03-02_00-00_x" would otherwise read as
alice)."""

from __future__ import annotations

import json
import os
from typing import Dict, Tuple

CLIENT_MANIFEST = "codabench_download.json"


def client_records(folder: str) -> Dict[str, Tuple[str, str, str]]:
    """File name -> (submission id, owner, phase id) from codabench.py download's manifest; {} when
    it cannot be read or its entries lack an owner (the names are then parsed)."""
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
