"""Scoring one track's prediction file against a gold file or folder, with no Codalab layout: the
installed scorer's Python API (``score``) and what its command (``scorer/run/cli.py``) runs.

The numbers are ``score.py``'s: the same track code, settings and refusals (``in_process.scored_files``);
only the way the files are named differs. The gold may be

- the competition's reference folder of a phase (``reference_data/test/``, or ``gold/<phase>/`` of the
  task's release), holding the track's gold under its competition name;
- a folder holding one split of the task's released gold under its released name
  (``dev_set_task1.txt``, ...; the track card's "Inputs");
- the gold file or folder itself, as the task released it or as the competition names it
  (``test_set_task1.txt``, ``train-labels-FLC/``, ``evalita2020_absita.ndjson``).
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Tuple

from ..readers.options import CONFIG_NAME, Options, apply_settings, read_settings
from ..readers.problems import ProgramError, ReferenceDataError, SubmissionError, capped

PROGRAM_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class ScoringError(Exception):
    """Nothing was scored. ``lines``: one problem per line (file, place and reason), as ``score.py``
    prints them; ``exit_code``: 2 for the arguments (a track name, a path), 1 for the files."""

    def __init__(self, lines: List[str], exit_code: int = 1) -> None:
        super().__init__("\n".join(lines))
        self.lines = list(lines)
        self.exit_code = exit_code


class Scored:
    """One track's scores: ``scores`` (its leaderboard keys, in the track's order), ``signature``,
    and ``warnings`` (what ``score.py`` prints as ``<file>: warning: ...``, without the prefix)."""

    def __init__(self, track: str, scores: Dict[str, float], signature: str, warnings: List[str]) -> None:
        self.track, self.scores, self.signature, self.warnings = track, scores, signature, warnings

    def as_dict(self) -> Dict[str, Any]:
        """The leaderboard keys and ``"signature"``: what ``--json`` prints."""
        from ..outputs.scores_files import SIGNATURE_KEY
        return dict(self.scores, **{SIGNATURE_KEY: self.signature})


def track_named(name: str):
    """The registry's track called ``name``; a ScoringError (exit 2) listing the tracks otherwise."""
    from ..tracks.registry import BY_NAME
    if name not in BY_NAME:
        from ..readers.problems import did_you_mean
        raise ScoringError(["unknown track %r%s; the tracks: %s"
                            % (name, did_you_mean(name, BY_NAME), ", ".join(BY_NAME))], 2)
    return BY_NAME[name]


def scoring_options(reference_dir: Optional[str] = None, settings_file: Optional[str] = None,
                    settings: Optional[Dict[str, Any]] = None) -> Options:
    """The settings ``score.py`` would score with: the program's ``scoring_config.json``, then the
    one in ``reference_dir`` (a phase's built reference data holds it), then ``settings_file`` (a
    phase's settings, e.g. ``settings/test.json`` of the release), then ``settings``. An unknown or
    invalid setting, or a file that cannot be read, is a ScoringError (exit 2) naming its source."""
    sources = [os.path.join(folder, CONFIG_NAME) for folder in (PROGRAM_DIR, reference_dir)
               if folder is not None and os.path.isfile(os.path.join(folder, CONFIG_NAME))]
    if settings_file is not None:
        if not os.path.isfile(settings_file):
            raise ScoringError(["--settings %s: %s" % (settings_file, _missing(settings_file))], 2)
        sources.append(settings_file)
    options = Options()
    try:
        for source in sources:
            options = apply_settings(options, read_settings(source), source)
        if settings:
            options = apply_settings(options, dict(settings), "settings")
    except ReferenceDataError as error:
        raise ScoringError([error.public[0]], 2) from None
    return options


def _missing(path: str) -> str:
    if not os.path.lexists(path):
        return "no such file or folder"
    if os.path.isdir(path):
        return "is a folder, not a file"
    return "is not a regular file"


def locate_gold(track, gold_path: str) -> Tuple[str, str]:
    """(the gold file or folder, the folder ``score.py`` would have as ``ref/``) for ``gold_path``
    (module docstring); a ScoringError (exit 2) when it holds no gold of ``track``."""
    if not os.path.exists(gold_path):
        raise ScoringError(["GOLD %s: no such file or folder" % gold_path], 2)
    if not os.path.isdir(gold_path):
        if not os.path.isfile(gold_path):
            raise ScoringError(["GOLD %s: is not a regular file or a folder" % gold_path], 2)
        return gold_path, os.path.dirname(os.path.abspath(gold_path))
    found = track.find_gold(gold_path)
    if found is not None:
        return found, gold_path
    released = [(split, os.path.join(gold_path, name)) for split, name in sorted(track.released_gold.items())
                if os.path.exists(os.path.join(gold_path, name))]
    if len(released) == 1:
        return released[0][1], gold_path
    if len(released) > 1:
        raise ScoringError(["GOLD %s: holds several splits of %s's released gold (%s); give the one to score "
                            "against" % (gold_path, track.name,
                                         ", ".join(os.path.basename(path) for _, path in released))], 2)
    if not _gold_may_be_a_folder(track):
        names = sorted(set(track.gold_names) | set(track.released_gold.values()))
        raise ScoringError(["GOLD %s: is a folder holding no gold of %s (%s); give the gold file"
                            % (gold_path, track.name, ", ".join(names))], 2)
    return gold_path, os.path.dirname(os.path.abspath(gold_path))


def _gold_may_be_a_folder(track) -> bool:
    """Whether one of the track's gold names (the competition's or the task's release) is a folder:
    a name without an extension (flc's ``nlp4if2019_flc``, ``train-labels-FLC``)."""
    names = list(track.gold_names) + list(track.released_gold.values())
    return any("." not in name for name in names)


