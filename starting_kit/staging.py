"""Staging a local run: the scoring program beside this kit, and the submission and the gold copied
into Codalab's layout safely. A zip is checked from its directory before anything is written (count,
sizes, names, links, encryption, methods) and its bytes are counted while unpacked; folders are
copied as regular files and folders only; ``--out`` and ``--items`` are checked before anything
is scored, and nothing of the participant's is ever deleted. Every problem is a ``KitError``: one
line naming the file. Standard library only; Python 3.7 or newer.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
import tempfile
import zipfile
import zlib
from typing import Callable, Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_UNPACKED_BYTES = 6 * 200 * 1024 ** 2  # a zip that unpacks to more is refused (zip bomb): 6 tracks
MAX_MEMBERS = 10000
MAX_NAME_CHARS = 255  # one part of a path, as most file systems allow
DEFAULT_FILE_LIMIT = 200 * 1024 ** 2  # the scorer's max_file_bytes, unless its settings say otherwise
OUTPUT_NAMES = frozenset({"scores.txt", "scores.json", "detailed_results.html"})  # what --out may hold
_COPY_CHUNK = 1 << 20


class KitError(Exception):
    pass


def find_program() -> str:
    for candidate in (os.path.join(HERE, "scoring_program", "score.py"),
                      os.path.join(HERE, "..", "scoring_program", "score.py")):
        if os.path.isfile(candidate):
            return os.path.abspath(candidate)
    raise KitError("cannot find scoring_program/score.py next to this script")


def run_command(main: Callable[[], int]) -> int:
    """A kit script's exit status: ``main()``'s, ended quietly when its output is a closed pipe
    (``| head -1``), as the scoring program's commands end (``scorer/run/closed_pipe.py``)."""
    try:
        program_dir = os.path.dirname(find_program())
    except KitError as error:
        print("%s: %s" % (os.path.splitext(os.path.basename(sys.argv[0]))[0], error), file=sys.stderr)
        return 2
    if program_dir not in sys.path:
        sys.path.insert(0, program_dir)
    from scorer.run.closed_pipe import exit_status
    return exit_status(main)


def file_limit() -> int:
    """The largest file the scoring program reads (its ``max_file_bytes`` setting)."""
    try:
        with open(os.path.join(os.path.dirname(find_program()), "scoring_config.json"), encoding="utf-8") as handle:
            value = json.load(handle).get("max_file_bytes", DEFAULT_FILE_LIMIT)
        return value if isinstance(value, int) and value > 0 else DEFAULT_FILE_LIMIT
    except (KitError, OSError, ValueError, AttributeError):
        return DEFAULT_FILE_LIMIT


def shown(name: str) -> str:
    """A name as a message may print it: non-UTF-8 bytes and control characters escaped, cut."""
    text = name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    text = "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)
    return repr(text if len(text) <= 80 else text[:80] + "... (%d characters)" % len(text))


