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
(scorer/outputs/report.py); the build makes each of these keys a leaderboard column.
Exit status 0 when every submitted file was scored, otherwise 1 with one line per problem on
stderr. Standard library only, Python 3.7 to 3.13.

On the Codalab v1.5 worker the program stays alive a few seconds after its last write (see
``scorer/run/workers.py``), so that the worker's watcher uploads the complete detailed results.
"""

from __future__ import annotations

import gc
import os
import sys

PROGRAM_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, PROGRAM_DIR)

from scorer.readers.options import load_options  # noqa: E402
from scorer.run.workers import wait_for_v15_watcher  # noqa: E402
from scorer.readers.problems import ProgramError, ReferenceDataError, SubmissionError, capped  # noqa: E402
# The registry (and so every track module, and the report, which lists the tracks) is imported in
# run(), inside main()'s guard: a track module that cannot be imported is a program fault, one
# line on stderr, never a traceback.

USAGE = "usage: python3 score.py INPUT_DIR OUTPUT_DIR [--items DIR]"
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
    # A short-lived process that builds millions of small acyclic objects (parsed JSON, spans):
    # the cyclic garbage collector would only rescan them, several times over (4x slower parsing).
    gc.disable()
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
    outcome = Outcome(output_dir, items_dir)
    try:
        options = load_options(PROGRAM_DIR, reference_dir)
    except ReferenceDataError as error:
        outcome.reference_problem(error)
        return outcome.finish()
    outcome.detail, outcome.options = options.detailed_results, options
    if not options.blind:
        return score_submission(outcome, input_dir, reference_dir, options)
    # A blind phase (scorer/outputs/blind.py): checked against a stand-in made of the phase's public inputs only.
    import tempfile
    from scorer.outputs.blind import stand_in_reference
    outcome.blind = True
    with tempfile.TemporaryDirectory(prefix="blind-") as work:
        try:
            reference_dir, outcome.items = stand_in_reference(reference_dir, work)
        except ReferenceDataError as error:
            outcome.reference_problem(error)
            return outcome.finish()
        return score_submission(outcome, input_dir, reference_dir, options)


def score_submission(outcome, input_dir, reference_dir, options):
    """Every submitted file of the phase's tracks scored against ``reference_dir``; the outputs written."""
    from scorer.run.in_process import phase_tracks, scored_files
    from scorer.run.submission import locate_submission
    outcome.reference_dir = reference_dir
    try:
        tracks = phase_tracks(reference_dir)
        if not tracks:
            raise ReferenceDataError(["reference data: no gold file of any track in ref/"])
        outcome.phase_tracks = [track.name for track, _ in tracks]
        submission = locate_submission(os.path.join(input_dir, "res"), [t for t, _ in tracks])
    except ReferenceDataError as error:
        outcome.reference_problem(error)
        return outcome.finish()
    except SubmissionError as error:
        outcome.problems.extend(error.lines)
        outcome.hidden, outcome.stopped = error.more, error.stopped
        return outcome.finish()
    for line in submission.notices:
        print(line)
    outcome.files = dict(submission.files)

    def announce(track):
        outcome.submitted.append(track.name)
        print("scoring %s (%s)" % (track.filename, track.name))

    for track, result, error in scored_files(tracks, submission.files, options, reference_dir, announce):
        if isinstance(error, SubmissionError):
            outcome.problems.extend(error.lines)
            outcome.hidden += error.more
            outcome.stopped = outcome.stopped or error.stopped
            continue
        if isinstance(error, ReferenceDataError):
            outcome.reference_problem(error)
            continue
        if isinstance(error, ProgramError):  # an installation fault of ours (no gold in the message)
            outcome.problems.append("%s: the scoring program cannot score this file as installed: %s; please "
                                    "tell the organisers" % (track.filename, error))
            continue
        if error is not None:  # a bug of ours: no traceback for the participant, all of it for us
            import traceback
            outcome.problems.append("%s: internal error of the scoring program while scoring this file; please "
                                    "tell the organisers (%s)" % (track.filename, DETAILS_HINT))
            outcome.private_lines.append("".join(traceback.format_exception(type(error), error,
                                                                            error.__traceback__)))
            continue
        for warning in result.warnings:
            print("%s: warning: %s" % (track.filename, warning))
        if outcome.items_dir is None:
            result.item_view = None  # per item, gold: for a local run only (and its memory freed)
        outcome.results.append(result)
    return outcome.finish()


