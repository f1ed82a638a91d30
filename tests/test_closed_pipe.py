"""Every command-line tool of the repository ends quietly when its output is a closed pipe
(``tool --help | head -1``, a long output into ``head -1``): exit status 1, nothing on stderr, no
traceback (scorer/run/closed_pipe.py).

``head -1`` closes the pipe at a moment that races with the tool's writes (the tool may have
written everything before); here the pipe's reading end is closed before the tool starts, so that
every write finds it closed, the case ``head`` produces only sometimes. Each command runs with its
output block-buffered (a terminal user's pipe: the last lines are written by the flush at exit)
and unbuffered (``PYTHONUNBUFFERED=1``, as Codabench's worker sets it: each ``print`` writes).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from conftest import ROOT, nltk_data_dir
from registry_inputs import REF, SUBMITTED
from scorer.tracks.registry import TRACKS

PROGRAM = ROOT / "scoring_program"
BUFFERING = ("buffered", "unbuffered")


def commands() -> List[str]:
    """Every tracked Python file with a ``__main__`` guard outside tests/: the command-line tools."""
    names = subprocess.run(["git", "ls-files", "*.py"], cwd=str(ROOT), capture_output=True, text=True,
                           check=True).stdout.split()
    return sorted(name for name in names if not name.startswith("tests/")
                  and 'if __name__ == "__main__":' in (ROOT / name).read_text(encoding="utf-8"))


def invocation(path: str) -> List[str]:
    """How the tool is run: a module of the scoring program's package with ``-m`` (its relative
    imports), every other file as a script."""
    if path.startswith("scoring_program/scorer/"):
        return [sys.executable, "-m", path[len("scoring_program/"):-len(".py")].replace("/", ".")]
    return [sys.executable, str(ROOT / path)]


def working_folder(path: str, elsewhere: Path) -> Path:
    return PROGRAM if path.startswith("scoring_program/scorer/") else elsewhere


def into_closed_pipe(command: List[str], buffering: str, cwd: Path) -> subprocess.CompletedProcess:
    reading, writing = os.pipe()
    os.close(reading)
    env = dict(os.environ)
    env.pop("PYTHONUNBUFFERED", None)
    if buffering == "unbuffered":
        env["PYTHONUNBUFFERED"] = "1"
    if nltk_data_dir() is not None:
        env.setdefault("NLTK_DATA", str(nltk_data_dir()))
    try:
        return subprocess.run(command, stdout=writing, stderr=subprocess.PIPE, text=True, cwd=str(cwd), env=env,
                              timeout=300)
    finally:
        os.close(writing)


def assert_quiet(process: subprocess.CompletedProcess) -> None:
    assert (process.returncode, process.stderr) == (1, ""), (process.args, process.returncode, process.stderr[-2000:])


def test_every_tool_is_found():
    found = commands()
    assert "scoring_program/scorer/run/cli.py" in found and "scoring_program/score.py" in found, found
    assert {"rank_submissions.py", "codabench.py", "build_bundle.py", "starting_kit/check_format.py"} <= set(found)


@pytest.mark.parametrize("buffering", BUFFERING)
@pytest.mark.parametrize("path", [name for name in commands() if name != "scoring_program/score.py"])
def test_help_into_a_closed_pipe_ends_quietly(path, buffering, tmp_path):
    """(``score.py`` takes no ``--help``: its usage goes to stderr; its long output is below.)"""
    assert_quiet(into_closed_pipe(invocation(path) + ["--help"], buffering, working_folder(path, tmp_path)))


@pytest.fixture(scope="module")
def phase(tmp_path_factory) -> Path:
    """Every track's worked example: ``input/ref``, ``input/res`` and the public inputs of the gold."""
    base = tmp_path_factory.mktemp("closed-pipe")
    for folder, files in (("input/ref", REF), ("input/res", SUBMITTED)):
        for name, content in files.items():
            (base / folder / name).parent.mkdir(parents=True, exist_ok=True)
            (base / folder / name).write_text(content, encoding="utf-8")
    (base / "public").mkdir()
    for track in TRACKS:
        track.write_public_input(str(base / "input" / "ref"), str(base / "public"), track.filename)
    return base


def long_outputs(phase: Path, out: Path):
    """(tool, arguments) whose output is many lines."""
    track = TRACKS[0]
    gold, submitted = track.find_gold(str(phase / "input" / "ref")), phase / "input" / "res" / track.filename
    return [
        ("scoring_program/score.py", [str(phase / "input"), str(out / "score")]),
        ("scoring_program/scorer/run/cli.py", ["--card", track.name]),
        ("scoring_program/scorer/run/cli.py", [track.name, gold, str(submitted)]),
        ("starting_kit/score_locally.py", [str(phase / "input" / "res"), "--ref", str(phase / "input" / "ref"),
                                           "--out", str(out / "local")]),
        ("starting_kit/check_format.py", [str(phase / "input" / "res"), "--public", str(phase / "public")]),
        ("starting_kit/baselines.py", [str(phase / "public"), str(out / "baselines")]),
        ("tools/make_sample_data.py", ["--out", str(out / "sample")]),
        ("build_bundle.py", ["--no-check", "--out", str(out / "dist")]),
    ]


@pytest.mark.parametrize("buffering", BUFFERING)
def test_a_long_output_into_a_closed_pipe_ends_quietly(phase, buffering, tmp_path):
    for path, arguments in long_outputs(phase, tmp_path):
        assert_quiet(into_closed_pipe(invocation(path) + arguments, buffering, working_folder(path, tmp_path)))


def test_into_an_open_pipe_the_output_is_whole(phase, tmp_path):
    """The same commands print everything and exit 0 when the pipe stays open."""
    for path, arguments in long_outputs(phase, tmp_path)[:3]:
        process = subprocess.run(invocation(path) + arguments, capture_output=True, text=True,
                                 cwd=str(working_folder(path, tmp_path)))
        assert process.returncode == 0 and process.stdout.count("\n") >= 3, (path, process.stdout, process.stderr)
