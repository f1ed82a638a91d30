"""Scoring every submission with the scoring program's own code, in parallel where asked; what
the tables need from each one (scores, per-item statistics as arrays, per-technique F1, problems)
and, while its files are unpacked, what copy detection compares (``copies.submission_digests``)."""

from __future__ import annotations

import sys
import tempfile
import zipfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Dict, List, Sequence, Tuple

import numpy as np

from . import PROGRAM_DIR
from .copies import ItemDigests, submission_digests
from .entries import Entry
from .unpacking import KitError, stage
from scorer.run.in_process import score_in_process
from scorer.tracks.registry import TRACKS
from scorer.machinery.per_item import ItemStatistics

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
    digests: Dict[str, ItemDigests] = field(default_factory=dict)  # file name -> its items (copies.py)


def score_entry(entry: Entry, reference_dir: str, program_dir: str = PROGRAM_DIR) -> Scored:
    """Score one submission with the scoring program's code (in this process)."""
    scored = Scored(entry)
    with tempfile.TemporaryDirectory(prefix="rank-submissions-") as work:
        try:
            res = stage(entry, work)
            results, refused, problems = score_in_process(reference_dir, res, program_dir)
            if not (problems or refused or entry.baseline):  # a row that can be ranked: its files' items
                scored.digests = submission_digests(res, reference_dir, program_dir)
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
        statistics.rows = []  # the matrix holds them; the list of tuples, larger, is let go
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


def _later_first(entry: Entry) -> tuple:
    """The order of ``selection.select``'s ``last`` (``_later_first``), on an entry."""
    return (entry.order is not None, entry.order if entry.order is not None else 0, entry.submission)


def _participant(entry: Entry) -> str:
    """As ``selection.select`` groups them: the owner; a plain file is its own participant."""
    return entry.owner or "\0" + entry.source + entry.member


NOT_RESCORED_EXPORT = "not on the leaderboard (results export); not re-scored"
NOT_RESCORED_LAST = "not the participant's last submission that re-scores (ranked: %s); not re-scored"


def score_selected(entries: Sequence[Entry], reference_dir: str, jobs: int, mode: str,
                   on_board=None, program_dir: str = PROGRAM_DIR, progress: bool = True
                   ) -> Tuple[List[Scored], List[Tuple[Entry, str]]]:
    """Only the submissions that can be ranked, scored: (the scored, in the order given; [(entry,
    why it was not re-scored)], in the order given).

    With the results export (``on_board``: its ``<owner>-<id>`` keys), its entries and the
    baselines; with ``mode`` ``last``, each participant's submissions from the latest backwards
    until one scores without a problem (all participants' latest at once, in ``jobs`` processes,
    then the next of those whose latest failed, and so on), and the baselines; ``best`` and
    ``all`` need every submission. ``selection.select`` on the scored then ranks exactly the rows
    it ranks when every submission is scored (``tests/test_rank_selected.py``): only the lists of
    what is not ranked or not scored differ, by what was not re-scored.
    """
    from tqdm import tqdm

    if on_board is None and mode != "last":
        return score_all(entries, reference_dir, jobs, program_dir, progress), []
    position = {id(entry): i for i, entry in enumerate(entries)}
    done: Dict[int, Scored] = {}
    pending: List[List[Entry]] = []  # per participant, the candidates still to try, latest first
    first: List[Entry] = [entry for entry in entries if entry.baseline]
    not_rescored: List[Tuple[Entry, str]] = []
    if on_board is not None:
        for entry in entries:
            if entry.baseline:
                continue
            if entry.export_key() in on_board:
                first.append(entry)
            else:
                not_rescored.append((entry, NOT_RESCORED_EXPORT))
    else:
        by_participant: Dict[str, List[Entry]] = {}
        for entry in entries:
            if not entry.baseline:
                by_participant.setdefault(_participant(entry), []).append(entry)
        for candidates in by_participant.values():
            candidates.sort(key=_later_first, reverse=True)
            first.append(candidates[0])
            pending.append(candidates)
    bar = tqdm(total=len(first), desc="scoring", unit="submission", disable=not progress, file=sys.stderr)
    pool = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
    try:
        batch = first
        while batch:
            if pool is None:
                results = []
                for entry in batch:
                    results.append(score_entry(entry, reference_dir, program_dir))
                    bar.update()
            else:
                futures = [pool.submit(score_entry, entry, reference_dir, program_dir) for entry in batch]
                for future in futures:
                    future.add_done_callback(lambda _: bar.update())
                results = [future.result() for future in futures]
            for entry, scored in zip(batch, results):
                done[position[id(entry)]] = scored
            batch = []
            still: List[List[Entry]] = []
            for candidates in pending:  # the next candidate of each participant whose last try failed
                tried = done[position[id(candidates[0])]]  # (a worker's copy of the entry: by position)
                if tried.problems and len(candidates) > 1:
                    still.append(candidates[1:])
                    batch.append(candidates[1])
                elif not tried.problems:
                    not_rescored += [(entry, NOT_RESCORED_LAST % tried.entry.submission) for entry in candidates[1:]]
            pending = still
            bar.total += len(batch)
            bar.refresh()
    finally:
        if pool is not None:
            pool.shutdown()
        bar.close()
    not_rescored.sort(key=lambda pair: position[id(pair[0])])
    return [done[i] for i in sorted(done)], not_rescored
