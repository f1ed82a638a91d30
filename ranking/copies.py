"""Prediction files alike across teams: a team may have taken another's board entry during the
blind phase (the Codabench that exists gives anyone a board entry's submitted file unless the phase
hides its output), so the organisers compare every pair of teams' files before the paper.

A file's items are its records: the elements of a JSON array (or the values of a JSON object), the
lines of an NDJSON, CSV or text file, each made canonical (JSON with sorted keys, a line stripped).
Two teams' files of one name are **identical** when their bytes are, and **nearly identical** when
at least ``NEAR`` of the items of the larger one are also in the other (as a multiset): the same
predictions for >= 95% of the items. Only files of different owners are compared.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections import Counter
from dataclasses import dataclass
from typing import Dict, List, Sequence, Tuple

from .entries import Entry
from .names import shown
from .unpacking import KitError, stage

NEAR = 0.95
MAX_FILE_BYTES = 64 * 1024 ** 2  # a larger file is compared by its bytes only


@dataclass
class Alike:
    """Two submissions of different owners whose file ``name`` is identical or nearly so."""

    first: Entry
    second: Entry
    name: str
    shared: int  # items in both (multiset)
    total: int  # items of the larger file
    identical: bool

    @property
    def fraction(self) -> float:
        return self.shared / self.total if self.total else 1.0


def items_of(path: str) -> List[str]:
    """The canonical records of one prediction file (``[]`` when it has none)."""
    with open(path, "rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        return []
    text = data.decode("utf-8", "replace")
    value = None
    if not path.lower().endswith((".ndjson", ".jsonl")):  # one record a line there, whatever a line holds
        try:
            value = json.loads(text)
        except ValueError:
            value = None
    if isinstance(value, list):
        return [json.dumps(item, sort_keys=True, ensure_ascii=False) for item in value]
    if isinstance(value, dict):
        return [json.dumps([key, item], sort_keys=True, ensure_ascii=False) for key, item in value.items()]
    items = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            items.append(json.dumps(json.loads(line), sort_keys=True, ensure_ascii=False))
        except ValueError:
            items.append(line)
    return items


def _files(folder: str) -> Dict[str, Tuple[str, Counter]]:
    """Relative path -> (sha256, items) of every file under a staged submission."""
    found: Dict[str, Tuple[str, Counter]] = {}
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(root, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            relative = os.path.relpath(path, folder).replace(os.sep, "/")
            with open(path, "rb") as handle:
                digest = hashlib.sha256(handle.read()).hexdigest()
            found[relative] = (digest, Counter(items_of(path)))
    return found


def alike(entries: Sequence[Entry]) -> List[Alike]:
    """Every pair of submissions of different owners with an identical or nearly identical file
    (an entry that cannot be staged is left out: the scoring reports it)."""
    files: List[Tuple[Entry, Dict[str, Tuple[str, Counter]]]] = []
    for entry in entries:
        if entry.baseline:
            continue
        with tempfile.TemporaryDirectory(prefix="rank-copies-") as work:
            try:
                files.append((entry, _files(stage(entry, work))))
            except (KitError, OSError):
                continue
    found: List[Alike] = []
    for i, (first, mine) in enumerate(files):
        for second, theirs in files[i + 1:]:
            if (first.owner or first.team) == (second.owner or second.team):
                continue
            for name in sorted(set(mine) & set(theirs)):
                (digest_a, items_a), (digest_b, items_b) = mine[name], theirs[name]
                total = max(sum(items_a.values()), sum(items_b.values()))
                shared = sum((items_a & items_b).values())
                if digest_a == digest_b or (total and shared / total >= NEAR):
                    found.append(Alike(first, second, name, shared, total, digest_a == digest_b))
    return found


def describe(pair: Alike) -> str:
    how = "identical" if pair.identical else "the same predictions for %d of %d items (%.1f%%)" % (
        pair.shared, pair.total, 100 * pair.fraction)
    return "%s: %s" % (pair.name, how)


def alike_warnings(found: Sequence[Alike]) -> List[str]:
    """One line per pair of rows with files alike: each row by its name (and its owner where the
    name does not say it), then every file they share."""
    pairs: Dict[Tuple[str, str], List[str]] = {}
    for pair in found:
        who = tuple("%s%s" % (shown(e.name), "" if not e.owner or e.name.endswith("(%s)" % e.owner)
                              else " (%s)" % shown(e.owner)) for e in (pair.first, pair.second))
        pairs.setdefault(who, []).append(describe(pair))
    return ["prediction files alike across teams: %s and %s: %s (alike.csv)" % (first, second, "; ".join(files))
            for (first, second), files in pairs.items()]
