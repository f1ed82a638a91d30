#!/usr/bin/env python3
"""The Codalab contract: ``python3 score.py INPUT OUTPUT [--items DIR]``.

INPUT/ref  the phase's reference data (gold), one file (or folder) per track
INPUT/res  the participant's files, named as in ``scorer/tracks/registry.py``
OUTPUT/    scores.txt, scores.json, detailed_results.html: nothing else, and nothing derived from
           gold beyond the leaderboard scores and aggregates (Codabench lets participants
           download the whole folder)
--items DIR  (local runs only) per-item details, which reveal gold, the full text of
           reference-data problems and internal errors, and error_analysis.html: the worst items
           of each track with their text and the gold and predicted spans highlighted

Every track whose gold is in ref/ and whose file is in res/ is scored. Every key of the phase's
tracks is written: a track the submission did not enter gets a value that ranks last
(scorer/outputs/scores_files.py); the build makes each of these keys a leaderboard column.
Exit status 0 when every submitted file was scored, otherwise 1 with one line per problem on
stderr. Standard library only, Python 3.7 to 3.13.

On the Codalab v1.5 worker the program stays alive a few seconds after its last write (see
``scorer/run/workers.py``), so that the worker's watcher uploads the complete detailed results.
"""

from __future__ import annotations

import json
import os
import sys

PROGRAM_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, PROGRAM_DIR)

from scorer.readers.options import load_options  # noqa: E402
from scorer.run.workers import wait_for_v15_watcher  # noqa: E402
from scorer.readers.problems import ProgramError, ReferenceDataError, SubmissionError  # noqa: E402
# The registry (and so every track module, and the outputs, which list the tracks) is imported in
# run(), inside main()'s guard: a track module that cannot be imported is a program fault, one
# line on stderr, never a traceback.

USAGE = "usage: python3 score.py INPUT_DIR OUTPUT_DIR [--items DIR]"
# What a participant reads when the phase's reference data is still the build's placeholder.
HELD_BACK = "held_back.json"  # bundle/held_back.py's PLACEHOLDER_ENTRY
WAITING_FOR_GOLD = ("this phase's test answers are not attached yet, so nothing was scored: a submission copied "
                    "here from the phase before is re-run when the organisers attach them (nothing to do); one "
                    "you made in this phase: submit it again once they are attached")
WAITING_FOR_INPUTS = ("this phase's inputs are not released yet, so nothing was checked: submit again once the "
                      "organisers release them")
DETAILS_HINT = ("organisers see the details by running scoring_program/score.py locally on this phase's "
                "reference data with --items DIR")


def main(argv):
    items_dir = _items_dir(argv)
    try:
        code = run(argv, items_dir)
    except Exception:  # never a traceback on the participant's screen, nor gold
        print("internal error of the scoring program; please tell the organisers (%s)" % DETAILS_HINT,
              file=sys.stderr)
        _keep_traceback(items_dir)
        code = 1
    wait_for_v15_watcher(PROGRAM_DIR)
    return code


def _items_dir(argv):
    if len(argv) == 5 and argv[3] == "--items":
        return argv[4]
    return None


def _unwritable(folder):
    """Why ``folder`` cannot receive the per-item files ('' when it can; made when missing)."""
    if os.path.lexists(folder) and not os.path.isdir(folder):
        return "exists and is not a folder"
    try:
        os.makedirs(folder, exist_ok=True)
        probe = os.path.join(folder, ".score-py-write-test")
        with open(probe, "w"):
            pass
        os.remove(probe)
    except OSError as error:
        return "cannot be written (%s)" % (error.strerror or error)
    return ""


def _keep_traceback(items_dir):
    if items_dir is None:
        return
    import traceback
    try:
        os.makedirs(items_dir, exist_ok=True)
        with open(os.path.join(items_dir, "problems.txt"), "a", encoding="utf-8", errors="backslashreplace") as handle:
            handle.write(traceback.format_exc())
    except OSError:
        pass


