"""release_task.py --download: each ranked row's prediction files in the release (only the files the
scorer reads, from a download that is untrusted), predictions/manifest.json tying each to its row
of the tables (the Evaluation submission and its migrated copy), and --verify re-scoring them with
the release's wheel in a fresh venv to every ranked cell of the tables, on Python 3.7 and the
newest (slow)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT
from test_installed_scorer import pyenv_pythons

sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "starting_kit"))

TEST = ROOT / "reference_data" / "test"
RELEASE = [sys.executable, str(ROOT / "release_task.py")]


def _run(command):
    return subprocess.run([str(part) for part in command], capture_output=True, text=True, cwd=str(ROOT))


def _member(identifier: int, owner: str, phase: int) -> str:
    return "%d_%s_PhaseId%d_2027-03-0%d_00-00_predictions.zip" % (identifier, owner, phase, phase - 31)


@pytest.fixture(scope="module")
def ranked(tmp_path_factory):
    """An Evaluation download (PhaseId 32) of ann (two submissions, the later ranked), ben (his
    files in a folder, beside notes the scorer does not read) and cy; the Post-Evaluation download
    (PhaseId 33) with their copies; the tables of rank_submissions.py --migrated."""
    from baselines import write_submission
    from bundle.public_data import derive_public_data
    work = tmp_path_factory.mktemp("ranked")
    derive_public_data(str(TEST), str(work / "public"))
    zips = {}
    for seed in (1, 2, 3, 4):
        folder = work / ("seed_%d" % seed)
        write_submission(str(work / "public"), str(folder), seed=seed)
        zips[seed] = work / ("seed_%d.zip" % seed)
        with zipfile.ZipFile(zips[seed], "w") as archive:
            for path in sorted(folder.iterdir()):
                archive.write(path, ("ben_system/" if seed == 3 else "") + path.name)
            if seed == 3:
                archive.writestr("ben_system/notes.txt", "how we did it")
    plan = [(501, "ann", 1), (502, "ben", 3), (503, "ann", 2), (504, "cy", 4)]
    with zipfile.ZipFile(work / "evaluation.zip", "w") as archive:
        for identifier, owner, seed in plan:
            archive.write(zips[seed], _member(identifier, owner, 32))
    with zipfile.ZipFile(work / "post_evaluation.zip", "w") as archive:
        for identifier, owner, seed in ((601, "ben", 3), (602, "ann", 2), (603, "cy", 4)):
            archive.write(zips[seed], _member(identifier, owner, 33))
    process = _run([sys.executable, ROOT / "rank_submissions.py", work / "evaluation.zip", "--ref", TEST, "--out",
                    work / "results", "--migrated", work / "post_evaluation.zip", "--resamples", 20, "--quiet"])
    assert process.returncode == 0, process.stderr
    return work


@pytest.fixture(scope="module")
def released(ranked):
    out = ranked / "release"
    process = _run(RELEASE + ["--out", out, "--results", ranked / "results", "--download", ranked / "evaluation.zip",
                              "--gold", "Post-Evaluation"])
    assert process.returncode == 0, process.stderr
    assert "3 ranked rows" in process.stdout
    return out


def test_the_release_holds_each_ranked_rows_predictions_and_its_board_ids(ranked, released):
    from scorer.tracks.registry import TRACKS
    from task_release.predictions import ranked_rows
    manifest = json.loads((released / "predictions" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["gold"] == "gold/test" and manifest["settings"] == "settings/test.json"
    rows = {row["name"]: row for row in manifest["rows"]}
    assert sorted((row["owner"], row["submission"], row["migrated_submission"]) for row in rows.values()) == [
        ("ann", "503", "602"), ("ben", "502", "601"), ("cy", "504", "603")]
    assert {row["name"] for row in ranked_rows(str(released / "results"))} == set(rows)
    seeds = {"503": 2, "502": 3, "504": 4}
    for row in rows.values():
        folder = released / row["predictions"]
        # the files the scorer reads, under their track's file name: not ben's notes, not his folder
        assert sorted(os.listdir(folder)) == sorted(row["files"].values()) == sorted(t.filename for t in TRACKS)
        for name in os.listdir(folder):
            assert (folder / name).read_bytes() == (ranked / ("seed_%d" % seeds[row["submission"]]) / name).read_bytes()
    readme = (released / "README.md").read_text(encoding="utf-8")
    assert "predictions/manifest.json" in readme


def test_verify_reproduces_every_ranked_cell_with_the_wheel(released):
    process = _run(RELEASE + ["--verify", released])
    assert process.returncode == 0, process.stderr
    last = process.stdout.strip().splitlines()[-1]
    assert "3 rows" in last and "scorer/shared_task_scorer-" in last  # how many, by which wheel


def test_verify_names_a_cell_a_changed_prediction_no_longer_gives(released, tmp_path):
    from task_release.checksums import SUMS, checksums
    changed = tmp_path / "changed"
    shutil.copytree(released, changed)
    manifest = json.loads((changed / "predictions" / "manifest.json").read_text(encoding="utf-8"))
    row = manifest["rows"][0]
    shutil.copyfile(changed / manifest["rows"][1]["predictions"] / row["files"]["t6_st1"],
                    changed / row["predictions"] / row["files"]["t6_st1"])
    (changed / SUMS).write_text(checksums(str(changed)), encoding="utf-8")  # the sums follow: the numbers do not
    process = _run(RELEASE + ["--verify", changed])
    assert process.returncode == 1
    assert any(line.startswith("results/t6_st1.csv, row %s, t6_st1_f1_micro (%s/semeval2021_t6_st1.json, Python "
                               % (row["name"], row["predictions"])) and "in the table" in line
               for line in process.stderr.splitlines()), process.stderr


def test_a_download_is_untrusted(ranked, tmp_path):
    """A folder with a link out of it is refused before anything is written; a download that is
    not the tables' is refused naming the row; --download needs the tables."""
    folder = tmp_path / "download"
    folder.mkdir()
    with zipfile.ZipFile(ranked / "evaluation.zip") as archive:
        archive.extractall(folder)
    (folder / "secret.zip").symlink_to(TEST / "semeval2021_t6_st1.json")
    for arguments, expected in (
            (["--results", ranked / "results", "--download", folder], "secret.zip is a symbolic link to "),
            (["--results", ranked / "results", "--download", ranked / "post_evaluation.zip"],
             "holds no submission 50"),
            (["--download", ranked / "evaluation.zip"], "give --results too")):
        process = _run(RELEASE + ["--out", tmp_path / "out"] + arguments)
        assert process.returncode == 2 and len(process.stderr.splitlines()) == 1, process.stderr
        assert expected in process.stderr and "--download" in process.stderr
        assert not (tmp_path / "out").exists()


def test_verify_on_python_3_7_and_the_newest(released):
    oldest, newest = pyenv_pythons()
    process = _run(RELEASE + ["--verify", released, "--python", oldest, "--python", newest])
    assert process.returncode == 0, process.stderr
    last = process.stdout.strip().splitlines()[-1]
    assert "3 rows" in last and "on Python 3.7." in last
    assert Path(newest).resolve().parent.parent.name in last  # (the newest's version: its pyenv folder)
