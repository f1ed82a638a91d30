"""The SemEval lifecycle: Development, a blind Evaluation phase, a never-ending Post-Evaluation phase.

- the default build has the three phases, in both platforms' yamls; the build refuses the
  combinations that cannot work;
- a blind run (the sample, a perfect submission, a broken one) leaves no real score in any output
  or stream, at any precision;
- a blind run's refusals, warnings and counts do not depend on which items are gold: the gold's
  membership (nlu's scored ids among the test input's decoys) and answers change, the outputs do not;
- the Post-Evaluation phase's reference data scores as score.py on the same gold;
- rank_submissions.py on an Evaluation download (a blind board) ranks by the real scores.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from baselines import write_submission
from conftest import ROOT, run_score

sys.path.insert(0, str(ROOT))

from bundle.lifecycle import lifecycle_problems  # noqa: E402
from bundle.platforms import v2_config, v15_yaml  # noqa: E402
from bundle.public_data import derive_public_data  # noqa: E402
from scorer.tracks.registry import ALL_KEYS, TRACKS  # noqa: E402
from scorer.outputs.scores_files import not_entered_value  # noqa: E402
from scorer.outputs.verdict import FAILED  # noqa: E402

TEST = ROOT / "reference_data" / "test"
BLIND = json.dumps({"blind": True})
PERFECT_FROM_GOLD = ("semeval2021_t6_st1.json", "semeval2021_t6_st2.json", "semeval2021_t6_st3.json",
                     "evalita2020_absita.ndjson")


def load_config():
    return yaml.safe_load((ROOT / "competition.yaml").read_text(encoding="utf-8"))


def default_settings():
    return {path.stem: path.read_bytes() for path in (ROOT / "phase_settings").glob("*.json")}


# --- the phases, as built -------------------------------------------------------------------------

def test_the_default_competition_has_the_three_phases_on_both_platforms():
    config = load_config()
    assert lifecycle_problems(config, default_settings()) == []
    v15 = yaml.safe_load(v15_yaml(config))
    phases = [v15["phases"][key] for key in sorted(v15["phases"])]
    assert [phase["label"] for phase in phases] == ["Development", "Evaluation", "Post-Evaluation"]
    assert phases[1]["leaderboard_management_mode"] == "hide_results"
    assert phases[1]["max_submissions"] <= 10  # the guide: few submissions in the evaluation
    assert phases[2]["phase_never_ends"] is True and phases[2]["auto_migration"] is True
    assert "end_date" not in v15 or v15["end_date"] is None
    v2 = v2_config(config)
    assert [phase["name"] for phase in v2["phases"]] == ["Development", "Evaluation", "Post-Evaluation"]
    assert "end" in v2["phases"][1] and "end" not in v2["phases"][2]
    assert v2["phases"][2]["auto_migrate_to_this_phase"] is True
    assert not v2["phases"][1].get("auto_migrate_to_this_phase")
    # the blind phase hides output: otherwise a visitor takes a board entry's submitted file through
    # get_details (measured on the real site); the owner reads the refusal lines on the detailed page
    assert [phase["hide_output"] for phase in v2["phases"]] == [False, True, False]
    # Evaluation and Post-Evaluation: the same gold folder, the same public data; the blind one has its settings
    tasks = {task["index"]: task for task in v2["tasks"]}
    assert tasks[1]["reference_data"] == "test-blind_reference_data.zip"
    assert tasks[2]["reference_data"] == "test_reference_data.zip"
    assert json.loads((ROOT / "phase_settings" / "test-blind.json").read_text())["blind"] is True


@pytest.mark.parametrize("change, fragment", [
    (lambda c, s: c["phases"][2].update(phase_never_ends=True), "only the last phase may never end"),
    (lambda c, s: s.update({"dev": BLIND.encode()}), "makes the first phase blind"),
    (lambda c, s: c["phases"][2].pop("leaderboard_management_mode"), "set leaderboard_management_mode: hide_results"),
    (lambda c, s: c["phases"][3].update(leaderboard_management_mode="hide_results"), "Codalab v1.5 only"),
    (lambda c, s: c["phases"][3].update(reference_data="dev_reference_data.zip"), "auto_migration re-runs"),
    (lambda c, s: c.update(end_date=c["phases"][3]["start_date"]), "leave end_date out"),
])
def test_the_build_refuses_combinations_that_cannot_work(change, fragment):
    config, settings = load_config(), default_settings()
    change(config, settings)
    problems = lifecycle_problems(config, settings)
    assert any(fragment in line for line in problems), problems


def test_two_phases_still_build():
    """An organiser may keep Development and one blind-free test phase."""
    config = load_config()
    del config["phases"][3]
    config["phases"][2].pop("leaderboard_management_mode")
    config["phases"][2]["reference_data"] = "test_reference_data.zip"
    config["end_date"] = config["phases"][2]["start_date"].replace(month=4)
    assert lifecycle_problems(config, default_settings()) == []
    v2 = v2_config(config)
    assert [("end" in phase) for phase in v2["phases"]] == [True, True]


# --- blind runs -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """The test phase's public data, the sample submission, a perfect one, a broken one."""
    base = tmp_path_factory.mktemp("lifecycle")
    derive_public_data(str(TEST), str(base / "public"))
    write_submission(str(base / "public"), str(base / "sample"))
    perfect = base / "perfect"
    shutil.copytree(base / "sample", perfect)
    for name in PERFECT_FROM_GOLD:
        shutil.copyfile(TEST / name, perfect / name)
    return base


