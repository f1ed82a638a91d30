"""What the organisers' tools read from a folder they are given: regular files and folders inside it.

A symbolic link that leads out of the folder (``reference_data/test/x -> /home/me/thesis.pdf``, or
``results/ -> ../reference_data/test``) would copy what lies there into an upload or a release;
a named pipe, socket or device would block or read forever. Both are refused, one line each,
before anything is copied. A link that stays inside the tree is read as what it points to.

Two phases whose reference folders are one folder (``reference_data/dev -> test``) would publish
the later phase's items as the earlier phase's public data: ``same_folder_problems`` says so in
one line (phases that share a folder *name*, Evaluation and Post-Evaluation on ``test``, share
their gold by design).
"""

from __future__ import annotations

import os
import stat
from typing import Dict, List, Sequence, Tuple


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file or a folder"


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def tree_problems(root: str, what: str, limit: int = 10, boundary: str = "") -> List[str]:
    """One line per entry under ``root`` that a tool must not read: a symbolic link whose target
    is outside ``boundary`` (default ``root``; or missing, or a loop), or anything that is not a
    regular file or a folder once its links are resolved. ``what`` names the argument
    (``--results DIR``). At most ``limit`` lines, then how many more."""
    problems: List[str] = []
    real_root = os.path.realpath(boundary or root)
    seen = set()
    stack = [root]
    while stack:
        folder = stack.pop()
        real = os.path.realpath(folder)
        if real in seen:  # a link to a folder already walked (inside the tree)
            continue
        seen.add(real)
        try:
            names = sorted(os.listdir(folder))
        except OSError as error:
            problems.append("%s: %s cannot be read (%s)" % (what, folder, error.strerror or error))
            continue
        for name in names:
            path = os.path.join(folder, name)
            shown_path = os.path.relpath(path, root)
            try:
                mode = os.lstat(path).st_mode
            except OSError as error:
                problems.append("%s: %s cannot be read (%s)" % (what, shown_path, error.strerror or error))
                continue
            if stat.S_ISLNK(mode):
                target = os.path.realpath(path)
                if not _inside(target, real_root):
                    problems.append("%s: %s is a symbolic link to %s, outside %s; copy the file in, or remove the "
                                    "link" % (what, shown_path, os.readlink(path), boundary or root))
                    continue
                try:
                    mode = os.stat(path).st_mode
                except OSError:
                    problems.append("%s: %s is a symbolic link that leads nowhere (%s)"
                                    % (what, shown_path, os.readlink(path)))
                    continue
            if stat.S_ISDIR(mode):
                stack.append(path)
            elif not stat.S_ISREG(mode):
                problems.append("%s: %s is %s; only regular files and folders are read" % (what, shown_path, _kind(mode)))
    if len(problems) > limit:
        problems = problems[:limit] + ["%s: ... and %d more" % (what, len(problems) - limit)]
    return problems


def same_folder_problems(reference_root: str, phases: Sequence[Tuple[str, str]]) -> List[str]:
    """One line per phase whose reference folder is, through a link, the folder of a phase with
    another folder name. ``phases``: (label, folder name) in phase order."""
    problems: List[str] = []
    first: Dict[str, Tuple[str, str]] = {}  # real path -> (label, folder name) of the first phase on it
    said = set()
    for label, folder in phases:
        path = os.path.join(reference_root, folder)
        real = os.path.realpath(path)
        if real in first and first[real][1] != folder and (first[real][1], folder) not in said:
            other_label, other_folder = first[real]
            said.add((other_folder, folder))
            problems.append("reference data: %s (phase %s) and %s (phase %s) are one folder, through a link: the "
                            "later phase's items would be published and scored with details in the earlier one; "
                            "give each phase its own gold folder" % (other_folder, other_label, folder, label))
            continue
        first.setdefault(real, (label, folder))
    return problems