def run(argv, items_dir=None):
    if len(argv) not in (3, 5) or (len(argv) == 5 and argv[3] != "--items"):
        print(USAGE, file=sys.stderr)
        return 2
    if items_dir is not None:
        problem = _unwritable(items_dir)
        if problem:
            print("--items %s %s; choose another folder" % (items_dir, problem), file=sys.stderr)
            return 2
    input_dir, output_dir = argv[1], argv[2]
    reference_dir = os.path.join(input_dir, "ref")
    os.makedirs(output_dir, exist_ok=True)
    from scorer.outputs.run_outputs import RunFindings
    found = RunFindings(output_dir, items_dir)
    try:
        options = load_options(PROGRAM_DIR, reference_dir)
    except ReferenceDataError as error:
        reference_problem(found, error)
        return finish(found)
    found.options = options
    if not options.blind:
        return score_submission(found, input_dir, reference_dir, options)
    # A blind phase (scorer/outputs/blind.py): checked against a stand-in made of the phase's public inputs only.
    import tempfile
    from scorer.outputs.blind import stand_in_reference
    found.blind = True
    with tempfile.TemporaryDirectory(prefix="blind-") as work:
        try:
            reference_dir, found.items = stand_in_reference(reference_dir, work)
        except ReferenceDataError as error:
            reference_problem(found, error)
            return finish(found)
        return score_submission(found, input_dir, reference_dir, options)


def score_submission(found, input_dir, reference_dir, options):
    """Every submitted file of the phase's tracks scored against ``reference_dir``; the outputs written."""
    from scorer.run.in_process import phase_tracks, scored_files
    from scorer.run.submission import locate_submission
    try:
        tracks = phase_tracks(reference_dir)
        if not tracks and held_back_problem(found, os.path.join(input_dir, "ref")):
            return finish(found)
        if not tracks:
            raise ReferenceDataError(["reference data: no gold file of any track"])
        found.phase_tracks = [track.name for track, _ in tracks]
        submission = locate_submission(os.path.join(input_dir, "res"), [t for t, _ in tracks])
    except ReferenceDataError as error:
        reference_problem(found, error)
        return finish(found)
    except SubmissionError as error:
        found.problems.extend(error.lines)
        found.hidden, found.stopped = error.more, error.stopped
        return finish(found)
    for line in submission.notices:
        print(line)
    found.files = dict(submission.files)

    def announce(track):
        found.submitted.append(track.name)
        print("scoring %s (%s)" % (track.filename, track.name))

    for track, result, error in scored_files(tracks, submission.files, options, reference_dir, announce):
        if isinstance(error, SubmissionError):
            found.problems.extend(error.lines)
            found.hidden += error.more
            found.stopped = found.stopped or error.stopped
            continue
        if isinstance(error, ReferenceDataError):
            reference_problem(found, error)
            continue
        if isinstance(error, ProgramError):  # an installation fault of ours (no gold in the message)
            found.problems.append("%s: the scoring program cannot score this file as installed: %s; please "
                                  "tell the organisers" % (track.filename, error))
            continue
        if error is not None:  # a bug of ours: no traceback for the participant, all of it for us
            import traceback
            found.problems.append("%s: internal error of the scoring program while scoring this file; please "
                                  "tell the organisers (%s)" % (track.filename, DETAILS_HINT))
            found.private_lines.append("".join(traceback.format_exception(type(error), error,
                                                                          error.__traceback__)))
            continue
        for warning in result.warnings:
            print("%s: warning: %s" % (track.filename, warning))
        if found.items_dir is None:
            result.item_view = None  # per item, gold: for a local run only (and its memory freed)
        found.results.append(result)
    return finish(found)


def held_back_problem(found, reference_dir):
    """Whether the phase's reference data is the build's placeholder of data not attached yet
    (``held_back.json``: ``bundle/held_back.py``): then the participant reads what happens next,
    and the organisers' detail goes to a local run's items only."""
    path = os.path.join(reference_dir, HELD_BACK)
    if not os.path.isfile(path):
        return False
    try:
        with open(path, encoding="utf-8") as handle:
            note = json.loads(handle.read(1 << 16))
    except (OSError, ValueError):
        note = None
    note = note if isinstance(note, dict) else {}
    found.problems.append(WAITING_FOR_INPUTS if note.get("kind") == "blind stand-in" else WAITING_FOR_GOLD)
    found.private_lines.append("reference data: %s is the build's placeholder of %s (%s), due %s"
                               % (HELD_BACK, str(note.get("held_back"))[:200], str(note.get("kind"))[:50],
                                  str(note.get("due"))[:300]))
    return True


def reference_problem(found, error):
    """One public line (file and place, never the gold), the details for a local run only."""
    more = " (and %d more)" % (len(error.public) - 1) if len(error.public) > 1 else ""
    found.problems.append("%s%s; %s" % (error.public[0], more, DETAILS_HINT))
    found.private_lines.extend(error.private)


def finish(found):
    """Write every output; exit 1 if anything could not be scored."""
    from scorer.outputs.run_outputs import write_outputs
    write_outputs(found)
    return 1 if found.problems else 0


if __name__ == "__main__":
    from scorer.run.closed_pipe import exit_status
    sys.exit(exit_status(main, sys.argv))
