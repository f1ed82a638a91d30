"""What the platforms do with our outputs: v1.5's detailed-results watcher, Codabench's ranking,
what a phase's detailed results show, and the checker catching what the real platforms would do."""

from __future__ import annotations

import concurrent.futures
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import PROGRAM, ROOT, run_score
from registry_inputs import ONE_SUBMITTED, STDLIB_REF, STDLIB_SUBMITTED

sys.path.insert(0, str(ROOT))

from bundle.checks.ranking import codabench_order, entry_ranking  # noqa: E402
from bundle.checks.report import Report  # noqa: E402
from bundle.checks.runs import judge_run  # noqa: E402
from bundle.checks.watcher import DetailedResultsWatcher  # noqa: E402
from bundle.checks.worker import Run  # noqa: E402
from scorer.run.workers import V15_WATCHER_WAIT_SECONDS, is_v15_worker_layout  # noqa: E402
from scorer.tracks.registry import ALL_KEYS, LOWER_IS_BETTER, TRACKS  # noqa: E402
from scorer.outputs.scores_files import not_entered_value  # noqa: E402



def _v15_run(tmp_path: Path, res, with_input_metadata: bool = True):
    """score.py in the v1.5 worker's layout with its watcher beside it, killed at the exit."""
    run = tmp_path / "run"
    for folder, files in (("ref", STDLIB_REF), ("res", res)):
        (run / "input" / folder).mkdir(parents=True)
        for name, content in files.items():
            (run / "input" / folder / name).parent.mkdir(parents=True, exist_ok=True)
            (run / "input" / folder / name).write_text(content, encoding="utf-8")
    if with_input_metadata:
        (run / "input" / "metadata").write_text("input: x\n")
    (run / "program").symlink_to(PROGRAM, target_is_directory=True)
    (run / "output").mkdir()
    page = run / "output" / "detailed_results.html"
    page.touch()  # the worker's empty placeholder
    watcher = DetailedResultsWatcher(str(page), latency=1.0)
    watcher.start()
    started = time.monotonic()
    process = subprocess.run([sys.executable, "-I", "-S", str(run / "program" / "score.py"), str(run / "input"),
                              str(run / "output")], cwd=str(run), capture_output=True, text=True)
    elapsed = time.monotonic() - started
    watcher.kill()
    return process, elapsed, page.read_bytes(), watcher.uploaded(), sorted(os.listdir(run / "output"))


def test_on_the_v15_worker_the_watcher_uploads_the_complete_page_on_every_exit_path(tmp_path):
    cases = {"scored": STDLIB_SUBMITTED,
             "refused": {"semeval2021_t6_st1.json": "[1, 2"},
             "no v1.5 layout": STDLIB_SUBMITTED}
    for name in cases:
        (tmp_path / name).mkdir()
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        futures = {name: pool.submit(_v15_run, tmp_path / name, res, name != "no v1.5 layout")
                   for name, res in cases.items()}
        results = {name: future.result() for name, future in futures.items()}
    for name in ("scored", "refused"):
        process, elapsed, final, uploaded, outputs = results[name]
        assert process.returncode == (0 if name == "scored" else 1), process.stderr
        assert elapsed >= V15_WATCHER_WAIT_SECONDS
        assert final and uploaded == final, (name, len(uploaded), len(final))
        assert outputs == ["detailed_results.html", "scores.json", "scores.txt"]
    # The control: without the wait, the watcher never sees the finished page.
    process, elapsed, final, uploaded, _ = results["no v1.5 layout"]
    assert process.returncode == 0  # (no wall-clock bound: the page it missed shows it did not wait)
    assert final and uploaded != final


def test_only_the_v15_layout_waits(tmp_path):
    run = tmp_path / "run"
    (run / "input").mkdir(parents=True)
    (run / "program").symlink_to(PROGRAM, target_is_directory=True)
    assert not is_v15_worker_layout(str(PROGRAM), str(run))  # no input/metadata
    (run / "input" / "metadata").write_text("x")
    assert is_v15_worker_layout(str(PROGRAM), str(run))
    assert not is_v15_worker_layout(str(tmp_path), str(run))  # run/program is another program
    other = tmp_path / "app"
    other.mkdir()
    (other / "program").symlink_to(PROGRAM, target_is_directory=True)
    (other / "input").mkdir()
    (other / "input" / "metadata").write_text("x")
    assert not is_v15_worker_layout(str(PROGRAM), str(other))  # Codabench's /app
    assert not is_v15_worker_layout(str(PROGRAM), str(PROGRAM))  # Codabench's cwd


