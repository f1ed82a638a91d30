"""Finding the participant's files in ``res/`` as people actually zip them.

- one wrapping folder (zipped the folder instead of its contents): descend, and say so;
- ``__MACOSX/``, ``.DS_Store``, ``._*`` and similar junk: ignore;
- the same file name at two depths: an error (we would have to guess which one counts);
- no known file at all: an error listing the expected names, with a guess for misnamed files.

The one packaging rule: ``score.py``, ``in_process.py`` and the starting kit's ``check_format.py`` and
``score_locally.py`` all find the submitted files with ``locate_submission``.
"""

from __future__ import annotations

import os
import re
import stat
from typing import Dict, List, Sequence, Tuple

from ..readers.problems import SubmissionError

JUNK_NAMES = frozenset({"__MACOSX", ".DS_Store", "Thumbs.db", "desktop.ini", ".ipynb_checkpoints",
                        "metadata"})  # v1.5 writes res/metadata after a prediction step


MAX_NOTICES = 20
# The problem lines about the submission as a whole start "submission: " (the participant's zip,
# never the platform's folder); the starting kit's verdict tells this one apart.
NO_FILE = "no file of this phase was found"


def is_junk(name: str) -> bool:
    return name in JUNK_NAMES or name.startswith("._") or name.startswith(".~")


class Submission:
    __slots__ = ("files", "notices", "ignored", "folder")

    def __init__(self) -> None:
        self.files: Dict[str, str] = {}  # expected file name -> path
        self.notices: List[str] = []  # printed on stdout
        self.ignored: List[str] = []  # entries not scored (junk aside), as the notices print them
        self.folder = ""  # where the files were looked for: res/ or its wrapping folder


def locate_submission(res_dir: str, tracks: Sequence) -> Submission:
    """The submitted file of each track of this phase; ``tracks`` are the phase's tracks."""
    from ..tracks.registry import BY_FILE

    expected = [track.filename for track in tracks]
    submission = Submission()
    if not os.path.isdir(res_dir):
        raise SubmissionError(["submission: empty; expected one or more of: %s" % ", ".join(expected)])
    base, submission.notices = submission_folder(res_dir)
    submission.folder = base
    entries = _visible(base)

    problems: List[str] = []
    for name in entries:
        path = os.path.join(base, name)
        shown = safe_name(name)
        if name in BY_FILE:
            kind = _not_regular(path)
            if name not in expected:
                submission.ignored.append(shown)
                submission.notices.append("%s: ignored, this phase has no reference data for track %s"
                                          % (name, BY_FILE[name].name))
            elif kind:
                problems.append("%s: %s; only regular files are read" % (name, kind))
            else:
                submission.files[name] = path
        elif _is_folder(path):
            inside = _visible(path)
            if not any(inner in BY_FILE for inner in inside):
                submission.ignored.append(shown + "/")
                submission.notices.append("%s/: ignored (a folder without a file name of this competition)" % shown)
            for inner in inside:
                if inner in BY_FILE and inner in entries:
                    problems.append("%s: found both %s and %s/%s; keep only one"
                                    % (inner, inner, shown, inner))
                elif inner in BY_FILE:
                    submission.ignored.append("%s/%s" % (shown, inner))
                    submission.notices.append("%s/%s: ignored; put %s at the top level of the zip"
                                              % (shown, inner, inner))
        else:
            guess = _guess(name, expected)  # by the registry's names only: never a README.txt for a *.txt track
            submission.ignored.append(shown)
            submission.notices.append("%s: ignored (not a file name of this competition)%s"
                                      % (shown, "; " + guess if guess else ""))
    if len(submission.notices) > MAX_NOTICES:  # (a zip of thousands of files: a few lines, then a count)
        rest = len(submission.notices) - MAX_NOTICES
        submission.notices[MAX_NOTICES:] = ["... and %d more notice%s about ignored entries" % (rest, "s" * (rest > 1))]
    if problems:
        raise SubmissionError(problems)
    if not submission.files:
        found = ", ".join(safe_name(name) for name in entries[:10]) if entries else "nothing"
        hints = [_guess(name, expected, by_extension=True) for name in entries[:100] if name not in BY_FILE]
        hints = [hint for hint in hints if hint]
        raise SubmissionError(["submission: %s (found: %s); expected one or more of: %s"
                               % (NO_FILE, found, ", ".join(expected))] + ["submission: " + h for h in hints])
    return submission


