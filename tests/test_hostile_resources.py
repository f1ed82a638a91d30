"""Issue 13: every attack of ``tests/attacks.py`` run as the platform runs score.py.

Each row: the expected exit status, its line in stderr (or stdout for a valid file), no
traceback or "internal error", peak RSS within 5 x the submission + 100 MiB, stderr within
64 KiB and detailed_results.html within 256 KiB. Sizes are small here (3 MB: enough to pass
every per-record bound); ``benchmarks/run.py`` runs the same rows at 50 MB. Time is only a hang
guard.
"""

from __future__ import annotations

import os

import pytest

from attacks import ATTACKS, HTML_LIMIT, STDERR_LIMIT, measure, memory_budget_mib, stage_gold
from conftest import PROGRAM
from test_hostile import GOLD

SIZE = 3 * 1000 * 1000
HANG_GUARD_SECONDS = 60


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
    if attack.exit_code:  # one line per problem, each naming the file (or res/)
        assert all(line.startswith(("semeval2021_", "nlp4if2019_", "aicup2022_", "evalita2020_", "res/", "... and "))
                   for line in run.stderr.splitlines()), run.stderr[-2000:]


def test_unreadable_file_is_one_line(tmp_path, monkeypatch):
    """(As root every file is readable: the permission check is simulated.)"""
    from scorer import submission
    from scorer.problems import SubmissionError
    from scorer.registry import TRACKS
    res = tmp_path / "res"
    res.mkdir()
    (res / "semeval2021_t6_st1.json").write_text("[]")
    monkeypatch.setattr(submission.os, "access", lambda path, mode: False)
    with pytest.raises(SubmissionError) as caught:
        submission.locate_submission(str(res), TRACKS)
    assert caught.value.lines == ["semeval2021_t6_st1.json: cannot be read (permission denied); "
                                  "only regular files are read"]


def test_a_file_that_cannot_be_opened_is_one_line(tmp_path, monkeypatch):
    from scorer import readers
    from scorer.problems import SubmissionError
    path = tmp_path / "x.json"
    path.write_text("[]")

    def refuse(*args):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(readers.os, "open", refuse)
    with pytest.raises(SubmissionError) as caught:
        list(readers.iter_json_list(str(path), "x.json", 100))
    assert caught.value.lines == ["x.json: cannot be read (Permission denied)"]


def test_attacks_cover_every_track():
    names = {os.path.splitext(track)[0] for track in GOLD}
    assert len(ATTACKS) >= 30 and names
