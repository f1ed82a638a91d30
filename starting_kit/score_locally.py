#!/usr/bin/env python3
"""Score a submission on your machine with the very same scoring program as the platform.

    python3 score_locally.py SUBMISSION [--phase dev] [--ref GOLD_DIR] [--out scoring_output] [--items DIR]

SUBMISSION is the zip you would upload (or a folder with the same files). The gold of the phase is
GOLD_DIR, or reference_data/<phase> of the repository when it is there. This builds Codalab's
layout (input/ref, input/res, output) in a temporary folder, runs scoring_program/score.py, prints
the scores, and keeps the outputs (scores.txt, detailed_results.html) in --out; with --items, the
per-item details (one <track>_items.json per track), which the platform never shows.
Standard library only; Python 3.7 or newer.

On the platform, the Development and Post-Evaluation phases show the scores this prints (their
detailed results page, readable by anyone on Codabench, holds aggregates only). The Evaluation phase
is blind: the same checks and messages as here, and no score anywhere (the leaderboard shows -1 in
every column); your last finished Evaluation submission is scored on the test gold when the phase
ends, in the Post-Evaluation phase, which never ends (docs/organisers.md, "The phases").
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Dict, List

from staging import (HERE, KitError, check_items_dir, copy_reference, find_program, prepare_out, run_command,
                     stage_submission)


def default_reference(phase: str) -> str:
    for candidate in (os.path.join(HERE, "reference_data", phase),
                      os.path.join(HERE, "..", "reference_data", phase)):
        if os.path.isdir(candidate):
            return os.path.abspath(candidate)
    raise KitError("no gold for phase %r here; pass --ref GOLD_DIR (a folder with the phase's gold "
                   "files), or check the format only with check_format.py" % phase)


class Run:
    """One run of score.py on a submission: its exit status, stdout and stderr, and the submitted
    files as the scoring program found them (``located``: its ``Submission``, or None when it
    found none)."""

    __slots__ = ("code", "stdout", "stderr", "located")

    def __init__(self, code: int, stdout: str, stderr: str, located=None) -> None:
        self.code, self.stdout, self.stderr, self.located = code, stdout, stderr, located


def score_submission(reference_dir: str, submission: str, out_dir: str, quiet: bool = False,
                     items_dir: str = "", resamples: int = 0, phase: str = "", check_staged=None) -> Run:
    """score.py on ``submission``; its stdout (``shown_lines``: all of it, or with ``quiet`` only its
    messages: ignored files, warnings, tracks not entered) and stderr are printed.

    A ``reference_dir`` without the competition's gold names may be a task's released folder
    (``released_reference``). The participant holds this gold, so problems with it are shown
    in full here (the platform shows only where they are). ``check_staged(res_dir)``: a problem
    line that stops the run before scoring, or ''.
    """
    program = find_program()
    with tempfile.TemporaryDirectory(prefix="score-locally-") as work:
        input_dir = os.path.join(work, "input")
        res_dir, ref_dir = os.path.join(input_dir, "res"), os.path.join(input_dir, "ref")
        stage_submission(submission, res_dir)
        problem = check_staged(res_dir) if check_staged else ""
        if problem:
            print(problem, file=sys.stderr)
            return Run(1, "", problem + "\n")
        released = released_reference(reference_dir, res_dir, phase, work)
        copy_reference(released or reference_dir, ref_dir)
        if os.path.isdir(ref_dir):
            write_other_phases(ref_dir, os.path.join(HERE, "public_data"))
        located = locate(res_dir, ref_dir)
        prepare_out(out_dir)
        details = items_dir or os.path.join(work, "items")
        process = subprocess.run([sys.executable, program, input_dir, out_dir, "--items", details],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        sys.stdout.write("".join(line + "\n" for line in shown_lines(process.stdout, quiet)))
        if process.returncode == 0 and resamples > 0 and not quiet:
            print_confidence_intervals(ref_dir, res_dir, resamples)
        sys.stderr.write(process.stderr)
        if "reference data" in process.stderr:
            show_reference_problems(os.path.join(details, "problems.txt"), reference_dir)
    return Run(process.returncode, process.stdout, process.stderr, located)


def locate(res_dir: str, ref_dir: str = ""):
    """The submitted files as score.py finds them (the scoring program's one packaging rule:
    ``scorer/run/submission.py``) for the tracks with gold in ``ref_dir`` (every track without one),
    or None when it finds none (score.py then says why)."""
    program_tracks()  # (the program's folder on sys.path)
    from scorer.readers.problems import SubmissionError
    from scorer.tracks.registry import TRACKS
    from scorer.run.submission import locate_submission
    tracks = [track for track in TRACKS if not ref_dir or track.find_gold(ref_dir)]
    try:
        return locate_submission(res_dir, tracks or TRACKS)
    except SubmissionError:
        return None


def shown_lines(stdout: str, quiet: bool = False) -> List[str]:
    """score.py's stdout as the kit shows it: without its line saying that the submission failed
    (the kit ends with its own verdict, ``verdict``); with ``quiet``, also without its scores and
    progress lines: what it says about the files (ignored entries, a wrapping folder), its
    warnings, and the tracks not entered."""
    program_tracks()
    from scorer.outputs.verdict import FAILED
    from scorer.tracks.registry import ALL_KEYS
    keys = set(ALL_KEYS)
    return [line for line in stdout.splitlines() if not line.startswith(FAILED) and not (quiet and (
        not line.strip() or line.startswith("scoring ") or line.split(":", 1)[0] in keys))]


def write_other_phases(ref_dir: str, parent: str, leave_out: str = "") -> None:
    """Into ``ref_dir`` (a staged reference folder without one), the ids of each phase's public data
    in ``parent`` (the kit's ``public_data/``; ``leave_out``: the phase checked), as the build writes
    them into a phase's reference data: predictions made for another phase's inputs are then named
    as such, as the platform names them."""
    tracks = program_tracks()  # (puts the scoring program on sys.path)
    from scorer.readers.options import OTHER_PHASES
    target = os.path.join(ref_dir, OTHER_PHASES)
    if os.path.exists(target):
        return
    public_dir = leave_out
    found = {}
    for folder in sorted(os.listdir(parent)) if os.path.isdir(parent) else ():
        path = os.path.join(parent, folder)
        if not os.path.isdir(path) or (public_dir and os.path.abspath(path) == os.path.abspath(public_dir)):
            continue
        ids = {}
        for track in tracks:
            try:
                listed = track.public_ids(path, track.filename)
            except (OSError, ValueError, KeyError, TypeError, IndexError):
                listed = None
            if listed:
                ids[track.filename] = listed
        if ids:
            found["public_data/" + folder] = ids
    if found:
        with open(target, "w", encoding="utf-8") as handle:
            json.dump(found, handle)


def show_reference_problems(problems_path: str, reference_dir: str) -> None:
    """What is wrong with the gold, in full (the platform's one line points to it)."""
    try:
        with open(problems_path, encoding="utf-8") as handle:
            lines = [line.rstrip("\n") for line in handle if line.strip()]
    except OSError:
        return
    if any("labels" in line and "missing field" in line for line in lines) or \
            any(track.is_public_input(reference_dir) for track in program_tracks()):
        print("score_locally: %s looks like a phase's public data (the inputs, without the answers): "
              "score against gold, or check the format with check_format.py" % reference_dir, file=sys.stderr)
    print("score_locally: the gold in %s has these problems (shown in full because you hold it):"
          % reference_dir, file=sys.stderr)
    for line in lines[:20]:
        print("  " + line, file=sys.stderr)
    if len(lines) > 20:
        print("  ... and %d more" % (len(lines) - 20), file=sys.stderr)


def program_tracks():
    """The scoring program's tracks (its registry), imported from the program beside this kit."""
    program_dir = os.path.dirname(find_program())
    if program_dir not in sys.path:
        sys.path.insert(0, program_dir)
    from scorer.tracks.registry import TRACKS
    return list(TRACKS)


def released_reference(reference_dir: str, res_dir: str, phase: str, work: str) -> str:
    """A ref/ folder made from a task's released data as downloaded ('' when ``reference_dir``
    already holds gold under the competition's names).

    Each track module names its released gold per split (``RELEASED_GOLD``); they are found
    anywhere under ``reference_dir``. For each track the submission enters, the split is
    ``phase`` when given, the only one found, or the one whose ids the submission matches
    (scored alone against each); several matches ask for --phase.
    """
    tracks = program_tracks()
    located = locate(res_dir)
    submitted = located.files if located is not None else {}  # file name -> path, as score.py finds them
    found: Dict[str, str] = {}  # released name -> path (the first found, breadth first)
    for folder, folders, files in os.walk(reference_dir):
        folders.sort()
        if folder[len(reference_dir):].count(os.sep) >= 3:
            folders[:] = []
        for name in sorted(files) + folders:
            found.setdefault(name, os.path.join(folder, name))
    released_names = {name for track in tracks for name in track.released_gold.values()}
    if not released_names & set(found) and any(track.find_gold(reference_dir) and track.filename in submitted
                                              for track in tracks):
        return ""  # the competition's own layout (a folder with released files is read as released)
    target = os.path.join(work, "released")
    os.makedirs(target)
    chosen = []
    for track in tracks:
        candidates = [(split, found[name]) for split, name in track.released_gold.items() if name in found]
        if phase:
            candidates = [(split, path) for split, path in candidates if split == phase]
        if not candidates or track.filename not in submitted:
            continue
        if len(candidates) > 1:
            matching = [(split, path) for split, path in candidates
                        if _scores_alone(track, path, submitted[track.filename], work)]
            if len(matching) > 1:
                raise KitError("%s: its ids match several splits of %s (%s); choose one with --phase"
                               % (track.filename, reference_dir, ", ".join(split for split, _ in matching)))
            if not matching:
                raise KitError("%s: its ids match none of the splits found in %s (%s); choose one with "
                               "--phase to see why" % (track.filename, reference_dir,
                                                       ", ".join(split for split, _ in candidates)))
            candidates = matching
        split, path = candidates[0]
        copy_reference(path, os.path.join(target, track.gold_names[0]))
        chosen.append("%s: the %s split (%s)" % (track.filename, split, os.path.relpath(path, reference_dir)))
    if not chosen and located is None:
        return ""  # no file of the competition in the submission: score.py says so
    if not chosen:
        looked_for = sorted({name for track in tracks for name in track.gold_names})
        released = sorted({name for track in tracks for name in track.released_gold.values()})
        raise KitError("no gold for the submitted files in %s; score_locally looks for the competition's gold "
                       "names (%s) or the tasks' released files (%s)"
                       % (reference_dir, ", ".join(looked_for), ", ".join(released)))
    for line in chosen:
        print("gold for " + line)
    return target


def _scores_alone(track, gold_path: str, submitted: str, work: str) -> bool:
    """Whether ``submitted`` scores against ``gold_path`` alone (its ids are that split's)."""
    trial = tempfile.mkdtemp(prefix="trial-", dir=work)
    for folder in ("ref", "res"):
        os.makedirs(os.path.join(trial, "input", folder))
    copy_reference(gold_path, os.path.join(trial, "input", "ref", track.gold_names[0]))
    shutil.copyfile(submitted, os.path.join(trial, "input", "res", track.filename))
    process = subprocess.run([sys.executable, find_program(), os.path.join(trial, "input"),
                              os.path.join(trial, "output")], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return process.returncode == 0


def print_confidence_intervals(reference_dir: str, res_dir: str, resamples: int) -> None:
    """The 95% bootstrap interval of each ranking score, as the detailed results page shows them
    (``scorer/outputs/run_outputs.py``, ``shown_intervals``) and from the same resamples as the
    organisers' results: how much the score owes to the test set's draw."""
    program_dir = os.path.dirname(find_program())
    sys.path.insert(0, program_dir)
    from scorer.outputs.resampling import INTERVAL_SEED
    from scorer.outputs.run_outputs import shown_intervals
    from scorer.run.in_process import score_in_process

    results = score_in_process(reference_dir, res_dir, program_dir)[0]
    for result in results.values():
        items = len(result.statistics.items)
        drawn, intervals = shown_intervals(result, resamples)
        for key, (low, high) in intervals.items():
            print("%s: %.6f, 95%% confidence interval [%.6f, %.6f] (%d resamples of the %d items, seed %d)"
                  % (key, result.scores[key], low, high, drawn, items, INTERVAL_SEED))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Score a submission locally with the platform's scoring program.")
    parser.add_argument("submission", help="the submission zip (or a folder with the same files)")
    parser.add_argument("--phase", default="",
                        help="the phase or split whose gold to use: reference_data/<phase> of the repository "
                             "(default: dev), or, in a task's released folder given as --ref, the split "
                             "(train, dev, test; default: the one whose ids the submission matches)")
    parser.add_argument("--ref", help="the folder with the phase's gold files")
    parser.add_argument("--out", default="scoring_output", help="where to keep the outputs")
    parser.add_argument("--items", default="", help="also write the per-item details and error_analysis.html "
                        "(the worst items, their spans highlighted) into this folder")
    parser.add_argument("--resamples", type=int, default=1000,
                        help="bootstrap resamples for the confidence intervals (0: none)")
    args = parser.parse_args(argv)
    try:
        reference = os.path.abspath(args.ref) if args.ref else default_reference(args.phase or "dev")
        out_dir = os.path.abspath(args.out)
        items_dir = os.path.abspath(args.items) if args.items else ""
        if items_dir:
            check_items_dir(args.items, items_dir)
        run = score_submission(reference, args.submission, out_dir, items_dir=items_dir,
                               resamples=args.resamples, phase=args.phase)
        code = run.code
    except KitError as error:
        print("score_locally: %s" % error, file=sys.stderr)
        return 2
    except (OSError, shutil.Error) as error:  # e.g. the gold folder cannot be read
        print("score_locally: %s" % error, file=sys.stderr)
        return 2
    if code == 0:
        print("detailed results: %s" % os.path.join(out_dir, "detailed_results.html"))
        if args.items:
            print("error analysis: %s" % os.path.join(os.path.abspath(args.items), "error_analysis.html"))
    print(verdict(code, run.stderr, run.located), file=sys.stdout if code == 0 else sys.stderr)
    return code


def verdict(code: int, stderr: str, located=None, checked_only: bool = False) -> str:
    """One line: whether the platform would accept the submission as a whole, and why; with the
    files the scoring program found (``located``), which of them it did not score.
    ``checked_only``: for check_format.py, which prints no score: the line speaks of files read and
    checked, not of scores."""
    done = "read and checked" if checked_only else "scored"
    if code == 0:
        ignored = located.ignored if located is not None else []
        if ignored:
            return ("platform: this submission would be accepted; %s: %s; NOT %s: %s (see the lines "
                    "above)" % (done, ", ".join(sorted(located.files)), done, ", ".join(ignored)))
        return "platform: this submission would be accepted; every file in it was %s" % done
    lines = [line for line in stderr.splitlines() if line.strip() and not line.startswith("... and ")]
    if lines and all(line.startswith("reference data") for line in lines):
        return ("platform: not decided here: the gold given with --ref has problems (above); the platform "
                "scores against its own gold")
    files = sorted({line.split(": ", 1)[0] for line in stderr.splitlines()
                    if line.split(": ", 1)[0] in {track.filename for track in program_tracks()}})
    from scorer.run.submission import NO_FILE
    if not files and any(line.startswith("submission: " + NO_FILE) for line in lines):
        return ("platform: this submission would FAIL: none of its files has a name of this phase (above); "
                "rename them as listed and submit again")
    where = ("the problems of %s above" % ", ".join(files)) if files else "the problems above"
    if checked_only:
        return ("platform: this submission would FAIL as a whole (nothing of it reaches the leaderboard, not even "
                "its valid files) because of %s; fix them (or leave those files out) and submit again" % where)
    return ("platform: this submission would FAIL as a whole: the platform records none of its scores, "
            "not even those of valid files, because of %s; fix them (or leave those files out) and "
            "submit again" % where)


if __name__ == "__main__":
    sys.exit(run_command(main))
