"""Adding a track is one module, one card and one line in the registry (docs/track-authors.md, "Adding a
track"): a copy of the repository gets five tracks the six are not (``tests/toy_track/``: one label per
sentence; an article-folder span track; a positional one, lines without ids; extractive QA as SQuAD's
official script scores it; a corpus-level MT metric as sacreBLEU's chrF), each its module and card,
its name in ``registry.MODULES`` and its columns in ``competition.yaml``; then its sample gold is
written by the sample-data tool, the registry-driven tests pass there, and the bundle that their
session builds is checked (both platforms' layouts, the sample submission from the baselines,
single-track entries) and scores the new tracks, with no other file touched."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import BUILD_FOLDER, ROOT, register_track

NEW_TRACKS = ((ROOT / "tests" / "toy_track", "toy"), (ROOT / "tests" / "t11_si_track", "t11_si"),
              (ROOT / "tests" / "lines_track", "lines"), (ROOT / "tests" / "squad_track", "squad"),
              (ROOT / "tests" / "chrf_track", "chrf"))
NEW_GROUPS = "".join("""    %s:
      label: %s
      rank: %d
""" % group for group in (("TOY", "A toy track", 7), ("SEMEVAL2020_T11_SI", "SemEval-2020 T11 SI", 8),
                          ("LINES", "A positional toy track", 9), ("SQUAD", "SQuAD v1.1", 10),
                          ("CHRF", "MT chrF2", 11)))
NEW_COLUMNS = "".join("""    %s:
      leaderboard: *RESULTS
      column_group:
        label: %s
      label: "%s"
      rank: %d
      numeric_format: %d
""" % column for column in (
    ("toy_accuracy", "A toy track", "Toy accuracy", 21, 5),
    ("t11_si_f1", "SemEval-2020 T11 SI", "SI F1", 31, 6),
    ("t11_si_precision", "SemEval-2020 T11 SI", "SI precision", 32, 6),
    ("t11_si_recall", "SemEval-2020 T11 SI", "SI recall", 33, 6),
    ("lines_exact", "A positional toy track", "Lines exact", 41, 5),
    ("squad_f1", "SQuAD v1.1", "SQuAD F1", 51, 6),
    ("squad_exact_match", "SQuAD v1.1", "SQuAD exact match", 52, 6),
    ("chrf2", "MT chrF2", "chrF2", 61, 6)))


def _files(root):
    return {str(path.relative_to(root)): path.read_bytes() for path in root.rglob("*") if path.is_file()
            and not {"__pycache__", ".pytest_cache", ".git"} & set(path.relative_to(root).parts)}


def _tracked_copy(target):
    """The repository's tracked files (a clean checkout), without dist/ or the virtualenv, as a git
    repository of its own (the tests that list the tracked files, ``git ls-files``, run in it)."""
    names = subprocess.run(["git", "ls-files", "-z"], cwd=str(ROOT), capture_output=True, check=True).stdout
    for name in names.decode("utf-8").split("\0"):
        if name and (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(str(ROOT / name), str(target / name))
    subprocess.run(["git", "init", "-q"], cwd=str(target), check=True)
    subprocess.run(["git", "add", "-A", "."], cwd=str(target), check=True)


@pytest.fixture(scope="module")
def added(tmp_path_factory):
    """The copy with the five tracks added, the files it changed and added, the registry-driven
    tests' run there (``-rA``: a line per test) and the folder of the build their session made."""
    base = tmp_path_factory.mktemp("adding")
    repo = base / "repo"
    _tracked_copy(repo)
    before = _files(repo)
    tracks = repo / "scoring_program" / "scorer" / "tracks"
    for folder, name in NEW_TRACKS:
        shutil.copy(str(folder / (name + ".py")), str(tracks / (name + ".py")))
        shutil.copy(str(folder / (name + ".md")), str(tracks / (name + ".md")))
        register_track(repo / "scoring_program", name)
    yaml_path = repo / "competition.yaml"
    text = yaml_path.read_text(encoding="utf-8")
    text = text.replace("  columns:\n", NEW_GROUPS + "  columns:\n", 1)
    yaml_path.write_text(text.rstrip("\n") + "\n" + NEW_COLUMNS, encoding="utf-8")
    sample = subprocess.run([sys.executable, "tools/make_sample_data.py"], cwd=str(repo), capture_output=True,
                            text=True)
    assert sample.returncode == 0, sample.stdout + sample.stderr
    after = _files(repo)
    build = base / "build"
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-x", "-m", "registry", "-p",
                            "no:cacheprovider"], cwd=str(repo), capture_output=True, text=True,
                           env=dict(os.environ, **{BUILD_FOLDER: str(build)}))
    return repo, before, after, tests, build