class Outcome:
    """What one run found, and writing it: the public outputs, and the items only when asked."""

    def __init__(self, output_dir, items_dir):
        self.output_dir, self.items_dir = output_dir, items_dir
        self.results, self.problems, self.private_lines = [], [], []
        self.hidden, self.stopped = 0, False  # problems found but not kept; a reader stopped early
        self.detail = "full"
        self.phase_tracks, self.submitted = [], []
        self.options = None  # the effective settings, once read
        self.blind = False  # a blind phase: no score in any output (scorer/outputs/blind.py)
        self.items = {}  # (blind) track name -> items of the phase's public input
        self.files = {}  # submitted file name -> path
        self.reference_dir = None  # the phase's reference data (its count lanes spare the intervals' draws)

    def reference_problem(self, error):
        """One public line (file and place, never the gold), the details for a local run only."""
        more = " (and %d more)" % (len(error.public) - 1) if len(error.public) > 1 else ""
        self.problems.append("%s%s; %s" % (error.public[0], more, DETAILS_HINT))
        self.private_lines.extend(error.private)

    def finish(self):
        """Write every output; exit 1 if anything could not be scored."""
        if self.blind:
            from scorer.outputs.blind import finish_blind
            return finish_blind(self)
        from scorer.outputs.report import collect_scores, leaderboard_scores, write_html, write_items, write_scores
        from scorer.outputs.signature import track_signature
        scores = collect_scores(self.results)
        signatures = {result.track: track_signature(result.track, self.options) for result in self.results}
        write_scores(self.output_dir, leaderboard_scores(scores, self.phase_tracks), signatures)
        shown = capped(self.problems, more=self.hidden, stopped=self.stopped)
        not_entered = [name for name in self.phase_tracks if name not in self.submitted]
        intervals = None
        resamples = self.options.interval_resamples if self.options is not None else 0
        if self.detail == "full" and self.results and resamples:  # the ranking scores' 95% intervals
            from scorer.outputs.resampling import MAX_INTERVAL_WORK, ranking_intervals
            intervals = {result.track: ranking_intervals(result, resamples, max_work=MAX_INTERVAL_WORK,
                                                         reference_dir=self.reference_dir)
                         for result in self.results}
        tables = None
        if self.detail == "full" and self.results:  # the tracks' tables by group (aggregates)
            from scorer.tracks.registry import BY_NAME
            tables = {result.track: [] for result in self.results}
            if any(BY_NAME[track].group_tables for track in tables):  # (else its module is not even read)
                from scorer.outputs.groups import group_tables
                tables = {result.track: group_tables(result) for result in self.results}
        write_html(self.output_dir, self.results, shown, not_entered, self.detail, signatures, intervals, resamples,
                   tables)
        if self.items_dir is not None:
            write_items(self.items_dir, self.results, list(self.problems) + list(self.private_lines))
            from scorer.outputs.error_analysis import write_error_analysis  # (local runs only)
            write_error_analysis(self.items_dir, self.results)
        for key, value in scores.items():
            print("%s: %.6f" % (key, value))
        for name in not_entered:
            print("%s: not entered (its leaderboard columns rank last)" % name)
        if self.problems:
            print("the submission failed: nothing is recorded on the leaderboard%s (the problems: on stderr)"
                  % ("; the scores above are of the files that could be read" if scores else ""))
            for line in shown:
                print(line, file=sys.stderr)
            return 1
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
