"""The organiser's gold: staged for the competition's tracks, and read by the scoring program itself
before anything is built from it.

The gold of a track without a column in competition.yaml is left out of the upload, with a line
saying so (``left_out``). Each competition track scores an empty submission file against the
phase's gold: every track reads its gold first, so a gold it cannot read is a
``ReferenceDataError`` whose private lines name the file, the record or line and the whole reason
(the organiser's own data may be shown to the organiser in full); the empty submission's own
refusal is expected and ignored. Anything else a track raises on its gold is one line too, never
a traceback.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any, Dict, List, Sequence

from scorer.readers.options import load_options
from scorer.readers.problems import ReferenceDataError, SubmissionError
from scorer.tracks.registry import TRACKS

from .competition import competition_tracks, phase_folder, sorted_phases
from .paths import PROGRAM
from .zips import is_junk


def check_gold(folder: str, tracks: Sequence, phase_label: str, shown: str = "") -> List[str]:
    """One line per problem of the gold of ``tracks`` in ``folder`` (a phase's reference data),
    naming it as ``shown`` (the organiser's folder, when ``folder`` is a staged copy)."""
    shown = shown or folder

    def place(line: str) -> str:  # "reference data x.json: line 3: ..." -> "phase P: <folder>/x.json: line 3: ..."
        line = line[len("reference data "):] if line.startswith("reference data ") else line
        return "phase %s: %s" % (phase_label, os.path.join(shown, line))

    problems: List[str] = []
    try:
        options = load_options(PROGRAM, folder)
    except ReferenceDataError as error:
        return [place(line) for line in error.private]
    with tempfile.TemporaryDirectory() as res:
        for track in tracks:
            gold = track.find_gold(folder)
            if gold is None:
                continue
            empty = os.path.join(res, track.filename)
            open(empty, "wb").close()
            try:
                track.score(gold, empty, track.filename, options, folder)
            except ReferenceDataError as error:
                problems.extend(place(line) for line in error.private)
            except SubmissionError:
                pass  # the empty submission's refusal: the gold was read
            except Exception as error:  # a reader of ours that let something through: still one line
                problems.append("phase %s: %s: the gold could not be read (%s: %s)"
                                % (phase_label, os.path.join(shown, os.path.relpath(gold, folder)),
                                   type(error).__name__, error))
    return problems


def stage_reference_data(reference_root: str, phases: Sequence[Dict[str, Any]], tracks: Sequence,
                         staged_root: str) -> None:
    """Each phase's reference folder without the gold of tracks outside the competition."""
    others = [track for track in TRACKS if track not in tracks]
    for phase in phases:
        folder = phase_folder(phase)
        source = os.path.join(reference_root, folder)
        left = {os.path.normpath(os.path.join(source, name)) for track in others
                for name in track.gold_names + ((track.test_input,) if track.test_input else ())}
        target = os.path.join(staged_root, folder)
        if os.path.isdir(target):  # a phase on the gold of an earlier one
            continue
        os.makedirs(target)
        for name in sorted(os.listdir(source)):
            path = os.path.join(source, name)
            if os.path.normpath(path) in left or is_junk(name):
                continue
            if os.path.isdir(path):
                shutil.copytree(path, os.path.join(target, name))
            else:
                shutil.copyfile(path, os.path.join(target, name))


def left_out(config: Dict[str, Any], reference_root: str, tracks) -> List[str]:
    """One line per phase folder holding gold of a track that is not in the competition (no column
    of it in competition.yaml): the build leaves that gold out of the upload."""
    chosen = competition_tracks(config, tracks)
    lines = []
    first_of_folder = {}
    for phase in sorted_phases(config):  # each gold folder once (phases may share one)
        first_of_folder.setdefault(phase_folder(phase), phase)
    for phase in first_of_folder.values():
        path = os.path.join(reference_root, phase_folder(phase))
        for track in tracks:
            gold = track.find_gold(path)
            if track not in chosen and gold is not None:
                lines.append("phase %s: %s is gold of track %s, which has no column in competition.yaml: left out of "
                             "the upload (add its columns to host the track)" % (phase.get("label"), gold, track.name))
    return lines
