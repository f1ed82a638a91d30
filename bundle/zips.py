"""Reproducible zips: sorted entries, fixed timestamps and permissions, no junk.

Two builds of the same files give byte-identical archives (same zlib on the same machine).
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from typing import Dict, Iterable, Tuple

FIXED_TIME = (1980, 1, 1, 0, 0, 0)
JUNK = ("__pycache__", "__MACOSX", ".DS_Store", ".pytest_cache", ".hypothesis", "Thumbs.db")


def is_junk(relative_path: str) -> bool:
    parts = relative_path.replace("\\", "/").split("/")
    return any(part in JUNK or part.startswith("._") for part in parts) or relative_path.endswith(".pyc")


def folder_entries(folder: str, prefix: str = "") -> Dict[str, str]:
    """archive name -> file path for every file under ``folder`` (its contents, no wrapping folder)."""
    entries = {}
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not is_junk(d))
        for name in files:
            path = os.path.join(root, name)
            relative = os.path.relpath(path, folder).replace(os.sep, "/")
            if not is_junk(relative):
                entries[prefix + relative] = path
    return entries


def write_zip(destination: str, entries: Dict[str, str], data: Iterable[Tuple[str, bytes]] = (),
              first: Tuple[str, ...] = ()) -> None:
    """Write ``entries`` (name -> file path) and ``data`` (name, bytes) sorted by name, except
    that the names in ``first`` come first (Codalab v1.5 reads the first entry with ".yaml")."""
    items = {name: None for name in entries}
    blobs = dict(data)
    items.update({name: None for name in blobs})
    os.makedirs(os.path.dirname(os.path.abspath(destination)), exist_ok=True)
    with zipfile.ZipFile(destination, "w") as archive:
        for name in sorted(items, key=lambda n: (n not in first, first.index(n) if n in first else 0, n)):
            if name in blobs:
                content = blobs[name]
                executable = False
            else:
                with open(entries[name], "rb") as handle:
                    content = handle.read()
                executable = os.access(entries[name], os.X_OK) and name.endswith((".py", ".sh"))
            info = zipfile.ZipInfo(name, FIXED_TIME)
            info.create_system = 3  # unix, so the permissions below are honoured
            info.external_attr = ((0o100755 if executable else 0o100644) & 0xFFFF) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, content, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)


def zip_bytes(entries: Dict[str, str], data: Dict[str, bytes], first: Tuple[str, ...] = ()) -> bytes:
    """The bytes of ``write_zip``'s archive of ``entries`` and ``data``."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "x.zip")
        write_zip(path, entries, data.items(), first=first)
        return read_bytes(path)


def read_bytes(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def folder_data(folder: str, prefix: str = "") -> Dict[str, bytes]:
    """archive name -> content of every file under ``folder`` (``folder_entries``)."""
    return {name: read_bytes(path) for name, path in folder_entries(folder, prefix).items()}
