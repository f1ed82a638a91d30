"""rank_submissions.py end to end: a folder of generated submissions (baselines with several seeds,
one duplicated under another name, one broken, the gold itself); a Codabench bulk download with
several submissions per participant (owners with ``_``), one failing as a whole and an identical
pair from two teams, with and without the results export; a Codalab v1.5 leaderboard download;
the phase's settings; byte-identical outputs; results.tex through pdflatex; index.html in
headless Chromium."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from baselines import write_submission
from conftest import ROOT, nltk_data_dir, run_score
from scorer.tracks.registry import ALL_KEYS
from browser import CHROMIUM_FLAGS, chromium_path as _chromium

sys.path.insert(0, str(ROOT))
import rank_submissions  # noqa: E402
from ranking.codalab_download import parse_method_txt  # noqa: E402
from ranking.downloads import describe_entry, discover  # noqa: E402
from ranking.entries import Entry  # noqa: E402
from ranking.scoring import score_entry  # noqa: E402
from scorer.outputs.resampling import LEADERBOARDS  # noqa: E402

DEV = ROOT / "reference_data" / "dev"
RESAMPLES = 1000
CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def zip_folder(folder: Path, target: Path) -> Path:
    with zipfile.ZipFile(target, "w") as archive:
        for name in sorted(os.listdir(folder)):
            archive.write(folder / name, name)
    return target


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    from bundle.public_data import derive_public_data

    base = tmp_path_factory.mktemp("rank")
    derive_public_data(str(DEV), str(base / "public"))
    submissions = base / "submissions"
    submissions.mkdir()
    folders = {}
    for seed in (1, 2, 3):
        folder = base / ("random_%d" % seed)
        write_submission(str(base / "public"), str(folder), seed=seed)
        folders["random_%d" % seed] = folder
        zip_folder(folder, submissions / ("random_%d.zip" % seed))
    shutil.copy(submissions / "random_1.zip", submissions / "the_same_as_1.zip")
    with zipfile.ZipFile(submissions / "broken.zip", "w") as archive:
        archive.writestr("semeval2021_t6_st1.json", '[{"id": "1", "labels": ["Smears"]},')
    gold = submissions / "gold"  # a folder: the gold itself, two tracks
    gold.mkdir()
    for name in ("semeval2021_t6_st1.json", "evalita2020_absita.ndjson"):
        shutil.copy(DEV / name, gold / name)
    folders["gold"] = gold
    majority = base / "majority"
    write_submission(str(base / "public"), str(majority), multilabel="majority")
    teams = base / "teams.csv"
    teams.write_text("submission,team\nrandom_1,Team One\nthe_same_as_1,Team Copy\n", encoding="utf-8")
    return base, submissions, folders, majority, teams


def _argv(setup, out):
    base, submissions, _, majority, teams = setup
    return [str(submissions), "--ref", str(DEV), "--out", str(out), "--teams", str(teams),
            "--baseline", "majority=%s" % majority, "--resamples", str(RESAMPLES), "--seed", "0"]


@pytest.fixture(scope="module")
def outputs(setup):
    """Two runs with the same seed: one through the command line with two processes, one in this
    process with one."""
    base = setup[0]
    env = dict(os.environ)
    if nltk_data_dir() is not None:
        env.setdefault("NLTK_DATA", str(nltk_data_dir()))
    process = subprocess.run([sys.executable, str(ROOT / "rank_submissions.py")] + _argv(setup, base / "out1")
                             + ["--jobs", "2"], capture_output=True, text=True, env=env, timeout=600)
    assert process.returncode == 0, process.stderr[-3000:]
    assert "scoring" in process.stderr  # the progress bar
    assert "Phase settings: phase_settings/dev.json" in process.stderr
    assert rank_submissions.main(_argv(setup, base / "out2") + ["--quiet"]) == 0
    return base / "out1", base / "out2"


def read_table(path: Path):
    text = path.read_text(encoding="utf-8")
    first, rest = text.split("\n", 1)
    assert first.startswith("# signature: rank_submissions:v")
    return list(csv.DictReader(io.StringIO(rest)))


def board_rows(out: Path, board: str):
    return {row["name"]: row for row in read_table(out / ("%s.csv" % board))}


def test_every_output_is_byte_identical_across_two_runs(outputs):
    first, second = outputs
    names = sorted(os.listdir(first))
    assert names == sorted(os.listdir(second))
    for kind in (".csv", ".svg", ".pdf", ".md", ".tex", ".html"):
        assert any(name.endswith(kind) for name in names), kind
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_signature_in_every_output(outputs):
    out = outputs[0]
    signature = (out / "t6_st1.csv").read_text("utf-8").split("\n")[0][len("# signature: "):]
    assert "select:last|settings:dev.json|resamples:%d|seed:0|test:paired-bootstrap" % RESAMPLES in signature
    for name in os.listdir(out):
        assert signature.encode("ascii") in (out / name).read_bytes(), name  # figures: in their metadata
    for name in os.listdir(out):
        data = (out / name).read_bytes()
        if name.endswith(".svg"):
            assert b"<dc:date>" not in data
        if name.endswith(".pdf"):
            assert b"/CreationDate" not in data and b"/ModDate" not in data


def kit_baseline_folders(public: Path, target: Path):
    """The starting kit's baselines as rank_submissions.py writes them: the random one (seed 42),
    and the majority one without the files it shares with it."""
    write_submission(str(public), str(target / "random"))
    write_submission(str(public), str(target / "majority_all"), multilabel="majority")
    (target / "majority").mkdir()
    for name in os.listdir(target / "majority_all"):
        if (target / "majority_all" / name).read_bytes() != (target / "random" / name).read_bytes():
            shutil.copy(target / "majority_all" / name, target / "majority" / name)
    return {"kit: random, seed 42": target / "random", "kit: majority": target / "majority"}


def test_scores_equal_what_score_py_writes(setup, outputs, tmp_path):
    base, submissions, folders, majority, _ = setup
    folders = dict(folders, the_same_as_1=folders["random_1"], majority=majority,
                   **kit_baseline_folders(base / "public", tmp_path / "kit"))
    by_submission = {}
    for name in os.listdir(outputs[0]):
        if name.endswith(".csv") and name[:-4] in {board for board, _, _, _ in LEADERBOARDS}:
            for row in read_table(outputs[0] / name):
                by_submission.setdefault(row["submission"], {}).update(
                    {key: value for key, value in row.items() if value and key in ALL_KEYS})
    assert set(by_submission) == {"random_1", "random_2", "random_3", "the_same_as_1", "gold", "majority",
                                  "kit: random, seed 42", "kit: majority"}
    ref = {name: DEV / name for name in os.listdir(DEV)}
    ref["scoring_config.json"] = ROOT / "phase_settings" / "dev.json"  # as the build writes it
    for submission, scores in by_submission.items():
        folder = folders[submission]
        run = run_score(tmp_path, ref, {name: folder / name for name in os.listdir(folder)})
        assert run.returncode == 0, run.stderr
        # (scores.json holds every leaderboard key, the not-entered values of the tracks a
        # submission did not enter included: they are not scores, and not rows of the tables)
        entered = run.scores
        written = {key: value for key, value in run.scores_json.items() if key in entered}
        assert set(scores) == set(written), submission
        for key, value in scores.items():
            assert float(value) == written[key], (submission, key)  # the same float, every digit
        # each track's signature in scores.json is, as written, in the tables' signature
        signature = (outputs[0] / "t6_st1.csv").read_text("utf-8").split("\n")[0]
        assert run.signatures and all(value in signature.split("; ") for value in run.signatures.values())


def test_cis_contain_scores_and_ranks_follow_the_direction(outputs):
    for board, _, key, higher_is_better in LEADERBOARDS:
        rows = read_table(outputs[0] / ("%s.csv" % board))
        assert rows, board
        values = [float(row[key]) for row in rows]
        ranked = [float(row[key]) for row in rows if row["baseline"] != "yes"]  # a baseline takes no rank
        for row, value in zip(rows, values):
            assert float(row[key + "_ci_low"]) <= value <= float(row[key + "_ci_high"]), (board, row)
            if row["baseline"] == "yes":
                assert row["rank"] == row["rank_low"] == row["rank_high"] == "", (board, row)
                continue
            assert int(row["rank_low"]) <= int(row["rank_high"])
            better = sum(1 for other in ranked if (other > value if higher_is_better else other < value))
            assert int(row["rank"]) == 1 + better, (board, row)
        assert values == sorted(values, reverse=higher_is_better), board
        # groups among the participants; a baseline joins none
        assert all(row["group"] == "" for row in rows if row["baseline"] == "yes")
        groups = [int(row["group"]) for row in rows if row["baseline"] != "yes"]
        assert groups[0] == 1 and all(b - a in (0, 1) for a, b in zip(groups, groups[1:]))


def test_sa_rmse_lower_is_better(outputs):
    rows = read_table(outputs[0] / "absita_sa.csv")
    values = [float(row["sa_rmse"]) for row in rows]
    assert values == sorted(values) and len(set(values)) > 1
    assert rows[0]["rank"] == "1" and float(rows[-1]["sa_rmse"]) == max(values)


def assert_identical_pair(out: Path, one: str, copy: str) -> None:
    """Equal score, CI, rank, rank range and group, and p = 1, on every board."""
    for board, _, key, _ in LEADERBOARDS:
        rows = board_rows(out, board)
        a, b = rows[one], rows[copy]
        for column in (key, key + "_ci_low", key + "_ci_high", "rank", "rank_low", "rank_high", "group"):
            assert a[column] == b[column], (board, column)
        pvalues = {row[""]: row for row in read_table(out / ("pvalues_%s.csv" % board))}
        assert float(pvalues[one][copy]) == 1.0 and float(pvalues[copy][one]) == 1.0, board


def test_the_duplicated_pair(outputs):
    assert_identical_pair(outputs[0], "Team One", "Team Copy")  # their names from --teams


def test_the_gold_is_significantly_better_than_random(outputs):
    pvalues = {row[""]: row for row in read_table(outputs[0] / "pvalues_t6_st1.csv")}
    rows = board_rows(outputs[0], "t6_st1")
    assert rows["gold"]["rank"] == "1" and float(rows["gold"]["t6_st1_f1_micro"]) == 1.0
    for name in ("Team One", "random_2", "random_3"):
        assert float(pvalues["gold"][name]) < 0.01
        assert rows[name]["group"] != rows["gold"]["group"]
    assert float(rows["Team One"]["p_vs_majority"]) == float(pvalues["Team One"]["majority"])
    assert rows["majority"]["baseline"] == "yes"
    # the gold entered t6_st1 and absita only: it is no row of the other tracks' tables
    assert "gold" not in board_rows(outputs[0], "t6_st2")


def test_the_broken_submission_is_listed_with_its_problem(outputs):
    problems = read_table(outputs[0] / "problems.csv")
    assert [(row["submission"], row["track"]) for row in problems] == [("broken", "t6_st1")]
    assert "semeval2021_t6_st1.json" in problems[0]["problem"] and "JSON" in problems[0]["problem"]
    for name in ("results.md", "index.html", "results.tex"):
        assert "broken" in (outputs[0] / name).read_text(encoding="utf-8")
    for board, _, _, _ in LEADERBOARDS:
        assert "broken" not in board_rows(outputs[0], board)


def test_paper_tables(outputs):
    tex = (outputs[0] / "results.tex").read_text(encoding="utf-8")
    # one float per track with its boards (absita's compact block in its own), the "Not scored" appendix
    assert tex.count(r"\begin{table*}") == len({track for _, track, _, _ in LEADERBOARDS}) + 1
    # the method once, as a paragraph, not in every caption
    assert tex.count("percentile bootstrap") == 1 and tex.count(r"\paragraph{Ranking method.}") == 1
    for _, track, _, _ in LEADERBOARDS:
        assert r"\label{tab:track-%s}" % track in tex
    assert r"\toprule" in tex and r"\midrule" in tex and r"\bottomrule" in tex
    assert r"\textit{(baseline)}" in tex and "Team\\_One" not in tex and "Team One" in tex
    assert "SemEval-2021 T6 subtask 1" in tex and "micro-F1" in tex and "t6\\_st1\\_f1" not in tex
    compact = tex[tex.index(r"\label{tab:absita-all}"):]
    assert r"\multicolumn{3}{c}{ATE}" in compact and r"\multicolumn{3}{c}{ABSA}" in compact
    techniques = read_table(outputs[0] / "techniques_t6_st1.csv")
    assert "Smears" in techniques[0]
    # the heatmap's rows are in the ranking's order
    assert [row["name"] for row in techniques] == [row["name"] for row in read_table(outputs[0] / "t6_st1.csv")]
    md = (outputs[0] / "results.md").read_text(encoding="utf-8")
    assert "## EVALITA 2020 ATE_ABSITA: SA RMSE (lower is better)" in md
    for text in (md, (outputs[0] / "index.html").read_text(encoding="utf-8")):
        assert "percentile bootstrap" in text and "Rank range" in text and "Group" in text


def test_index_html_is_self_contained(outputs):
    text = (outputs[0] / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"<(script|link|img|iframe)\b", text)
    assert not re.search(r"url\((?!#)", text) and "@import" not in text  # url(#clip) is inside the page
    assert not re.search(r"(href|src)=\"https?:", text)
    from ranking.scoring import TECHNIQUE_TRACKS
    heatmaps = [track for track in TECHNIQUE_TRACKS if (outputs[0] / ("techniques_%s.csv" % track)).exists()]
    assert heatmaps and text.count("<svg") == len(LEADERBOARDS) + len(heatmaps)  # rankings + one heatmap a table


def test_index_html_renders_in_headless_chromium(outputs, tmp_path):
    chromium = _chromium()
    shot = tmp_path / "page.png"
    process = subprocess.run([chromium] + CHROMIUM_FLAGS + ["--user-data-dir=%s" % (tmp_path / "profile"),
                                                           "--window-size=1200,3000", "--screenshot=%s" % shot,
                                                           (outputs[0] / "index.html").as_uri()],
                             capture_output=True, text=True, timeout=120, cwd=str(tmp_path))
    assert process.returncode == 0, process.stderr[-2000:]
    assert shot.exists() and shot.stat().st_size > 10000
    console = [line for line in process.stderr.splitlines() if "CONSOLE" in line]
    assert console == [], console


def test_index_html_reads_at_375_px(outputs, tmp_path):
    """On a phone the page does not scroll sideways: wide tables scroll inside their own box."""
    _chromium()
    from browser import render

    measured = render(outputs[0] / "index.html", 375, tmp_path / "page375.png", tmp_path / "profile")
    assert measured["errors"] == []
    assert measured["scroll_width"] <= measured["inner_width"] == 375, measured


# --- results.tex through pdflatex -------------------------------------------------------------------

def pdflatex_path() -> str:
    found = shutil.which("pdflatex")
    if not found:
        message = "needs pdflatex (apt-get install texlive-latex-base texlive-latex-recommended)"
        if CI:
            pytest.fail(message)
        pytest.skip(message)
    return found


def compile_tables(results_tex: Path, tmp_path: Path) -> str:
    """results.tex \\input in a two-column article loading booktabs and graphicx only; the log."""
    folder = tmp_path / "paper"
    folder.mkdir(exist_ok=True)
    shutil.copy(results_tex, folder / "results.tex")
    (folder / "paper.tex").write_text("\\documentclass[twocolumn]{article}\n\\usepackage{booktabs}\n"
                                      "\\usepackage{graphicx}\n\\begin{document}\nText.\n\\input{results.tex}\n"
                                      "\\end{document}\n", encoding="utf-8")
    process = subprocess.run([pdflatex_path(), "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
                              "paper.tex"], cwd=str(folder), capture_output=True, timeout=300)
    log = (folder / "paper.log").read_text(encoding="latin-1")
    assert process.returncode == 0, log[-3000:]
    assert (folder / "paper.pdf").stat().st_size > 1000
    return log


def overfull_points(log: str):
    return [float(m) for m in re.findall(r"Overfull \\hbox \(([0-9.]+)pt too wide\)", log)]


def test_results_tex_compiles_in_a_two_column_article(outputs, tmp_path):
    log = compile_tables(outputs[0] / "results.tex", tmp_path)
    assert all(points <= 5 for points in overfull_points(log)), overfull_points(log)


# --- the platforms' downloads -----------------------------------------------------------------------

def test_codabench_entry_names():
    # <id>_<owner>_PhaseId<phase>_<%Y-%m-%d:%M-%S>_<file>, ':' '/' '\' replaced by '_'
    entry = describe_entry("482_alice_PhaseId77_2026-11-20_14-05_predictions.zip")
    assert (entry.submission, entry.owner, entry.platform_id, entry.order) == ("482", "alice", "482", 482)
    entry = describe_entry("483_bob_the_builder_PhaseId77_2026-11-20_00-59_x.zip")
    assert (entry.owner, entry.platform_id) == ("bob_the_builder", "483")
    # an owner or a file name may hold the pattern: every reading is kept, none chosen
    entry = describe_entry("484_bob_PhaseId77_2026-11-20_00-59_sub_PhaseId77_2026-11-20_00-59_x.zip")
    assert (entry.owner, entry.platform_id, entry.phase) == ("", "484", "77")
    assert entry.readings == (("bob", "77", "sub_PhaseId77_2026-11-20_00-59_x.zip"),
                              ("bob_PhaseId77_2026-11-20_00-59_sub", "77", "x.zip"))
    entry = describe_entry("alice - 3 submission.zip")
    assert (entry.submission, entry.owner, entry.order) == ("3", "alice", 3)
    entry = describe_entry("Team Deep - Memes  - 12 submission.zip")
    assert (entry.submission, entry.team, entry.order) == ("12", "Deep - Memes", 12)
    entry = describe_entry("my_run.zip")
    assert (entry.submission, entry.team, entry.owner, entry.order) == ("my_run", "my_run", "", None)


def codabench_member(identifier: int, owner: str, file: str = "predictions.zip") -> str:
    return "%d_%s_PhaseId77_2026-11-20_%02d-%02d_%s" % (identifier, owner, identifier % 60, identifier % 17, file)


@pytest.fixture(scope="module")
def codabench_bulk(setup):
    """alice_x: 480 (random_1), 482 (random_2), 490 (fails as a whole); bob_the_builder: 483
    (random_3); carol: 485, identical to alice_x's 482; dave: 486, fails as a whole."""
    base, submissions = setup[0], setup[1]
    bulk = base / "bulk_submissions.zip"
    with zipfile.ZipFile(bulk, "w") as archive:
        archive.write(submissions / "random_1.zip", codabench_member(480, "alice_x"))
        archive.write(submissions / "random_2.zip", codabench_member(482, "alice_x"))
        archive.write(submissions / "broken.zip", codabench_member(490, "alice_x", "late.zip"))
        archive.write(submissions / "random_3.zip", codabench_member(483, "bob_the_builder"))
        archive.write(submissions / "random_2.zip", codabench_member(485, "carol"))
        archive.write(submissions / "broken.zip", codabench_member(486, "dave"))
        archive.writestr("failed.txt", "The following submissions failed to download:\n\n"
                                       "489_erin_PhaseId77_2026-11-21:10-00_p.zip (HTTP 404)")
    return bulk


