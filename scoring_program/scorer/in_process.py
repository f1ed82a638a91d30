"""Scoring a submission's ``res/`` folder in this process, as ``score.py`` does, for the tools that
score many submissions or want the results as objects (``rank_submissions.py``, ``score_locally.py``,
the benchmark): the same tracks, files, settings and refusals, without writing outputs.
"""

from __future__ import annotations

from typing import Dict, List, Tuple

from .result import TrackResult


class ReferenceDataProblem(Exception):
    """The phase's gold cannot be read: nothing can be scored (an organiser's problem)."""


def score_in_process(reference_dir: str, res_dir: str, program_dir: str
                     ) -> Tuple[Dict[str, TrackResult], Dict[str, List[str]], List[str]]:
    """Score a submission's ``res/`` folder as ``score.py`` does, in this process.

    Returns (track name -> result, track name -> the problem lines of a refused file,
    problem lines of the submission as a whole). ``program_dir`` holds ``scoring_config.json``.
    A fault of the scoring program on one file is that file's problem line, as in ``score.py``.
    """
    from .options import load_options
    from .problems import ProgramError, ReferenceDataError, SubmissionError
    from .registry import TRACKS
    from .submission import locate_submission

    try:
        options = load_options(program_dir, reference_dir)
    except ReferenceDataError as error:
        raise ReferenceDataProblem("reference data: " + "; ".join(error.private[:5])) from None
    phase_tracks = [(track, track.find_gold(reference_dir)) for track in TRACKS]
    phase_tracks = [(track, gold) for track, gold in phase_tracks if gold is not None]
    results: Dict[str, TrackResult] = {}
    refused: Dict[str, List[str]] = {}
    try:
        submission = locate_submission(res_dir, [track for track, _ in phase_tracks])
    except SubmissionError as error:
        return results, refused, list(error.lines)
    for track, gold_path in phase_tracks:
        submitted = submission.files.get(track.filename)
        if submitted is None:
            continue
        try:
            results[track.name] = track.score(gold_path, submitted, track.filename, options, reference_dir)
        except SubmissionError as error:
            refused[track.name] = list(error.lines)
        except ReferenceDataError as error:
            raise ReferenceDataProblem("reference data: " + "; ".join(error.private[:5])) from None
        except ProgramError as error:  # as score.py words it
            refused[track.name] = ["%s: the scoring program cannot score this file as installed: %s"
                                   % (track.filename, error)]
        except Exception as error:  # a bug of ours: this file's problem, not the end of the run
            refused[track.name] = ["%s: internal error of the scoring program (%s: %s)"
                                   % (track.filename, type(error).__name__, error)]
    return results, refused, []
