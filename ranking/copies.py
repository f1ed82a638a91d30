"""Prediction files alike across teams: a team may have taken another's board entry during the
blind phase (the Codabench that exists gives anyone a board entry's submitted file unless the phase
hides its output), so the organisers compare the ranked teams' files before the paper.

What is compared is what the scorer reads: the files ``locate_submission`` finds for the phase's
tracks (wherever the zip puts them; any other file is never opened), each read by its track's own
reader into one digest per item of a canonical prediction (the track's ``prediction_digests``: no
key order, white space, extra field, record order, BOM or line ending; a track that declares none
is compared by its bytes). Two teams' files of one track are **identical** when every item's
digest is the same, and **nearly identical** when at least ``NEAR`` of the items of the larger
one have the same digest in the other. Only files of different owners are compared.

Pairs are found through an index, item and digest -> the files that predict it, never by
comparing every pair: identical files are grouped first (one pair per member and the group's
first, and the group's other files compared once), then each item's answer proposes the files
that share it, and a proposed pair's items are counted exactly. An answer more than ``CROWD``
files give for one item (the majority baseline's, an empty prediction) proposes no pair, so each
file meets at most ``CROWD - 1`` others per item: the pass grows with the number of files, not
with its square. What that bound can miss: two files whose every shared answer is one of more
than ``CROWD`` files (they agree only where the crowd agrees); the warnings say on how many items
of which file an answer was that common.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Dict, List, Sequence, Tuple

import numpy as np

from scorer.machinery.item_digests import DIGEST_BYTES, file_digest
from scorer.readers.options import load_options
from scorer.run.in_process import phase_tracks
from scorer.run.submission import locate_submission

from .entries import Entry
from .names import shown

NEAR = 0.95
CROWD = 50  # files giving one answer to one item beyond which the answer proposes no pair
PAIRS_AT_ONCE = 1 << 21  # proposed pairs counted in one step (bounds the index's memory)


@dataclass(frozen=True)
class ItemDigests:
    """One submitted file's items: their ids (a JSON list, sorted) and each one's digest, in that
    order (``DIGEST_BYTES`` each): what a team's file costs to hold, whatever else the zip holds."""

    ids: str
    digests: bytes

    @classmethod
    def of(cls, digests: Dict[str, bytes]) -> "ItemDigests":
        ids = sorted(digests)
        return cls(json.dumps(ids, ensure_ascii=False), b"".join(digests[i] for i in ids))

    def __len__(self) -> int:
        return len(self.digests) // DIGEST_BYTES


def submission_digests(res_dir: str, reference_dir: str, program_dir: str) -> Dict[str, ItemDigests]:
    """File name -> its ``ItemDigests``, for each file the scoring program reads in a staged
    submission (the phase's tracks, ``locate_submission``); a file its track's reader refuses (it
    was scored, so none should) is compared by its bytes."""
    options = load_options(program_dir, reference_dir)
    tracks = [track for track, _ in phase_tracks(reference_dir)]
    files = locate_submission(res_dir, tracks).files
    found: Dict[str, ItemDigests] = {}
    for track in tracks:
        path = files.get(track.filename)
        if path is None:
            continue
        try:
            digests = track.prediction_digests(path, track.filename, track.options(options))
        except Exception:  # (a reader's refusal, or a track's bug: the bytes still compare)
            digests = file_digest(path, track.filename, options)
        found[track.filename] = ItemDigests.of(digests)
    return found


@dataclass
class Alike:
    """Two submissions of different owners whose file ``name`` is identical or nearly so."""

    first: Entry
    second: Entry
    name: str
    shared: int  # items with the same prediction in both
    total: int  # items of the larger file
    identical: bool

    @property
    def fraction(self) -> float:
        return self.shared / self.total if self.total else 1.0


@dataclass
class CopyCheck:
    """What the pass found: the pairs, in row order; a warning per file whose crowded answers
    proposed no pair; and how many pairs of distinct files the index proposed."""

    pairs: List[Alike]
    crowded: List[str]
    compared: int = 0


def alike(submissions: Sequence[Tuple[Entry, Dict[str, ItemDigests]]]) -> CopyCheck:
    """Every pair of submissions of different owners with an identical or nearly identical file.

    Parameters
    ----------
    submissions : sequence of (Entry, dict of file name -> ItemDigests)
        The ranked rows in their order, each with its files' digests (``submission_digests``);
        baselines are left out.
    """
    by_file: Dict[str, List[Tuple[int, Entry, ItemDigests]]] = {}
    for row, (entry, files) in enumerate(submissions):
        if not entry.baseline:
            for name, digests in files.items():
                by_file.setdefault(name, []).append((row, entry, digests))
    check = CopyCheck([], [])
    order: Dict[int, int] = {}
    for name in sorted(by_file):
        members = by_file[name]
        order.update((id(entry), row) for row, entry, _ in members)
        groups: Dict[Tuple[str, bytes], List[Tuple[int, Entry, ItemDigests]]] = {}
        for member in members:
            groups.setdefault((member[2].ids, member[2].digests), []).append(member)
        files = list(groups.values())
        for group in files:
            check.pairs += _identical_pairs(name, group)
        near, crowded, compared = _nearly_identical(name, files)
        check.pairs += near
        check.compared += compared
        if crowded:
            check.crowded.append("copies: %s: on %d item%s an answer was given by more than %d files (the "
                                 "commonest answers); files that agree only there are not compared"
                                 % (shown(name), crowded, "s" * (crowded > 1), CROWD))
    check.pairs.sort(key=lambda pair: (order[id(pair.first)], order[id(pair.second)], pair.name))
    return check


