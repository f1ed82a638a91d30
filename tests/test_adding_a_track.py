"""Adding a seventh track is one module, one card and one line in the registry (docs/track-authors.md, "Adding a
track"): a copy of the repository gets ``tests/toy_track/toy.py`` and ``toy.md``, ``"toy"`` in
``registry.MODULES`` and a column in ``competition.yaml``; then its sample gold is written by the
sample-data tool, and the bundle is built, checked (both platforms' layouts, the sample submission
from the baselines, single-track entries) and scored, with no other file touched. Another copy
gets four tracks of families the six are not (an article-folder span track; a positional one, lines
without ids; extractive QA as SQuAD's official script scores it; a corpus-level MT metric as
sacreBLEU's chrF) and passes the registry-driven tests and the build."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import zipfile

from conftest import ROOT, register_track

TOY = ROOT / "tests" / "toy_track"
COLUMN = """    toy_accuracy:
      leaderboard: *RESULTS
      column_group:
        label: A toy track
      label: "Toy accuracy"
      rank: 21
      numeric_format: 5
"""
GROUP = """    TOY:
      label: A toy track
      rank: 7
"""


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


def test_a_toy_seventh_track_builds_checks_and_scores(tmp_path):
    repo = tmp_path / "repo"
    _tracked_copy(repo)
    tracks = repo / "scoring_program" / "scorer" / "tracks"
    shutil.copy(str(TOY / "toy.py"), str(tracks / "toy.py"))
    shutil.copy(str(TOY / "toy.md"), str(tracks / "toy.md"))
    register_track(repo / "scoring_program", "toy")
    yaml_path = repo / "competition.yaml"
    text = yaml_path.read_text(encoding="utf-8")
    text = text.replace("  columns:\n", GROUP + "  columns:\n", 1)
    yaml_path.write_text(text.rstrip("\n") + "\n" + COLUMN, encoding="utf-8")

    python = sys.executable
    sample = subprocess.run([python, "tools/make_sample_data.py"], cwd=str(repo), capture_output=True, text=True)
    assert sample.returncode == 0, sample.stdout + sample.stderr
    for phase in ("dev", "test"):
        assert (repo / "reference_data" / phase / "toy_labels.json").is_file()
    build = subprocess.run([python, "build_bundle.py", "--out", str(tmp_path / "dist")], cwd=str(repo),
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    assert "check: the upload's runs pass" in build.stdout

    # The built program scores the toy track from the built sample submission, next to the others.
    work = tmp_path / "run"
    with zipfile.ZipFile(str(tmp_path / "dist" / "competition_bundle.zip")) as bundle:
        for name in ("scoring_program.zip", "dev_reference_data.zip", "starting_kit.zip"):
            with zipfile.ZipFile(bundle.open(name)) as inner:
                inner.extractall(str(work / name[:-len(".zip")]))
    with zipfile.ZipFile(str(work / "starting_kit" / "sample_submission.zip")) as submission:
        submission.extractall(str(work / "input" / "res"))
    shutil.copytree(str(work / "dev_reference_data"), str(work / "input" / "ref"))
    process = subprocess.run([python, str(work / "scoring_program" / "score.py"), str(work / "input"),
                              str(work / "output")], capture_output=True, text=True)
    assert process.returncode == 0, process.stderr
    scores = dict(line.split(": ") for line in (work / "output" / "scores.txt").read_text().splitlines())
    assert 0.0 <= float(scores["toy_accuracy"]) <= 1.0 and "t6_st1_f1_micro" in scores
    assert json.loads((work / "output" / "scores.json").read_text())["signature"]["toy"].startswith("toy|")
    readme = (work / "starting_kit" / "README.md").read_text(encoding="utf-8")
    card = (tracks / "toy.md").read_text(encoding="utf-8")  # its card's format section, under its file's name
    section = re.search(r"^## Submission format\n(.*?)\n## ", card, re.S | re.M).group(1).strip().splitlines()
    assert all(line in readme for line in section[1:])  # (its first line says where it is copied)
    assert any(line.startswith("### `toy_labels.json`") for line in readme.splitlines())
    assert "| `toy` | `toy_accuracy` |" in readme  # the baseline's expected score


T11_SI = ROOT / "tests" / "t11_si_track"
LINES = ROOT / "tests" / "lines_track"
SQUAD = ROOT / "tests" / "squad_track"
CHRF = ROOT / "tests" / "chrf_track"
NEW_TRACKS = ((T11_SI, "t11_si"), (LINES, "lines"), (SQUAD, "squad"), (CHRF, "chrf"))
NEW_GROUPS = "".join("""    %s:
      label: %s
      rank: %d
