"""rank_submissions.py end to end: a folder of generated submissions (baselines with several seeds,
one duplicated under another name, one broken, the gold itself), the platforms' bulk layouts,
byte-identical outputs, and index.html in headless Chromium."""

from __future__ import annotations

import csv
import io
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
from scorer.registry import ALL_KEYS
from browser import CHROMIUM_FLAGS, chromium_path as _chromium

sys.path.insert(0, str(ROOT))
import rank_submissions  # noqa: E402
from ranking.downloads import Entry, describe_entry, discover, read_teams  # noqa: E402
from ranking.scoring import score_entry  # noqa: E402
from scorer.resampling import LEADERBOARDS  # noqa: E402

DEV = ROOT / "reference_data" / "dev"
RESAMPLES = 1000


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
    assert rank_submissions.main(_argv(setup, base / "out2") + ["--quiet"]) == 0
    return base / "out1", base / "out2"


def read_table(path: Path):
    text = path.read_text(encoding="utf-8")
    first, rest = text.split("\n", 1)
    assert first.startswith("# signature: rank_submissions:v")
    return list(csv.DictReader(io.StringIO(rest)))


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
    assert "resamples:%d|seed:0|test:paired-bootstrap" % RESAMPLES in signature
    for name in os.listdir(out):
        assert signature.encode("ascii") in (out / name).read_bytes(), name  # figures: in their metadata
    for name in os.listdir(out):
        data = (out / name).read_bytes()
        if name.endswith(".svg"):
            assert b"<dc:date>" not in data
        if name.endswith(".pdf"):
            assert b"/CreationDate" not in data and b"/ModDate" not in data


def test_scores_equal_what_score_py_writes(setup, outputs, tmp_path):
    _, submissions, folders, majority, _ = setup
    folders = dict(folders, the_same_as_1=folders["random_1"], majority=majority)
    rows = {}
    for name in os.listdir(outputs[0]):
        if name.endswith(".csv") and not name.startswith(("pvalues_", "techniques_", "problems")):
            for row in read_table(outputs[0] / name):
                rows.setdefault(row["submission"], {}).update(
                    {key: value for key, value in row.items() if value and key in ALL_KEYS})
    assert set(rows) == {"random_1", "random_2", "random_3", "the_same_as_1", "gold", "majority"}
    ref = {name: DEV / name for name in os.listdir(DEV)}
    for submission, scores in rows.items():
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
        for row, value in zip(rows, values):
            assert float(row[key + "_ci_low"]) <= value <= float(row[key + "_ci_high"]), (board, row)
            assert int(row["rank_low"]) <= int(row["rank_high"])
            better = sum(1 for other in values if (other > value if higher_is_better else other < value))
            assert int(row["rank"]) == 1 + better, (board, row)
        assert values == sorted(values, reverse=higher_is_better), board
        groups = [int(row["group"]) for row in rows]
        assert groups[0] == 1 and all(b - a in (0, 1) for a, b in zip(groups, groups[1:]))


def test_sa_rmse_lower_is_better(outputs):
    rows = read_table(outputs[0] / "absita_sa.csv")
    values = [float(row["sa_rmse"]) for row in rows]
    assert values == sorted(values) and len(set(values)) > 1
    assert rows[0]["rank"] == "1" and float(rows[-1]["sa_rmse"]) == max(values)


def test_the_duplicated_pair(outputs):
    for board, _, key, _ in LEADERBOARDS:
        rows = {row["submission"]: row for row in read_table(outputs[0] / ("%s.csv" % board))}
        one, copy = rows["random_1"], rows["the_same_as_1"]
        for column in (key, key + "_ci_low", key + "_ci_high", "rank", "rank_low", "rank_high", "group"):
            assert one[column] == copy[column], (board, column)
        assert (one["team"], copy["team"]) == ("Team One", "Team Copy")  # from --teams
        pvalues = {row["submission"]: row for row in read_table(outputs[0] / ("pvalues_%s.csv" % board))}
        assert float(pvalues["random_1"]["the_same_as_1"]) == 1.0
        assert float(pvalues["the_same_as_1"]["random_1"]) == 1.0


