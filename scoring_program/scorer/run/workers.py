"""Which worker runs the program, where that matters: Codalab v1.5's detailed-results watcher.

The v1.5 worker (``codalab/competitions-v1-compute-worker``, ``worker.py`` and
``detailed_result_put.sh``) creates an empty ``output/detailed_results.html``, starts a watcher
that sleeps 1 s and then runs ``entr -d``, which uploads the file when it starts and when it
changes, and exits whenever a new file appears in ``output/``; the worker kills the watcher
within a second of the scorer's exit and re-uploads afterwards only if the file is still empty.
A scorer that exits right after writing its files leaves the participant a 0-byte page. With the
real worker and watcher, staying alive 3 s after the last write (creating nothing new in
``output/`` meanwhile) gets the complete page uploaded; 5 s leaves a margin on a loaded worker.

Only that layout waits: its working directory is named ``run``, ``run/program`` is this program's
own folder, and ``run/input/metadata`` exists. Codabench (cwd ``/app/program``), the starting
kit, the tests and the benchmark never wait.
"""

from __future__ import annotations

import os
import time

V15_WATCHER_WAIT_SECONDS = 5.0


def is_v15_worker_layout(program_dir: str, cwd: str = "") -> bool:
    cwd = cwd or os.getcwd()
    if os.path.basename(os.path.normpath(cwd)) != "run":
        return False
    program = os.path.join(cwd, "program")
    try:
        same = os.path.samefile(program, program_dir)
    except OSError:
        return False
    return same and os.path.exists(os.path.join(cwd, "input", "metadata"))


def wait_for_v15_watcher(program_dir: str) -> None:
    """Call after the last write to output/: sleeps only in the v1.5 worker's layout."""
    try:
        v15 = is_v15_worker_layout(program_dir)
    except Exception:  # never fail a run over this check
        v15 = False
    if v15:
        time.sleep(V15_WATCHER_WAIT_SECONDS)