def test_codabench_bulk_download_one_row_per_team(setup, codabench_bulk, tmp_path):
    found = discover(str(codabench_bulk))
    assert found.platform == "codabench"
    assert [(e.submission, e.owner) for e in found.entries] == [
        ("480", "alice_x"), ("482", "alice_x"), ("483", "bob_the_builder"), ("485", "carol"), ("486", "dave"),
        ("490", "alice_x")]
    assert found.notes == ["not downloaded from the platform: 489_erin_PhaseId77_2026-11-21:10-00_p.zip (HTTP 404)"]
    out = tmp_path / "out"
    assert rank_submissions.main([str(codabench_bulk), "--ref", str(DEV), "--out", str(out), "--resamples",
                                  str(RESAMPLES), "--quiet", "--no-kit-baselines"]) == 0
    for board, _, _, _ in LEADERBOARDS:
        rows = read_table(out / ("%s.csv" % board))
        # one row per participant: alice_x's last submission that re-scores (482: 490 fails)
        assert sorted((row["team"], row["submission"]) for row in rows) == [
            ("alice_x", "482"), ("bob_the_builder", "483"), ("carol", "485")], board
    assert_identical_pair(out, "alice_x", "carol")
    problems = read_table(out / "problems.csv")
    assert [(row["team"], row["submission"]) for row in problems if row["team"]] == [("dave", "486"), ("alice_x", "490")]
    assert any("489_erin" in row["problem"] for row in problems)
    skipped = read_table(out / "not_ranked.csv")
    assert [(row["team"], row["submission"]) for row in skipped] == [("alice_x", "480")]
    text = (out / "index.html").read_text(encoding="utf-8")
    assert "failed on the platform" in text  # what a download cannot show