def score_file(track_name: str, gold_path: str, prediction_path: str, settings_file: Optional[str] = None,
               settings: Optional[Dict[str, Any]] = None) -> Scored:
    """``prediction_path`` scored as ``track_name``'s submission file against ``gold_path``, as
    ``score.py`` scores it, with the settings of ``scoring_options``: its refusals are a
    ScoringError with ``score.py``'s lines (exit 1); a wrong argument, one line (exit 2)."""
    track = track_named(track_name)
    gold, reference_dir = locate_gold(track, gold_path)
    if not os.path.isfile(prediction_path):
        raise ScoringError(["PREDICTION %s: %s" % (prediction_path, _missing(prediction_path))], 2)
    problem = gold_problem(track, gold, reference_dir, prediction_path)
    if problem:
        raise ScoringError(["GOLD %s: %s" % (gold_path, problem)], 1)
    # a reference folder's own settings count as in score.py; beside a gold file they are not its
    options = scoring_options(reference_dir if os.path.isdir(gold_path) else None, settings_file, settings)
    from .in_process import scored_files
    outcome = list(scored_files([(track, gold)], {track.filename: prediction_path}, options, reference_dir))
    _, result, error = outcome[0]
    if isinstance(error, SubmissionError):
        raise ScoringError(capped(error.lines, more=error.more, stopped=error.stopped), 1)
    if isinstance(error, ReferenceDataError):  # the researcher holds the gold: the whole reason
        raise ScoringError(gold_lines(track, gold_path, capped(error.private or error.public)), 1)
    if isinstance(error, ProgramError):
        raise ScoringError(["%s: the scoring program cannot score this file as installed: %s"
                            % (track.filename, error)], 1)
    if error is not None:
        raise ScoringError(["%s: internal error of the scoring program (%s: %s); please report it"
                            % (track.filename, type(error).__name__, error)], 1)
    from ..outputs.run_outputs import leaderboard_values, result_signatures
    # every key of the track, as scores.txt has them: a key the file did not reach (absita's ATE
    # for a file without aspects) gets the value that ranks last, as on the leaderboard
    scores = leaderboard_values([result], [track.name])
    return Scored(track.name, scores, result_signatures([result], options)[track.name], list(result.warnings))


GOLD_ADVICE = ("the gold cannot be read: this is a problem of the gold given, not of the prediction (which "
               "was not judged); give %s's gold: the task's released gold, a phase's reference folder, or "
               "gold/<phase>/ of the task's release")


def gold_lines(track, gold_path: str, lines: List[str]) -> List[str]:
    """A broken gold's problem lines as the gold's: each names the gold given (the track's reader
    names the file it reads by the submission's name), then what to do."""
    prefix = track.filename + ": "
    named = ["GOLD %s: %s" % (gold_path, line[len(prefix):] if line.startswith(prefix) else line) for line in lines]
    return named + ["GOLD %s: %s" % (gold_path, GOLD_ADVICE % track.name)]


def gold_problem(track, gold: str, reference_dir: str, prediction_path: str) -> str:
    """Why ``gold`` is no gold to score against ('' when it may be), by what it holds: a blind
    phase's stand-in (the public inputs with placeholder answers) or a phase's public input
    (``blind.not_gold``); never by a setting beside it. (A prediction is told by its format where
    it differs from the gold's, as nlu's ``id,q,r`` header: the track's gold reader refuses it. The
    gold itself given as the prediction is a perfect prediction, scored as such.)"""
    import shutil
    import tempfile
    from ..outputs.blind import not_gold
    with tempfile.TemporaryDirectory(prefix="gold-check-") as work:
        folder = reference_dir
        if track.find_gold(reference_dir) is None or not os.path.samefile(track.find_gold(reference_dir), gold):
            folder = os.path.join(work, "ref")  # the gold under the name the track reads, with the test input
            os.makedirs(folder)
            copy = shutil.copytree if os.path.isdir(gold) else shutil.copyfile
            copy(gold, os.path.join(folder, track.gold_names[0]))
            if track.test_input and os.path.isfile(os.path.join(reference_dir, track.test_input)):
                shutil.copyfile(os.path.join(reference_dir, track.test_input), os.path.join(folder, track.test_input))
        found = not_gold(folder, os.path.join(work, "derived"), [track])
    if found:
        return "is %s; score against the gold (the task's release gold/<phase>/, or the task's released gold)" \
            % found[0][1]
    return ""


def score(track: str, gold_path: str, prediction_path: str, **settings: Any) -> Dict[str, Any]:
    """Score one track's prediction file against its gold, exactly as the competition did.

    Parameters
    ----------
    track : str
        A track's name (``t6_st1``, ``t6_st2``, ``t6_st3``, ``flc``, ``nlu``, ``absita``).
    gold_path : str
        The gold file or folder as the task released it, or a phase's reference folder.
    prediction_path : str
        The prediction file, in the track's submission format (its card).
    **settings
        Scoring settings over the program's own (``scoring_config.json``), e.g.
        ``per_technique_recall="official"``; the signature names the ones the track reads.

    Returns
    -------
    dict
        The track's leaderboard keys (float) and ``"signature"`` (str). Warnings (a file scored
        as the official scorer scores it, with a note) are issued as ``ScoringWarning``.

    Raises
    ------
    ScoringError
        The file was refused, the gold cannot be read, or an argument is wrong: ``lines`` say why.
    """
    scored = score_file(track, gold_path, prediction_path, settings=settings)
    if scored.warnings:
        import warnings
        for line in scored.warnings:
            warnings.warn("%s: %s" % (os.path.basename(prediction_path), line), ScoringWarning, stacklevel=2)
    return scored.as_dict()


class ScoringWarning(UserWarning):
    """A file scored with a warning (the track's card lists them)."""