def files_of(folder: Path) -> dict:
    return {path.relative_to(folder).as_posix(): path for path in folder.rglob("*") if path.is_file()}


def real_scores(tmp_path, ref: Path, res: Path) -> dict:
    run = run_score(tmp_path, files_of(ref), files_of(res))
    assert run.returncode == 0, run.stderr
    return run.scores


def texts(run) -> dict:
    """Everything a participant or a visitor can read of a run: the streams and output/."""
    found = {"stdout": run.stdout, "stderr": run.stderr}
    for path in sorted(run.output.iterdir()):
        text = path.read_text(encoding="utf-8")
        found[path.name] = re.sub(r"<style>.*?</style>", "", text, flags=re.S)  # (CSS lengths are no scores)
    return found


NUMBER = re.compile(r"-?\d+\.\d{2,}")


def leaked(scores: dict, found: dict) -> list:
    """Each number in ``found`` that equals a real score at the number's own precision (2 decimals or more)."""
    hits = []
    for where, text in found.items():
        for token in NUMBER.findall(text):
            decimals = len(token.split(".")[1])
            for key, value in scores.items():
                if abs(float(token) - value) <= 0.5 * 10 ** -decimals + 1e-15:
                    hits.append((where, token, key, value))
    return hits


@pytest.mark.parametrize("which", ["sample", "perfect", "broken"])
def test_a_blind_run_leaves_no_real_score_anywhere(inputs, tmp_path, which):
    ref = files_of(TEST)
    if which == "broken":
        res = dict(files_of(inputs / "sample"), **{"semeval2021_t6_st1.json": b"\xff\xfe not UTF-8\n"})
        scores = real_scores(tmp_path, TEST, inputs / "sample")
    else:
        res = files_of(inputs / which)
        scores = real_scores(tmp_path, TEST, inputs / which)
    if which == "perfect":
        assert scores["t6_st1_f1_micro"] == 1.0 and scores["sa_rmse"] == 0.0
    blind = run_score(tmp_path, dict(ref, **{"scoring_config.json": BLIND}), res)
    if which == "broken":
        assert blind.returncode == 1
        assert "semeval2021_t6_st1.json: byte 0 (line 1): the file is not UTF-8" in blind.stderr
        assert "Traceback" not in blind.stderr
    else:
        assert blind.returncode == 0, blind.stderr
    # every key written, each its not-entered value: the same for every submission
    assert blind.all_scores == {key: not_entered_value(key) for key in ALL_KEYS}
    assert blind.scores_json == blind.all_scores
    found = texts(blind)
    assert leaked(scores, found) == []
    assert (FAILED if which == "broken" else "blind phase") in blind.stdout  # one verdict: failed, or blind
    page = found["detailed_results.html"]
    if which == "broken":  # the page says first that it failed, as every other phase's does
        assert "<h1>Submission failed</h1>" in page and "Submission received" not in page
        assert page.index("This submission failed") < page.index("This is a blind phase")
    else:
        assert "<h1>Submission received</h1>" in page and "failed" not in page
    # the same check finds the scores in a run that is not blind
    assert leaked(scores, texts(run_score(tmp_path, ref, files_of(inputs / "sample" if which == "broken"
                                                                        else inputs / which))))


