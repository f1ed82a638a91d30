"""Every attack of ``tests/attacks.py`` run as the platform runs score.py.

Each row: the expected exit status, its line in stderr (or stdout for a valid file), no
traceback or "internal error", peak RSS within 5 x the submission + 100 MiB, stderr within
64 KiB and detailed_results.html within 256 KiB. Sizes are small here (3 MB: enough to pass
every per-record bound); ``benchmarks/run.py`` runs the same rows at 50 MB. Time is only a hang
guard.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import zipfile

import pytest

from attacks import ATTACKS, HTML_LIMIT, STDERR_LIMIT, measure, memory_budget_mib, stage_gold
from conftest import PROGRAM, ROOT
from test_hostile import GOLD

SIZE = 3 * 1000 * 1000
HANG_GUARD_SECONDS = 60
KIT = ROOT / "starting_kit"


@pytest.mark.parametrize("attack", ATTACKS, ids=[attack.name for attack in ATTACKS])
def test_attack(tmp_path, attack):
    folder = str(tmp_path / "input")
    stage_gold(folder, GOLD)
    attack.write(folder, SIZE)
    run = measure(str(PROGRAM / "score.py"), folder, str(tmp_path / "output"), timeout=HANG_GUARD_SECONDS)
    assert run.code == attack.exit_code, (run.code, run.stdout[-2000:], run.stderr[-2000:])
    shown = run.stderr if attack.exit_code else run.stdout
    assert attack.fragment in shown, (attack.fragment, shown[-3000:])
    for text in (run.stdout, run.stderr):
        assert "Traceback" not in text and "internal error" not in text
    assert len(run.stderr.encode("utf-8")) <= STDERR_LIMIT
    assert run.html_bytes <= HTML_LIMIT
    assert run.peak_mib <= memory_budget_mib(run.submission_bytes), (run.peak_mib, run.submission_bytes)
    if attack.exit_code:  # one line per problem, each naming the file (or the submission)
        assert all(line.startswith(("semeval2021_", "nlp4if2019_", "aicup2022_", "evalita2020_", "submission: ", "... and "))
                   for line in run.stderr.splitlines()), run.stderr[-2000:]


def test_unreadable_file_is_one_line(tmp_path, monkeypatch):
    """(As root every file is readable: the permission check is simulated.)"""
    from scorer.run import submission
    from scorer.readers.problems import SubmissionError
    from scorer.tracks.registry import TRACKS
    res = tmp_path / "res"
    res.mkdir()
    (res / "semeval2021_t6_st1.json").write_text("[]")
    monkeypatch.setattr(submission.os, "access", lambda path, mode: False)
    with pytest.raises(SubmissionError) as caught:
        submission.locate_submission(str(res), TRACKS)
    assert caught.value.lines == ["semeval2021_t6_st1.json: cannot be read (permission denied); "
                                  "only regular files are read"]


def test_a_file_that_cannot_be_opened_is_one_line(tmp_path, monkeypatch):
    from scorer.readers import files
    from scorer.readers.json_list import iter_json_values
    from scorer.readers.problems import SubmissionError
    path = tmp_path / "x.json"
    path.write_text("[]")

    def refuse(*args):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(files.os, "open", refuse)
    with pytest.raises(SubmissionError) as caught:
        list(iter_json_values(str(path), "x.json", 100))
    assert caught.value.lines == ["x.json: cannot be read (Permission denied)"]


def test_attacks_cover_every_track():
    names = {os.path.splitext(track)[0] for track in GOLD}
    assert len(ATTACKS) >= 30 and names


# --- 6. the starting kit's tools: one line for every broken archive or folder, never a traceback ---

def _zip(path, entries, compression=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", compression=compression) as archive:
        for name, data in entries:
            archive.writestr(name, data)
    return path


def _patched(path, old, new, count=2):
    data = path.read_bytes()
    assert data.count(old) >= 1
    path.write_bytes(data.replace(old, new, count))
    return path


def _bad_crc(tmp):
    path = _zip(tmp / "s.zip", [(ST1_NAME, VALID_ST1)], zipfile.ZIP_STORED)
    return _patched(path, b'"Smears"', b'"Smeart"', 1)


def _flag(tmp, offset_name, value):
    """Set a field of both headers (local at 6/8, central at 8/10) of a one-entry zip."""
    path = _zip(tmp / "s.zip", [(ST1_NAME, VALID_ST1)])
    data = bytearray(path.read_bytes())
    local, central = data.find(b"PK\x03\x04"), data.find(b"PK\x01\x02")
    field = {"flags": (6, 8), "method": (8, 10)}[offset_name]
    for header, at in ((local, field[0]), (central, field[1])):
        data[header + at:header + at + 2] = struct.pack("<H", value)
    path.write_bytes(bytes(data))
    return path


def _fifo_folder(tmp):
    folder = tmp / "sub"
    folder.mkdir()
    os.mkfifo(str(folder / ST1_NAME))
    return folder


def _dangling_folder(tmp):
    folder = tmp / "sub"
    folder.mkdir()
    os.symlink(str(tmp / "nowhere"), str(folder / ST1_NAME))
    return folder


def _bomb(tmp):
    path = tmp / "bomb.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        with archive.open(ST1_NAME, "w", force_zip64=True) as entry:
            block = b"\0" * (1 << 20)
            for _ in range(201):
                entry.write(block)
    return path


ST1_NAME = "semeval2021_t6_st1.json"
VALID_ST1 = '[{"id": "1", "labels": ["Smears"]}, {"id": "2", "labels": []}]'
KIT_CASES = [
    ("bad CRC", _bad_crc, "cannot be unpacked (Bad CRC-32"),
    ("encryption flag", lambda tmp: _flag(tmp, "flags", 1), "is encrypted"),
    ("deflate64", lambda tmp: _flag(tmp, "method", 9), "compressed with method 9"),
    ("a folder and a file of the same name", lambda tmp: _zip(tmp / "s.zip", [("a", "x"), ("a/b", "y")]),
     "'a' is both a file and a folder"),
    ("an over-long name", lambda tmp: _zip(tmp / "s.zip", [("x" * 300 + ".json", "[]")]), "longer than 255 bytes"),
    ("a name marked UTF-8 that is not", lambda tmp: _patched(_zip(tmp / "s.zip", [("\u00e9.json", "[]")]),
                                                              b"\xc3\xa9.json", b"\xc3(.json"), "is marked UTF-8"),
    ("a control character in a name", lambda tmp: _zip(tmp / "s.zip", [("a\nb.json", "[]")]), "control characters"),
    ("a FIFO in a folder", _fifo_folder, "is a named pipe (FIFO)"),
    ("a dangling link in a folder", _dangling_folder, "is a symbolic link"),
    ("not a zip", lambda tmp: (tmp / "s.zip").write_text("plain") and tmp / "s.zip", "is not a zip file"),
    ("a zip bomb", _bomb, "unpacks to 210763776 bytes; the scoring program reads files of at most"),
]


def _gold_folder(tmp):
    gold = tmp / "gold"
    for name, content in GOLD.items():
        (gold / name).parent.mkdir(parents=True, exist_ok=True)
        (gold / name).write_text(content, encoding="utf-8")
    return gold


def _public_folder(tmp):
    public = tmp / "public"
    public.mkdir()
    (public / ST1_NAME).write_text(GOLD[ST1_NAME], encoding="utf-8")
    return public


@pytest.mark.parametrize("tool", ["score_locally.py", "check_format.py"])
@pytest.mark.parametrize("case", KIT_CASES, ids=[case[0] for case in KIT_CASES])
def test_kit_tools_name_every_broken_archive(tmp_path, tool, case):
    _, make, fragment = case
    submission = make(tmp_path)
    extra = ["--ref", str(_gold_folder(tmp_path)), "--out", str(tmp_path / "out")] if tool == "score_locally.py" \
        else ["--public", str(_public_folder(tmp_path))]
    process = subprocess.run([sys.executable, str(KIT / tool), str(submission)] + extra,
                             capture_output=True, text=True, timeout=120)
    assert process.returncode == 2, (process.stdout, process.stderr)
    assert "Traceback" not in process.stderr and len(process.stderr.splitlines()) == 1, process.stderr
    assert fragment in process.stderr, process.stderr


def test_score_locally_never_deletes_a_folder_it_did_not_make(tmp_path):
    gold = _gold_folder(tmp_path)
    submission = _zip(tmp_path / "s.zip", [(ST1_NAME, VALID_ST1)])
    mine = tmp_path / "my_folder"
    mine.mkdir()
    (mine / "thesis.tex").write_text("years of work")
    command = [sys.executable, str(KIT / "score_locally.py"), str(submission), "--ref", str(gold)]
    refused = subprocess.run(command + ["--out", str(mine)], capture_output=True, text=True)
    assert refused.returncode == 2 and "--out %s" % mine in refused.stderr and "\n" not in refused.stderr.strip()
    assert (mine / "thesis.tex").read_text() == "years of work"
    for _ in range(2):  # its own folder: made, then replaced by the next run
        made = subprocess.run(command + ["--out", str(tmp_path / "out")], capture_output=True, text=True)
        assert made.returncode == 0, made.stderr
    assert (tmp_path / "out" / "scores.txt").exists()
