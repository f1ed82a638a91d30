"""The starting kit's baselines as rows of the paper's tables, made from the gold ``--ref`` gives:
the phase's public inputs derived from it as the build derives them (``bundle/public_data.py``),
then ``starting_kit/baselines.py``'s ``write_submission`` on them, as a participant runs it. No
platform is needed: the tables of a download with no organiser's submission still have their
reference rows, marked and unranked (``statistics.build_board``).

Two rows: the kit's random baseline (seed 42, the kit's default and ``codabench.py baselines``'s)
and its majority baseline, which holds only the files that differ from the random one (the
multilabel tracks': the others have one baseline, which would otherwise be two equal rows).
"""

from __future__ import annotations

import filecmp
import os
from typing import List, Tuple

from baselines import write_submission
from bundle.public_data import derive_public_data
from scorer.run.in_process import phase_tracks

from .entries import Entry

KIT_BASELINES = (("Random baseline", "kit: random, seed 42", "random"),
                 ("Majority baseline", "kit: majority", "majority"))


def kit_baselines(reference_dir: str, work: str) -> Tuple[List[Entry], List[str]]:
    """The kit's baselines of the tracks whose gold is in ``reference_dir``, written under
    ``work`` (which must outlive their scoring), and a warning per track whose public inputs
    cannot be derived from its gold (when the gold cannot be read, the scoring says why)."""
    public = os.path.join(work, "kit_public_data")
    warnings: List[str] = []
    for track, _ in phase_tracks(reference_dir):
        try:
            derive_public_data(reference_dir, public, [track])
        except Exception as error:  # a gold its reader refuses: the scoring names the problem
            warnings.append("no kit baseline of %s: its public inputs cannot be derived from --ref (%s: %s)"
                            % (track.name, type(error).__name__, str(error)[:200]))
    entries: List[Entry] = []
    folders: List[str] = []
    if not os.path.isdir(public):  # no track's gold: nothing to write a baseline for
        return entries, warnings
    for team, submission, variant in KIT_BASELINES:
        folder = os.path.join(work, "kit_baseline_" + variant)
        try:
            written = write_submission(public, folder, multilabel=variant)
        except Exception as error:  # a track's baseline code on inputs it did not expect
            warnings.append("no kit %s baseline: %s: %s" % (variant, type(error).__name__, str(error)[:200]))
            continue
        for name in written:
            if any(filecmp.cmp(os.path.join(other, name), os.path.join(folder, name), shallow=False)
                   for other in folders if os.path.isfile(os.path.join(other, name))):
                os.remove(os.path.join(folder, name))  # this track's baseline is a row already
        folders.append(folder)
        if os.listdir(folder):
            entries.append(Entry(submission, team, folder, baseline=True))
    return entries, warnings
