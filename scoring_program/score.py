#!/usr/bin/env python3
"""The Codalab contract: ``python3 score.py INPUT OUTPUT``.

INPUT/ref  the phase's reference data (gold), one file (or folder) per track
INPUT/res  the participant's files, named as in ``scorer/registry.py``
OUTPUT/    scores.txt, scores.json, detailed_results.html (public); private/ (organisers only)

Every track whose gold is in ref/ and whose file is in res/ is scored; the others are skipped
and their keys are absent. Exit status 0 when every submitted file was scored, otherwise 1 with
one line per problem on stderr. Standard library only, Python 3.7 to 3.12.
"""

from __future__ import annotations

import gc
import os
import sys

PROGRAM_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, PROGRAM_DIR)

from scorer.options import load_options  # noqa: E402
from scorer.problems import ReferenceDataError, SubmissionError, capped  # noqa: E402
from scorer.registry import TRACKS  # noqa: E402
from scorer.result import unstorable_scores  # noqa: E402
from scorer.report import collect_scores, write_html, write_private, write_scores  # noqa: E402
from scorer.submission import locate_submission  # noqa: E402


def main(argv):
    try:
        return run(argv)
    except Exception:  # never a traceback on the participant's screen
        import traceback
        print("internal error of the scoring program; please tell the organisers", file=sys.stderr)
        try:
            private = os.path.join(argv[2], "private")
            os.makedirs(private, exist_ok=True)
            with open(os.path.join(private, "traceback.txt"), "w", encoding="utf-8") as handle:
                handle.write(traceback.format_exc())
        except Exception:
            pass
        return 1


def run(argv):
    # A short-lived process that builds millions of small acyclic objects (parsed JSON, spans):
    # the cyclic garbage collector would only rescan them, several times over (4x slower parsing).
    gc.disable()
    if len(argv) != 3:
        print("usage: python3 score.py INPUT_DIR OUTPUT_DIR", file=sys.stderr)
        return 2
    input_dir, output_dir = argv[1], argv[2]
    reference_dir = os.path.join(input_dir, "ref")
    os.makedirs(output_dir, exist_ok=True)

    problems, private_lines, results = [], [], []
    hidden, stopped = 0, False  # problems found but not kept, and whether a reader stopped early
    try:
        options = load_options(PROGRAM_DIR, reference_dir)
        phase_tracks = [(track, track.find_gold(reference_dir)) for track in TRACKS]
        phase_tracks = [(track, gold) for track, gold in phase_tracks if gold is not None]
        if not phase_tracks:
            raise ReferenceDataError(["reference data: no gold file of any track in ref/"])
        submission = locate_submission(os.path.join(input_dir, "res"), [t for t, _ in phase_tracks])
    except ReferenceDataError as error:
        return finish(output_dir, results, error.public, error.private)
    except SubmissionError as error:
        return finish(output_dir, results, error.lines, [], error.more, error.stopped)
    for line in submission.notices:
        print(line)

    for track, gold_path in phase_tracks:
        submitted = submission.files.get(track.filename)
        if submitted is None:
            continue
        print("scoring %s (%s)" % (track.filename, track.name))
        try:
            result = track.scorer()(gold_path, submitted, track.filename, options, reference_dir)
        except SubmissionError as error:
            problems.extend(error.lines)
            hidden += error.more
            stopped = stopped or error.stopped
            continue
        except ReferenceDataError as error:
            problems.extend(error.public)
            private_lines.extend(error.private)
            continue
        except Exception:  # a bug of ours: no traceback for the participant, all of it for us
            import traceback
            problems.append("%s: internal error of the scoring program while scoring this file; "
                            "please tell the organisers" % track.filename)
            private_lines.append(traceback.format_exc())
            continue
        unstorable = unstorable_scores(result.scores)
        if unstorable:  # (no track can produce one; kept so that no run is lost silently)
            problems.append("%s: the score %s is not finite or not below 1e10, which the platforms cannot "
                            "store; this file was not scored" % (track.filename, ", ".join(unstorable)))
            continue
        for warning in result.warnings:
            print("%s: warning: %s" % (track.filename, warning))
        results.append(result)
    return finish(output_dir, results, problems, private_lines, hidden, stopped)


def finish(output_dir, results, problems, private_lines, hidden=0, stopped=False):
    """Write every output; exit 1 if anything could not be scored."""
    scores = collect_scores(results)
    write_scores(output_dir, scores)
    shown = capped(problems, more=hidden, stopped=stopped)
    write_html(output_dir, results, shown)
    write_private(output_dir, results, list(problems) + list(private_lines))
    for key, value in scores.items():
        print("%s: %.6f" % (key, value))
    if problems:
        for line in shown:
            print(line, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
