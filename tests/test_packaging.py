"""One packaging rule: for the ways participants really zip a submission, check_format.py,
score_locally.py and the platform's score.py reach the same decision and print the same warnings
(they find the files with the same code, ``scorer/run/submission.py``); and the kit's arguments give
one line each."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT, nltk_data_dir
from staging import shown

KIT = ROOT / "starting_kit"
REFERENCE = ROOT / "reference_data" / "dev"
ST1, ST2, FLC, ABSITA = ("semeval2021_t6_st1.json", "semeval2021_t6_st2.json", "nlp4if2019_flc.tsv",
                         "evalita2020_absita.ndjson")


@pytest.fixture(scope="module")
def phase(tmp_path_factory):
    """The Development phase's public data and the baselines' submission files (name -> bytes)."""
    from bundle.public_data import derive_public_data
    from baselines import write_submission
    folder = tmp_path_factory.mktemp("phase")
    derive_public_data(str(REFERENCE), str(folder / "public"))
    write_submission(str(folder / "public"), str(folder / "files"))
    files = {path.name: path.read_bytes() for path in sorted((folder / "files").iterdir())}
    return folder / "public", files


def _offsets_as_strings(data: bytes) -> bytes:
    memes = json.loads(data.decode("utf-8"))
    for meme in memes:
        for label in meme["labels"]:
            label["start"] = str(label["start"])
    return json.dumps(memes).encode("utf-8")


def packagings(files):
    """name -> the zip entries (name -> bytes; None for a directory entry)."""
    wrapped = {"my_submission/": None}
    wrapped.update({"my_submission/" + name: data for name, data in files.items()})
    bom_crlf = {name: b"\xef\xbb\xbf" + data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
                for name, data in files.items()}
    misnamed = dict(files)
    misnamed["semeval2021_t6_task1.json"] = misnamed.pop(ST1)
    misnamed["absita.ndjson"] = misnamed.pop(ABSITA)
    strings = dict(files)
    strings[ST2] = _offsets_as_strings(files[ST2])
    broken = dict(files)
    broken[FLC] = b"700100000\tDoubt\t9\t3\n"
    return {
        "flat": dict(files),
        "wrapped folder": wrapped,
        "no directory entries": {"my_submission/" + name: data for name, data in files.items()},
        "__MACOSX": dict(wrapped, **{"__MACOSX/": None, "__MACOSX/my_submission/._" + ST1: b"\x00\x05junk",
                                     "my_submission/.DS_Store": b"junk"}),
        "misnamed files": misnamed,
        "BOM with CRLF": bom_crlf,
        "offsets as strings": strings,
        "one broken file": broken,
        "notes beside the files": dict(files, **{"notes/": None, "notes/todo.txt": b"x", "README.txt": b"x"}),
    }


def _write_zip(path: Path, entries) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            if data is None:
                archive.writestr(zipfile.ZipInfo(name), b"")
            else:
                archive.writestr(name, data)
    return path


def _run(*command, cwd):
    env = dict(os.environ)
    if nltk_data_dir() is not None:
        env.setdefault("NLTK_DATA", str(nltk_data_dir()))
    return subprocess.run([sys.executable] + [str(part) for part in command], capture_output=True, text=True,
                          cwd=str(cwd), env=env, timeout=600)


def _said(process) -> set:
    """What a tool says about the files: notices (ignored entries, a wrapping folder) and warnings."""
    lines = (process.stdout + process.stderr).splitlines()
    return {line for line in lines if ": warning: " in line or ": ignored" in line or "wraps its files" in line}


@pytest.mark.parametrize("packaging", ["flat", "wrapped folder", "no directory entries", "__MACOSX",
                                       "misnamed files", "BOM with CRLF", "offsets as strings",
                                       "one broken file", "notes beside the files"])
def test_the_three_tools_decide_alike_and_print_the_same_warnings(phase, tmp_path, packaging):
    public, files = phase
    archive = _write_zip(tmp_path / "submission.zip", packagings(files)[packaging])
    # the platform: the zip unpacked into res/, score.py on the phase's gold
    with zipfile.ZipFile(archive) as opened:
        opened.extractall(tmp_path / "input" / "res")
    os.symlink(REFERENCE, tmp_path / "input" / "ref")
    platform = _run(ROOT / "scoring_program" / "score.py", tmp_path / "input", tmp_path / "output", cwd=tmp_path)
    local = _run(KIT / "score_locally.py", archive, "--ref", REFERENCE, "--out", tmp_path / "out",
                 "--resamples", 0, cwd=tmp_path)
    checked = _run(KIT / "check_format.py", archive, "--public", public, cwd=tmp_path)
    # check_format exits 1 when a file meant for a track was ignored: the platform accepts it
    expected_check = 1 if packaging == "misnamed files" else platform.returncode
    assert platform.returncode == local.returncode and checked.returncode == expected_check, (
        platform.stderr, local.stderr, checked.stderr)
    assert "Traceback" not in platform.stderr + local.stderr + checked.stderr
    said = _said(platform)
    assert _said(local) == said and _said(checked) == said, (said, _said(local), _said(checked))
    expected_notes = {
        "wrapped folder": "wraps its files in the folder 'my_submission'",
        "no directory entries": "wraps its files in the folder 'my_submission'",
        "__MACOSX": "wraps its files in the folder 'my_submission'",
        "misnamed files": "semeval2021_t6_task1.json: ignored (not a file name of this competition); found "
                          "semeval2021_t6_task1.json; expected semeval2021_t6_st1.json",
        "offsets as strings": "semeval2021_t6_st2.json: warning: ",
        "notes beside the files": "notes/: ignored",
    }
    if packaging in expected_notes:
        assert any(expected_notes[packaging] in line for line in said), said
    if packaging == "one broken file":
        verdict = checked.stderr.strip().splitlines()[-1]
        assert platform.returncode == 1 and "FAIL" in verdict and "nlp4if2019_flc.tsv" in verdict
        return
    assert platform.returncode == 0, platform.stderr
    last = {name: run.stdout.strip().splitlines()[-1] for name, run in (("local", local), ("checked", checked))}
    if packaging in ("misnamed files", "notes beside the files"):
        for line in last.values():  # accepted, but never for every file when a file was ignored: it says which
            assert line.startswith("platform: ") and "accepted" in line and "NOT " in line, line
        assert "NOT scored" not in last["checked"]  # check_format prints no score: it speaks of none
        assert "absita.ndjson" in last["checked"] or packaging != "misnamed files"
        assert "t6_st1: not entered" in checked.stdout or packaging != "misnamed files"
    else:
        for line in last.values():
            assert line.startswith("platform: ") and "accepted" in line and "NOT " not in line, line
    if packaging in ("flat", "BOM with CRLF", "wrapped folder"):  # the same scores, however packed
        assert (tmp_path / "out" / "scores.txt").read_text() == (tmp_path / "output" / "scores.txt").read_text()


# --- the kit's arguments: one line each, and no verdict on the submission -----------------------------

def test_items_that_is_a_file_is_one_line(phase, tmp_path):
    _, files = phase
    archive = _write_zip(tmp_path / "submission.zip", files)
    notes = tmp_path / "notes.txt"
    notes.write_text("mine\n")
    run = _run(KIT / "score_locally.py", archive, "--ref", REFERENCE, "--out", tmp_path / "out", "--items", notes,
               "--resamples", 0, cwd=tmp_path)
    assert run.returncode == 2 and notes.read_text() == "mine\n"
    (line,) = run.stderr.strip().splitlines()
    assert line.startswith("score_locally: --items %s " % notes) and "not a folder" in line
    under_a_file = _run(KIT / "score_locally.py", archive, "--ref", REFERENCE, "--out", tmp_path / "out",
                        "--items", notes / "items", "--resamples", 0, cwd=tmp_path)
    assert under_a_file.returncode == 2 and len(under_a_file.stderr.strip().splitlines()) == 1
    assert "--items %s" % (notes / "items") in under_a_file.stderr and "Not a directory" in under_a_file.stderr
    # score.py itself (organisers run it with --items too)
    (tmp_path / "input" / "res").mkdir(parents=True)
    os.symlink(REFERENCE, tmp_path / "input" / "ref")
    direct = _run(ROOT / "scoring_program" / "score.py", tmp_path / "input", tmp_path / "output", "--items", notes,
                  cwd=tmp_path)
    assert direct.returncode == 2 and direct.stderr.strip().splitlines() == [
        "--items %s exists and is not a folder; choose another folder" % notes]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_named_pipe_in_ref_is_one_line(phase, tmp_path):
    _, files = phase
    archive = _write_zip(tmp_path / "submission.zip", files)
    gold = tmp_path / "gold"
    gold.mkdir()
    (gold / ST1).write_bytes((REFERENCE / ST1).read_bytes())
    os.mkfifo(str(gold / "pipe"))
    run = _run(KIT / "score_locally.py", archive, "--ref", gold, "--out", tmp_path / "out", "--resamples", 0,
               cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "score_locally: --ref: %s is a named pipe (FIFO); the gold folder must hold regular files and folders "
        "only" % shown(str(gold / "pipe"))]  # (cut past 80 characters, as a deep temporary folder may be)
