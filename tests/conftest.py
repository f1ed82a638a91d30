"""Shared test helpers: where ../shared is, and how to run score.py the way Codalab does."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ROOT / "scoring_program"
SHARED = Path(os.environ.get("SHARED_DIR", ROOT.parent / "shared")).resolve()
DATA = SHARED / "data"

sys.path.insert(0, str(PROGRAM))
sys.path.insert(0, str(ROOT / "starting_kit"))


def shared_path(*parts: str) -> Path:
    """A path under ../shared; fails in CI (CI=true) and skips elsewhere when it is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        message = "needs %s (the shared data beside the project)" % path
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def nltk_data_dir() -> Optional[Path]:
    path = SHARED / "nltk_data"
    return path if path.is_dir() else None


def parse_scores_v15(text: str) -> Dict[str, float]:
    """scores.txt as Codalab v1.5 reads it: every non-empty line split on its one colon, float()."""
    scores: Dict[str, float] = {}
    for line in text.split("\n"):
        if not line:
            continue
        key, value = line.split(":")  # exactly two parts, or the platform fails the submission
        key = key.strip()
        assert key not in scores, "duplicate key %s" % key
        scores[key] = float(value)
    return scores


class Run:
    def __init__(self, process: subprocess.CompletedProcess, output: Path) -> None:
        self.returncode = process.returncode
        self.stdout = process.stdout
        self.stderr = process.stderr
        self.output = output
        self.items = output.parent / "items"

    @property
    def all_scores(self) -> Dict[str, float]:
        """scores.txt as v1.5 reads it: every leaderboard key, not-entered tracks included."""
        return parse_scores_v15((self.output / "scores.txt").read_text(encoding="ascii"))

    @property
    def scores(self) -> Dict[str, float]:
        """The scores of the tracks the submission entered (without the not-entered values)."""
        from scorer.report import not_entered_value
        return {key: value for key, value in self.all_scores.items() if value != not_entered_value(key)}

    @property
    def scores_json(self) -> Dict[str, float]:
        """The scores of scores.json (as Codabench stores them: the leaderboard keys)."""
        written = json.loads((self.output / "scores.json").read_text(encoding="ascii"))
        return {key: value for key, value in written.items() if key != "signature"}

    @property
    def signatures(self) -> Dict[str, str]:
        """scores.json's signatures: track -> signature."""
        return json.loads((self.output / "scores.json").read_text(encoding="ascii"))["signature"]


def run_score(tmp_path: Path, ref: Dict[str, object], res: Dict[str, object],
              python: str = sys.executable, env: Optional[Dict[str, str]] = None, items: bool = False,
              program: Path = PROGRAM) -> Run:
    """Stage input/ref and input/res (values: bytes, str, or a Path to copy), run score.py;
    ``items``: as a local run asking for the per-item details (``--items <run>/items``);
    ``program``: another copy of the scoring program."""
    base = tmp_path / ("run%d" % len(list(tmp_path.glob("run*"))))
    for folder, files in (("ref", ref), ("res", res)):
        target = base / "input" / folder
        target.mkdir(parents=True)
        for name, content in files.items():
            destination = target / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, Path):
                if content.is_dir():
                    shutil.copytree(content, destination)
                else:
                    shutil.copyfile(content, destination)
            elif isinstance(content, bytes):
                destination.write_bytes(content)
            else:
                destination.write_text(str(content), encoding="utf-8")
    output = base / "output"
    run_env = dict(os.environ)
    if nltk_data_dir() is not None:
        run_env.setdefault("NLTK_DATA", str(nltk_data_dir()))
    run_env.update(env or {})
    command = [python, str(program / "score.py"), str(base / "input"), str(output)]
    if items:
        command += ["--items", str(base / "items")]
    process = subprocess.run(command, capture_output=True, text=True, cwd=str(base), env=run_env, timeout=600)
    return Run(process, output)


def assert_clean_failure(run: Run, *fragments: str) -> None:
    """Exit 1, no traceback, and every fragment somewhere in stderr."""
    assert run.returncode == 1, (run.returncode, run.stdout, run.stderr)
    assert "Traceback" not in run.stderr and "Traceback" not in run.stdout
    for fragment in fragments:
        assert fragment in run.stderr, (fragment, run.stderr)


def register_track(program_dir: Path, name: str) -> None:
    """Add ``name`` to ``MODULES`` in a copy's ``scorer/registry.py``, as README "Adding a track" step 3
    says: the tuple is found by parsing the file (``ast``), and its last item gets the new name after it."""
    import ast
    path = Path(program_dir) / "scorer" / "registry.py"
    text = path.read_text(encoding="utf-8")
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["MODULES"]:
            last = node.value.elts[-1]  # type: ignore[attr-defined]
            lines = text.split("\n")
            line = lines[last.end_lineno - 1]
            lines[last.end_lineno - 1] = line[:last.end_col_offset] + ", %r" % name + line[last.end_col_offset:]
            path.write_text("\n".join(lines), encoding="utf-8")
            return
    raise AssertionError("no MODULES = (...) in %s" % path)


def copy_program(target: Path) -> Path:
    """A copy of the scoring program (``scoring_program/``) in ``target``, without caches."""
    shutil.copytree(str(PROGRAM), str(target), ignore=shutil.ignore_patterns("__pycache__"))
    return target
