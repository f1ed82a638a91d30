"""The public inputs of a phase, derived from its gold: the same files with the answers removed.

Deriving them at build time means the inputs participants get can never drift from the gold. What
each track keeps is the track module's business (``write_public_input``, ``public_ids`` in
``scoring_program/scorer/tracks/``); this module only asks every track of the registry.
"""

from __future__ import annotations

import os
from typing import Dict, List, Sequence, Tuple

from scorer.tracks.registry import TRACKS


def derive_public_data(reference_dir: str, public_dir: str, tracks: Sequence = TRACKS) -> List[str]:
    """Write the public inputs of ``tracks`` (the competition's) from the gold in ``reference_dir``;
    return the files written."""
    os.makedirs(public_dir, exist_ok=True)
    written: List[str] = []
    for track in tracks:
        written += track.write_public_input(reference_dir, public_dir, track.filename)
    return written


def public_ids(public_dir: str, tracks: Sequence = TRACKS) -> Dict[str, List[str]]:
    """The item ids of each track in a phase's public data (submission file name -> ids): what the
    build writes into the other phases' reference data (``OTHER_PHASES``), so that the scorer can
    tell a prediction for another phase's inputs from a broken file. Ids are public."""
    ids: Dict[str, List[str]] = {}
    for track in tracks:
        found = track.public_ids(public_dir, track.filename)
        if found is not None:
            ids[track.filename] = found
    return ids


def later_items_problems(phases: Sequence[Tuple[str, str, Dict[str, List[str]]]], tracks: Sequence = TRACKS
                         ) -> List[str]:
    """One line per track and pair of phases where an earlier phase's public ids hold ids of a later
    phase: those items would be published (public data, starting kit, sample submission) and scored
    with full details before their phase. ``phases``: (label, reference folder, ``public_ids``) in
    phase order; the line names the earlier phase's gold file (under its folder) and the ids. Two
    phases on the same folder (a Post-Evaluation phase after the Evaluation phase, both on ``test``)
    are not flagged; two folders with the same items are (a copy of the test gold as ``dev``)."""
    problems: List[str] = []
    for k, (label, folder, ids) in enumerate(phases):
        for later_label, later_folder, later_ids in phases[k + 1:]:
            for track in tracks:
                later = set(later_ids.get(track.filename, ()))
                shared = [identifier for identifier in ids.get(track.filename, ()) if identifier in later]
                if not shared or later_folder == folder:  # none, or the same gold folder by design
                    continue  # (a Post-Evaluation phase re-opens the Evaluation phase's items on its folder)
                gold = track.find_gold(folder)
                where = os.path.join(os.path.basename(folder), os.path.relpath(gold, folder)) if gold else folder
                listed = ", ".join(repr(identifier)[:60] for identifier in shared[:20])
                problems.append("phase %s: %s holds %d item%s of the later phase %s (ids %s%s): they would be "
                                "published in the %s public data and starting kit and scored with details there; "
                                "remove them from this phase's reference data"
                                % (label, where, len(shared), "" if len(shared) == 1 else "s", later_label, listed,
                                   " and %d more" % (len(shared) - 20) if len(shared) > 20 else "", label))
    return problems
