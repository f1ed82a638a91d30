"""rank_submissions.py --teams: a row names a submission by whatever its platform shows the
organiser (Codabench's submission id, the owner's user name, the participant's file name or the
bulk name; Codalab v1.5's own "<user> - <n>" of "<user> - <n> submission.zip"); a row that names no
submission, or the submissions of several participants, stops the run in one line before any
scoring; rows of Codabench's submissions export naming another phase's submissions are warnings."""

from __future__ import annotations

import sys
import zipfile

import pytest

from conftest import ROOT
from test_rank_submissions import DEV, codabench_bulk, read_table, setup  # noqa: F401 (the fixtures)

sys.path.insert(0, str(ROOT))
import rank_submissions  # noqa: E402


@pytest.fixture(scope="module")
def v15_bulk(setup, tmp_path_factory):  # noqa: F811
    """Codalab v1.5's leaderboard download: a user's and a team's submission."""
    submissions = setup[1]
    bulk = tmp_path_factory.mktemp("v15") / "Competition-ab12cd-12.zip"
    with zipfile.ZipFile(bulk, "w") as archive:
        archive.write(submissions / "random_1.zip", "alice - 1 submission.zip")
        archive.write(submissions / "random_2.zip", "Team Deep Memes  - 4 submission.zip")
    return bulk


def _rank(download, teams_text: str, out, *more) -> int:
    teams = out.parent / (out.name + "_teams.csv")
    teams.write_text(teams_text, encoding="utf-8")
    return rank_submissions.main([str(download), "--ref", str(DEV), "--out", str(out), "--teams", str(teams),
                                  "--resamples", "10", "--quiet", "--no-kit-baselines"] + list(more))


def _stopped(download, teams_text: str, out, capsys) -> str:
    with pytest.raises(SystemExit) as stopped:
        _rank(download, teams_text, out)
    message = str(stopped.value.code)
    assert message.startswith("rank_submissions: --teams ") and "\n" not in message
    assert "nothing was scored" in message and "scoring" not in capsys.readouterr().err
    assert not out.exists() or not any(out.iterdir())
    return message


def test_v15_s_own_names_of_a_submission_are_applied(v15_bulk, tmp_path):
    out = tmp_path / "out"
    assert _rank(v15_bulk, "submission,team\nalice - 1,Alpha\nTeam Deep Memes - 4,Memers\n", out) == 0
    assert sorted((row["team"], row["owner"]) for row in read_table(out / "t6_st1.csv")) == [
        ("Alpha", "alice"), ("Memers", "Team Deep Memes")]


def test_codabench_s_names_of_a_submission_are_applied(codabench_bulk, tmp_path):  # noqa: F811
    out = tmp_path / "out"
    # the id, the owner's user name, the participant's file name (490's: late.zip), the bulk name
    assert _rank(codabench_bulk, "483,Builders\ncarol,Carol's\nlate.zip,Late\n"
                                 "482_alice_x_PhaseId77_2026-11-20_02-06_predictions.zip,Alice X\n", out) == 0
    assert sorted((row["team"], row["submission"]) for row in read_table(out / "t6_st1.csv")) == [
        ("Alice X", "482"), ("Builders", "483"), ("Carol's", "485")]
    assert ("Late", "490") in [(row["team"], row["submission"]) for row in read_table(out / "problems.csv")]


def test_a_row_naming_no_submission_stops_the_run_with_one_line(v15_bulk, tmp_path, capsys):
    message = _stopped(v15_bulk, "submission,team\nalice - 1,Alpha\nalice-1,Alpha again\nnobody,Ghost\n",
                       tmp_path / "out", capsys)
    assert "line 3: 'alice-1' " in message and "'alice - 1'?" in message  # the row, and the near name
    assert "'1', 'alice - 1 submission.zip', 'alice', 'alice - 1'" in message  # the names the download has
    assert "1 more" in message  # the other row that names none


def test_a_row_naming_several_participants_stops_the_run(codabench_bulk, tmp_path, capsys):  # noqa: F811
    message = _stopped(codabench_bulk, "predictions.zip,Somebody\n", tmp_path / "out", capsys)
    assert "line 1: 'predictions.zip' " in message and "4 participants (alice_x, bob_the_builder, carol, dave)" in message


def test_two_rows_giving_one_submission_two_teams_stop_the_run(codabench_bulk, tmp_path, capsys):  # noqa: F811
    with pytest.raises(SystemExit) as stopped:
        _rank(codabench_bulk, "submission,team\n483,Builders\n483 ,Others\n", tmp_path / "out")
    message = str(stopped.value.code)
    assert "lines 2 and 3" in message and "483" in message and "Builders" in message and "Others" in message


def test_the_submissions_export_s_rows_of_another_phase_are_warnings(codabench_bulk, tmp_path, capsys):  # noqa: F811
    # Codabench's "Download as CSV" of the submissions manager: its owners name the rows
    export = ("Submission ID,File Name,Owner,Created When,Status,Phase\n"
              "483,predictions.zip,bob_the_builder,2026-11-20T14:05:00Z,Finished,Test\n"
              "301,predictions.zip,erin,2026-10-01T10:00:00Z,Finished,Development\n")
    out = tmp_path / "out"
    assert _rank(codabench_bulk, export, out) == 0
    warned = [line for line in capsys.readouterr().err.splitlines() if "301" in line]
    assert len(warned) == 1  # one warning line for the other phase's row
    assert "bob_the_builder" in [row["team"] for row in read_table(out / "t6_st1.csv")]
