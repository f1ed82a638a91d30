#!/usr/bin/env python3
"""Writes the sample gold of ``reference_data/dev`` and ``reference_data/test`` (every track of the registry).

Every text was written for this repository (nothing comes from the tasks' data); the shapes
follow the real data: multi-label memes and memes without techniques, overlapping spans of
different techniques, articles without propaganda, several accepted answers per nlu id, an nlu
test input with unscored ids, reviews without aspects. Deterministic: the same seed writes the same
bytes, and each track draws from its own generator (seed, track, split), so that a track's sample
does not change with another's. Each track module writes its own (``write_sample_gold``); this
tool only lists the splits. Organisers replace these folders with the private gold
(``build_bundle.py --reference-data``).

    python3 tools/make_sample_data.py [--seed 2026] [--out reference_data]
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import List

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scoring_program"))

from scorer.tracks.registry import TRACKS  # noqa: E402

SPLITS = ("dev", "test")  # one folder per phase


def write_split(folder: str, split: str, seed: int) -> List[str]:
    """Every track's sample gold of ``split`` in ``folder``; the names written."""
    os.makedirs(folder, exist_ok=True)
    written: List[str] = []
    for track in TRACKS:
        written += track.write_sample_gold(folder, split, seed)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=os.path.join(ROOT, "reference_data"))
    args = parser.parse_args()
    for split in SPLITS:
        folder = os.path.join(args.out, split)
        print("%s: %s" % (folder, ", ".join(write_split(folder, split, args.seed))))


if __name__ == "__main__":
    from scorer.run.closed_pipe import exit_status
    sys.exit(exit_status(main))
