"""rank_submissions.py scores only what it can rank (``ranking.scoring.score_selected``): with
``--select last`` each participant's submissions from the latest backwards until one re-scores,
with ``--results`` the export's entries. The oracle: the same run with ``--score-all`` (every
submission scored, then ``selection.select``): every board, p-value and technique file byte for
byte; what was not re-scored is listed as not ranked, and says so."""

from __future__ import annotations

import json
import shutil
import sys
import zipfile

import pytest

from baselines import write_submission
from conftest import ROOT
from test_rank_submissions import read_table

sys.path.insert(0, str(ROOT))
import rank_submissions  # noqa: E402
from ranking import scoring  # noqa: E402

DEV = ROOT / "reference_data" / "dev"


def _member(identifier: int, owner: str) -> str:
    return "%d_%s_PhaseId77_2026-11-20_%02d-%02d_predictions.zip" % (identifier, owner, identifier % 60, identifier % 17)


@pytest.fixture(scope="module")
def bulk(tmp_path_factory):
    """Four participants: ann (3, the latest fails), ben (2), cat (1 that fails), dan (4, the two
    latest fail)."""
    from bundle.public_data import derive_public_data
    base = tmp_path_factory.mktemp("selected")
    derive_public_data(str(DEV), str(base / "public"))
    zips = []
    for seed in range(1, 7):
        folder = base / ("random_%d" % seed)
        write_submission(str(base / "public"), str(folder), seed=seed)
        target = base / ("random_%d.zip" % seed)
        with zipfile.ZipFile(target, "w") as archive:
            for path in sorted(folder.iterdir()):
                archive.write(path, path.name)
        zips.append(target)
    broken = base / "broken.zip"
    with zipfile.ZipFile(broken, "w") as archive:
        archive.writestr("semeval2021_t6_st1.json", '[{"id": "1", "labels": ["Smears"]},')
    plan = [(501, "ann", zips[0]), (502, "ann", zips[1]), (509, "ann", broken), (503, "ben", zips[2]),
            (505, "ben", zips[3]), (504, "cat", broken), (506, "dan", zips[4]), (507, "dan", zips[5]),
            (510, "dan", broken), (511, "dan", broken)]
    path = base / "bulk_submissions.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for identifier, owner, source in plan:
            archive.write(source, _member(identifier, owner))
    return base, path


def _run(bulk, out, *more):
    base, path = bulk
    shutil.rmtree(str(out), ignore_errors=True)
    assert rank_submissions.main([str(path), "--ref", str(DEV), "--out", str(out), "--resamples", "300",
                                  "--quiet"] + list(more)) == 0


def _boards(out):
    return {path.name: path.read_bytes() for path in sorted(out.iterdir())
            if path.suffix == ".csv" and path.name not in ("not_ranked.csv", "problems.csv")}


def test_select_last_scores_from_the_latest_backwards(bulk, tmp_path, monkeypatch):
    scored = []
    original = scoring.score_entry

    def counted(entry, *arguments):
        if not entry.baseline:  # (the kit's baselines are scored in every run)
            scored.append(entry.submission)
        return original(entry, *arguments)

    monkeypatch.setattr(scoring, "score_entry", counted)
    _run(bulk, tmp_path / "selected")
    assert sorted(scored) == ["502", "504", "505", "507", "509", "510", "511"]  # not 501, 503, 506
    scored.clear()
    _run(bulk, tmp_path / "all", "--score-all")
    assert len(scored) == 10
    boards = _boards(tmp_path / "selected")
    assert boards and boards == _boards(tmp_path / "all")
    not_ranked = {row["submission"]: row["why"] for row in read_table(tmp_path / "selected" / "not_ranked.csv")}
    for identifier, chosen in (("501", "502"), ("503", "505"), ("506", "507")):  # each names the ranked one
        assert "(ranked: %s)" % chosen in not_ranked[identifier] and "not re-scored" in not_ranked[identifier]
    problems = (tmp_path / "selected" / "problems.csv").read_text(encoding="utf-8")
    assert all(identifier in problems for identifier in ("504", "509", "510", "511"))


def test_results_export_scores_its_entries_only(bulk, tmp_path):
    export = {"Results - Test(77)": {"ann-501": {}, "ben-505": {}, "dan-510": {}}}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    _run(bulk, tmp_path / "selected", "--results", str(path), "--jobs", "2")
    _run(bulk, tmp_path / "all", "--results", str(path), "--score-all")
    boards = _boards(tmp_path / "selected")
    assert boards and boards == _boards(tmp_path / "all")
    not_ranked = (tmp_path / "selected" / "not_ranked.csv").read_text(encoding="utf-8")
    assert not_ranked.count("not on the leaderboard (results export); not re-scored") == 7
    problems = (tmp_path / "selected" / "problems.csv").read_text(encoding="utf-8")
    assert "510" in problems and "504" not in problems
