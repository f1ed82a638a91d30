"""The one scoring loop: each submitted file of the phase's tracks scored by its track, in registry
order, with every failure caught and named (``scored_files``). ``score.py`` writes its outputs from
it; ``score_in_process`` gives the same results as objects to the tools that score many submissions
(``rank_submissions.py``, ``score_locally.py``, the benchmark): the same tracks, files, settings
and refusals, without writing outputs.
"""

from __future__ import annotations

from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from ..readers.result import TrackResult, unstorable_scores


class ReferenceDataProblem(Exception):
    """The phase's gold cannot be read: nothing can be scored (an organiser's problem)."""


def phase_tracks(reference_dir: str, tracks: Optional[Sequence] = None) -> List[Tuple[object, str]]:
    """(track, gold path) of every track of ``tracks`` (default: the registry's, in its order)
    whose gold is in ``reference_dir``."""
    if tracks is None:
        from ..tracks.registry import TRACKS as tracks
    found = [(track, track.find_gold(reference_dir)) for track in tracks]
    return [(track, gold) for track, gold in found if gold is not None]


def scored_files(tracks: List[Tuple[object, str]], files: Dict[str, str], options, reference_dir: str,
                 before: Optional[Callable[[object], None]] = None
                 ) -> Iterator[Tuple[object, Optional[TrackResult], Optional[Exception]]]:
    """(track, result, None) for each file of ``files`` (file name -> path) a track of ``tracks``
    scores, or (track, None, error) when it could not be scored: ``SubmissionError`` (refused, or a
    score the platforms cannot store), ``ReferenceDataError``, ``ProgramError`` (the program as
    installed cannot), any other exception (a bug of ours: its traceback is on it). ``before(track)``
    is called before each file is scored."""
    from ..readers.problems import SubmissionError
    for track, gold_path in tracks:
        submitted = files.get(track.filename)
        if submitted is None:
            continue
        if before is not None:
            before(track)
        try:
            result = track.score(gold_path, submitted, track.filename, options, reference_dir)
        except Exception as error:  # the callers word each kind; never the end of the run
            yield track, None, error
            continue
        unstorable = unstorable_scores(result.scores)
        if unstorable:  # (no track can produce one; kept so that no run is lost silently)
            yield track, None, SubmissionError([
                "%s: the score %s is not finite or not below 1e10, which the platforms cannot store; this file "
                "was not scored" % (track.filename, ", ".join(unstorable))])
            continue
        yield track, result, None


def score_in_process(reference_dir: str, res_dir: str, program_dir: str
                     ) -> Tuple[Dict[str, TrackResult], Dict[str, List[str]], List[str]]:
    """Score a submission's ``res/`` folder as ``score.py`` does, in this process.

    Returns (track name -> result, track name -> the problem lines of a refused file,
    problem lines of the submission as a whole). ``program_dir`` holds ``scoring_config.json``.
    A fault of the scoring program on one file is that file's problem line, as in ``score.py``.
    """
    from ..readers.options import load_options
    from ..readers.problems import ProgramError, ReferenceDataError, SubmissionError
    from .submission import locate_submission

    try:
        options = load_options(program_dir, reference_dir)
    except ReferenceDataError as error:
        raise ReferenceDataProblem("reference data: " + "; ".join(error.private[:5])) from None
    tracks = phase_tracks(reference_dir)
    results: Dict[str, TrackResult] = {}
    refused: Dict[str, List[str]] = {}
    try:
        submission = locate_submission(res_dir, [track for track, _ in tracks])
    except SubmissionError as error:
        return results, refused, list(error.lines)
    for track, result, error in scored_files(tracks, submission.files, options, reference_dir):
        if error is None:
            results[track.name] = result
        elif isinstance(error, SubmissionError):
            refused[track.name] = list(error.lines)
        elif isinstance(error, ReferenceDataError):
            raise ReferenceDataProblem("reference data: " + "; ".join(error.private[:5])) from None
        elif isinstance(error, ProgramError):  # as score.py words it
            refused[track.name] = ["%s: the scoring program cannot score this file as installed: %s"
                                   % (track.filename, error)]
        else:  # a bug of ours: this file's problem, not the end of the run
            refused[track.name] = ["%s: internal error of the scoring program (%s: %s)"
                                   % (track.filename, type(error).__name__, error)]
    return results, refused, []
