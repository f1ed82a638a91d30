"""The bytes of one regular file: opened without blocking, read in bounded blocks, or whole for the gold.

Every reader takes the *display name* of the file (what the participant called it) so that
messages read ``semeval2021_t6_st1.json: line 3, column 14: ...``. Nothing here knows about tracks.
"""

from __future__ import annotations

import os
import stat
from typing import Iterator, Optional, Tuple

from .problems import fail

UTF8_BOM = "\ufeff"
# How many bytes the streaming readers read at a time (looked up at each call: the tests make
# blocks tiny so that every record, character and line end is cut somewhere).
BLOCK_BYTES = 1 << 20


def _human(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return ("%d %s" % (n, unit)) if unit == "bytes" else ("%.1f %s" % (n, unit))
        n = n / 1024.0
    return str(n)


def _open_regular(path: str, name: str, max_bytes: Optional[int]) -> Tuple[int, int]:
    """(descriptor, size) of a regular file no larger than ``max_bytes``; never blocks on a FIFO."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise fail(name, "", "cannot be read (%s)" % (error.strerror or "error")) from None
    info = os.fstat(descriptor)
    if not stat.S_ISREG(info.st_mode):
        os.close(descriptor)
        raise fail(name, "", "not a regular file; only regular files are read")
    if max_bytes is not None and info.st_size > max_bytes:
        os.close(descriptor)
        raise fail(name, "", "the file has %d bytes; the limit is %d bytes%s"
                   % (info.st_size, max_bytes, " (%s)" % _human(max_bytes) if max_bytes >= 1024 else ""))
    return descriptor, info.st_size


def read_gold_text(path: str, name: str) -> str:
    """A reference-data file (no size limit) decoded as UTF-8, a leading BOM dropped, or a
    SubmissionError saying why not (the caller turns it into a reference-data problem).
    Submissions are read by the bounded, streaming readers."""
    descriptor, _ = _open_regular(path, name, None)
    with os.fdopen(descriptor, "rb") as handle:
        data = handle.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise fail(name, "byte %d (line %d)" % (error.start, line),
                   "the file is not UTF-8 (%s); save it as UTF-8" % error.reason) from None
    if text.startswith(UTF8_BOM):
        text = text[1:]
    return text


def byte_chunks(path: str, name: str, max_bytes: Optional[int], size: Optional[int] = None) -> Iterator[bytes]:
    """The file's bytes, ``size`` at a time; refused past ``max_bytes`` (even if it grows)."""
    size = size or BLOCK_BYTES
    descriptor, _ = _open_regular(path, name, max_bytes)
    total = 0
    try:
        while True:
            chunk = os.read(descriptor, size)
            if not chunk:
                return
            total += len(chunk)
            if max_bytes is not None and total > max_bytes:
                raise fail(name, "", "the file is larger than the limit of %d bytes" % max_bytes)
            yield chunk
    finally:
        os.close(descriptor)


def file_contains(path: str, name: str, max_bytes: Optional[int], needle: bytes) -> bool:
    """Whether the file's bytes contain ``needle`` (read a block at a time)."""
    tail = b""
    for chunk in byte_chunks(path, name, max_bytes):
        if needle in tail + chunk[:len(needle)] or needle in chunk:
            return True
        tail = chunk[-len(needle):]
    return False
