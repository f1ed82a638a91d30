"""One submission run as each platform's worker runs it.

Codalab v1.5 (compute worker ``worker.py``) extracts the scoring program, the reference data and
the submission into ``run/program``, ``run/input/ref``, ``run/input/res`` (every top-level
``*.zip`` inside one is also extracted into a folder of the same name), adds ``metadata``,
``history/``, ``scores/`` and ``coopetition/`` to ``run/input``, maps ``$tmp`` to ``run/temp``,
pre-creates an empty ``output/detailed_results.html`` watched by ``detailed_result_put.sh``
(``watcher.py``), splits the ``metadata`` command on single spaces (no shell) and runs it with cwd
``run/``. The participant gets ``output/`` (``private/`` goes to the organisers).

Codabench (``compute_worker.py``) runs a prediction step first, which adds ``metadata`` to
``input/res``, and the scoring program with cwd = the program folder; the whole ``output/`` folder
is the submission's scoring result.

The stock images have no site-packages of ours: the scoring program runs with ``python3 -I -S``.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tempfile
import zipfile
from typing import Dict, List, Optional, Sequence

import yaml

from .scores import read_scores
from .watcher import DetailedResultsWatcher


def _extract(data: bytes, folder: str, v15: bool) -> None:
    """The zip ``data`` extracted into ``folder`` as the worker of the layout extracts it."""
    os.makedirs(folder, exist_ok=True)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            if name.startswith("/") or ".." in name.split("/"):
                raise ValueError("unsafe entry %s" % name)
        archive.extractall(folder)
    if not v15:
        return
    entries = os.listdir(folder)
    # worker.py: a single sub-folder holding a ``metadata`` file is moved up one level
    if len(entries) == 1 and os.path.isdir(os.path.join(folder, entries[0])) and \
            os.path.isfile(os.path.join(folder, entries[0], "metadata")):
        inner = os.path.join(folder, entries[0])
        for name in os.listdir(inner):
            shutil.move(os.path.join(inner, name), os.path.join(folder, name))
        os.rmdir(inner)
    # worker.py: every top-level zip is also extracted into a folder named like it, without .zip
    for name in sorted(os.listdir(folder)):
        if name.endswith(".zip") and os.path.isfile(os.path.join(folder, name)):
            with zipfile.ZipFile(os.path.join(folder, name)) as inner_zip:
                inner_zip.extractall(os.path.join(folder, name[:-4]))


def _command(metadata_text: str, program: str, input_dir: str, output: str, temp: str,
             python: Sequence[str]) -> List[str]:
    """The scoring program's ``metadata`` command with the worker's variables filled in, split as the
    v1.5 worker splits it (on single spaces); ``python3`` is ``python``."""
    metadata = yaml.safe_load(metadata_text)
    command = metadata["command"]
    for variable, value in (("$program", program), ("$predictions", os.path.join(input_dir, "res")),
                            ("$input", input_dir), ("$output", output), ("$tmp", temp)):
        command = command.replace(variable, value)
    argv = command.split(" ")
    if argv[0] == "python3":
        argv = list(python) + argv[1:]
    return argv


class Run:
    """One submission run by one platform's worker: what it printed, wrote and uploaded."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.returncode: Optional[int] = None
        self.stderr = ""
        self.outputs: List[str] = []
        self.scores: Optional[Dict[str, float]] = None
        self.page = b""  # detailed_results.html as written
        self.uploaded_page = b""  # what the v1.5 watcher uploaded before it was killed
        self.problems: List[str] = []


def run_phase(files: Dict[str, bytes], phase: Dict[str, str], submission: bytes, keys: Sequence[str],
              python: Sequence[str], layout: str, label: str, limit: int) -> Run:
    """Stage and run one submission; ``phase`` names the program and reference zips in ``files``;
    ``layout`` is "v1.5" or "codabench"."""
    result = Run("%s, %s" % (layout, label))
    work = tempfile.mkdtemp(prefix="bundle-check-")
    try:
        v15 = layout == "v1.5"
        root = os.path.join(work, "run" if v15 else "app")
        program, input_dir, output = (os.path.join(root, name) for name in ("program", "input", "output"))
        temp = os.path.join(root, "temp") if v15 else output
        _extract(files[phase["scoring_program"]], program, v15)
        _extract(files[phase["reference_data"]], os.path.join(input_dir, "ref"), v15)
        _extract(submission, os.path.join(input_dir, "res"), v15)
        os.makedirs(output)
        if v15:
            for folder in ("history", "scores", "coopetition", "temp"):
                os.makedirs(os.path.join(root, "input" if folder != "temp" else "", folder), exist_ok=True)
            with open(os.path.join(input_dir, "metadata"), "w") as handle:
                handle.write("input: %s\nprogram: %s\n" % (input_dir, program))
            open(os.path.join(output, "detailed_results.html"), "a").close()
        else:  # Codabench's prediction step puts its metadata beside the submitted files
            with open(os.path.join(input_dir, "res", "metadata"), "w") as handle:
                handle.write("exitCode: 0\n")
        metadata_path = os.path.join(program, "metadata")
        if not os.path.isfile(metadata_path):
            result.problems.append("the scoring program has no metadata file at its root")
            return result
        with open(metadata_path, encoding="utf-8") as handle:
            argv = _command(handle.read(), program, input_dir, output, temp, python)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONUNBUFFERED": "1", "LANG": "C.UTF-8"}
        watcher = DetailedResultsWatcher(os.path.join(output, "detailed_results.html")) if v15 else None
        if watcher:
            watcher.start()
        try:
            process = subprocess.run(argv, cwd=root if v15 else program, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, universal_newlines=True, timeout=limit)
        except subprocess.TimeoutExpired:
            result.problems.append("exceeded the execution time limit")
            return result
        finally:
            if watcher:
                watcher.kill()
        result.returncode, result.stderr = process.returncode, process.stderr
        result.outputs = sorted(os.listdir(output))
        page_path = os.path.join(output, "detailed_results.html")
        if os.path.isfile(page_path):
            with open(page_path, "rb") as handle:
                result.page = handle.read()
        if watcher:
            result.uploaded_page = watcher.uploaded()
        if "Traceback" in process.stderr:
            result.problems.append("a traceback reached stderr:\n%s" % process.stderr[-1500:])
        if process.returncode == 0:
            result.scores = read_scores(output, keys, result.problems)
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)

