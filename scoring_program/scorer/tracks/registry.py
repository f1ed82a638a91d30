"""The list of tracks. Everything about a track is declared in its module, ``scorer/tracks/<name>.py``
(or the package ``scorer/tracks/<name>/``), as ``contract.py`` says; this file lists the modules and
gives the rest of the program one view of each (``contract.Track``).

Adding a track: docs/track-authors.md, "Adding a track" (the contract's docstring and the steps).
"""

from __future__ import annotations

import importlib
from typing import Sequence, Tuple

from .contract import Track

# The track modules, in the order of the leaderboards, the outputs and the starting kit.
MODULES = ("t6_st1", "t6_st2", "t6_st3", "flc", "nlu", "absita")


def load_tracks(modules: Sequence[str] = MODULES, package: str = "scorer.tracks") -> Tuple[Track, ...]:
    """The tracks of ``modules``, each module imported and checked against the contract.

    Parameters
    ----------
    modules : sequence of str
        Module names under ``package``, in the order of the leaderboards and outputs.
    package : str
        Where the track modules are.

    Returns
    -------
    tuple of Track
        Raises ``contract.ContractError`` naming a module that breaks the contract. (A module
        keeps its heavy imports, nltk for instance, inside the functions that need them, so that
        listing the tracks costs little.)
    """
    return tuple(Track(importlib.import_module(package + "." + name)) for name in modules)


TRACKS = load_tracks()
BY_NAME = {track.name: track for track in TRACKS}
BY_FILE = {track.filename: track for track in TRACKS}
ALL_KEYS = tuple(key for track in TRACKS for key in track.keys)
LOWER_IS_BETTER = frozenset(key for track in TRACKS for key in track.lower_is_better)