def test_new_tracks_are_their_modules_cards_registry_lines_and_columns(added):
    """The copy differs from this repository only by the registry line, the columns, the modules,
    their cards and their sample gold; the registry-driven tests pass there, each new track's
    among them, and the session's build passed its checks."""
    repo, before, after, tests, build = added
    changed = sorted(name for name in before if after.get(name) != before[name])
    added_names = sorted(name for name in after if name not in before)
    assert changed == ["competition.yaml", "scoring_program/scorer/tracks/registry.py"], changed
    new_modules = tuple("scoring_program/scorer/tracks/%s." % name for _, name in NEW_TRACKS)
    assert all(name.startswith(new_modules + ("reference_data/dev/", "reference_data/test/"))
               for name in added_names), added_names
    assert tests.returncode == 0, tests.stdout[-5000:] + tests.stderr[-3000:]
    assert all("[%s]" % name in tests.stdout for _, name in NEW_TRACKS), tests.stdout[-3000:]
    assert (build / "build.log").is_file(), "no registry-driven test asked for the session's build"
    assert "check: the upload's runs pass" in (build / "build.log").read_text(encoding="utf-8")
    module = (repo / "scoring_program" / "scorer" / "tracks" / "t11_si.py").read_text(encoding="utf-8")
    assert "from .flc" not in module and "tracks.flc" not in module  # no other track imported


def test_the_built_program_scores_a_new_track_from_the_sample_submission(added):
    """The toy track, scored by the built program from the built sample submission next to the
    others; the kit's README has its card's format section and its baseline's score."""
    repo, _, _, tests, build = added
    assert tests.returncode == 0, tests.stdout[-3000:]
    work = build / "run"
    with zipfile.ZipFile(str(build / "dist" / "competition_bundle.zip")) as bundle:
        for name in ("scoring_program.zip", "dev_reference_data.zip", "starting_kit.zip"):
            with zipfile.ZipFile(bundle.open(name)) as inner:
                inner.extractall(str(work / name[:-len(".zip")]))
    with zipfile.ZipFile(str(work / "starting_kit" / "sample_submission.zip")) as submission:
        submission.extractall(str(work / "input" / "res"))
    shutil.copytree(str(work / "dev_reference_data"), str(work / "input" / "ref"))
    process = subprocess.run([sys.executable, str(work / "scoring_program" / "score.py"), str(work / "input"),
                              str(work / "output")], capture_output=True, text=True)
    assert process.returncode == 0, process.stderr
    scores = dict(line.split(": ") for line in (work / "output" / "scores.txt").read_text().splitlines())
    assert 0.0 <= float(scores["toy_accuracy"]) <= 1.0 and "t6_st1_f1_micro" in scores
    assert 0.0 <= float(scores["squad_f1"]) <= 100.0 and "chrf2" in scores
    assert json.loads((work / "output" / "scores.json").read_text())["signature"]["toy"].startswith("toy|")
    readme = (work / "starting_kit" / "README.md").read_text(encoding="utf-8")
    card = (repo / "scoring_program" / "scorer" / "tracks" / "toy.md").read_text(encoding="utf-8")
    section = re.search(r"^## Submission format\n(.*?)\n## ", card, re.S | re.M).group(1).strip().splitlines()
    assert all(line in readme for line in section[1:])  # (its first line says where it is copied)
    assert any(line.startswith("### `toy_labels.json`") for line in readme.splitlines())
    assert "| `toy` | `toy_accuracy` |" in readme  # the baseline's expected score
