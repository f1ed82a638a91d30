"""One module owns each track: a track's file names are written in code only in its
module; the build, the starting kit, the sample-data tool and the benchmark ask the registry.
And the sample gold of ``reference_data/`` is what the track modules write from the default seed."""

from __future__ import annotations

import ast
import filecmp
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scoring_program"))

from scorer.tracks.registry import TRACKS  # noqa: E402

pytestmark = pytest.mark.registry  # follows the registry: run in a copy with new tracks added

SKIPPED = {"tests", ".venv", ".git", "__pycache__", "dist", "build", ".pytest_cache"}


def code_strings(path: Path) -> List[str]:
    """The string constants of a file's code: docstrings (and comments) left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def python_files() -> List[Path]:
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = sorted(d for d in subfolders if d not in SKIPPED)
        found += [Path(folder) / name for name in sorted(files) if name.endswith(".py")]
    return found


def test_each_track_file_name_is_written_only_in_its_track_module():
    """A track's file names are written in its module only (in one of its package's modules, for a
    package track)."""
    names: Dict[str, Tuple[str, ...]] = {}  # file name -> the track's files, which may write it
    for track in TRACKS:
        extras = tuple(track.reference_data_extras(str(ROOT / "reference_data" / "dev")))  # (nlu: its token cache)
        owners = tuple(str(Path(path).resolve().relative_to(ROOT)) for path in track.source_paths)
        for name in (track.filename,) + track.gold_names + ((track.test_input,) if track.test_input else ()) + extras:
            names[name] = owners
    strings = {path: code_strings(path) for path in python_files()}
    for name, owners in names.items():
        writers = sorted(str(path.relative_to(ROOT)) for path, values in strings.items()
                         if any(name in value for value in values))
        assert writers and set(writers) <= set(owners), (name, writers)



def test_the_sample_gold_is_what_the_track_modules_write(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_sample_data.py"), "--out", str(tmp_path)],
                   check=True, stdout=subprocess.PIPE)
    for split in ("dev", "test"):
        comparison = filecmp.dircmp(str(tmp_path / split), str(ROOT / "reference_data" / split))
        pending = [comparison]
        while pending:
            current = pending.pop()
            _, mismatch, errors = filecmp.cmpfiles(current.left, current.right, current.common_files, shallow=False)
            assert not (current.left_only or current.right_only or mismatch or errors), \
                (current.left, current.left_only, current.right_only, mismatch, errors)
            pending += current.subdirs.values()


def test_the_readme_lists_no_track_and_names_the_docs():
    """The README says what the repository is, the two quick-start commands and where to read on: it
    lists no track (the modules and their cards do; the build writes the hosted tracks into the pages
    and the kit), is under 200 lines, and every docs/ page it names exists."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 200
    for track in TRACKS:
        assert track.filename not in readme, "README.md names track %s's file: the card says it" % track.name
    for page in ("organisers.md", "participants.md", "track-authors.md", "architecture.md"):
        assert "docs/" + page in readme and (ROOT / "docs" / page).is_file(), page
    assert "./setup.sh && .venv/bin/python build_bundle.py" in readme and "./run_tests.sh" in readme
