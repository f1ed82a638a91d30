"""The organiser's gold, read by the scoring program itself before anything is built from it.

Each competition track scores an empty submission file against the phase's gold: every track
reads its gold first, so a gold it cannot read is a ``ReferenceDataError`` whose private lines name
the file, the record or line and the whole reason (the organiser's own data may be shown to the
organiser in full); the empty submission's own refusal is expected and ignored. Anything else a
track raises on its gold is one line too, never a traceback.
"""

from __future__ import annotations

import os
import tempfile
from typing import List, Sequence


def check_gold(folder: str, tracks: Sequence, phase_label: str, shown: str = "") -> List[str]:
    """One line per problem of the gold of ``tracks`` in ``folder`` (a phase's reference data),
    naming it as ``shown`` (the organiser's folder, when ``folder`` is a staged copy)."""
    shown = shown or folder

    def place(line: str) -> str:  # "reference data x.json: line 3: ..." -> "phase P: <folder>/x.json: line 3: ..."
        line = line[len("reference data "):] if line.startswith("reference data ") else line
        return "phase %s: %s" % (phase_label, os.path.join(shown, line))

    from scorer.readers.options import load_options
    from scorer.readers.problems import ReferenceDataError, SubmissionError
    program = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scoring_program")
    problems: List[str] = []
    try:
        options = load_options(program, folder)
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
