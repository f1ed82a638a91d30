"""``SHA256SUMS``: the sha256 of every file of a release, and what in a folder does not match it."""

from __future__ import annotations

import hashlib
import os
from typing import List

from bundle.links import tree_problems

SUMS = "SHA256SUMS"


def checksums(folder: str) -> str:
    """``SHA256SUMS``: ``<sha256>  <path>`` for every file under ``folder`` but itself, sorted."""
    lines = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in files:
            path = os.path.join(root, name)
            relative = os.path.relpath(path, folder).replace(os.sep, "/")
            if relative == SUMS:
                continue
            digest = hashlib.sha256()
            with open(path, "rb") as handle:
                for chunk in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(chunk)
            lines.append("%s  %s\n" % (digest.hexdigest(), relative))
    return "".join(sorted(lines, key=lambda line: line[66:]))


def verify(folder: str) -> List[str]:
    """What does not match ``SHA256SUMS`` in ``folder`` (a file changed, missing, or not listed)."""
    path = os.path.join(folder, SUMS)
    if not os.path.isdir(folder):
        return ["%s: no such folder" % folder]
    unreadable = tree_problems(folder, folder)  # no pipe opened, no link followed out of it
    if unreadable:
        return unreadable
    if not os.path.isfile(path):
        return ["%s: no %s" % (folder, SUMS)]
    try:
        with open(path, encoding="utf-8") as handle:
            listed = {line[66:].rstrip("\n"): line[:64] for line in handle.read(1 << 24).splitlines(True)
                      if line.strip()}
    except (OSError, UnicodeDecodeError) as error:
        return ["%s: cannot be read (%s)" % (path, getattr(error, "strerror", None) or error.__class__.__name__)]
    problems = []
    actual = {line[66:].rstrip("\n"): line[:64] for line in checksums(folder).splitlines(True)}
    for name in sorted(set(listed) | set(actual)):
        if name not in actual:
            problems.append("%s: listed in %s, missing" % (name, SUMS))
        elif name not in listed:
            problems.append("%s: not listed in %s" % (name, SUMS))
        elif listed[name] != actual[name]:
            problems.append("%s: sha256 %s, %s says %s" % (name, actual[name], SUMS, listed[name]))
    return problems