def nlu_rows(path: Path):
    with open(path, encoding="utf-8", newline="") as handle:
        return [row for row in csv.reader(handle)]


def write_rows(path: Path, rows) -> None:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)


@pytest.fixture(scope="module")
def golds(tmp_path_factory):
    """Two golds of the same public inputs: the second scores half of nlu's scored ids (the others
    become decoys), and has other answers for the other tracks (labels dropped, polarities turned)."""
    base = tmp_path_factory.mktemp("golds")
    one, two = base / "one", base / "two"
    shutil.copytree(TEST, one)
    shutil.copytree(TEST, two)
    rows = nlu_rows(TEST / "aicup2022_nlu.csv")
    scored = sorted({row[0] for row in rows})
    kept = set(scored[::2])
    write_rows(two / "aicup2022_nlu.csv", [row for row in rows if row[0] in kept])
    memes = json.loads((TEST / "semeval2021_t6_st1.json").read_text(encoding="utf-8"))
    for meme in memes[::2]:
        meme["labels"] = []
    (two / "semeval2021_t6_st1.json").write_text(json.dumps(memes), encoding="utf-8")
    reviews = (TEST / "evalita2020_absita.ndjson").read_text(encoding="utf-8").splitlines()
    turned = [line.replace('"POS"', '"NEG"') if "POS" in line else line for line in reviews]
    (two / "evalita2020_absita.ndjson").write_text("\n".join(turned) + "\n", encoding="utf-8")
    assert (one / "aicup2022_nlu_test.csv").read_bytes() == (two / "aicup2022_nlu_test.csv").read_bytes()
    return one, two, len(scored), len(kept)


def refused_submissions(inputs: Path, tmp: Path) -> dict:
    """Submissions refused for their content: nlu without a decoy id, without a scored id, with an
    unknown id; a broken file; the sample (accepted)."""
    test_ids = [row[0] for row in nlu_rows(TEST / "aicup2022_nlu_test.csv")[1:]]
    scored = {row[0] for row in nlu_rows(TEST / "aicup2022_nlu.csv")}
    decoy = next(identifier for identifier in test_ids if identifier not in scored)
    kept = next(identifier for identifier in test_ids if identifier in scored)
    sample = files_of(inputs / "sample")
    rows = nlu_rows(inputs / "sample" / "aicup2022_nlu.csv")
    made = {"sample": sample, "broken": dict(sample, **{"semeval2021_t6_st1.json": b"\xff\xfe not UTF-8\n"})}
    for name, change in (("no_decoy", lambda r: [row for row in r if row[0] != decoy]),
                         ("no_scored", lambda r: [row for row in r if row[0] != kept]),
                         ("unknown_id", lambda r: r + [["999999", "x", "y"]])):
        path = tmp / ("%s.csv" % name)
        write_rows(path, change(rows))
        made[name] = dict(sample, **{"aicup2022_nlu.csv": path})
    return made