def test_codabench_results_export_takes_exactly_the_boards_entries(setup, codabench_bulk, tmp_path):
    """The board showed alice_x's 480 (482 timed out on the platform, say): the export says so."""
    export = {"Results - Test(77)": {
        "alice_x-480": {"fact_sheet_answers": {"system_name": "Big model", "description": "A fine-tuned encoder.",
                                               "external_data": "none"}, "Test(9)-ST1 micro-F1": 0.1},
        # the bundle's default fact sheet: its team name names the row
        "bob_the_builder-483": {"fact_sheet_answers": {"team_name": "The Builders", "system_name": "B",
                                                       "description": "", "external_data": True,
                                                       "paper_planned": False}},
        "carol-485": {"fact_sheet_answers": {"method_name": "=cmd|' /C calc'!A0", "description": "Same."}},
        "zed-499": {}}}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    out = tmp_path / "out"
    assert rank_submissions.main([str(codabench_bulk), "--ref", str(DEV), "--out", str(out), "--resamples", "200",
                                  "--results", str(path), "--quiet", "--no-kit-baselines"]) == 0
    rows = read_table(out / "t6_st1.csv")
    assert sorted((row["team"], row["submission"], row["system"]) for row in rows) == [
        ("The Builders", "483", "B"), ("alice_x", "480", "Big model"), ("carol", "485", "'=cmd|' /C calc'!A0")]
    skipped = read_table(out / "not_ranked.csv")  # (not on the board: not re-scored, so 486 and 490 fail nowhere)
    assert sorted(row["submission"] for row in skipped) == ["482", "486", "490"]
    problems = read_table(out / "problems.csv")
    assert any("zed-499" in row["problem"] for row in problems)
    participants = read_table(out / "participants.csv")
    assert sorted((row["Team"], row["Description"], row["External data"]) for row in participants)[:2] == [
        ("The Builders", "", "yes"), ("alice_x", "A fine-tuned encoder.", "none")]
    assert "signature: rank_submissions:v2|select:results-export" in (out / "t6_st1.csv").read_text("utf-8")
    # the CSV export writes the answers as a Python dict's text; here the board holds the
    # identical pair (alice_x's 482, carol's 485)
    csv_path = tmp_path / "results.csv"
    csv_path.write_text("Username,fact_sheet_answers,Test(9)-ST1 micro-F1\n"
                        "alice_x-482,\"{'method_name': 'Big model', 'description': 'x'}\",0.1\n"
                        "carol-485,,0.1\n", encoding="utf-8")
    out = tmp_path / "out_csv"
    assert rank_submissions.main([str(codabench_bulk), "--ref", str(DEV), "--out", str(out), "--resamples", "200",
                                  "--results", str(csv_path), "--quiet", "--no-kit-baselines"]) == 0
    assert sorted((row["team"], row["system"]) for row in read_table(out / "flc.csv")) == [
        ("alice_x", "Big model"), ("carol", "")]
    assert_identical_pair(out, "alice_x", "carol")
    tex = (out / "results.tex").read_text(encoding="utf-8")
    assert "Participants" in tex and "Big model" in tex


