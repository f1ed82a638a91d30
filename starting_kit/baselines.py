"""Baselines for every track, deterministic with a seed (standard library only).

The random baselines re-create the behaviour of the original tasks' baseline scripts (same random
draws from ``random.Random(42)``), so their scores match the published baseline figures; the
majority baselines predict the most frequent technique of the training gold everywhere. Each
baseline is its track module's (``write_baseline`` in ``scoring_program/scorer/tracks/``); this
script only runs them.

    python3 baselines.py PUBLIC_DATA_DIR OUTPUT_DIR [--multilabel random|majority] [--seed 42]

writes one submission file per track found in PUBLIC_DATA_DIR (the phase's public inputs) into
OUTPUT_DIR; zip the *contents* of OUTPUT_DIR to submit.
"""

from __future__ import annotations

import argparse
import os
from typing import List, Sequence

from score_locally import program_tracks
from staging import run_command


def write_submission(public_dir: str, out_dir: str, multilabel: str = "random", seed: int = 42) -> List[str]:
    """One submission file per track whose public input is in ``public_dir``."""
    os.makedirs(out_dir, exist_ok=True)
    written: List[str] = []
    for track in program_tracks():
        written += track.write_baseline(public_dir, out_dir, track.filename, seed, multilabel)
    return written


def main(argv: Sequence[str] = None) -> int:
    parser = argparse.ArgumentParser(description="Write baseline submissions from a phase's public inputs.")
    parser.add_argument("public_dir", help="the phase's public data (unzipped)")
    parser.add_argument("out_dir", help="where to write the submission files")
    parser.add_argument("--multilabel", choices=("random", "majority"), default="random",
                        help="ST1/ST3 baseline (default: the tasks' random baseline)")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args(argv)
    written = write_submission(args.public_dir, args.out_dir, args.multilabel, args.seed)
    if not written:
        parser.error("no public input of any track in %s" % args.public_dir)
    for name in written:
        print("wrote", os.path.join(args.out_dir, name))
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