def test_refusals_and_outputs_do_not_depend_on_which_items_are_gold(inputs, golds, tmp_path):
    one, two, scored_one, scored_two = golds
    assert scored_two < scored_one  # the membership changed
    seen = {}
    for name, res in refused_submissions(inputs, tmp_path).items():
        outputs = []
        for gold in (one, two):
            # a blind phase's settings, over the gold itself or over the build's stand-in of its inputs
            for settings in (BLIND, json.dumps({"blind": True, "nlu_max_answer_tokens": 5})):
                run = run_score(tmp_path, dict(files_of(gold), **{"scoring_config.json": settings}), res)
                outputs.append((settings, run.returncode, run.stdout, run.stderr,
                                {path.name: path.read_bytes() for path in run.output.iterdir()}))
        for settings in (BLIND, json.dumps({"blind": True, "nlu_max_answer_tokens": 5})):
            same = [output for output in outputs if output[0] == settings]
            assert same[0] == same[1], (name, settings)  # gold one and gold two: byte for byte
        seen[name] = outputs[0]
    assert seen["sample"][1] == 0
    for name in ("broken", "no_decoy", "no_scored", "unknown_id"):
        assert seen[name][1] == 1 and seen[name][3].strip(), name
    # a missing decoy and a missing scored id are refused alike: the same line but the id
    assert re.sub(r"\d{3,}", "N", seen["no_decoy"][3]) == re.sub(r"\d{3,}", "N", seen["no_scored"][3])


def test_the_builds_stand_in_and_the_gold_give_the_same_blind_outputs(inputs, tmp_path):
    """What the build uploads for a blind phase (the stand-in of the public inputs, no answers)
    and the gold itself give the same run: the scoring program derives the stand-in either way."""
    stand_in = tmp_path / "stand_in"
    for track in TRACKS:
        track.write_stand_in_gold(str(inputs / "public"), str(stand_in), track.filename)
    runs = [run_score(tmp_path, dict(files_of(ref), **{"scoring_config.json": BLIND}), files_of(inputs / "sample"))
            for ref in (TEST, stand_in)]
    for run in runs:
        assert run.returncode == 0, run.stderr
    assert runs[0].stdout == runs[1].stdout and runs[0].stderr == runs[1].stderr
    assert [p.read_bytes() for p in sorted(runs[0].output.iterdir())] == \
        [p.read_bytes() for p in sorted(runs[1].output.iterdir())]


# --- the built phases ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built(repository_build):
    """The session's build of the repository (conftest ``repository_build``): its upload's members, with
    the held-back zips in place of their placeholders."""
    out = repository_build.out
    with zipfile.ZipFile(out / "competition_bundle.zip") as bundle:
        files = {name: bundle.read(name) for name in bundle.namelist()}
    # the later phases' reference data are placeholders in the upload; the real zips are held back
    files["test-blind_reference_data.zip"] = (out / "release_test" / "test-blind_reference_data.zip").read_bytes()
    files["test_reference_data.zip"] = (out / "release_test" / "gold" / "test_reference_data.zip").read_bytes()
    return files


def unzip(data: bytes, folder: Path) -> Path:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(folder)
    return folder


def test_the_blind_phase_uploads_no_gold(built, tmp_path):
    blind = unzip(built["test-blind_reference_data.zip"], tmp_path / "blind")
    assert json.loads((blind / "scoring_config.json").read_text())["blind"] is True
    # nlu: the stand-in scores every test id (decoys included) with a placeholder; no answer of the gold
    gold_answers = {tuple(row) for row in nlu_rows(TEST / "aicup2022_nlu.csv")}
    assert not gold_answers & {tuple(row) for row in nlu_rows(blind / "aicup2022_nlu.csv")}
    test_ids = [row[0] for row in nlu_rows(TEST / "aicup2022_nlu_test.csv")[1:]]
    assert [row[0] for row in nlu_rows(blind / "aicup2022_nlu.csv")] == test_ids
    memes = json.loads((blind / "semeval2021_t6_st1.json").read_text(encoding="utf-8"))
    assert all(not meme.get("labels") for meme in memes)
    assert "aicup2022_nlu.tokens.json" not in {path.name for path in blind.iterdir()}


def test_post_evaluation_scores_equal_score_py_on_the_same_gold(built, inputs, tmp_path):
    post = unzip(built["test_reference_data.zip"], tmp_path / "post")
    for which in ("sample", "perfect"):
        on_platform = run_score(tmp_path, files_of(post), files_of(inputs / which))
        local = run_score(tmp_path, dict(files_of(TEST), **{
            "scoring_config.json": ROOT / "phase_settings" / "test.json"}), files_of(inputs / which))
        assert on_platform.returncode == 0 == local.returncode, on_platform.stderr
        assert on_platform.all_scores == local.all_scores
        assert on_platform.scores_json == local.scores_json
        assert all(value != not_entered_value(key) for key, value in on_platform.scores.items())