def test_the_gold_is_significantly_better_than_random(outputs):
    pvalues = {row["submission"]: row for row in read_table(outputs[0] / "pvalues_t6_st1.csv")}
    rows = {row["submission"]: row for row in read_table(outputs[0] / "t6_st1.csv")}
    assert rows["gold"]["rank"] == "1" and float(rows["gold"]["t6_st1_f1_micro"]) == 1.0
    for name in ("random_1", "random_2", "random_3"):
        assert float(pvalues["gold"][name]) < 0.01
        assert rows[name]["group"] != rows["gold"]["group"]
    assert float(rows["random_1"]["p_vs_majority"]) == float(pvalues["random_1"]["majority"])
    assert rows["majority"]["baseline"] == "yes"
    # the gold entered t6_st1 and absita only: it is no row of the other tracks' tables
    assert "gold" not in {row["submission"] for row in read_table(outputs[0] / "t6_st2.csv")}


def test_the_broken_submission_is_listed_with_its_problem(outputs):
    problems = read_table(outputs[0] / "problems.csv")
    assert [(row["submission"], row["track"]) for row in problems] == [("broken", "t6_st1")]
    assert "semeval2021_t6_st1.json" in problems[0]["problem"] and "JSON" in problems[0]["problem"]
    for name in ("results.md", "index.html"):
        assert "broken" in (outputs[0] / name).read_text(encoding="utf-8")
    assert "broken" not in {row["submission"] for row in read_table(outputs[0] / "t6_st1.csv")}


def test_paper_tables(outputs):
    tex = (outputs[0] / "results.tex").read_text(encoding="utf-8")
    assert tex.count(r"\begin{table}") == len(LEADERBOARDS)
    assert r"\toprule" in tex and r"\midrule" in tex and r"\bottomrule" in tex
    assert r"\textit{majority (baseline)}" in tex and "Team\\_One" not in tex and "Team One" in tex
    techniques = read_table(outputs[0] / "techniques_t6_st1.csv")
    assert len(techniques) == 6 and "Smears" in techniques[0]
    md = (outputs[0] / "results.md").read_text(encoding="utf-8")
    assert "## absita_sa: sa_rmse" in md


def test_index_html_is_self_contained(outputs):
    text = (outputs[0] / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"<(script|link|img|iframe)\b", text)
    assert not re.search(r"url\((?!#)", text) and "@import" not in text  # url(#clip) is inside the page
    assert not re.search(r"(href|src)=\"https?:", text)
    assert text.count("<svg") == len(LEADERBOARDS) + 4  # rankings + 4 heatmaps


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


# --- the platforms' bulk downloads --------------------------------------------------------------------

def test_codabench_entry_names():
    # <id>_<owner>_PhaseId<phase>_<%Y-%m-%d:%M-%S>_<file>, ':' '/' '\' replaced by '_'
    assert describe_entry("482_alice_PhaseId77_2026-11-20_14-05_predictions.zip") == \
        ("alice-482", "alice", "482")
    assert describe_entry("483_bob_the_builder_PhaseId77_2026-11-20_00-59_sub_v2.zip") == \
        ("bob_the_builder-483", "bob_the_builder", "483")
    assert describe_entry("alice - 3 submission.zip") == ("alice - 3", "alice", "")
    assert describe_entry("Team Deep Memes  - 12 submission.zip") == ("Deep Memes - 12", "Deep Memes", "")
    assert describe_entry("my_run.zip") == ("my_run", "my_run", "")


