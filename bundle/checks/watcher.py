"""Codalab v1.5's detailed-results watcher, reproduced for the checker and the tests.

The v1.5 worker (``competitions-v1-compute-worker``: ``worker.py``, ``detailed_result_put.sh``)
creates an empty ``output/detailed_results.html`` and runs, beside the scorer::

    while sleep 1; do echo FILE | entr -d python detailed_result_put.py URL FILE; done

``entr`` runs the uploader when it starts and whenever FILE changes, and (``-d``) exits when a
new file appears in FILE's folder; the loop then sleeps 1 s and starts it again. The worker
kills the watcher within a second of the scorer's exit (here: at once, the worst case), and
re-uploads afterwards only an empty file. An upload counts only if the uploader finished
(``latency``: Python start-up and the PUT) before the kill.
"""

from __future__ import annotations

import os
import threading
import time
from typing import List, Optional, Tuple


class DetailedResultsWatcher(threading.Thread):
    def __init__(self, path: str, latency: float = 1.0, poll: float = 0.05) -> None:
        super().__init__(daemon=True)
        self.path, self.latency, self.poll = path, latency, poll
        self.folder = os.path.dirname(path)
        self.started_uploads: List[Tuple[float, bytes]] = []  # (time the uploader read it, content)
        self._killed = threading.Event()
        self.killed_at: Optional[float] = None

    def _read(self) -> bytes:
        try:
            with open(self.path, "rb") as handle:
                return handle.read()
        except OSError:
            return b""

    def _entries(self) -> set:
        try:
            return set(os.listdir(self.folder))
        except OSError:
            return set()

    def run(self) -> None:
        while not self._killed.wait(1.0):  # while sleep 1
            seen = self._entries()
            content = self._read()
            self.started_uploads.append((time.monotonic(), content))  # entr runs the uploader at start
            while not self._killed.wait(self.poll):
                if self._entries() - seen:  # -d: a new file in the folder ends entr
                    break
                now = self._read()
                if now != content:
                    content = now
                    self.started_uploads.append((time.monotonic(), content))

    def kill(self) -> None:
        self.killed_at = time.monotonic()
        self._killed.set()
        self.join()

    def uploaded(self) -> bytes:
        """The page the participant gets: the last upload that finished before the kill."""
        done = [content for started, content in self.started_uploads
                if self.killed_at is None or started + self.latency <= self.killed_at]
        return done[-1] if done else b""