""" % group for group in (("SEMEVAL2020_T11_SI", "SemEval-2020 T11 SI", 8), ("LINES", "A positional toy track", 9),
                          ("SQUAD", "SQuAD v1.1", 10), ("CHRF", "MT chrF2", 11)))
NEW_COLUMNS = "".join("""    %s:
      leaderboard: *RESULTS
      column_group:
        label: %s
      label: "%s"
      rank: %d
      numeric_format: %d
""" % column for column in (
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


def test_tracks_of_four_new_families_are_their_modules_cards_registry_lines_and_columns(tmp_path):
    """SemEval-2020 Task 11 SI (``tests/t11_si_track/``: ``article_id TAB start TAB end``, no technique,
    overlapping predictions merged as the official ``-m``), a positional toy (``tests/lines_track/``:
    one output line per source line, no ids, a short file name, a public input of its own name, no
    item view or error), SQuAD v1.1 (``tests/squad_track/``: a JSON object of answers, the dataset's
    nested JSON as gold) and sacreBLEU's chrF (``tests/chrf_track/``: a translation per line, a
    corpus metric of per-line n-gram counts) added to a copy as docs/track-authors.md "Adding a
    track" says: the modules
    and their cards, their names in ``registry.MODULES``, their columns in ``competition.yaml``, the
    sample data; then the registry-driven tests (``-m registry``: the contract, the cards and their
    worked examples, ownership, the error analysis, the track-parametrised score and platform tests)
    and the build pass there, and no other file differs from this repository's."""
    repo = tmp_path / "repo"
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

    python = sys.executable
    sample = subprocess.run([python, "tools/make_sample_data.py"], cwd=str(repo), capture_output=True, text=True)
    assert sample.returncode == 0, sample.stdout + sample.stderr
    after = _files(repo)
    changed = sorted(name for name in before if after.get(name) != before[name])
    added = sorted(name for name in after if name not in before)
    assert changed == ["competition.yaml", "scoring_program/scorer/tracks/registry.py"], changed
    assert all(name.startswith(("scoring_program/scorer/tracks/t11_si.", "reference_data/dev/semeval2020_t11_si/",
                                "reference_data/test/semeval2020_t11_si/", "scoring_program/scorer/tracks/lines.",
                                "reference_data/dev/lines_", "reference_data/test/lines_",
                                "scoring_program/scorer/tracks/squad.", "reference_data/dev/squad_",
                                "reference_data/test/squad_", "scoring_program/scorer/tracks/chrf.",
                                "reference_data/dev/chrf_", "reference_data/test/chrf_")) for name in added), added

    tests = subprocess.run([python, "-m", "pytest", "-q", "-x", "-m", "registry", "-p", "no:cacheprovider"],
                           cwd=str(repo), capture_output=True, text=True)
    assert tests.returncode == 0, tests.stdout[-5000:] + tests.stderr[-3000:]
    collected = subprocess.run([python, "-m", "pytest", "-q", "--collect-only", "-m", "registry", "-p",
                                "no:cacheprovider"], cwd=str(repo), capture_output=True, text=True).stdout
    assert " passed" in tests.stdout and all("[%s]" % name in collected for _, name in NEW_TRACKS)
    build = subprocess.run([python, "build_bundle.py", "--out", str(tmp_path / "dist")], cwd=str(repo),
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    assert "check: the upload's runs pass" in build.stdout
    module = (tracks / "t11_si.py").read_text(encoding="utf-8")
    assert "from .flc" not in module and "tracks.flc" not in module  # no other track imported
