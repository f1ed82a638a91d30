"""Acceptance: no file of dist/ other than release_<folder>/ holds a Test text or a Test gold file,
for the default competition and the per-track build: the later phases' reference data are
placeholders in the upload (bundle/held_back.py). Every zip is searched inside, nested zips too."""

from __future__ import annotations

import hashlib
import json
import io
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Dict, Iterator, Tuple

import pytest

from conftest import ROOT

TEST = ROOT / "reference_data" / "test"
DEV = ROOT / "reference_data" / "dev"


def members(name: str, data: bytes) -> Iterator[Tuple[str, bytes]]:
    """(path, bytes) of a file and, for a zip, of everything inside it, recursively."""
    yield name, data
    if data[:2] == b"PK":
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
        except zipfile.BadZipFile:
            return
        with archive:
            for inner in archive.namelist():
                yield from members(name + "!" + inner, archive.read(inner))


def needles() -> Tuple[Dict[str, str], Dict[bytes, str]]:
    """The Test gold files by sha256, and the Test texts: each line of a Test file longer than 40
    characters that no Development file holds (the "canary" of each text)."""
    dev_text = b"\n".join(path.read_bytes() for path in DEV.rglob("*") if path.is_file())
    dev_hashes = {hashlib.sha256(path.read_bytes()).hexdigest() for path in DEV.rglob("*") if path.is_file()}
    hashes, texts = {}, {}
    for path in TEST.rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() not in dev_hashes:  # the sample data repeat a few files
            hashes[hashlib.sha256(data).hexdigest()] = str(path.relative_to(TEST))
        for line in data.splitlines():
            line = line.strip()[:80]
            if len(line) > 40 and line not in dev_text:
                texts[line] = str(path.relative_to(TEST))
    return hashes, texts


def leaks(out: Path) -> list:
    hashes, texts = needles()
    assert len(texts) > 20 and hashes
    found = []
    for path in sorted(out.rglob("*")):
        relative = path.relative_to(out)
        if not path.is_file() or any(part.startswith("release_") for part in relative.parts):
            continue
        for name, data in members(str(relative), path.read_bytes()):
            if hashlib.sha256(data).hexdigest() in hashes:
                found.append("%s is the Test gold file %s" % (name, hashes[hashlib.sha256(data).hexdigest()]))
            if name.endswith(".zip") or name.endswith(".whl"):
                continue
            for text, source in texts.items():
                if text in data:
                    found.append("%s holds a Test text of %s" % (name, source))
                    break
    return found


@pytest.mark.parametrize("options", [[], ["--per-track"]], ids=["default", "per-track"])
def test_no_file_outside_the_release_holds_a_test_text_or_gold(tmp_path, options):
    out = tmp_path / "dist"
    process = subprocess.run([sys.executable, str(ROOT / "build_bundle.py"), "--out", str(out), "--no-check"] + options,
                             capture_output=True, text=True, cwd=str(ROOT))
    assert process.returncode == 0, process.stdout + process.stderr
    assert leaks(out) == []
    # the held-back zips are there, where the steps say, and the last line says what is owed
    releases = sorted(str(p.relative_to(out)) for p in out.rglob("release_*/**/*.zip"))
    assert any(name.endswith("release_test/gold/test_reference_data.zip") for name in releases), releases
    assert any(name.endswith("release_test/test-blind_reference_data.zip") for name in releases), releases
    last = process.stdout.strip().splitlines()[-1]
    assert last.startswith("upload") and "placeholder" in last and "owed" in last and "passes" not in last


def test_the_search_finds_a_leak(tmp_path):
    """The same search on a folder that holds the Test gold inside a nested zip finds it."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("semeval2021_t6_st1.json", (TEST / "semeval2021_t6_st1.json").read_bytes())
    outer = io.BytesIO()
    with zipfile.ZipFile(outer, "w") as archive:
        archive.writestr("test_reference_data.zip", buffer.getvalue())
    (tmp_path / "competition_bundle.zip").write_bytes(outer.getvalue())
    found = leaks(tmp_path)
    assert any("is the Test gold file semeval2021_t6_st1.json" in line for line in found), found
    assert any("holds a Test text of semeval2021_t6_st1.json" in line for line in found), found


def test_a_two_phase_competition_holds_back_the_test_gold_too(tmp_path):
    """Development and a scored Test phase (no blind phase, no migration): the Test gold is a
    placeholder in the upload, attached when the Test phase opens."""
    import shutil
    import yaml
    from test_adding_a_track import _tracked_copy
    repo = tmp_path / "repo"
    _tracked_copy(repo)
    config = yaml.safe_load((repo / "competition.yaml").read_text(encoding="utf-8"))
    del config["phases"][3]
    config["phases"][2].pop("leaderboard_management_mode")
    config["phases"][2]["reference_data"] = "test_reference_data.zip"
    config["end_date"] = config["phases"][2]["start_date"].replace(month=4)
    (repo / "competition.yaml").write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    shutil.rmtree(str(repo / "reference_data"))
    shutil.copytree(str(ROOT / "reference_data"), str(repo / "reference_data"))
    out = tmp_path / "dist"
    process = subprocess.run([sys.executable, "build_bundle.py", "--out", str(out), "--no-check",
                              "--cache", str(ROOT / "build" / "wheels")], capture_output=True, text=True, cwd=str(repo))
    assert process.returncode == 0, process.stdout[-3000:] + process.stderr[-3000:]
    assert leaks(out) == []
    assert (out / "release_test" / "gold" / "test_reference_data.zip").is_file()
    assert "when phase Evaluation opens (2027-03-01 00:00:00+00:00), not before: .venv/bin/python codabench.py attach-gold " \
           "COMPETITION Evaluation " in process.stdout


def test_release_all_puts_the_inputs_in_the_upload_never_the_gold(tmp_path):
    out = tmp_path / "dist"
    process = subprocess.run([sys.executable, str(ROOT / "build_bundle.py"), "--out", str(out), "--no-check",
                              "--release-all"], capture_output=True, text=True, cwd=str(ROOT))
    assert process.returncode == 0, process.stdout + process.stderr
    found = leaks(out)
    # the inputs (texts, the nlu test input, which the gold folder holds too) by choice; never an answer file
    answers = [line for line in found if "is the Test gold file" in line
               and not line.endswith((".txt", "_test.csv"))]
    assert found and not answers, answers
    with zipfile.ZipFile(out / "competition_bundle.zip") as bundle:
        assert json.loads(zipfile.ZipFile(io.BytesIO(bundle.read("test_reference_data.zip"))).read("held_back.json"))