def _open_zip(zip_path: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(zip_path)
    except zipfile.BadZipFile:
        raise KitError("%s is not a zip file" % zip_path) from None
    except UnicodeDecodeError:
        raise KitError("%s: an entry's name is marked UTF-8 but is not; zip the files again" % zip_path) from None
    except (OSError, EOFError, ValueError, NotImplementedError, RuntimeError) as error:
        raise KitError("%s cannot be read as a zip file (%s)" % (zip_path, error)) from None


def check_archive(zip_path: str, archive: zipfile.ZipFile, limit: int) -> List[zipfile.ZipInfo]:
    """Every entry checked from the archive's directory before anything is written: count,
    sizes (each against the scorer's file limit, and in total), names, links, encryption and
    compression methods. The entries to extract (files), or a KitError naming the problem."""
    members = archive.infolist()
    if len(members) > MAX_MEMBERS:
        raise KitError("%s has %d entries; at most %d are accepted" % (zip_path, len(members), MAX_MEMBERS))
    total = sum(member.file_size for member in members)
    if total > MAX_UNPACKED_BYTES:
        raise KitError("%s unpacks to %d bytes; at most %d are accepted" % (zip_path, total, MAX_UNPACKED_BYTES))
    files: Dict[str, zipfile.ZipInfo] = {}
    folders = set()
    for member in members:
        name = member.filename
        parts = [part for part in name.replace("\\", "/").split("/") if part not in ("", ".")]
        if name.startswith(("/", "\\")) or ".." in parts or (len(name) > 1 and name[1] == ":"):
            raise KitError("%s: refusing the entry %s (absolute path or '..')" % (zip_path, shown(name)))
        if any(len(part.encode("utf-8", "surrogateescape")) > MAX_NAME_CHARS for part in parts):
            raise KitError("%s: the entry %s has a name longer than %d bytes" % (zip_path, shown(name), MAX_NAME_CHARS))
        if any(not character.isprintable() for character in name):
            raise KitError("%s: the entry %s has control characters in its name" % (zip_path, shown(name)))
        if stat.S_ISLNK(member.external_attr >> 16):
            raise KitError("%s: refusing the symbolic link %s" % (zip_path, shown(name)))
        if member.flag_bits & 0x1:
            raise KitError("%s: the entry %s is encrypted; zip the files without a password" % (zip_path, shown(name)))
        if member.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA):
            raise KitError("%s: the entry %s is compressed with method %d (9 is Deflate64), which Python "
                           "cannot unpack; zip the files again with standard deflate"
                           % (zip_path, shown(name), member.compress_type))
        if member.file_size > limit:
            raise KitError("%s: the entry %s unpacks to %d bytes; the scoring program reads files of at most "
                           "%d bytes" % (zip_path, shown(name), member.file_size, limit))
        path = "/".join(parts)
        if not parts:
            continue
        if member.is_dir():
            folders.add(path)
            continue
        if path in files:
            raise KitError("%s: the entry %s is in the zip twice" % (zip_path, shown(name)))
        files[path] = member
        folders.update("/".join(parts[:i]) for i in range(1, len(parts)))
    for path in files:
        if path in folders:
            raise KitError("%s: %s is both a file and a folder" % (zip_path, shown(path)))
    return list(files.values())


def safe_extract(zip_path: str, destination: str) -> None:
    """Extract a submission zip, refusing absolute or ``..`` paths, links, and zip bombs; every
    problem (checked before extraction where the archive's directory shows it) is a KitError."""
    limit = file_limit()
    with _open_zip(zip_path) as archive:
        for member in check_archive(zip_path, archive, limit):
            parts = [part for part in member.filename.replace("\\", "/").split("/") if part not in ("", ".")]
            target = os.path.join(destination, *parts)
            try:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with archive.open(member) as source, open(target, "wb") as out:
                    written = 0
                    while True:  # the directory's sizes may lie: the bytes are counted too
                        chunk = source.read(_COPY_CHUNK)
                        if not chunk:
                            break
                        written += len(chunk)
                        if written > member.file_size or written > limit:
                            raise KitError("%s: the entry %s unpacks to more bytes than its header says"
                                           % (zip_path, shown(member.filename)))
                        out.write(chunk)
            except KitError:
                raise
            except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError, ValueError) as error:
                raise KitError("%s: the entry %s cannot be unpacked (%s); zip the files again"
                               % (zip_path, shown(member.filename), error)) from None
            except OSError as error:
                raise KitError("%s: the entry %s cannot be written (%s)"
                               % (zip_path, shown(member.filename), error.strerror or error)) from None


