"""Scoring every submission with the scoring program's own code, in parallel where asked; what
the tables need from each one (scores, per-item statistics as arrays, per-technique F1, problems)."""

from __future__ import annotations

import sys
import tempfile
import zipfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Dict, List, Sequence, Tuple

import numpy as np

from . import PROGRAM_DIR
from .downloads import Entry, KitError, stage
from scorer.run.in_process import score_in_process
from scorer.tracks.registry import TRACKS
from scorer.outputs.resampling import ItemStatistics

# The tracks with a technique list (their modules' TECHNIQUES): per-technique tables and figures.
TECHNIQUE_TRACKS = tuple(track.name for track in TRACKS if track.techniques)


@dataclass
class Scored:
    """What the tables need from one submission: scores, per-item statistics, technique F1."""

    entry: Entry
    scores: Dict[str, Dict[str, float]] = field(default_factory=dict)  # track -> key -> value
    statistics: Dict[str, Tuple[ItemStatistics, np.ndarray]] = field(default_factory=dict)
    techniques: Dict[str, List[Tuple[str, float]]] = field(default_factory=dict)  # track -> (label, F1)
    problems: List[Tuple[str, str]] = field(default_factory=list)  # (track or "", first problem line)


def score_entry(entry: Entry, reference_dir: str, program_dir: str = PROGRAM_DIR) -> Scored:
    """Score one submission with the scoring program's code (in this process)."""
    scored = Scored(entry)
    with tempfile.TemporaryDirectory(prefix="rank-submissions-") as work:
        try:
            res = stage(entry, work)
            results, refused, problems = score_in_process(reference_dir, res, program_dir)
        except KitError as error:
            scored.problems.append(("", str(error)))
            return scored
        except (OSError, zipfile.BadZipFile) as error:
            scored.problems.append(("", "cannot be read: %s" % error))
            return scored
    if problems:
        scored.problems.append(("", problems[0]))
    for track, lines in refused.items():
        scored.problems.append((track, lines[0] if lines else "refused"))
    for track, result in results.items():
        statistics = result.statistics
        matrix = np.array(statistics.rows, dtype=np.float64).reshape(len(statistics.items),
                                                                     len(statistics.columns))
        statistics.rows = []  # the matrix holds them (a list of tuples is ~10 times larger)
        scored.scores[track] = dict(result.scores)
        scored.statistics[track] = (statistics, matrix)
        if result.table and track in TECHNIQUE_TRACKS:
            scored.techniques[track] = [(row.label, row.f1) for row in result.table]
    return scored


def score_all(entries: Sequence[Entry], reference_dir: str, jobs: int, program_dir: str = PROGRAM_DIR,
              progress: bool = True) -> List[Scored]:
    """Every submission scored, in the order given; ``jobs`` processes (1: this process)."""
    from tqdm import tqdm

    bar = tqdm(total=len(entries), desc="scoring", unit="submission", disable=not progress, file=sys.stderr)
    try:
        if jobs <= 1:
            scored = []
            for entry in entries:
                scored.append(score_entry(entry, reference_dir, program_dir))
                bar.update()
            return scored
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(score_entry, entry, reference_dir, program_dir) for entry in entries]
            for future in futures:
                future.add_done_callback(lambda _: bar.update())
            return [future.result() for future in futures]
    finally:
        bar.close()
