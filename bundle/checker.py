"""Opens the built bundle as Codalab v1.5 and Codabench do, and runs each phase as their workers do.

v1.5 (codalab-competitions ``models.py``, compute worker ``worker.py``): the YAML is the first entry
whose name contains ``.yaml``; nested zips and pages are looked up by exact name; the worker
extracts the scoring program, the reference data and the submission into ``run/program``,
``run/input/ref``, ``run/input/res``, substitutes ``$program``/``$input``/``$output`` in the
``metadata`` command, splits it on single spaces (no shell) and runs it with cwd ``run/``; then it
reads ``output/scores.txt`` line by line (one colon per line, ``float()`` of the value).

Codabench (``compute_worker.py``): ``competition.yaml`` at the zip root, a logo, plain extraction
(no nested-zip or single-folder handling), cwd = the program folder, ``scores.json`` preferred and
``scores.txt`` parsed as YAML.

The stock images have no site-packages of ours: the scoring program runs with ``python3 -I -S``.
"""

from __future__ import annotations

import io
import json
import math
import os
import shutil
import subprocess
import tempfile
import zipfile
from typing import Dict, List, Optional, Sequence

import yaml


class Report:
    def __init__(self) -> None:
        self.problems: List[str] = []
        self.lines: List[str] = []

    def fail(self, line: str) -> None:
        self.problems.append(line)

    def ok(self, line: str) -> None:
        self.lines.append(line)


def _extract(data: bytes, folder: str, v15: bool) -> None:
    os.makedirs(folder, exist_ok=True)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            if name.startswith("/") or ".." in name.split("/"):
                raise ValueError("unsafe entry %s" % name)
        archive.extractall(folder)
    if v15:
        entries = os.listdir(folder)
        # worker.py: a single sub-folder holding a ``metadata`` file is moved up one level
        if len(entries) == 1 and os.path.isdir(os.path.join(folder, entries[0])) and \
                os.path.isfile(os.path.join(folder, entries[0], "metadata")):
            inner = os.path.join(folder, entries[0])
            for name in os.listdir(inner):
                shutil.move(os.path.join(inner, name), os.path.join(folder, name))
            os.rmdir(inner)


def parse_v15(text: str, keys: Sequence[str]) -> Dict[str, float]:
    scores: Dict[str, float] = {}
    for line in text.split("\n"):
        if not line:
            continue
        parts = line.split(":")
        if len(parts) != 2:
            raise ValueError("line %r does not split into key: value" % line)
        key = parts[0].strip()
        if key in keys:
            if key in scores:
                raise ValueError("duplicate key %s" % key)
            scores[key] = float(parts[1])
    return scores


def parse_codabench(text: str) -> Dict[str, float]:
    data = yaml.safe_load(text)
    if not isinstance(data, dict) or not all(isinstance(v, (int, float)) for v in data.values()):
        raise ValueError("scores.txt is not a YAML mapping of numbers")
    return {str(k): float(v) for k, v in data.items()}


def _command(metadata_text: str, program: str, input_dir: str, output: str, python: Sequence[str]) -> List[str]:
    metadata = yaml.safe_load(metadata_text)
    command = metadata["command"]
    for variable, value in (("$program", program), ("$input", input_dir), ("$output", output),
                            ("$tmp", output), ("$predictions", os.path.join(input_dir, "res"))):
        command = command.replace(variable, value)
    argv = command.split(" ")
    if argv[0] == "python3":
        argv = list(python) + argv[1:]
    return argv