def test_a_results_export_that_misses_the_whole_download_is_refused_before_scoring(setup, codabench_bulk, tmp_path,
                                                                                   capsys):
    """Another competition's board (no owner-id of the download): not "ranked 0" with exit 0."""
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"Results - Test(77)": {"yves-900": {}, "zed-901": {}}}), encoding="utf-8")
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as refused:
        rank_submissions.main([str(codabench_bulk), "--ref", str(DEV), "--out", str(out), "--resamples", "20",
                               "--results", str(path), "--quiet"])
    message = str(refused.value.code)
    assert message.startswith("rank_submissions: none of the 2 entries of results export ")
    assert "first: yves-900;" in message and "first: alice_x-480)" in message
    assert not out.exists() or not any(out.iterdir())  # refused before any scoring or output


def test_select_best_and_all(setup, codabench_bulk, tmp_path):
    out = tmp_path / "all"
    assert rank_submissions.main([str(codabench_bulk), "--ref", str(DEV), "--out", str(out), "--resamples", "20",
                                  "--select", "all", "--quiet", "--no-kit-baselines"]) == 0
    rows = read_table(out / "t6_st1.csv")
    assert sorted(row["name"] for row in rows) == ["alice_x [480]", "alice_x [482]", "bob_the_builder", "carol"]
    out = tmp_path / "best"
    assert rank_submissions.main([str(codabench_bulk), "--ref", str(DEV), "--out", str(out), "--resamples", "20",
                                  "--select", "best", "--quiet", "--no-kit-baselines"]) == 0
    alice = {row["submission"]: float(row["t6_st1_f1_micro"]) for row in rows if row["team"] == "alice_x"}
    best = max(alice, key=lambda s: (alice[s], int(s)))
    assert [row["submission"] for row in read_table(out / "t6_st1.csv") if row["team"] == "alice_x"] == [best]


