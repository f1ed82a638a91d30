"""The resamples of a phase's intervals, drawn by the build and read by a run: count lanes.

A Development run shows each ranking score's 95% interval over 1,000 bootstrap resamples
(``resampling.resample_indices``). Drawing them is one ``random()`` per item and resample, most of
what the intervals cost; the draws depend only on the number of items, the resamples and the seed.
So the build draws them once for each number of items of a phase's tracks and writes them beside
the gold (``FILE_NAME``, in the phase's reference data, like nlu's token cache; the writer is the
build's, ``bundle/resample_counts.py``), and a run reads them. Without the file (or with one that does not fit) a run draws them itself: the same
resamples, the same numbers, slower.

They are kept as **count lanes**: for each item, one unsigned 32-bit integer per resample (how many
times that resample drew the item), little-endian, item after item. Read as one big integer per
item (``lanes[i]``: resample r at bits 32r to 32r + 31), the totals of a column of nonnegative
integers over every resample are one sum of products, Σ_i value_i · lanes[i], cut into its lanes
(``lane_totals``): exact while no lane can reach 2**32 (a lane's total is at most the number of
items times the largest value; larger values are summed in pieces small enough).

The file: one ASCII line of JSON, ``{"format": 1, "resamples": R, "seed": S, "sets": [{"items": n,
"offset": o}, ...]}``, then each set's lanes at its offset after that line. A set is used only when
its numbers are the run's, it is whole and each of its resamples draws n items (``count_lanes``).
Standard library only.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Dict, List, Optional, Sequence, Tuple

FILE_NAME = "interval_resamples.bin"
FORMAT = 1
LANE_BYTES = 4
# items x resamples of one set at most (4 MB; zipped, far less): a larger phase's runs draw them
MAX_LANES = 1_000_000
MAX_HEADER = 1 << 16

_LANE_FORMAT = "I"  # (unsigned int: 32 bits wherever CPython runs)


# What this process read: (path, n_items, resamples, seed) -> the lanes, or None (tracks with as many
# items, SemEval-2021 Task 6's subtasks on one set of memes, read them once).
_READ: Dict[Tuple[str, int, int, int], Optional[List[int]]] = {}


def count_lanes(reference_dir: str, n_items: int, resamples: int, seed: int) -> Optional[List[int]]:
    """The count lanes of ``resample_indices(n_items, resamples, seed)`` from ``FILE_NAME`` in
    ``reference_dir``, one big integer per item; None when the file is not there or holds no set
    that fits (the caller draws the resamples)."""
    path = os.path.join(reference_dir, FILE_NAME)
    key = (path, n_items, resamples, seed)
    if key not in _READ:
        _READ[key] = _read(path, n_items, resamples, seed)
    return _READ[key]


def _read(path: str, n_items: int, resamples: int, seed: int) -> Optional[List[int]]:
    if n_items <= 0 or resamples <= 0 or n_items * resamples > MAX_LANES:
        return None
    if os.path.islink(path) or not os.path.isfile(path):
        return None
    size = LANE_BYTES * n_items * resamples
    try:
        with open(path, "rb") as handle:
            line = handle.readline(MAX_HEADER)
            header = json.loads(line.decode("ascii"))
            if (header.get("format") != FORMAT or header.get("resamples") != resamples
                    or header.get("seed") != seed):
                return None
            offsets = [entry.get("offset") for entry in header.get("sets", ()) if entry.get("items") == n_items]
            if len(offsets) != 1 or type(offsets[0]) is not int or offsets[0] < 0:  # noqa: E721
                return None
            handle.seek(len(line) + offsets[0])
            data = handle.read(size)
    except (OSError, ValueError, AttributeError, TypeError):  # (unreadable, not JSON, not this shape)
        return None
    if len(data) != size:
        return None
    width = LANE_BYTES * resamples
    lanes = [int.from_bytes(data[start:start + width], "little") for start in range(0, size, width)]
    # Each resample draws n items: every lane of the sum is n (no lane of a count can carry).
    if sum(lanes) != n_items * _ones(resamples):
        return None
    return lanes


def _ones(resamples: int) -> int:
    """The big integer with 1 in each of ``resamples`` lanes."""
    return int.from_bytes((b"\x01" + bytes(LANE_BYTES - 1)) * resamples, "little")


def _cut(total: int, resamples: int) -> List[int]:
    """The lanes of ``total``, resample after resample."""
    if sys.byteorder == "little" and memoryview(b"").cast(_LANE_FORMAT).itemsize == LANE_BYTES:
        return memoryview(total.to_bytes(LANE_BYTES * resamples, "little")).cast(_LANE_FORMAT).tolist()
    mask = (1 << (8 * LANE_BYTES)) - 1
    return [(total >> (8 * LANE_BYTES * resample)) & mask for resample in range(resamples)]


def lane_totals(lanes: Sequence[int], columns: Sequence[Sequence[int]], resamples: int) -> Optional[List[List[int]]]:
    """Each column's total over the items of each resample, from the count ``lanes`` (``columns``:
    nonnegative integers, one per item); None when the items are too many (2**24) for pieces of a
    byte.

    A column whose totals could reach a lane's 2**32 is cut into pieces of fewer bits; pieces
    (fields) whose totals fit one lane together share one sum of products (first fit)."""
    n_items = len(lanes)
    room = 8 * LANE_BYTES
    bits = room - n_items.bit_length()  # a piece of this many bits: n_items of it stay below 2**room
    if bits < 8:
        return None
    fields = []  # (column, shift in its values, the piece of each item, bits of the piece's totals)
    for index, values in enumerate(columns):
        top = max(values, default=0)
        if top.bit_length() <= bits:
            pieces = [(0, list(values))]
        else:
            mask = (1 << bits) - 1
            pieces = [(shift, [(value >> shift) & mask for value in values])
                      for shift in range(0, top.bit_length(), bits)]
        for shift, part in pieces:
            fields.append((index, shift, part, (max(part, default=0) * n_items).bit_length()))
    passes: List[List] = []  # [the fields with their offsets in the lane, bits used]
    for field in fields:
        shared = next((used for used in passes if used[1] + field[3] <= room), None)
        if shared is None:
            passes.append([[(field, 0)], field[3]])
        else:
            shared[0].append((field, shared[1]))
            shared[1] += field[3]
    totals: List[Optional[List[int]]] = [None] * len(columns)
    for members, _ in passes:
        if len(members) == 1:
            items = members[0][0][2]
        else:
            items = [sum(values) for values in zip(*[[value << offset for value in field[2]]
                                                     for field, offset in members])]
        total = 0
        for value, lane in zip(items, lanes):
            if value:
                total += value * lane
        found = _cut(total, resamples)
        for (index, shift, _, width), offset in members:
            mask = (1 << width) - 1
            part = found if len(members) == 1 else [(lane >> offset) & mask for lane in found]
            if shift:
                part = [value << shift for value in part]
            known = totals[index]
            totals[index] = part if known is None else [a + b for a, b in zip(known, part)]
    return [column if column is not None else [0] * resamples for column in totals]
