"""The detailed results' intervals and per-track tables (issue 24): every ranking score's 95%
bootstrap interval on the Development page equals score_locally.py's; the Test page ("scores")
shows none of them."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT, nltk_data_dir, run_score
from scorer.registry import TRACKS

REFERENCE = ROOT / "reference_data" / "dev"


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """The sample submission (the baselines on the Development public data) as files and a zip."""
    from bundle.public_data import derive_public_data
    from baselines import write_submission
    folder = tmp_path_factory.mktemp("sample")
    derive_public_data(str(REFERENCE), str(folder / "public"))
    write_submission(str(folder / "public"), str(folder / "files"))
    files = {path.name: path for path in sorted((folder / "files").iterdir())}
    with zipfile.ZipFile(folder / "submission.zip", "w") as archive:
        for name, path in files.items():
            archive.write(path, name)
    return files, folder / "submission.zip"


def page_intervals(html: str):
    return {key: (value, float(low), float(high)) for key, value, low, high in re.findall(
        r'<tr><td class="key">([a-z0-9_]+)</td><td>([0-9.]+)</td><td data-v="([^"]+)">[0-9.]+</td>'
        r'<td data-v="([^"]+)">[0-9.]+</td></tr>', html)}


def development_reference():
    """The Development phase's reference data as the build writes it: the gold and the phase's settings."""
    reference = {path.name: path for path in REFERENCE.iterdir()}
    reference["scoring_config.json"] = ROOT / "phase_settings" / "dev.json"
    return reference


def test_the_development_page_shows_the_intervals_score_locally_prints(sample, tmp_path):
    files, archive = sample
    run = run_score(tmp_path, development_reference(), files)
    assert run.returncode == 0, run.stderr
    html = (run.output / "detailed_results.html").read_text(encoding="utf-8")
    shown = page_intervals(html)
    ranked = [key for track in TRACKS for _, key in track.leaderboards]
    assert sorted(shown) == sorted(ranked)
    assert html.count("Signature: <code>ci95|bootstrap:1000|seed:0</code>") == len(TRACKS)
    env = dict(__import__("os").environ)
    if nltk_data_dir() is not None:
        env.setdefault("NLTK_DATA", str(nltk_data_dir()))
    local = subprocess.run([sys.executable, str(ROOT / "starting_kit" / "score_locally.py"), str(archive), "--ref",
                            str(REFERENCE), "--out", str(tmp_path / "out")], capture_output=True, text=True, env=env)
    # (the gold without the phase's settings: score_locally.py draws its intervals itself)
    assert local.returncode == 0, local.stderr
    printed = {key: (value, low, high) for key, value, low, high in re.findall(
        r"^([a-z0-9_]+): ([0-9.]+), 95% confidence interval \[([0-9.]+), ([0-9.]+)\] \(1000 resamples", local.stdout,
        re.M)}
    assert sorted(printed) == sorted(ranked)
    for key, (value, low, high) in shown.items():
        assert printed[key] == (value, "%.6f" % low, "%.6f" % high), key
        assert low <= float(value) <= high or key == "sa_rmse", key


def test_the_test_page_shows_none_of_the_new_tables(sample, tmp_path):
    files, _ = sample
    reference = development_reference()
    reference["scoring_config.json"] = ROOT / "phase_settings" / "test.json"
    run = run_score(tmp_path, reference, files)
    assert run.returncode == 0, run.stderr
    html = (run.output / "detailed_results.html").read_text(encoding="utf-8")
    assert "interval" not in html and "<h3>" not in html
    assert page_intervals(html) == {}


def test_a_phase_too_large_for_the_page_says_where_the_intervals_are(sample, tmp_path, monkeypatch):
    from scorer import resampling
    from scorer.in_process import score_in_process
    from scorer.report import render_html
    files, _ = sample
    work = tmp_path / "input"
    shutil.copytree(REFERENCE, work / "ref")
    (work / "res").mkdir()
    for name, path in files.items():
        shutil.copyfile(path, work / "res" / name)
    results = score_in_process(str(work / "ref"), str(work / "res"), str(ROOT / "scoring_program"))[0]
    result = results["absita"]
    assert resampling.ranking_intervals(result, max_work=resampling.interval_work(
        resampling.item_statistics(result)) - 1) is None
    html = render_html([result], [], intervals={"absita": None})
    assert "95% intervals: not computed on this page" in html and "score_locally.py prints them" in html