def _owner(entry: Entry) -> str:
    return entry.owner or entry.team


def _across(first: Sequence[Tuple[int, Entry, ItemDigests]], second: Sequence[Tuple[int, Entry, ItemDigests]]):
    """The first two members, one of each group, of different owners (in row order), or None."""
    for member in first:
        for other in second:
            if _owner(member[1]) != _owner(other[1]):
                return (member, other) if member[0] < other[0] else (other, member)
    return None


def _identical_pairs(name: str, group: Sequence[Tuple[int, Entry, ItemDigests]]) -> List[Alike]:
    """One pair per member of a group of identical files: with the group's first, or (a member of
    the first's owner) with the group's first member of another owner."""
    leader = group[0]
    other = next((m for m in group if _owner(m[1]) != _owner(leader[1])), None)
    count = len(leader[2])
    pairs = []
    for member in group[1:]:
        partner = leader if _owner(member[1]) != _owner(leader[1]) else other
        if partner is not None and partner is not member:
            first, second = (partner, member) if partner[0] < member[0] else (member, partner)
            pairs.append(Alike(first[1], second[1], name, count, count, True))
    return pairs


def _nearly_identical(name: str, files: Sequence[Sequence[Tuple[int, Entry, ItemDigests]]]
                      ) -> Tuple[List[Alike], int, int]:
    """(the nearly identical pairs among distinct files, each file one group of identical ones;
    the items where an answer was crowded; the pairs the index proposed)."""
    if len(files) < 2:
        return [], 0, 0
    digests = [group[0][2] for group in files]
    number_of: Dict[str, int] = {}
    layouts: Dict[str, np.ndarray] = {}
    for found in digests:
        if found.ids not in layouts:
            layouts[found.ids] = np.array([number_of.setdefault(i, len(number_of)) for i in json.loads(found.ids)],
                                          dtype=np.int64)
    sizes = np.array([len(found) for found in digests], dtype=np.int64)
    items = np.concatenate([layouts[found.ids] for found in digests])
    values = np.concatenate([np.frombuffer(found.digests, dtype=np.uint64) for found in digests])
    values = np.where(values == 0, 1, values)  # 0 marks an answer not crowded (below)
    file_of = np.repeat(np.arange(len(digests)), sizes)
    index = np.lexsort((values, items))  # the index: item, then digest, then file
    items, values, file_of = items[index], values[index], file_of[index]
    starts = np.flatnonzero(np.r_[True, (items[1:] != items[:-1]) | (values[1:] != values[:-1])])
    counts = np.diff(np.r_[starts, len(items)])
    keys, shared = _shared_answers(file_of, starts, counts, len(digests))
    first, second = keys // len(digests), keys % len(digests)
    total = np.maximum(sizes[first], sizes[second])
    # Each file's crowded answers, one column per item that has one: a proposed pair's shared
    # answers are its uncrowded ones (counted) and the crowded ones both give (compared here).
    crowded = np.repeat(counts > CROWD, counts)
    columns = np.unique(items[crowded])
    crowded_of = np.bincount(file_of[crowded], minlength=len(digests))
    hopeful = (shared + np.minimum(crowded_of[first], crowded_of[second])) / total >= NEAR
    first, second, total, shared = first[hopeful], second[hopeful], total[hopeful], shared[hopeful]
    dense = np.zeros((len(digests), len(columns)), dtype=np.uint64)
    dense[file_of[crowded], np.searchsorted(columns, items[crowded])] = values[crowded]
    pairs: List[Alike] = []
    step = max(1, PAIRS_AT_ONCE // max(1, len(columns)))
    for begin in range(0, len(first), step):
        a, b = first[begin:begin + step], second[begin:begin + step]
        same = shared[begin:begin + step] + ((dense[a] == dense[b]) & (dense[a] != 0)).sum(axis=1)
        for i in np.flatnonzero(same / total[begin:begin + step] >= NEAR):
            found = _across(files[a[i]], files[b[i]])
            if found is not None:
                pairs.append(Alike(found[0][1], found[1][1], name, int(same[i]), int(total[begin + i]), False))
    return pairs, len(columns), len(keys)


def _shared_answers(file_of: np.ndarray, starts: np.ndarray, counts: np.ndarray, files: int
                    ) -> Tuple[np.ndarray, np.ndarray]:
    """(pair keys ``first * files + second``, first < second; how many uncrowded answers each pair
    shares), from the index's runs of one (item, digest) with ``counts`` files from ``starts``."""
    keys, shared = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    for size in np.unique(counts[(counts >= 2) & (counts <= CROWD)]):
        runs = starts[counts == size]
        per_run = int(size * (size - 1) // 2)
        for begin in range(0, len(runs), max(1, PAIRS_AT_ONCE // per_run)):
            members = file_of[runs[begin:begin + max(1, PAIRS_AT_ONCE // per_run), None] + np.arange(size)]
            i, j = np.triu_indices(int(size), 1)
            low, high = np.minimum(members[:, i], members[:, j]), np.maximum(members[:, i], members[:, j])
            step_keys, step_counts = np.unique((low * files + high).ravel(), return_counts=True)
            keys, inverse = np.unique(np.r_[keys, step_keys], return_inverse=True)
            shared = np.bincount(inverse, weights=np.r_[shared, step_counts], minlength=len(keys)).astype(np.int64)
    return keys, shared


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