def test_codabench_download_selected_zip(setup, tmp_path):
    submissions = setup[1]
    bulk = tmp_path / "bulk_submissions.zip"
    with zipfile.ZipFile(bulk, "w") as archive:
        archive.write(submissions / "random_1.zip", "482_alice_PhaseId77_2026-11-20_14-05_predictions.zip")
        archive.write(submissions / "random_2.zip", "483_bob_PhaseId77_2026-11-20_14-06_predictions.zip")
        archive.write(submissions / "broken.zip", "484_carol_x_PhaseId77_2026-11-21_09-30_run.zip")
        archive.writestr("failed.txt", "The following submissions failed to download:\n\n"
                                       "485_dave_PhaseId77_2026-11-21:10-00_p.zip (HTTP 404)")
    entries, notes = discover(str(bulk))
    assert [(e.name, e.team, e.platform_id) for e in entries] == [
        ("alice-482", "alice", "482"), ("bob-483", "bob", "483"), ("carol_x-484", "carol_x", "484")]
    assert notes == ["not downloaded from the platform: 485_dave_PhaseId77_2026-11-21:10-00_p.zip (HTTP 404)"]
    export = tmp_path / "submissions.csv"  # Codabench's "Download as CSV" of the submissions manager
    export.write_text("Submission ID,File Name,Owner,Created When,Status,Phase\n"
                      "482,predictions.zip,alice,2026-11-20T14:05:00Z,Finished,Test\n", encoding="utf-8")
    assert read_teams(str(export)) == {"482": "alice"}
    out = tmp_path / "out"
    assert rank_submissions.main([str(bulk), "--ref", str(DEV), "--out", str(out), "--resamples", "50",
                                  "--baseline", "majority=%s" % setup[3], "--baseline-test", "ar", "--quiet"]) == 0
    rows = read_table(out / "t6_st2.csv")
    assert "test:paired-bootstrap+ar-vs-baselines" in (out / "t6_st2.csv").read_text("utf-8").split("\n")[0]
    assert all(0 < float(row["p_vs_majority"]) <= 1 for row in rows)
    assert [float(row["p_vs_majority"]) for row in rows if row["submission"] == "majority"] == [1.0]
    assert sorted(row["submission"] for row in read_table(out / "absita.csv")) == ["alice-482", "bob-483", "majority"]
    problems = read_table(out / "problems.csv")
    assert ("carol_x-484", "t6_st1") in {(row["submission"], row["track"]) for row in problems}
    assert any("485_dave" in row["problem"] for row in problems)


def test_codalab_leaderboard_download_layout(setup, tmp_path):
    submissions = setup[1]
    bulk = tmp_path / "Competition-12-results.zip"
    with zipfile.ZipFile(bulk, "w") as archive:
        archive.writestr("team_names_and_members.txt", "Team: Deep Memes; members: a, b\n")
        archive.write(submissions / "random_1.zip", "alice - 1 submission.zip")
        archive.writestr("alice - 1 output.zip", b"PK\x05\x06" + b"\0" * 18)
        archive.writestr("alice - 1 profile.txt", "Organization: x")
        archive.writestr("alice - 1 method.txt", "method_name: y")
        archive.write(submissions / "random_2.zip", "Team Deep Memes  - 4 submission.zip")
        archive.writestr("detailed_results.html", "<html></html>")
    entries, notes = discover(str(bulk))
    assert [(e.name, e.team) for e in entries] == [("Deep Memes - 4", "Deep Memes"), ("alice - 1", "alice")]
    assert notes == []


def test_score_locally_prints_the_same_intervals(setup, outputs, capsys):
    """The participants' standard-library intervals come from the same resamples as the tables."""
    import score_locally

    submissions = setup[1]
    code = score_locally.main([str(submissions / "random_1.zip"), "--ref", str(DEV), "--out",
                               str(setup[0] / "score_locally_out")])
    printed = capsys.readouterr().out
    assert code == 0
    found = dict((m.group(1), (m.group(2), m.group(3), m.group(4))) for m in re.finditer(
        r"^(\w+): ([0-9.]+), 95% confidence interval \[([0-9.]+), ([0-9.]+)\] \(1000 resamples", printed, re.M))
    assert set(found) == {key for _, _, key, _ in LEADERBOARDS}
    for board, _, key, _ in LEADERBOARDS:
        row = next(r for r in read_table(outputs[0] / ("%s.csv" % board)) if r["submission"] == "random_1")
        assert found[key] == tuple("%.6f" % float(row[column]) for column in (key, key + "_ci_low", key + "_ci_high"))


def test_broken_gold_is_one_clear_line(setup, tmp_path, capsys):
    ref = tmp_path / "ref"
    ref.mkdir()
    (ref / "semeval2021_t6_st1.json").write_text('[{"id": "1"}]', encoding="utf-8")
    code = rank_submissions.main([str(setup[1] / "random_1.zip"), "--ref", str(ref), "--out", str(tmp_path / "o"),
                                  "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("rank_submissions: reference data: ") and "Traceback" not in err


def test_a_fault_of_the_scoring_program_is_that_files_problem(setup, monkeypatch):
    from scorer.registry import BY_NAME

    def broken(*args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(BY_NAME["absita"], "score", broken)  # (the registry's view of the module)
    scored = score_entry(Entry("r1", "r1", str(setup[2]["random_1"])), str(DEV))
    assert ("absita", "evalita2020_absita.ndjson: internal error of the scoring program (ZeroDivisionError: "
                      "division by zero)") in scored.problems
    assert "t6_st1" in scored.scores and "absita" not in scored.scores