def test_a_local_run_does_not_wait(tmp_path):
    """score.py outside the v1.5 worker's layout never sleeps (``time.sleep`` recorded, not timed)."""
    run = run_score(tmp_path, STDLIB_REF, ONE_SUBMITTED)
    assert run.returncode == 0, run.stderr
    probe = ("import runpy, sys, time\nslept = []\ntime.sleep = slept.append\nsys.argv = sys.argv[1:]\n"
             "try:\n    runpy.run_path(sys.argv[0], run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "print('SLEPT', slept)\n")
    base = run.output.parent
    process = subprocess.run([sys.executable, "-c", probe, str(PROGRAM / "score.py"), str(base / "input"),
                              str(base / "out2")], capture_output=True, text=True, cwd=str(base))
    assert "SLEPT []" in process.stdout, process.stdout + process.stderr


@pytest.mark.registry
def test_a_scores_only_phase_shows_the_leaderboard_scores_only(tmp_path):
    res = STDLIB_SUBMITTED
    full = run_score(tmp_path, STDLIB_REF, res)
    scores_only = run_score(tmp_path, dict(STDLIB_REF, **{"scoring_config.json": '{"detailed_results": "scores"}'}), res)
    assert full.returncode == scores_only.returncode == 0
    assert full.all_scores == scores_only.all_scores
    full_page = (full.output / "detailed_results.html").read_text(encoding="utf-8")
    page = (scores_only.output / "detailed_results.html").read_text(encoding="utf-8")
    assert '<th class="label sticky">technique</th>' in full_page and "<th>detail</th>" in full_page
    assert "technique</th>" not in page and "<th>detail</th>" not in page
    assert "leaderboard scores only" in page
    for key in scores_only.scores:
        assert key in page
    bad = run_score(tmp_path, dict(STDLIB_REF, **{"scoring_config.json": '{"detailed_results": "all"}'}), res)
    assert bad.returncode == 1 and "detailed_results must be" in bad.stderr


# --- ranking ---------------------------------------------------------------------------------------

COLUMNS = [{"key": key, "index": index, "sorting": "asc" if key in LOWER_IS_BETTER else "desc"}
           for index, key in enumerate(ALL_KEYS)]
BOARD = {"columns": COLUMNS, "primary_index": 0}
V15_COLUMNS = {key: {"sort": "asc" if key in LOWER_IS_BETTER else "desc"} for key in ALL_KEYS}
TRACK_KEYS = {track.name: list(track.keys) for track in TRACKS}
FULL = {key: 0.5 for key in ALL_KEYS}


def _single(track, with_not_entered=True):
    return {key: 0.9 if key in TRACK_KEYS[track] else not_entered_value(key)
            for key in ALL_KEYS if with_not_entered or key in TRACK_KEYS[track]}


def test_codabench_orders_a_missing_primary_score_first():
    """PostgreSQL: NULL sorts first in a descending order, which is why every key is written."""
    rows = [("entrant", {"t6_st1_f1_micro": 0.1}), ("absent", {})]
    assert codabench_order(rows, COLUMNS, 0) == ["absent", "entrant"]
    rows = [("entrant", {"t6_st1_f1_micro": 0.1}), ("not entered", {"t6_st1_f1_micro": -1.0})]
    assert codabench_order(rows, COLUMNS, 0) == ["entrant", "not entered"]


@pytest.mark.registry
def test_the_checker_passes_not_entered_values_and_fails_absent_keys():
    _, wrong = entry_ranking(FULL, {track: _single(track) for track in TRACK_KEYS}, TRACK_KEYS, BOARD, V15_COLUMNS)
    assert not wrong, wrong
    _, wrong = entry_ranking(FULL, {track: _single(track, False) for track in TRACK_KEYS}, TRACK_KEYS, BOARD,
                             V15_COLUMNS)
    assert any(re.search(r"only-\w+ ranks first", line) for line in wrong), wrong
    assert any("default board" in line for line in wrong)


def test_the_checker_fails_extra_outputs_and_an_incomplete_v15_page():
    run = Run("v1.5, phase Development, sample submission")
    run.returncode, run.scores = 0, dict(FULL)
    run.outputs = ["detailed_results.html", "private", "scores.json", "scores.txt"]
    run.page, run.uploaded_page = b"<html>complete</html>", b""
    report = Report()
    judge_run(run, True, report)
    assert any("output/ must hold only" in line for line in report.problems)
    assert any("watcher uploaded 0 of" in line for line in report.problems)