# --- after the Evaluation phase: the organisers' re-scoring --------------------------------------------

def test_rank_submissions_ranks_an_evaluation_download_by_the_real_scores(inputs, tmp_path):
    import rank_submissions

    def zipped(folder: Path, target: Path) -> Path:
        with zipfile.ZipFile(target, "w") as archive:
            for path in sorted(folder.iterdir()):
                archive.write(path, path.name)
        return target

    members = {}
    for number, (owner, seed) in enumerate((("alice", 1), ("bob", 2), ("carol", 3))):
        folder = tmp_path / owner
        write_submission(str(inputs / "public"), str(folder), seed=seed)
        members["%d_%s_PhaseId78_2027-03-20_10-00_predictions.zip" % (600 + number, owner)] = zipped(
            folder, tmp_path / ("%s.zip" % owner))
    members["603_dora_PhaseId78_2027-03-21_10-00_predictions.zip"] = zipped(inputs / "perfect", tmp_path / "p.zip")
    bulk = tmp_path / "bulk.zip"
    with zipfile.ZipFile(bulk, "w") as archive:
        for name, path in members.items():
            archive.write(path, name)
    # the blind board's export: every entry, every column the same not-entered value
    export = {"Results - Evaluation(78)": {
        "%s-%s" % (name.split("_")[1], name.split("_")[0]): dict(
            {"fact_sheet_answers": {}}, **{"Evaluation(78)-%s" % key: not_entered_value(key) for key in ALL_KEYS})
        for name in members}}
    results = tmp_path / "results.json"
    results.write_text(json.dumps(export), encoding="utf-8")
    out = tmp_path / "out"
    assert rank_submissions.main([str(bulk), "--ref", str(TEST), "--out", str(out), "--results", str(results),
                                  "--resamples", "20", "--quiet"]) == 0
    text = (out / "t6_st1.csv").read_text(encoding="utf-8").split("\n", 1)[1]
    rows = list(csv.DictReader(io.StringIO(text)))
    assert "Random baseline" in [row["team"] for row in rows if row["baseline"] == "yes"]  # the kit's, unranked
    rows = [row for row in rows if row["baseline"] != "yes"]
    real = {owner: real_scores(tmp_path, TEST, source)["t6_st1_f1_micro"]
            for owner, source in (("alice", tmp_path / "alice"), ("bob", tmp_path / "bob"),
                                  ("carol", tmp_path / "carol"), ("dora", inputs / "perfect"))}
    assert {row["team"]: float(row["t6_st1_f1_micro"]) for row in rows} == pytest.approx(real, abs=1e-9)
    assert [row["team"] for row in rows] == sorted(real, key=lambda owner: -real[owner])  # rank order
    assert rows[0]["team"] == "dora"
    # the built blind reference data (a stand-in, no gold) is refused as --ref
    stand_in = tmp_path / "stand_in"
    for track in TRACKS:
        track.write_stand_in_gold(str(inputs / "public"), str(stand_in), track.filename)
    (stand_in / "scoring_config.json").write_text(BLIND, encoding="utf-8")
    with pytest.raises(SystemExit, match="make the phase blind"):
        rank_submissions.main([str(bulk), "--ref", str(stand_in), "--out", str(tmp_path / "out2"), "--quiet"])


def test_the_organisers_docs_and_the_kit_readme_name_each_phase_and_the_blind_setting():
    organisers = (ROOT / "docs" / "organisers.md").read_text(encoding="utf-8")
    kit = (ROOT / "starting_kit" / "README.md").read_text(encoding="utf-8")
    for text in (organisers, kit):
        for phase in load_config()["phases"].values():
            assert phase["label"] in text, phase["label"]
        assert "blind" in text  # the setting that withholds the scores
    assert '"blind": true' in organisers and "phase_settings/" in organisers  # where an organiser sets it
