"""The list of tracks. Everything about a track is declared in its module, ``scorer/tracks/<name>.py``
(file names, leaderboard keys and their direction, the organisers' leaderboards, readers, scoring,
public input, baseline, sample data, per-item statistics and their aggregate); this file only lists
the modules and gives the rest of the program one view of each (``Track``).

Adding a track: write ``scorer/tracks/<name>.py`` and its card ``<name>.md``, add the module's name
to ``MODULES``, and its keys to ``competition.yaml`` (README, "Adding a track").
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Callable, FrozenSet, Optional, Sequence, Tuple

# The track modules, in the order of the leaderboards, the outputs and the starting kit.
MODULES = ("t6_st1", "t6_st2", "t6_st3", "flc", "nlu", "absita")


class Track:
    """A track module's declarations, as the program, the build and the kit use them.

    ``name``, ``filename`` (the submission file in ``res/``), ``gold_names`` (what the track reads in
    ``ref/``: the first that exists), ``keys`` (leaderboard keys, primary first),
    ``lower_is_better`` (keys ranked ascending), ``leaderboards`` ((name, key) of each ranking
    in the organisers' results; their keys are the ones the detailed results mark as ranked),
    ``pooled_keys`` (keys the results tool may compute from the techniques pooled; optional
    ``POOLED_KEYS``, none by default), ``title``, ``item_error`` and ``item_error_measure`` (the
    local error analysis's error of one item, from its statistics' totals; optional ``item_error``
    and ``ITEM_ERROR``); ``implementation()`` is the module (``score``, ``item_statistics``, ``aggregate``, ...).
    """

    __slots__ = ("name", "filename", "gold_names", "keys", "lower_is_better", "leaderboards", "pooled_keys",
                 "title", "item_error", "item_error_measure", "group_tables", "_module")

    def __init__(self, module: ModuleType) -> None:
        self.name: str = module.NAME
        self.filename: str = module.FILE_NAME
        self.gold_names: Tuple[str, ...] = tuple(module.GOLD_NAMES)
        self.keys: Tuple[str, ...] = tuple(module.KEYS)
        self.lower_is_better: FrozenSet[str] = frozenset(module.LOWER_IS_BETTER)
        self.leaderboards: Tuple[Tuple[str, str], ...] = tuple(module.LEADERBOARDS)
        if not all(key in self.keys for _, key in self.leaderboards):
            raise AssertionError("%s: a leaderboard key is not in KEYS" % self.name)  # a bug of the module
        self.pooled_keys: FrozenSet[str] = frozenset(getattr(module, "POOLED_KEYS", ()))
        self.title: str = module.TITLE
        # The local error analysis's order of the items of a track that is neither a span nor a
        # multilabel track: ``item_error(totals)`` of one item's statistics, and what it measures
        # (optional ``item_error`` and ``ITEM_ERROR``).
        self.item_error: Optional[Callable] = getattr(module, "item_error", None)
        self.item_error_measure: str = getattr(module, "ITEM_ERROR", "")
        # The detailed results' tables by group of statistics (optional ``GROUP_TABLES``; see
        # ``resampling.group_tables``).
        self.group_tables: Tuple[tuple, ...] = tuple(getattr(module, "GROUP_TABLES", ()))
        self._module = module

    def find_gold(self, reference_dir: str) -> Optional[str]:
        for name in self.gold_names:
            path = os.path.join(reference_dir, name)
            if os.path.exists(path):
                return path
        return None

    def scorer(self) -> Callable:
        """``score(gold_path, submission_path, file_name, options, reference_dir) -> TrackResult``."""
        return self._module.score

    def implementation(self) -> ModuleType:
        """The track's module."""
        return self._module

    def __repr__(self) -> str:
        return "Track(%r)" % self.name


def load_tracks(modules: Sequence[str] = MODULES, package: str = "scorer.tracks") -> Tuple[Track, ...]:
    """The tracks of ``modules`` (imported: a module keeps its heavy imports, nltk for instance,
    inside the functions that need them, so that listing the tracks costs little)."""
    return tuple(Track(importlib.import_module(package + "." + name)) for name in modules)


TRACKS = load_tracks()
BY_NAME = {track.name: track for track in TRACKS}
BY_FILE = {track.filename: track for track in TRACKS}
ALL_KEYS = tuple(key for track in TRACKS for key in track.keys)
LOWER_IS_BETTER = frozenset(key for track in TRACKS for key in track.lower_is_better)