def test_codalab_leaderboard_download_layout(setup, tmp_path):
    """As v1.5's download_leaderboard_results writes it: one entry per participant."""
    submissions = setup[1]
    bulk = tmp_path / "Competition-ab12cd-12.zip"
    with zipfile.ZipFile(bulk, "w") as archive:
        archive.writestr("team_names_and_members.txt", "Team: Deep Memes; members: a, b\n")
        archive.write(submissions / "random_1.zip", "alice - 1 submission.zip")
        archive.writestr("alice - 1 output.zip", b"PK\x05\x06" + b"\0" * 18)
        archive.writestr("alice - 1 profile.txt", "Organization: x\nTeam Name: None")
        archive.writestr("alice - 1 method.txt", "method_name: Rules\nmethod_description: Hand-written rules,\n"
                                                 "over two lines.\nproject_url: None\npublication_url: None\n"
                                                 "bibtex: None\nteam_name: None\norganization_or_affiliation: x")
        archive.write(submissions / "random_2.zip", "Team Deep Memes  - 4 submission.zip")
        archive.writestr("Team Deep Memes  - 4 output.zip", b"PK\x05\x06" + b"\0" * 18)
        archive.writestr("Team Deep Memes  - 4 profile.txt", "Organization: y")
        archive.writestr("Team Deep Memes  - 4 method.txt", "method_name: Transformer\nmethod_description: BERT")
        archive.writestr("detailed_results.html", "<html></html>")
    found = discover(str(bulk))
    assert found.platform == "codalab-v1.5"
    assert [(e.submission, e.team) for e in found.entries] == [("1", "alice"), ("4", "Deep Memes")]
    assert found.descriptions["alice"]["method_description"] == "Hand-written rules,\nover two lines."
    assert found.descriptions["alice"]["project_url"] == ""
    out = tmp_path / "out"
    assert rank_submissions.main([str(bulk), "--ref", str(DEV), "--out", str(out), "--resamples", "50",
                                  "--quiet", "--no-kit-baselines"]) == 0
    assert sorted((r["team"], r["system"]) for r in read_table(out / "t6_st2.csv")) == [
        ("Deep Memes", "Transformer"), ("alice", "Rules")]
    participants = read_table(out / "participants.csv")
    assert sorted(row["Description"] for row in participants) == ["BERT", "Hand-written rules, over two lines."]
    assert "one per participant" in (out / "results.md").read_text(encoding="utf-8")


