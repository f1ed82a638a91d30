"""rank_submissions.py's reference rows and board ids: the starting kit's baselines, written from the
gold --ref gives and scored on it, are marked rows of every table that take no rank and no group
and move nobody's; --baseline-owner naming an account with no submission says so; --migrated
names each ranked row's copy on the next phase's board (same owner, same prediction files)."""

from __future__ import annotations

import contextlib
import io
import re
import sys
import zipfile

import pytest

from conftest import ROOT
from test_rank_submissions import DEV, codabench_bulk, kit_baseline_folders, read_table, setup  # noqa: F401
from scorer.outputs.resampling import LEADERBOARDS
from scorer.tracks.registry import BY_NAME

sys.path.insert(0, str(ROOT))
import rank_submissions  # noqa: E402

RANKED = ("rank", "rank_low", "rank_high", "group")


def _rank(download, out, *more) -> int:
    return rank_submissions.main([str(download), "--ref", str(DEV), "--out", str(out), "--resamples", "100",
                                  "--quiet"] + list(more))


@pytest.fixture(scope="module")
def with_and_without(codabench_bulk, tmp_path_factory):  # noqa: F811
    base = tmp_path_factory.mktemp("kit")
    capture = base / "stderr.txt"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert _rank(codabench_bulk, base / "with", "--baseline-owner", "organiser") == 0
    capture.write_text(err.getvalue(), encoding="utf-8")
    assert _rank(codabench_bulk, base / "without", "--no-kit-baselines") == 0
    return base


def test_an_evaluation_download_without_an_organiser_submission_has_the_kits_baselines(with_and_without, setup,
                                                                                        tmp_path):  # noqa: F811
    kit = kit_baseline_folders(setup[0] / "public", tmp_path / "kit")
    majority_files = {path.name for path in kit["kit: majority"].iterdir()}
    for board, track, _, _ in LEADERBOARDS:
        rows = read_table(with_and_without / "with" / ("%s.csv" % board))
        baselines = {row["name"]: row for row in rows if row["baseline"] == "yes"}
        expected = {"Random baseline"} | ({"Majority baseline"} if BY_NAME[track].filename in majority_files else set())
        assert set(baselines) == expected, board
        assert all(row[column] == "" for row in baselines.values() for column in RANKED), board
        assert "p_vs_Random baseline" in rows[0]


def test_the_kits_baselines_move_nobody(with_and_without):
    for board, _, _, _ in LEADERBOARDS:
        kept = [{key: value for key, value in row.items() if not key.startswith("p_vs_")}
                for row in read_table(with_and_without / "with" / ("%s.csv" % board)) if row["baseline"] != "yes"]
        assert kept == read_table(with_and_without / "without" / ("%s.csv" % board)), board


def test_the_paper_tables_mark_the_kits_baselines(with_and_without):
    md = (with_and_without / "with" / "results.md").read_text(encoding="utf-8")
    assert re.search(r"^\|\s+–\s+\| Random baseline\s+\| kit: random, seed 42\s+\|.*\|\s+–\s+\|\s+–\s+\|", md, re.M)
    tex = (with_and_without / "with" / "results.tex").read_text(encoding="utf-8")
    assert re.search(r"^-- & \\raggedright Random baseline & .* & \[[0-9.]+, [0-9.]+\] & -- & -- ", tex, re.M)
    html = (with_and_without / "with" / "index.html").read_text(encoding="utf-8")
    assert "Random baseline" in html and "Majority baseline" in html


def test_a_baseline_owner_with_no_submission_is_said_in_one_line(with_and_without):
    lines = (with_and_without / "stderr.txt").read_text(encoding="utf-8").splitlines()
    said = [line for line in lines if "--baseline-owner" in line]
    assert said == ["rank_submissions: warning: --baseline-owner organiser: the download holds no submission of this "
                    "account (phase 77), so no row is its baseline; the starting kit's are (written from --ref)"]


# --- the migrated copies ----------------------------------------------------------------------------

def _next_phase_member(identifier: int, owner: str, file: str = "predictions.zip") -> str:
    return "%d_%s_PhaseId78_2026-12-01_%02d-00_%s" % (identifier, owner, identifier % 60, file)


def test_migrated_names_each_rows_copy_on_the_next_phases_board(setup, codabench_bulk, tmp_path, capsys):  # noqa: F811
    """alice_x's ranked 482 was copied as 601, which failed on the placeholder and was re-run as
    603; she then submitted another file (604); bob_the_builder's 483 was copied as 602; carol's
    485 was not copied (the same file as 482, but another owner's copy is not hers)."""
    submissions = setup[1]
    post = tmp_path / "post_evaluation.zip"
    with zipfile.ZipFile(post, "w") as archive:
        archive.write(submissions / "random_2.zip", _next_phase_member(601, "alice_x"))
        archive.write(submissions / "random_3.zip", _next_phase_member(602, "bob_the_builder"))
        archive.write(submissions / "random_2.zip", _next_phase_member(603, "alice_x"))
        archive.write(submissions / "random_1.zip", _next_phase_member(604, "alice_x", "better.zip"))
    out = tmp_path / "out"
    assert _rank(codabench_bulk, out, "--migrated", str(post), "--no-kit-baselines") == 0
    for board, _, _, _ in LEADERBOARDS:
        rows = read_table(out / ("%s.csv" % board))
        assert sorted((row["owner"], row["submission"], row["migrated_submission"]) for row in rows) == [
            ("alice_x", "482", "603"), ("bob_the_builder", "483", "602"), ("carol", "485", "")], board
    warned = [line for line in capsys.readouterr().err.splitlines() if "--migrated" in line]
    assert len(warned) == 1 and "carol" in warned[0] and "485" in warned[0]  # the row without a copy
    with pytest.raises(SystemExit) as refused:
        _rank(codabench_bulk, tmp_path / "again", "--migrated", str(codabench_bulk))
    assert "PhaseId 77" in str(refused.value.code)  # the phase both downloads are of
    assert not (tmp_path / "again" / "t6_st1.csv").exists()
