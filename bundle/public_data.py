"""The public inputs of a phase, derived from its gold: the same files with the answers removed.

Deriving them at build time means the inputs participants get can never drift from the gold. What
each track keeps is the track module's business (``write_public_input``, ``public_ids`` in
``scoring_program/scorer/tracks/``); this module only asks every track of the registry.
"""

from __future__ import annotations

import os
from typing import Dict, List, Sequence

from scorer.registry import TRACKS


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
