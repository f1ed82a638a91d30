"""The upload under check, read once, and what the checks learn of it as they run: each platform's
yaml as its unpacker reads it, then the scores of the runs the ranking checks compare."""

from __future__ import annotations

import zipfile
from typing import Any, Dict, List, Optional, Sequence

from scorer.tracks.registry import TRACKS

LAYOUTS = ("v1.5", "codabench")  # the two workers' layouts


class CheckedUpload:
    """The upload at ``path``; ``samples``: each phase's sample submission (zip bytes) per
    reference-data zip name, also for phases whose sample is held back; ``python``: the interpreter
    the runs use (with its flags); ``tracks``: the competition's tracks; ``held_back``: the real
    reference data zip of each later phase (by its name), a placeholder in the upload
    (bundle/held_back.py): the runs use it, as the platform will once the organiser has attached it."""

    def __init__(self, path: str, samples: Optional[Dict[str, bytes]] = None, python: Sequence[str] = (),
                 tracks: Sequence = TRACKS, release_all: bool = False,
                 held_back: Optional[Dict[str, bytes]] = None) -> None:
        with zipfile.ZipFile(path) as archive:
            self.names: List[str] = archive.namelist()
            self.files: Dict[str, bytes] = {name: archive.read(name) for name in self.names}
        self.samples = dict(samples or {})
        self.python = list(python)
        self.tracks = list(tracks)
        self.release_all = release_all
        self.held_back = dict(held_back or {})
        self.v15: Dict[str, Any] = {}  # codalab_v1.5.yaml, as the v1.5 unpacker check read it
        self.v2: Dict[str, Any] = {}  # competition.yaml, as the Codabench unpacker check read it
        # the runs' scores per layout: the first phase's sample submission, and each single-track entry
        self.full_scores: Dict[str, Dict[str, float]] = {}
        self.single_scores: Dict[str, Dict[str, Dict[str, float]]] = {layout: {} for layout in LAYOUTS}

    def run_files(self) -> Dict[str, bytes]:
        """The upload's files as a worker gets them once every held-back zip is attached."""
        return dict(self.files, **self.held_back)

    def codabench_phases(self) -> List[Dict[str, Any]]:
        return sorted(self.v2.get("phases") or [], key=lambda phase: phase["index"])

    def codabench_tasks(self) -> Dict[Any, Dict[str, Any]]:
        return {task["index"]: task for task in self.v2.get("tasks") or []}

    def codabench_board(self) -> Dict[str, Any]:
        """Codabench's one leaderboard (the unpacker check refuses any other number)."""
        return self.v2["leaderboards"][0]