def test_method_txt_parsing():
    assert parse_method_txt("method_name: A: b\nmethod_description: x\ny: z\nbibtex: None") == {
        "method_name": "A: b", "method_description": "x\ny: z", "bibtex": ""}


# --- the phase's own settings -----------------------------------------------------------------------

def test_phase_settings_are_applied_as_on_the_platform(setup, tmp_path, monkeypatch):
    """phase_settings/dev.json with overlapping_predictions: merge and --ref reference_data/dev:
    the merge applies (signature and scores equal score.py on the built Development reference
    data, which holds that file as scoring_config.json)."""
    import ranking.settings

    settings = tmp_path / "phase_settings"
    settings.mkdir()
    (settings / "dev.json").write_text(json.dumps({"overlapping_predictions": "merge", "detailed_results": "full"}),
                                       encoding="utf-8")
    monkeypatch.setattr(ranking.settings, "PHASE_SETTINGS_DIR", str(settings))
    memes = json.loads((DEV / "semeval2021_t6_st2.json").read_text(encoding="utf-8"))
    for meme in memes:  # every span twice, the copy shifted by one character: overlaps
        meme["labels"] = meme["labels"] + [dict(label, start=label["start"] + 1) for label in meme["labels"]
                                           if label["end"] - label["start"] > 2]
    submission = tmp_path / "overlapping"
    submission.mkdir()
    (submission / "semeval2021_t6_st2.json").write_text(json.dumps(memes), encoding="utf-8")
    out = tmp_path / "out"
    assert rank_submissions.main([str(submission), "--ref", str(DEV), "--out", str(out), "--resamples", "20",
                                  "--quiet", "--no-kit-baselines"]) == 0
    row = read_table(out / "t6_st2.csv")[0]
    signature = (out / "t6_st2.csv").read_text("utf-8").split("\n")[0]
    built = {name: DEV / name for name in os.listdir(DEV)}
    built["scoring_config.json"] = settings / "dev.json"
    run = run_score(tmp_path, built, {"semeval2021_t6_st2.json": submission / "semeval2021_t6_st2.json"})
    assert run.returncode == 0, run.stderr
    assert "t6_st2|overlap:merge" in signature and run.signatures["t6_st2"] in signature.split("; ")
    for key in ("t6_st2_f1", "t6_st2_precision", "t6_st2_recall"):
        assert float(row[key]) == run.scores_json[key]
    # --settings overrides it: back to the program's "error", the file refused, no board
    override = tmp_path / "error.json"
    override.write_text('{"overlapping_predictions": "error"}', encoding="utf-8")
    out = tmp_path / "out2"
    assert rank_submissions.main([str(submission), "--ref", str(DEV), "--out", str(out), "--resamples", "20",
                                  "--settings", str(override), "--quiet", "--no-kit-baselines"]) == 0
    assert not (out / "t6_st2.csv").exists()
    assert [row["track"] for row in read_table(out / "problems.csv")] == ["t6_st2"]