def copy_folder(source: str, target: str, limit: int) -> None:
    """Copy a submission folder, regular files and folders only (links are not followed); any
    other entry, or a file over the scorer's limit, is a KitError naming it."""
    os.makedirs(target, exist_ok=True)
    try:
        names = sorted(os.listdir(source))
    except OSError as error:
        raise KitError("%s cannot be read (%s)" % (shown(source), error.strerror or error)) from None
    for name in names:
        path, copy = os.path.join(source, name), os.path.join(target, name)
        try:
            mode = os.lstat(path).st_mode
            if stat.S_ISDIR(mode):
                copy_folder(path, copy, limit)
            elif stat.S_ISREG(mode):
                if os.path.getsize(path) > limit:
                    raise KitError("%s has %d bytes; the scoring program reads files of at most %d bytes"
                                   % (shown(path), os.path.getsize(path), limit))
                shutil.copyfile(path, copy)
            else:
                kind = "a symbolic link" if stat.S_ISLNK(mode) else "a named pipe (FIFO)" if stat.S_ISFIFO(mode) \
                    else "not a regular file"
                raise KitError("%s is %s; a submission holds regular files only" % (shown(path), kind))
        except OSError as error:
            raise KitError("%s cannot be copied (%s)" % (shown(path), error.strerror or error)) from None


def stage_submission(submission: str, res_dir: str) -> None:
    if os.path.isdir(submission):
        copy_folder(submission, res_dir, file_limit())
    elif os.path.isfile(submission):
        os.makedirs(res_dir)
        safe_extract(submission, res_dir)
    elif os.path.lexists(submission):  # a named pipe, a device, a socket, a broken link
        raise KitError("%s is not a regular file or a folder; give the submission's zip file or its folder"
                       % submission)
    else:
        raise KitError("no such file or folder: %s" % submission)


def prepare_out(out_dir: str) -> None:
    """``out_dir`` ready for the outputs: made here, or empty, or holding only the scoring
    program's own outputs (an earlier run's), which are replaced. Any other existing folder is
    refused and left as it is: nothing of the participant's is ever deleted."""
    if os.path.lexists(out_dir):
        if not os.path.isdir(out_dir) or os.path.islink(out_dir):
            raise KitError("--out %s exists and is not a folder; choose another --out" % out_dir)
        entries = os.listdir(out_dir)
        if not set(entries) <= OUTPUT_NAMES or not all(os.path.isfile(os.path.join(out_dir, e)) for e in entries):
            raise KitError("--out %s exists and holds other files than the scoring program's outputs; "
                           "choose another --out (nothing in it was changed)" % out_dir)
        for entry in entries:
            os.remove(os.path.join(out_dir, entry))
    os.makedirs(out_dir, exist_ok=True)


def copy_reference(source: str, target: str) -> None:
    """Copy the gold folder given with --ref (folders and regular files, links followed); a named
    pipe, device or socket in it is a KitError naming it (one line, nothing read from it)."""
    if os.path.isfile(source):
        shutil.copyfile(source, target)
        return
    os.makedirs(target, exist_ok=True)
    try:
        names = sorted(os.listdir(source))
    except OSError as error:
        raise KitError("--ref: %s cannot be read (%s)" % (shown(source), error.strerror or error)) from None
    for name in names:
        path, copy = os.path.join(source, name), os.path.join(target, name)
        try:
            mode = os.stat(path).st_mode
        except OSError as error:
            raise KitError("--ref: %s cannot be read (%s)" % (shown(path), error.strerror or error)) from None
        if stat.S_ISDIR(mode):
            copy_reference(path, copy)
        elif stat.S_ISREG(mode):
            try:
                shutil.copyfile(path, copy)
            except OSError as error:
                raise KitError("--ref: %s cannot be read (%s)" % (shown(path), error.strerror or error)) from None
        else:
            kind = "a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) \
                else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file"
            raise KitError("--ref: %s is %s; the gold folder must hold regular files and folders only"
                           % (shown(path), kind))


def check_items_dir(given: str, items_dir: str) -> None:
    """--items must be a folder this run can write (made here when missing): a KitError otherwise,
    before anything is scored."""
    if os.path.lexists(items_dir) and not os.path.isdir(items_dir):
        raise KitError("--items %s exists and is not a folder; choose a folder (it receives the per-item "
                       "files and error_analysis.html)" % given)
    try:
        os.makedirs(items_dir, exist_ok=True)
        with tempfile.TemporaryFile(dir=items_dir):
            pass
    except OSError as error:
        raise KitError("--items %s cannot be written (%s); choose another folder"
                       % (given, error.strerror or error)) from None
