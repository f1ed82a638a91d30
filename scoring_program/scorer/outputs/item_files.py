"""The per-item details (which reveal gold), for a local run only (``score.py ... --items DIR``):
one ``<track>_items.json`` per track and ``problems.txt``; never in output/."""

from __future__ import annotations

import json
import os
from typing import Sequence

from ..readers.result import TrackResult


def write_items(items_dir: str, results: Sequence[TrackResult], extra_lines: Sequence[str]) -> None:
    """Per-item details (which reveal gold), for a local run only: ``items_dir``, never output/.

    One JSON file per track, its per-item statistics: ``{"items": [...], "columns": [...], "rows":
    [[...], ...]}`` (row i is item i's statistics, by column); and ``problems.txt``, the full text
    of reference-data problems and internal errors.
    """
    os.makedirs(items_dir, exist_ok=True)
    for result in results:
        statistics = result.statistics
        path = os.path.join(items_dir, "%s_items.json" % result.track)
        with open(path, "w", encoding="utf-8", errors="backslashreplace", newline="\n") as handle:
            handle.write('{"items": %s, "columns": %s, "rows": [' % (
                json.dumps(statistics.items, ensure_ascii=False), json.dumps(statistics.columns, ensure_ascii=False)))
            # Chunks of the C encoder: fast, and never the whole document in memory at once.
            for start in range(0, len(statistics.rows), 4096):
                chunk = json.dumps(statistics.rows[start:start + 4096], ensure_ascii=False)
                handle.write(("," if start else "") + chunk[1:-1])
            handle.write("]}\n")
    if extra_lines:
        with open(os.path.join(items_dir, "problems.txt"), "w", encoding="utf-8", errors="backslashreplace", newline="\n") as handle:
            handle.write("\n".join(extra_lines) + "\n")
