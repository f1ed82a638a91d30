"""What a run writes and prints, decided in one place from what it found (``RunFindings``):

- ``scores.txt`` and ``scores.json`` (``scores_files.py``): every leaderboard key of the phase's
  tracks, and each scored track's signature (``signature.py``);
- ``detailed_results.html`` (``results_page.py``); with the phase's ``detailed_results`` "full",
  each ranking score's bootstrap interval when its ``interval_resamples`` asks for them
  (``resampling.py``), and the tracks' tables by group (``groups.py``);
- with ``--items DIR`` (a local run only: they reveal gold), the per-item files (``item_files.py``)
  and the error analysis (``error_analysis.py``);
- a blind phase's outputs instead (``blind.py``): no score anywhere;
- on stdout the scores, then the tracks not entered, or the line saying that the submission
  failed (``verdict.py``); on stderr its problems.

``score.py`` calls ``write_outputs``. What the other tools show comes from the same functions:
``score_locally.py`` prints ``shown_intervals``, the installed scorer (``run/api.py``,
``run/cli.py``) ``leaderboard_values`` and ``result_signatures``.
"""

from __future__ import annotations

import sys
from typing import Dict, List, Optional, Sequence, Tuple

from ..readers.options import Options
from ..readers.problems import capped
from ..readers.result import TrackResult
from .blind import write_blind_outputs
from .error_analysis import write_error_analysis
from .groups import group_tables
from .item_files import write_items
from .resampling import INTERVAL_SEED, MAX_INTERVAL_SUMS, ranking_intervals
from .results_page import write_html
from .scores_files import collect_scores, leaderboard_scores, write_scores
from .signature import track_signature
from .verdict import failed_line


class RunFindings:
    """What one run found, for its outputs: the scored ``results`` (in registry order), the
    submission's ``problems`` (public lines) and ``private_lines`` (for a local run's items only),
    how many problems were found but not kept (``hidden``) and whether a reader stopped early
    (``stopped``), the phase's tracks and those the submission entered (``submitted``), the
    effective settings (None when they could not be read), and for a blind phase the items of each
    track's public input (``items``) and the submitted files (``files``: name -> path)."""

    def __init__(self, output_dir: str, items_dir: Optional[str]) -> None:
        self.output_dir, self.items_dir = output_dir, items_dir
        self.results: List[TrackResult] = []
        self.problems: List[str] = []
        self.private_lines: List[str] = []
        self.hidden, self.stopped = 0, False
        self.phase_tracks: List[str] = []
        self.submitted: List[str] = []
        self.options: Optional[Options] = None
        self.blind = False
        self.items: Dict[str, Optional[int]] = {}
        self.files: Dict[str, str] = {}


def leaderboard_values(results: Sequence[TrackResult], phase_tracks: Sequence[str]) -> Dict[str, float]:
    """scores.txt's values: every key of the phase's tracks, scored or with its not-entered value."""
    return leaderboard_scores(collect_scores(results), phase_tracks)


def result_signatures(results: Sequence[TrackResult], options: Optional[Options]) -> Dict[str, str]:
    """track -> the signature of its scores under ``options``."""
    return {result.track: track_signature(result.track, options) for result in results}


def shown_intervals(result: TrackResult, resamples: int) -> Tuple[int, Dict[str, Tuple[float, float]]]:
    """(the resamples drawn, key -> the 95% bootstrap interval of each ranking score of ``result``),
    as the page shows them: ``resamples`` of them, or fewer for a phase too large to draw them within
    about a second (``resampling.MAX_INTERVAL_SUMS``)."""
    return ranking_intervals(result, resamples, INTERVAL_SEED, max_sums=MAX_INTERVAL_SUMS)


def write_outputs(found: RunFindings) -> None:
    """Write every output of the run into its folders and print what it says."""
    if found.blind:
        write_blind_outputs(found)
        return
    options = found.options
    detail = options.detailed_results if options is not None else "full"
    results = found.results
    scores = collect_scores(results)
    signatures = result_signatures(results, options)
    write_scores(found.output_dir, leaderboard_values(results, found.phase_tracks), signatures)
    shown = capped(found.problems, more=found.hidden, stopped=found.stopped)
    not_entered = [name for name in found.phase_tracks if name not in found.submitted]
    resamples = options.interval_resamples if options is not None else 0
    intervals = None
    if detail == "full" and results and resamples:
        intervals = {result.track: shown_intervals(result, resamples) for result in results}
    tables = {result.track: group_tables(result) for result in results} if detail == "full" and results else None
    write_html(found.output_dir, results, shown, not_entered, detail, signatures, intervals, resamples, tables)
    if found.items_dir is not None:
        write_items(found.items_dir, results, list(found.problems) + list(found.private_lines))
        write_error_analysis(found.items_dir, results)
    for key, value in scores.items():
        print("%s: %.6f" % (key, value))
    if found.problems:  # (the tracks not entered matter only to a submission the board records)
        print(failed_line(bool(scores)))
        for line in shown:
            print(line, file=sys.stderr)
        return
    for name in not_entered:
        print("%s: not entered (its leaderboard columns rank last)" % name)