def run_phase(bundle: zipfile.ZipFile, phase: dict, submission: bytes, keys: Sequence[str],
              python: Sequence[str], layout: str, expect_success: bool, report: Report) -> Optional[Dict[str, float]]:
    """Stage and run one submission of one phase; ``layout`` is "v1.5" or "codabench"."""
    label = "%s, phase %s, %s submission" % (layout, phase.get("label"), "sample" if expect_success else "broken")
    work = tempfile.mkdtemp(prefix="bundle-check-")
    try:
        if layout == "v1.5":
            run = os.path.join(work, "run")
            program, input_dir, output = (os.path.join(run, "program"), os.path.join(run, "input"),
                                          os.path.join(run, "output"))
            cwd = run
        else:
            app = os.path.join(work, "app")
            program, input_dir, output = (os.path.join(app, "program"), os.path.join(app, "input"),
                                          os.path.join(app, "output"))
            cwd = program
        v15 = layout == "v1.5"
        _extract(bundle.read(phase["scoring_program"]), program, v15)
        _extract(bundle.read(phase["reference_data"]), os.path.join(input_dir, "ref"), v15)
        _extract(submission, os.path.join(input_dir, "res"), v15)
        os.makedirs(output, exist_ok=True)
        metadata_path = os.path.join(program, "metadata")
        if not os.path.isfile(metadata_path):
            report.fail("%s: the scoring program has no metadata file at its root" % label)
            return None
        with open(metadata_path, encoding="utf-8") as handle:
            argv = _command(handle.read(), program, input_dir, output, python)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONUNBUFFERED": "1", "LANG": "C.UTF-8"}
        try:
            process = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     universal_newlines=True, timeout=int(phase.get("execution_time_limit", 600)))
        except subprocess.TimeoutExpired:
            report.fail("%s: exceeded the execution time limit" % label)
            return None
        if "Traceback" in process.stderr:
            report.fail("%s: a traceback reached stderr:\n%s" % (label, process.stderr[-1500:]))
        if not expect_success:
            if process.returncode == 0 or not process.stderr.strip():
                report.fail("%s: expected a non-zero exit with a message, got exit %d" % (label, process.returncode))
            else:
                report.ok("%s: exit %d, %s" % (label, process.returncode, process.stderr.strip().splitlines()[0]))
            return None
        if process.returncode != 0:
            report.fail("%s: exit %d:\n%s" % (label, process.returncode, process.stderr[-1500:]))
            return None
        if os.path.exists(os.path.join(output, "metadata")):
            report.fail("%s: the scoring program wrote output/metadata" % label)
        if not os.path.isfile(os.path.join(output, "detailed_results.html")):
            report.fail("%s: no output/detailed_results.html" % label)
        scores_path = os.path.join(output, "scores.txt")
        if not os.path.isfile(scores_path):
            report.fail("%s: no output/scores.txt" % label)
            return None
        with open(scores_path, encoding="ascii") as handle:
            text = handle.read()
        try:
            v15_scores = parse_v15(text, keys)
            codabench_scores = parse_codabench(text)
            with open(os.path.join(output, "scores.json"), encoding="utf-8") as handle:
                json_scores = json.load(handle)
        except (ValueError, OSError, yaml.YAMLError) as error:
            report.fail("%s: scores unreadable: %s" % (label, error))
            return None
        missing = [key for key in keys if key not in v15_scores]
        if missing:
            report.fail("%s: leaderboard keys missing from scores.txt: %s" % (label, ", ".join(missing)))
        for key, value in v15_scores.items():
            if not math.isfinite(value) or abs(value) >= 1e10:
                report.fail("%s: %s = %r is not a finite number below 1e10" % (label, key, value))
            if codabench_scores.get(key) != value or json_scores.get(key) != value:
                report.fail("%s: %s differs between the v1.5, YAML and JSON readings" % (label, key))
        report.ok("%s: exit 0, %d leaderboard scores" % (label, len(v15_scores)))
        return v15_scores
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_bundle(path: str, samples: Dict[str, bytes], broken: bytes, python: Sequence[str],
                 report: Report) -> None:
    """``samples``: sample submission zip (bytes) per reference-data zip name."""
    with zipfile.ZipFile(path) as bundle:
        names = bundle.namelist()
        yaml_entries = [name for name in names if ".yaml" in name]
        if not yaml_entries or yaml_entries[0] != "competition.yaml":
            report.fail("v1.5: the first .yaml entry must be competition.yaml, found %s" % yaml_entries[:3])
            return
        if len(yaml_entries) > 1:
            report.fail("v1.5: more than one entry contains .yaml: %s" % yaml_entries)
        for name in names:
            if name.startswith(("__MACOSX", "/")) or "\\" in name or ".DS_Store" in name or "__pycache__" in name:
                report.fail("bundle: junk or unsafe entry %s" % name)
            try:
                name.encode("ascii")
            except UnicodeEncodeError:
                report.fail("bundle: non-ASCII entry name %r" % name)
        config = yaml.safe_load(bundle.read("competition.yaml"))
        referenced = [config.get("image")] + list((config.get("html") or {}).values())
        for phase in config["phases"].values():
            referenced += [phase[field] for field in ("scoring_program", "reference_data", "input_data",
                                                      "ingestion_program", "public_data", "starting_kit")
                           if field in phase]
        for name in referenced:
            if name not in names:
                report.fail("v1.5: competition.yaml refers to %s, which is not an entry of the bundle" % name)
        if report.problems:
            return
        report.ok("v1.5 unpacker: competition.yaml first, %d referenced entries present" % len(set(referenced)))
        if not config.get("image"):
            report.fail("Codabench: a logo is required")
        if "terms" not in (config.get("html") or {}):
            report.fail("Codabench: html.terms is required")
        board_labels = {str(v["label"]).lower() for v in config["leaderboard"]["leaderboards"].values()}
        keys = list(config["leaderboard"]["columns"])
        for key, column in config["leaderboard"]["columns"].items():
            if str(column["leaderboard"]["label"]).lower() not in board_labels:
                report.fail("Codabench: column %s joins no leaderboard" % key)
        report.ok("Codabench v1.5 path: competition.yaml at the root, logo, terms, %d columns" % len(keys))
        for phase in sorted(config["phases"].values(), key=lambda p: p["phasenumber"]):
            sample = samples.get(phase["reference_data"])
            if sample is None:
                report.fail("phase %s: no sample submission to run" % phase.get("label"))
                continue
            for layout in ("v1.5", "codabench"):
                run_phase(bundle, phase, sample, keys, python, layout, True, report)
                run_phase(bundle, phase, broken, keys, python, layout, False, report)
