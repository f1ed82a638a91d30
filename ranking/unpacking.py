"""One submission of a download unpacked as the ``res/`` folder the scoring program reads, with the
bounds a member of a bulk download must keep (``codabench.py download`` applies the same to each
file it fetches); and the files the scorer reads from it (``prediction_files``)."""

from __future__ import annotations

import os
import zipfile
import zlib
from typing import Dict, Sequence

from scorer.readers.problems import SubmissionError
from scorer.run.submission import locate_submission
from staging import KitError, safe_extract

from .entries import Entry
from .names import shown

# A member of a bulk download is refused, from the zip's directory and before a byte of it is
# written, when it declares more than Codalab v1.5's default upper bound on a submission
# (DEFAULT_UPPER_BOUND_MAX_SUBMISSION_SIZE_MB = 300, in MB of 10^6 bytes; Codabench sets none
# per submission) or when it inflates more than MAX_MEMBER_RATIO times (a submission zip is
# already compressed: a platform stores it as it came).
MAX_MEMBER_BYTES = 300 * 1000 * 1000
MAX_MEMBER_RATIO = 100
RATIO_FLOOR_BYTES = 1 << 20  # below this size any ratio is harmless


def stage(entry: Entry, work: str) -> str:
    """The submission's files as a ``res/`` folder; every problem a KitError naming the
    submission by its own name (never a temporary path)."""
    if os.path.isdir(entry.source):
        return entry.source
    res = os.path.join(work, "res")
    os.makedirs(res)
    archive_path = entry.source
    shown_as = shown(entry.member or os.path.basename(entry.source))
    if entry.member:
        with zipfile.ZipFile(entry.source) as bulk:
            info = bulk.getinfo(entry.member)
            if info.file_size > MAX_MEMBER_BYTES:
                raise KitError("%s: declares %d bytes; a submission may have at most %d (Codalab v1.5's "
                               "upper bound)" % (shown_as, info.file_size, MAX_MEMBER_BYTES))
            if info.file_size > RATIO_FLOOR_BYTES and info.file_size > MAX_MEMBER_RATIO * max(1, info.compress_size):
                raise KitError("%s: inflates %d times (%d bytes from %d); at most %d times is accepted"
                               % (shown_as, info.file_size // max(1, info.compress_size), info.file_size,
                                  info.compress_size, MAX_MEMBER_RATIO))
            archive_path = os.path.join(work, "submission.zip")
            try:
                with bulk.open(info) as source, open(archive_path, "wb") as target:
                    written = 0
                    while True:
                        chunk = source.read(1 << 20)
                        if not chunk:
                            break
                        written += len(chunk)
                        if written > info.file_size:
                            raise KitError("%s: unpacks to more bytes than its header says" % shown_as)
                        target.write(chunk)
            except (zipfile.BadZipFile, EOFError, NotImplementedError, RuntimeError, ValueError, OSError,
                    zlib.error) as error:  # zlib.error: a damaged deflate stream
                raise KitError("%s: cannot be unpacked from the download (%s)" % (shown_as, error)) from None
    try:
        safe_extract(archive_path, res)
    except KitError as error:
        raise KitError(str(error).replace(archive_path, shown_as)) from None
    return res


def prediction_files(entry: Entry, work: str, tracks: Sequence) -> Dict[str, str]:
    """The files of ``tracks`` the scoring program reads from the submission (file name -> path,
    unpacked under ``work``: ``stage``; each a regular file, no link followed:
    ``scorer.run.submission.locate_submission``); a KitError naming the submission otherwise."""
    res = stage(entry, work)
    try:
        return locate_submission(res, tracks).files
    except SubmissionError as error:
        raise KitError("%s: %s" % (shown(entry.member or os.path.basename(entry.source)), error.lines[0])) from None
