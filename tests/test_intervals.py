"""The Development page's intervals (``scorer/outputs/resampling.py``) on the public path: for every
registered track, the 95% intervals on ``score.py``'s page and in ``score_locally.py``'s lines equal
the organisers' ``rank_submissions.py`` statistics (``ranking.statistics.build_board``, numpy) over
the same resamples, to 1e-12 (the standard library sums floats with ``math.fsum``, numpy with its
own rounding: ``scoring_program/POLICY.md``); a phase too large for the page's bound draws fewer
resamples and says how many; the page is the same bytes on every Python 3.7-3.13 found.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, nltk_data_dir, run_score
from scorer.tracks.registry import BY_NAME, TRACKS

sys.path.insert(0, str(ROOT))
from ranking.downloads import Entry  # noqa: E402
from ranking.scoring import score_entry  # noqa: E402
from ranking.statistics import build_board  # noqa: E402

PROGRAM_DIR = str(ROOT / "scoring_program")
DEV = ROOT / "reference_data" / "dev"
DEV_SETTINGS = ROOT / "phase_settings" / "dev.json"


def page_intervals(html):
    """key -> (low, high) of every interval table on a page (their exact values, data-v)."""
    return {key: (float(low), float(high)) for key, low, high in re.findall(
        r'<tr><td class="key">([a-z0-9_]+)</td><td>[0-9.]+</td><td data-v="([^"]+)">[0-9.]+</td>'
        r'<td data-v="([^"]+)">[0-9.]+</td></tr>', html)}


def organisers_intervals(reference, submission, resamples, seed=0, keys=None):
    """key -> (low, high) as rank_submissions.py computes them for one submission: each ranking key
    of the tracks it entered (or ``keys``: track -> the keys)."""
    scored = score_entry(Entry("s", "s", str(submission)), str(reference))
    assert not scored.problems, scored.problems
    found = {}
    for track, scores in scored.scores.items():
        view = BY_NAME[track]
        if keys is not None and track not in keys:
            continue
        for key in keys[track] if keys is not None else [key for _, key in view.leaderboards if key in scores]:
            board = build_board(key, track, key, key not in view.lower_is_better, [scored], resamples, seed,
                                "bootstrap")
            found[key] = (float(board.ci[0][0]), float(board.ci[0][1]))
    return found


def assert_close(found, expected):
    assert sorted(found) == sorted(expected)
    for key, (low, high) in expected.items():
        assert found[key] == pytest.approx((low, high), rel=0, abs=1e-12), key


def _env():
    env = dict(os.environ)
    if nltk_data_dir() is not None:
        env.setdefault("NLTK_DATA", str(nltk_data_dir()))
    return env


@pytest.mark.registry
@pytest.mark.parametrize("track", [track.name for track in TRACKS])
def test_the_page_and_score_locally_show_the_organisers_intervals(track, tmp_path):
    """The track's benchmark input at the task's size (nlu: 2,016 ids) in a Development phase: the
    page shows every ranking key's interval from the phase's 1,000 resamples (or, for a task whose
    items and columns pass the page's bound, from the fewer it says it drew), score_locally.py
    prints the same, and both are the organisers' tool's over as many resamples."""
    base = tmp_path / "phase"
    (base / "ref").mkdir(parents=True)
    (base / "res").mkdir()
    BY_NAME[track].write_benchmark_input(str(base), 1, random.Random(1))
    for name, data in BY_NAME[track].reference_data_extras(str(base / "ref")).items():  # as the build adds them
        (base / "ref" / name).write_bytes(data)
    gold = {path.name: path for path in (base / "ref").iterdir()}
    run = run_score(tmp_path, dict(gold, **{"scoring_config.json": DEV_SETTINGS}),
                    {path.name: path for path in (base / "res").iterdir()})
    assert run.returncode == 0, run.stderr
    html = (run.output / "detailed_results.html").read_text(encoding="utf-8")
    drawn = drawn_per_track(html)[track]
    assert drawn == 1000 or "This phase asks for 1000 resamples" in html, drawn
    shown = page_intervals(html)
    assert_close(shown, organisers_intervals(base / "ref", base / "res", drawn))
    local = subprocess.run([sys.executable, str(ROOT / "starting_kit" / "score_locally.py"), str(base / "res"),
                            "--ref", str(base / "ref"), "--out", str(tmp_path / "out")],
                           capture_output=True, text=True, env=_env())
    assert local.returncode == 0, local.stderr
    printed = {key: (low, high) for key, low, high in re.findall(
        r"^([a-z0-9_]+): [0-9.]+, 95%% confidence interval \[([0-9.]+), ([0-9.]+)\] \(%d resamples" % drawn,
        local.stdout, re.M)}
    assert printed == {key: ("%.6f" % low, "%.6f" % high) for key, (low, high) in shown.items()}


def test_every_key_of_every_track_on_the_development_sample(tmp_path):
    """Every score key (not only the ranking ones) of a random baseline of every track, on the
    repository's development sample, over 200 resamples of another seed."""
    from baselines import write_submission
    from bundle.public_data import derive_public_data
    from scorer.outputs.resampling import bootstrap_intervals
    from scorer.run.in_process import score_in_process
    derive_public_data(str(DEV), str(tmp_path / "public"))
    write_submission(str(tmp_path / "public"), str(tmp_path / "random"), seed=1)
    results, _, _ = score_in_process(str(DEV), str(tmp_path / "random"), PROGRAM_DIR)
    assert sorted(results) == sorted(track.name for track in TRACKS)
    keys = {track: list(result.scores) for track, result in results.items()}
    expected = organisers_intervals(DEV, tmp_path / "random", 200, seed=3, keys=keys)
    found = {}
    for track, result in results.items():
        drawn, intervals = bootstrap_intervals(result.statistics, keys[track], 200, 3)
        assert drawn == 200
        found.update(intervals)
    assert_close(found, expected)


def _found(reference, submission, resamples, tmp_path):
    """The outputs of a run (``run_outputs.write_outputs``) of ``submission`` on ``reference`` with
    full detail and ``resamples`` intervals: the page's text."""
    from scorer.outputs.run_outputs import RunFindings, write_outputs
    from scorer.readers.options import Options
    from scorer.run.in_process import score_in_process
    results, refused, problems = score_in_process(str(reference), str(submission), PROGRAM_DIR)
    assert results and not refused and not problems
    tmp_path.mkdir()
    found = RunFindings(str(tmp_path), None)
    found.results = [results[track.name] for track in TRACKS if track.name in results]
    found.phase_tracks = found.submitted = [result.track for result in found.results]
    found.options = Options(detailed_results="full", interval_resamples=resamples)
    write_outputs(found)
    return (tmp_path / "detailed_results.html").read_text(encoding="utf-8")


def drawn_per_track(html):
    """track -> the resamples its intervals were drawn from (the signature under its table)."""
    return {track: int(count) for track, count in re.findall(
        r'id="([a-z0-9_]+)-intervals".*?ci95\|bootstrap:(\d+)\|seed:0', html, re.S)}


def test_a_phase_too_large_for_the_bound_draws_fewer_resamples_and_says_so(tmp_path, monkeypatch, capsys):
    """Under a bound smaller than the sample's cost, a track draws fewer resamples (never fewer than
    100: all of them under the smallest bound), its page and signature say how many, and its
    intervals are the organisers' over as many resamples."""
    from baselines import write_submission
    from bundle.public_data import derive_public_data
    from scorer.outputs import run_outputs
    from scorer.outputs.resampling import MIN_INTERVAL_RESAMPLES
    derive_public_data(str(DEV), str(tmp_path / "public"))
    write_submission(str(tmp_path / "public"), str(tmp_path / "random"), seed=2)
    whole = _found(DEV, tmp_path / "random", 1000, tmp_path / "whole")
    assert drawn_per_track(whole) == {track.name: 1000 for track in TRACKS}
    assert "This phase asks for" not in whole
    for bound in (50_000, 1):
        monkeypatch.setattr(run_outputs, "MAX_INTERVAL_SUMS", bound)
        html = _found(DEV, tmp_path / "random", 1000, tmp_path / ("bound-%d" % bound))
        drawn = drawn_per_track(html)
        assert sorted(drawn) == sorted(track.name for track in TRACKS)
        assert all(MIN_INTERVAL_RESAMPLES <= count <= 1000 for count in drawn.values()), drawn
        fewer = [track for track, count in drawn.items() if count < 1000]  # (a small sample's cost is under 50,000)
        assert fewer, drawn
        if bound == 1:
            assert set(drawn.values()) == {MIN_INTERVAL_RESAMPLES}
        assert html.count("This phase asks for 1000 resamples") == len(fewer)
        shown = page_intervals(html)
        for track, count in drawn.items():
            keys = [key for _, key in BY_NAME[track].leaderboards if key in shown]
            expected = organisers_intervals(DEV, tmp_path / "random", count, keys={track: keys})
            assert_close({key: shown[key] for key in keys}, expected)
    capsys.readouterr()


@pytest.mark.registry
def test_the_page_is_the_same_on_every_python(tmp_path):
    """score.py's Development page for a random baseline on the repository's development sample,
    on each Python 3.7-3.13 found: the same bytes (the draws of ``random.Random(seed).choices`` and
    the sums of ``math.fsum`` are the same on all)."""
    import json
    from baselines import write_submission
    from bundle.public_data import derive_public_data
    from registry_inputs import STDLIB_TRACKS
    from test_score_contract import _pythons
    derive_public_data(str(DEV), str(tmp_path / "public"))
    write_submission(str(tmp_path / "public"), str(tmp_path / "random"), seed=1)
    ref = tmp_path / "input" / "ref"
    shutil.copytree(str(DEV), str(ref))
    shutil.copyfile(str(DEV_SETTINGS), str(ref / "scoring_config.json"))
    res = ref.parent / "res"
    res.mkdir()
    for track in STDLIB_TRACKS:  # (the stock images have no nltk)
        shutil.copyfile(str(tmp_path / "random" / track.filename), str(res / track.filename))
    pages = set()
    for python in _pythons() or [sys.executable]:
        out = tmp_path / ("output-" + os.path.basename(os.path.dirname(os.path.dirname(python))))
        run = subprocess.run([python, str(ROOT / "scoring_program" / "score.py"), str(ref.parent), str(out)],
                             capture_output=True, text=True, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        assert run.returncode == 0, (python, run.stderr)
        page = (out / "detailed_results.html").read_text(encoding="utf-8")
        assert page.count("ci95|bootstrap:1000|seed:0") == len(STDLIB_TRACKS), python
        pages.add(page)
        assert json.loads((out / "scores.json").read_text(encoding="utf-8"))
    assert len(pages) == 1, "the pages differ"