def submission_folder(res_dir: str) -> Tuple[str, List[str]]:
    """The folder that holds the submitted files: ``res_dir``, or the one folder it wraps them in
    (zipped the folder instead of its contents; descended while there is nothing else), and the
    notice saying so."""
    from ..tracks.registry import BY_FILE

    base, notices = res_dir, []
    entries = _visible(base)
    while not any(name in BY_FILE for name in entries):
        folders = [name for name in entries if _is_folder(os.path.join(base, name))]
        if len(entries) == 1 and len(folders) == 1:
            base = os.path.join(base, folders[0])
            notices = ["the submission wraps its files in the folder '%s'; reading the files inside it"
                       % safe_name(os.path.relpath(base, res_dir))]
            entries = _visible(base)
        else:
            break
    return base, notices


def _visible(folder: str) -> List[str]:
    return sorted(name for name in os.listdir(folder) if not is_junk(name))


def safe_name(name: str, limit: int = 80) -> str:
    """A file name as a message may print it: bytes that are not UTF-8 and control characters
    escaped (``\\xff``, ``\\n``), a long name cut with its length."""
    text = name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    text = "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)
    return text if len(text) <= limit else "%s... (%d characters)" % (text[:limit], len(text))


def _is_folder(path: str) -> bool:
    """A real folder (a link to one is not followed)."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _not_regular(path: str) -> str:
    """Why ``path`` is not a regular file we may read ('' when it is one). Links are not
    followed: a link could point at the gold."""
    try:
        mode = os.lstat(path).st_mode
    except OSError as error:
        return "cannot be read (%s)" % (error.strerror or "error")
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "expected a file, found a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if not stat.S_ISREG(mode):
        return "not a regular file"
    if not os.access(path, os.R_OK):
        return "cannot be read (permission denied)"
    return ""


_SUBTASK = re.compile(r"(?:task|st|subtask)[ _-]?([123])", re.IGNORECASE)


def _guess(name: str, expected: Sequence[str], by_extension: bool = False) -> str:
    """``found task2.json; expected semeval2021_t6_st2.json`` when the name is near a file name of the
    registry: a subtask number, or a stem (the name before its extension) near the expected one's
    (``difflib`` ratio of 0.5 or more, or one stem of 3 characters or more inside the other:
    ``nlu.csv``). Stems, not names: a shared extension would make any short name near
    (``notes.json``, ``squad11.json``). A file is meant for a track only by its name:
    ``check_format.py`` fails on such a guess, and a ``README.txt`` beside the files is no misnamed
    file of a track whose file is ``*.txt``. ``by_extension`` (a submission with no file of this phase
    at all, refused anyway): else the expected names with the same extension, as a hint."""
    stem, extension = os.path.splitext(name.lower())
    same_extension = [e for e in expected if e.endswith(extension)] if extension else []
    match = _SUBTASK.search(stem)
    if match and extension == ".json":
        candidates = [e for e in same_extension if e.endswith("st%s.json" % match.group(1))]
        if candidates:
            return "found %s; expected %s" % (safe_name(name), candidates[0])
    import difflib  # only for a misnamed file

    close: List[str] = []
    if len(name) < 100:  # (a long name is no near miss, and difflib's time grows with its square)
        stems = {os.path.splitext(e.lower())[0]: e for e in expected}
        close = [e for s, e in stems.items() if min(len(s), len(stem)) >= 3 and (s in stem or stem in s)]
        close = close or [stems[s] for s in difflib.get_close_matches(stem, list(stems), n=1, cutoff=0.5)]
    if close:
        return "found %s; expected %s" % (safe_name(name), close[0])
    if by_extension and same_extension:
        return "found %s; expected %s" % (safe_name(name), " or ".join(same_extension))
    return ""