# --- the rest ----------------------------------------------------------------------------------------

def test_score_locally_prints_the_same_intervals(setup, outputs, capsys):
    """The participants' standard-library intervals come from the same resamples as the tables."""
    import score_locally

    submissions = setup[1]
    code = score_locally.main([str(submissions / "random_2.zip"), "--ref", str(DEV), "--out",
                               str(setup[0] / "score_locally_out")])
    printed = capsys.readouterr().out
    assert code == 0
    found = dict((m.group(1), (m.group(2), m.group(3), m.group(4))) for m in re.finditer(
        r"^(\w+): ([0-9.]+), 95% confidence interval \[([0-9.]+), ([0-9.]+)\] \(1000 resamples", printed, re.M))
    assert set(found) == {key for _, _, key, _ in LEADERBOARDS}
    for board, _, key, _ in LEADERBOARDS:
        row = board_rows(outputs[0], board)["random_2"]
        assert found[key] == tuple("%.6f" % float(row[column]) for column in (key, key + "_ci_low", key + "_ci_high"))


def test_broken_gold_is_one_clear_line(setup, tmp_path, capsys):
    ref = tmp_path / "ref"
    ref.mkdir()
    (ref / "semeval2021_t6_st1.json").write_text('[{"id": "1"}]', encoding="utf-8")
    code = rank_submissions.main([str(setup[1] / "random_1.zip"), "--ref", str(ref), "--out", str(tmp_path / "o"),
                                  "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and "rank_submissions: reference data: " in err and "Traceback" not in err


def test_a_fault_of_the_scoring_program_is_that_files_problem(setup, monkeypatch):
    from scorer.tracks.registry import BY_NAME

    def broken(*args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(BY_NAME["absita"], "score", broken)  # (the registry's view of the module)
    scored = score_entry(Entry("r1", "r1", str(setup[2]["random_1"])), str(DEV))
    assert ("absita", "evalita2020_absita.ndjson: internal error of the scoring program (ZeroDivisionError: "
                      "division by zero)") in scored.problems
    assert "t6_st1" in scored.scores and "absita" not in scored.scores


