"""The release: yaml validation, reproducible zips, the self-contained scoring program, the kit."""

from __future__ import annotations

import copy
import datetime
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, SHARED, run_score, shared_path

sys.path.insert(0, str(ROOT))

from bundle.rules import validate  # noqa: E402
from bundle.wheel import wheel_name  # noqa: E402
from scorer import __version__  # noqa: E402
from scorer.tracks.registry import ALL_KEYS, LOWER_IS_BETTER, TRACKS  # noqa: E402

BUILD = [sys.executable, str(ROOT / "build_bundle.py")]
# What the default build writes: the upload, the first phase's kit, the Test phase's held-back release.
RELEASED = ("competition_bundle.zip", "starting_kit.zip", "release_test/test_public_data.zip",
            "release_test/test-blind_reference_data.zip", "release_test/gold/test_reference_data.zip",
            "release_test/starting_kit.zip", wheel_name(__version__))


@pytest.fixture(scope="module")
def built(repository_build):
    """The session's build of the repository (conftest ``repository_build``): (out, stdout)."""
    assert "check: the upload's runs pass" in repository_build.stdout
    return repository_build.out, repository_build.stdout


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_two_builds_are_byte_identical(built, tmp_path):
    out, _ = built
    process = subprocess.run(BUILD + ["--out", str(tmp_path), "--no-check"], capture_output=True, text=True)
    assert process.returncode == 0, process.stderr
    for name in RELEASED:
        assert sha256(out / name) == sha256(tmp_path / name), name


def test_bundle_layout(built):
    out, stdout = built
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) == sorted(RELEASED)
    with zipfile.ZipFile(out / "competition_bundle.zip") as bundle:
        names = bundle.namelist()
        # v1.5 reads the first entry containing ".yaml"; Codabench reads competition.yaml
        assert names[0] == "codalab_v1.5.yaml"
        assert [n for n in names if ".yaml" in n] == ["codalab_v1.5.yaml", "competition.yaml"]
        assert not [n for n in names if "/" in n or "__MACOSX" in n or ".DS_Store" in n]
        # held back until the Test phase opens: its public data, kit and sample submission
        assert "test_public_data.zip" not in names and "test_sample_submission.zip" not in names
        for name in names:
            if name.endswith(".zip"):
                with zipfile.ZipFile(bundle.open(name)) as inner:
                    inner_names = inner.namelist()
                    assert not [n for n in inner_names if "__pycache__" in n or n.endswith(".pyc")]
                    assert all(info.date_time == (1980, 1, 1, 0, 0, 0) for info in inner.infolist())
        with zipfile.ZipFile(bundle.open("scoring_program.zip")) as program:
            names = program.namelist()
            assert "metadata" in names and "score.py" in names
            assert "nltk_data/tokenizers/punkt/PY3/english.pickle" in names
            assert "vendor/nltk/tokenize/punkt.py" in names and "vendor/nltk/VERSION" in names
            assert not [n for n in names if n.startswith("vendor/regex/") or n.startswith("vendor/nltk/chat/")]
        # the lean program and kit: no nltk or regex file the scorer never loads
        assert bundle.getinfo("scoring_program.zip").file_size <= 1.5 * 10 ** 6
        with zipfile.ZipFile(bundle.open("dev_reference_data.zip")) as ref:
            assert "semeval2021_t6_st1.json" in ref.namelist()  # contents, no wrapping folder
            assert "aicup2022_nlu.tokens.json" in ref.namelist()  # the gold's tokens (nlu.reference_data_extras)
            assert json.loads(ref.read("scoring_config.json"))["detailed_results"] == "full"
            assert "other_phases.json" not in ref.namelist()  # no later phase's ids
        for name in ("test_reference_data.zip", "test-blind_reference_data.zip"):  # placeholders in the upload
            with zipfile.ZipFile(bundle.open(name)) as ref:
                assert ref.namelist() == ["held_back.json"] and json.loads(ref.read("held_back.json"))["held_back"] == name
        with zipfile.ZipFile(out / "release_test" / "gold" / "test_reference_data.zip") as ref:  # Post-Evaluation
            assert json.loads(ref.read("scoring_config.json"))["detailed_results"] == "scores"
            assert list(json.loads(ref.read("other_phases.json"))) == ["Development"]
        with zipfile.ZipFile(out / "release_test" / "test-blind_reference_data.zip") as ref:  # Evaluation: no gold
            assert json.loads(ref.read("scoring_config.json"))["blind"] is True
            assert list(json.loads(ref.read("other_phases.json"))) == ["Development"]
        v15 = yaml.safe_load(bundle.read("codalab_v1.5.yaml"))
        assert bundle.read("starting_kit.zip") == (out / "starting_kit.zip").read_bytes()
    assert "codabench" not in v15 and v15["force_submission_to_leaderboard"] is True
    assert v15["enable_per_submission_metadata"] is True
    for number in (2, 3):
        assert "public_data" not in v15["phases"][number] and "starting_kit" not in v15["phases"][number]
    assert (out / "starting_kit.zip").stat().st_size <= 2 * 10 ** 6
    for layout in ("v1.5", "codabench"):
        for phase in ("Development", "Evaluation", "Post-Evaluation"):
            assert "%s, phase %s, sample submission: exit 0, %d leaderboard scores" % (layout, phase, len(ALL_KEYS)) in stdout
            assert "%s, phase %s, broken submission: exit 1" % (layout, phase) in stdout
        for track in TRACKS:
            assert "%s, phase Development, only %s: exit 0" % (layout, track.name) in stdout
    assert "check: ok: ranking: " in stdout
    upload_line = next(line for line in stdout.splitlines() if line.startswith("wrote %s (" % (out / RELEASED[0])))
    assert "Codabench" in upload_line and "Codalab v1.5" in upload_line  # the one zip for both platforms
    assert "note: Codabench ignores phases.*.color" in stdout
    assert "check: ok: phase Evaluation, sample submission: blind: " in stdout
    assert "  when phase Evaluation opens: .venv/bin/python codabench.py release COMPETITION Evaluation " in stdout
    assert "codabench.py attach-gold COMPETITION Post-Evaluation " in stdout


def test_the_test_release_holds_the_test_inputs_and_sample(built):
    out, _ = built
    with zipfile.ZipFile(out / "release_test" / "test_public_data.zip") as public:
        assert "semeval2021_t6_st1.json" in public.namelist()
    with zipfile.ZipFile(out / "release_test" / "starting_kit.zip") as kit:
        names = kit.namelist()
    assert "test_sample_submission.zip" in names and "public_data/test/semeval2021_t6_st1.json" in names
    assert "sample_submission.zip" in names and "public_data/dev/semeval2021_t6_st1.json" in names
    with zipfile.ZipFile(out / "starting_kit.zip") as kit:
        assert not [n for n in kit.namelist() if n.startswith("public_data/test/") or n.startswith("test_")]


def test_the_codabench_yaml_is_native(built):
    out, stdout = built
    with zipfile.ZipFile(out / "competition_bundle.zip") as bundle:
        names = bundle.namelist()
        v2 = yaml.safe_load(bundle.read("competition.yaml"))
    assert v2["version"] == 2
    assert [task["reference_data"] for task in v2["tasks"]] == ["dev_reference_data.zip", "test-blind_reference_data.zip",
                                                                 "test_reference_data.zip"]
    assert [s["path"] for s in v2["solutions"]] == ["dev_sample_submission.zip"] and v2["solutions"][0]["tasks"] == [0]
    assert all(solution["path"] in names for solution in v2["solutions"])
    dev, test, post = v2["phases"]
    assert dev["public_data"] == "dev_public_data.zip" and "public_data" not in test and "starting_kit" not in test
    parse = datetime.datetime.fromisoformat
    assert parse(test["start"]) - parse(dev["end"]) == datetime.timedelta(seconds=1)
    assert parse(post["start"]) - parse(test["end"]) == datetime.timedelta(days=1)  # the day to attach the gold
    assert "end" not in post and post["auto_migrate_to_this_phase"] is True  # never ends; migrates Evaluation
    assert all(phase["hide_score_output"] is False for phase in v2["phases"])
    # the blind phase hides output (a visitor would take its board entries' files), no other
    assert [phase["hide_output"] for phase in v2["phases"]] == [False, True, False]
    (board,) = v2["leaderboards"]
    assert board["submission_rule"] == "Force_Last"
    assert [column["key"] for column in board["columns"]] == list(ALL_KEYS)
    assert board["columns"][board["primary_index"]]["key"] == "t6_st1_f1_micro"
    assert all(len(column["title"]) <= 36 and column["sorting"] in ("asc", "desc") for column in board["columns"])
    assert "Codabench shows 2027-03-01 00:00:00+00:00 to 2027-03-31 00:00:00+00:00" in stdout
    assert "Codabench shows 2027-04-01 00:00:00+00:00 with no end" in stdout
    from bundle.fact_sheet import DEFAULT_FACT_SHEET
    assert v2["fact_sheet"] == DEFAULT_FACT_SHEET and v2["forum_enabled"] is True


def test_release_all_puts_every_phase_in_the_upload(tmp_path):
    process = subprocess.run(BUILD + ["--out", str(tmp_path), "--no-check", "--release-all"], capture_output=True,
                             text=True)
    assert process.returncode == 0, process.stderr
    # the inputs in the upload; the Test gold never (dist/release_test/gold/)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["competition_bundle.zip", "starting_kit.zip",
                                                                 "release_test", wheel_name(__version__)])
    assert [p.name for p in (tmp_path / "release_test").rglob("*.zip")] == ["test_reference_data.zip"]
    with zipfile.ZipFile(tmp_path / "competition_bundle.zip") as bundle:
        assert {"test_public_data.zip", "test_sample_submission.zip"} <= set(bundle.namelist())
        v2 = yaml.safe_load(bundle.read("competition.yaml"))
    assert v2["phases"][1]["public_data"] == "test_public_data.zip" and len(v2["solutions"]) == 3  # one per phase


def test_the_v15_yaml_is_the_source_without_its_codabench_block():
    from bundle.platforms import edition, v15_yaml
    config = load_config()
    assert "codabench" in config
    text = v15_yaml(edition(config, release_all=True))
    assert yaml.safe_load(text) == {k: v for k, v in config.items() if k != "codabench"}
    assert "\ncodabench:" not in text and text.startswith("# Codalab v1.5 reads this file")


def _pythons():
    from test_score_contract import _pythons as find
    return find()


def test_the_program_and_what_it_vendors_need_python_3_7_at_most(built, tmp_path):
    pytest.importorskip("vermin")
    out, _ = built
    with zipfile.ZipFile(out / "competition_bundle.zip") as bundle:
        zipfile.ZipFile(io.BytesIO(bundle.read("scoring_program.zip"))).extractall(tmp_path / "program")
    assert (tmp_path / "program" / "vendor" / "nltk" / "tokenize" / "punkt.py").is_file()
    process = subprocess.run([str(Path(sys.executable).parent / "vermin"), "--no-tips", "--violations", "-t=3.7-",
                              "--no-parse-comments", "--eval-annotations", str(tmp_path / "program")],
                             capture_output=True, text=True)
    assert process.returncode == 0, process.stdout + process.stderr


@pytest.mark.parametrize("python", _pythons())
def test_extracted_program_scores_every_track_without_site_packages(built, tmp_path, python):
    out, _ = built
    with zipfile.ZipFile(out / "competition_bundle.zip") as bundle:
        for name in ("scoring_program.zip", "dev_reference_data.zip", "starting_kit.zip"):
            (tmp_path / name).write_bytes(bundle.read(name))
    zipfile.ZipFile(tmp_path / "scoring_program.zip").extractall(tmp_path / "program")
    zipfile.ZipFile(tmp_path / "dev_reference_data.zip").extractall(tmp_path / "input" / "ref")
    with zipfile.ZipFile(tmp_path / "starting_kit.zip") as kit:
        (tmp_path / "sample.zip").write_bytes(kit.read("sample_submission.zip"))
    zipfile.ZipFile(tmp_path / "sample.zip").extractall(tmp_path / "input" / "res")
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}  # no NLTK_DATA: the program's own model
    process = subprocess.run([python, "-I", "-S", str(tmp_path / "program" / "score.py"),
                              str(tmp_path / "input"), str(tmp_path / "output")],
                             capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert process.returncode == 0, process.stderr
    keys = [line.split(":")[0] for line in (tmp_path / "output" / "scores.txt").read_text().splitlines()]
    assert keys == list(ALL_KEYS)


# --- competition.yaml rules ------------------------------------------------------------------------

def load_config():
    return yaml.safe_load((ROOT / "competition.yaml").read_text(encoding="utf-8"))


def problems_of(config):
    return validate(config, str(ROOT / "pages"), str(ROOT / "reference_data"), TRACKS, LOWER_IS_BETTER)


def test_the_repository_yaml_is_valid():
    assert problems_of(load_config()) == []


def test_every_score_key_is_a_column():
    assert list(load_config()["leaderboard"]["columns"]) == list(ALL_KEYS)


def _mutate(function):
    config = copy.deepcopy(load_config())
    function(config)
    return problems_of(config)


@pytest.mark.parametrize("mutation,fragment", [
    (lambda c: c.update(version=2), "unknown top-level key 'version'"),
    (lambda c: c["phases"][1].update(start_date="2027-01-04"), "start_date must be an unquoted YAML date"),
    (lambda c: c["phases"][1].update(tasks=[1]), "unknown key 'tasks'"),
    (lambda c: c["phases"][1].pop("max_submissions_per_day"), "set max_submissions_per_day explicitly"),
    (lambda c: c["phases"][2].update(start_date=datetime.date(2026, 1, 1)), "must start after the previous phase"),
    (lambda c: (c["phases"][3].pop("phase_never_ends"), c.update(end_date=None)),
     "end_date must be an unquoted date or datetime"),
    (lambda c: c["phases"][3].update(phase_never_ends="yes"), "phase_never_ends must be false or true"),
    (lambda c: c.update(force_submission_to_leaderboard=False), "force_submission_to_leaderboard must be true"),
    (lambda c: c["phases"][2].update(force_best_submission_to_leaderboard=True), "picks the best by the primary"),
    (lambda c: c["phases"][2].update(leaderboard_management_mode="hidden"),
     "leaderboard_management_mode must be default or hide_results"),
    (lambda c: c.update(disallow_leaderboard_modifying=False), "disallow_leaderboard_modifying must be true"),
    (lambda c: c.pop("disallow_leaderboard_modifying"), "disallow_leaderboard_modifying must be true"),
    (lambda c: c.update(anonymous_leaderboard=True), "anonymous_leaderboard is refused"),
    (lambda c: c["phases"][1].update(max_submission_size=10), "max_submission_size is refused"),
    (lambda c: c["codabench"].update(forum_enabled=False), "codabench.forum_enabled: set enable_forum instead"),
    (lambda c: c["codabench"].update(contact_email="not an address"), "contact_email must be one e-mail"),
    (lambda c: c["codabench"].update(fact_sheet={"q": {"key": "q", "type": "textarea", "title": "Q", "selection": "",
                                                       "is_required": "true", "is_on_leaderboard": "false"}}),
     "type 'textarea' is not one of checkbox, text, select"),
    (lambda c: (c.pop("enable_per_submission_metadata"), c["codabench"].update(fact_sheet={})),
     "fact_sheet is set but enable_per_submission_metadata is not true"),
    (lambda c: c["phases"][1].pop("max_submissions"), "set max_submissions explicitly"),
    (lambda c: c["codabench"].update(hide_output=True), "hide_output is refused"),
    (lambda c: c["leaderboard"]["columns"].pop("ate_recall"), "make each a column (hidden: true hides one): ate_recall"),
    (lambda c: c["leaderboard"]["columns"]["flc_f1"].update(computed={}), "computed is refused"),
    (lambda c: c["codabench"].update(hide_score_output=True), "hide_score_output must be false"),
    (lambda c: c["codabench"].update(submission_rule="Force_Best"), "not a known Codabench setting"),
    (lambda c: c["leaderboard"]["columns"]["flc_f1"]["column_group"].update(label="nlp4if-2019 FLC"),
     "column_group.label must equal a column group's label exactly"),
    (lambda c: c["leaderboard"]["columns"]["flc_f1"].update(label="x" * 37), "label must be 1 to 36"),
    (lambda c: c["leaderboard"]["columns"]["sa_rmse"].pop("sort"), "lower is better for this score"),
    (lambda c: c["leaderboard"]["columns"].update(bleu={"leaderboard": {"label": "Results"}, "label": "BLEU",
                                                         "rank": 99, "numeric_format": 2}), "no track writes this key"),
    (lambda c: c["leaderboard"]["columns"]["flc_f1"].update(selection_default=1), "share the highest selection_default"),
    (lambda c: c["leaderboard"]["columns"]["flc_f1"].update(leaderboard={"label": "results"}), "must equal a leaderboard's label"),
    (lambda c: c["html"].pop("data"), "html.data is required"),
    (lambda c: c.update(image="missing.png"), "image must name a logo"),
    (lambda c: c["phases"][1].update(reference_data="nowhere_reference_data.zip"), "no reference data folder"),
])
def test_rules_catch_what_the_platforms_reject(mutation, fragment):
    problems = _mutate(mutation)
    assert any(fragment in line for line in problems), problems


def test_a_column_without_gold_in_a_phase_is_refused(tmp_path):
    shutil.copytree(ROOT / "reference_data", tmp_path / "ref")
    (tmp_path / "ref" / "test" / "aicup2022_nlu.csv").unlink()
    problems = validate(load_config(), str(ROOT / "pages"), str(tmp_path / "ref"), TRACKS, LOWER_IS_BETTER)
    assert any("track nlu" in line and "Evaluation" in line for line in problems), problems


def test_build_refuses_a_broken_yaml_with_one_line_each(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(ROOT, root, ignore=shutil.ignore_patterns(".venv", "dist", "build", ".git", "__pycache__"))
    text = (root / "competition.yaml").read_text(encoding="utf-8").replace("title:", "version: 2\ntitle:")
    (root / "competition.yaml").write_text(text, encoding="utf-8")
    process = subprocess.run([sys.executable, str(root / "build_bundle.py"), "--no-check"],
                             capture_output=True, text=True)
    assert process.returncode == 1 and "unknown top-level key 'version'" in process.stderr
    assert "Traceback" not in process.stderr and not (root / "dist").exists()


CUSTOM_FACT_SHEET = {
    "team_name": {"key": "team_name", "type": "text", "title": "Team name", "selection": "",
                  "is_required": "true", "is_on_leaderboard": "true"},
    "model_size": {"key": "model_size", "type": "select", "title": "Model size",
                   "selection": ["small", "large"], "is_required": "false", "is_on_leaderboard": "false"},
}


def test_a_valid_custom_fact_sheet_passes_the_rules():
    problems = _mutate(lambda c: c["codabench"].update(fact_sheet=copy.deepcopy(CUSTOM_FACT_SHEET)))
    assert problems == [], problems


def test_a_custom_fact_sheet_ends_up_in_the_codabench_yaml(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(ROOT, root, ignore=shutil.ignore_patterns(".venv", "dist", "build", ".git", "__pycache__"))
    config_path = root / "competition.yaml"
    sheet = yaml.safe_dump({"fact_sheet": CUSTOM_FACT_SHEET}, default_flow_style=False)
    indented = "".join("  " + line + "\n" for line in sheet.splitlines())
    text = config_path.read_text(encoding="utf-8").replace("codabench:\n", "codabench:\n" + indented, 1)
    config_path.write_text(text, encoding="utf-8")
    process = subprocess.run([sys.executable, str(root / "build_bundle.py"), "--no-check", "--out",
                              str(tmp_path / "out")], capture_output=True, text=True)
    assert process.returncode == 0, process.stdout + process.stderr
    with zipfile.ZipFile(tmp_path / "out" / "competition_bundle.zip") as bundle:
        v2 = yaml.safe_load(bundle.read("competition.yaml"))
    assert v2["fact_sheet"] == CUSTOM_FACT_SHEET


# --- the starting kit ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def kit(built, tmp_path_factory):
    out, _ = built
    folder = tmp_path_factory.mktemp("kit")
    zipfile.ZipFile(out / "starting_kit.zip").extractall(folder)
    return folder


def test_kit_contents(kit):
    for name in ("README.md", "README.ipynb", "baselines.py", "score_locally.py", "staging.py", "check_format.py",
                 "sample_submission.zip",
                 "scoring_program/score.py", "public_data/dev/semeval2021_t6_st1.json"):
        assert (kit / name).exists(), name
    with zipfile.ZipFile(kit / "sample_submission.zip") as sample:
        assert sorted(sample.namelist()) == sorted(t.filename for t in TRACKS)  # flat, every track


def test_score_locally_runs_the_same_program(kit, tmp_path):
    process = subprocess.run([sys.executable, str(kit / "score_locally.py"), str(kit / "sample_submission.zip"),
                              "--ref", str(ROOT / "reference_data" / "dev"), "--out", str(tmp_path / "out"),
                              "--items", str(tmp_path / "items")],
                             capture_output=True, text=True, cwd=str(tmp_path))
    assert process.returncode == 0, process.stderr
    assert "t6_st1_f1_micro:" in process.stdout and "detailed results:" in process.stdout
    assert sorted(os.listdir(tmp_path / "out")) == ["detailed_results.html", "scores.json", "scores.txt"]
    assert sorted(os.listdir(tmp_path / "items")) == sorted(["%s_items.json" % t.name for t in TRACKS]
                                                            + ["error_analysis.html"])
    assert "error analysis: %s" % (tmp_path / "items" / "error_analysis.html") in process.stdout
    analysis = (tmp_path / "items" / "error_analysis.html").read_text(encoding="utf-8")
    for track in TRACKS:  # every track's worst items
        assert 'id="%s"' % track.name in analysis and analysis.count("<h3>item ") >= len(TRACKS)


def test_score_locally_needs_gold_and_says_so(kit, tmp_path):
    process = subprocess.run([sys.executable, str(kit / "score_locally.py"), str(kit / "sample_submission.zip")],
                             capture_output=True, text=True, cwd=str(tmp_path))
    assert process.returncode == 2 and "pass --ref" in process.stderr


def test_check_format_accepts_the_sample_and_names_problems(kit, tmp_path):
    ok = subprocess.run([sys.executable, str(kit / "check_format.py"), str(kit / "sample_submission.zip")],
                        capture_output=True, text=True, cwd=str(tmp_path))
    assert ok.returncode == 0 and "format OK" in ok.stdout, ok.stderr
    broken = tmp_path / "broken.zip"
    with zipfile.ZipFile(broken, "w") as archive:
        archive.writestr("nlp4if2019_flc.tsv", "700100000\tLoaded Language\t0\t10\n")
    bad = subprocess.run([sys.executable, str(kit / "check_format.py"), str(broken)],
                         capture_output=True, text=True, cwd=str(tmp_path))
    assert bad.returncode == 1
    assert bad.stderr.startswith("nlp4if2019_flc.tsv: line 1: ")  # the file and the line
    assert "'Loaded Language'" in bad.stderr and "'Loaded_Language'" in bad.stderr  # what it found, the near name


@pytest.mark.parametrize("entry", ["../evil.json", "/abs.json"])
def test_kit_refuses_unsafe_archives(kit, tmp_path, entry):
    archive_path = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive_path, "w") as archive:
        archive.writestr(entry, "[]")
    process = subprocess.run([sys.executable, str(kit / "check_format.py"), str(archive_path)],
                             capture_output=True, text=True, cwd=str(tmp_path))
    assert process.returncode == 2 and "refusing the entry" in process.stderr


def test_kit_refuses_symlinks(kit, tmp_path):
    archive_path = tmp_path / "link.zip"
    with zipfile.ZipFile(archive_path, "w") as archive:
        info = zipfile.ZipInfo("semeval2021_t6_st1.json")
        info.external_attr = (0o120777 << 16)
        archive.writestr(info, "/etc/passwd")
    process = subprocess.run([sys.executable, str(kit / "check_format.py"), str(archive_path)],
                             capture_output=True, text=True, cwd=str(tmp_path))
    assert process.returncode == 2 and "symbolic link" in process.stderr


def test_baselines_reproduce_themselves(tmp_path):
    sys.path.insert(0, str(ROOT / "starting_kit"))
    assert not (ROOT / "starting_kit" / "techniques.py").exists()  # the lists are the track modules'
    from bundle.public_data import derive_public_data
    from baselines import write_submission
    derive_public_data(str(ROOT / "reference_data" / "dev"), str(tmp_path / "public"))
    write_submission(str(tmp_path / "public"), str(tmp_path / "a"))
    write_submission(str(tmp_path / "public"), str(tmp_path / "b"))
    for name in os.listdir(tmp_path / "a"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    run = run_score(tmp_path, {n: ROOT / "reference_data" / "dev" / n for n in os.listdir(ROOT / "reference_data" / "dev")},
                    {n: tmp_path / "a" / n for n in os.listdir(tmp_path / "a")})
    assert run.returncode == 0, run.stderr
    assert 0 < run.scores["t6_st1_f1_micro"] < 1 and run.scores["nlu_score"] > 0.3
    assert not any(value < 0 for value in run.scores.values())


def test_public_data_has_no_answers(tmp_path):
    from bundle.public_data import derive_public_data
    derive_public_data(str(ROOT / "reference_data" / "dev"), str(tmp_path))
    text = "".join(p.read_text(encoding="utf-8") for p in tmp_path.rglob("*") if p.is_file())
    assert '"labels"' not in text and '"aspects"' not in text and '"polarities"' not in text
    assert not list(tmp_path.rglob("*.labels"))


# --- organiser traps ---------------------------------------------------------------------------------

def _build_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location("build_bundle_under_test", str(ROOT / "build_bundle.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_failed_check_leaves_no_zip_and_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    build_bundle = _build_module()
    from bundle import build
    (tmp_path / "competition_bundle.zip").write_bytes(b"a stale zip of an earlier build")

    def failing_check(path, samples, python, report, tracks, release_all, held_back):
        assert os.path.isfile(path)  # checked where it was written
        report.fail("v1.5, phase Test, sample submission: exit 1:\nwhy")

    monkeypatch.setattr(build, "check_bundle", failing_check)
    code = build_bundle.main(["--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing left, the stale zip included
    closing = err.strip().splitlines()[-2:]
    assert closing[0].startswith("build: ") and "1 problem" in closing[0]  # how many, and the first:
    assert "v1.5, phase Test, sample submission: exit 1:" in closing[0]
    assert closing[1].startswith("build: ") and "no zip" in closing[1] and str(tmp_path) in closing[1]


def test_every_zip_is_printed_with_its_sha256(built):
    out, stdout = built
    for name in RELEASED:
        line = next(l for l in stdout.splitlines() if l.startswith("wrote %s (" % (out / name)))
        assert "sha256 %s)" % sha256(out / name) in line


def test_a_tab_in_competition_yaml_is_one_clear_line(tmp_path):
    from bundle.competition import load_yaml
    path = tmp_path / "competition.yaml"
    path.write_text("title: x\nphases:\n\t1:\n    label: Development\n", encoding="utf-8")
    _, config, problem = load_yaml(str(path))
    assert config is None
    assert problem.startswith("competition.yaml: line 3, column 1: ") and "TAB" in problem
    path.write_text("title: [x\n", encoding="utf-8")
    assert load_yaml(str(path))[2].startswith("competition.yaml: line 2, column 1: ")


def test_missing_gold_and_missing_nlu_test_input_say_how_to_fix_them(tmp_path):
    shutil.copytree(ROOT / "reference_data", tmp_path / "ref")
    (tmp_path / "ref" / "test" / "aicup2022_nlu_test.csv").unlink()
    (tmp_path / "ref" / "test" / "semeval2021_t6_st3.json").unlink()
    problems = validate(load_config(), str(ROOT / "pages"), str(tmp_path / "ref"), TRACKS, LOWER_IS_BETTER)
    # each names the phase, the track and what to change: its columns, or the file to add
    assert any(p.startswith("phase Evaluation: ") and "t6_st3" in p and "t6_st3_f1_micro, t6_st3_f1_macro" in p
               and "competition.yaml" in p for p in problems), problems
    assert any(p.startswith("phase Evaluation: ") and "aicup2022_nlu_test.csv" in p and "id,q,r,s" in p
               for p in problems), problems


def test_the_readme_says_where_the_shared_data_comes_from():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "SHARED_DIR=/path/to/shared ./run_tests.sh" in readme
    assert 'os.environ.get("SHARED_DIR"' in (ROOT / "tests" / "conftest.py").read_text(encoding="utf-8")


def test_the_readme_quotes_what_the_build_prints(built):
    """The quick start's quotes of the build's lines (``phases: ...``, ``upload: ... ...``): each
    piece between the ``...`` is printed, in that order, on one line of the build."""
    import re
    _, stdout = built
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    build_step = readme.split("## Quick start", 1)[1].split("\n2. ", 1)[0]  # step 1: the build
    quotes = [" ".join(quote.split()) for quote in re.findall(r"`([^`]*\.\.\.[^`]*)`", build_step)]
    assert len(quotes) >= 3, quotes
    for quote in quotes:
        pieces = [piece.strip() for piece in quote.split("...") if piece.strip()]
        assert any(re.search(".*".join(map(re.escape, pieces)), line) for line in stdout.splitlines()), quote


def test_the_kit_readme_lists_every_technique_and_the_baseline_scores(built, tmp_path):
    out, _ = built
    with zipfile.ZipFile(out / "starting_kit.zip") as kit:
        readme = kit.read("README.md").decode("utf-8")
        (tmp_path / "sample.zip").write_bytes(kit.read("sample_submission.zip"))
    for track in TRACKS:
        if track.techniques:  # exactly the track's strings, under a heading naming its file and their number
            assert "\n".join("- `%s`" % name for name in track.techniques) in readme
            assert any(line.startswith("## The %d technique names of " % len(track.techniques))
                       and "`%s`" % track.filename in line for line in readme.splitlines()), track.name
    # the expected scores are those score.py gives the sample on the Development gold
    zipfile.ZipFile(tmp_path / "sample.zip").extractall(tmp_path / "res")
    dev = ROOT / "reference_data" / "dev"
    run = run_score(tmp_path, {p.name: p for p in dev.iterdir()}, {p.name: p for p in (tmp_path / "res").iterdir()})
    assert run.returncode == 0, run.stderr
    table = {key.strip("`"): value.rstrip(" |") for key, value in (line.split(" | ")[1:3] for line in readme.splitlines()
                                                     if line.startswith("| `") and line.count("|") == 4)}
    assert table == {key: "%.6f" % value for key, value in run.scores.items()}
    assert len(table) == len(ALL_KEYS)


# --- the kit: whole-submission verdicts, official data, metadata ---------------------------------------

def _kit_run(kit, tmp_path, *args):
    return subprocess.run([sys.executable, str(kit / args[0])] + [str(a) for a in args[1:]],
                          capture_output=True, text=True, cwd=str(tmp_path),
                          env=dict(os.environ, NLTK_DATA=str(SHARED / "nltk_data")))


def test_one_bad_file_fails_the_whole_submission_and_the_tools_say_so(kit, tmp_path):
    broken = tmp_path / "five_good_one_bad.zip"
    with zipfile.ZipFile(kit / "sample_submission.zip") as sample, zipfile.ZipFile(broken, "w") as out:
        for name in sample.namelist():
            out.writestr(name, sample.read(name) if name != "nlp4if2019_flc.tsv" else b"700100000\tDoubt\t9\t3\n")
    scored = _kit_run(kit, tmp_path, "score_locally.py", broken, "--ref", ROOT / "reference_data" / "dev",
                      "--out", tmp_path / "out", "--resamples", 0)
    assert scored.returncode == 1 and "t6_st1_f1_micro:" in scored.stdout  # the valid files' scores ...
    verdict = scored.stderr.strip().splitlines()[-1]  # ... and the verdict: the whole submission fails, for that file
    assert verdict.startswith("platform: ") and "FAIL" in verdict and "nlp4if2019_flc.tsv" in verdict
    checked = _kit_run(kit, tmp_path, "check_format.py", broken)
    verdict = checked.stderr.strip().splitlines()[-1]
    assert checked.returncode == 1 and verdict.startswith("platform: ") and "FAIL" in verdict
    assert "nlp4if2019_flc.tsv" in verdict and "scores" not in verdict  # check_format printed none: it speaks of none
    good = _kit_run(kit, tmp_path, "check_format.py", kit / "sample_submission.zip")
    verdict = good.stdout.strip().splitlines()[-1]
    assert verdict.startswith("platform: ") and "accepted" in verdict and "NOT" not in verdict


def test_check_format_refuses_a_file_named_metadata(kit, tmp_path):
    archive_path = tmp_path / "with_metadata.zip"
    with zipfile.ZipFile(kit / "sample_submission.zip") as sample, zipfile.ZipFile(archive_path, "w") as out:
        for name in sample.namelist():
            out.writestr("results/" + name, sample.read(name))
        out.writestr("results/metadata", "command: python3 predict.py\n")
    process = _kit_run(kit, tmp_path, "check_format.py", archive_path)
    assert process.returncode == 1
    assert "%s:results/metadata: " % archive_path in process.stderr  # the archive and the member named


def test_score_locally_reads_the_tasks_released_folders_as_downloaded(kit, tmp_path):
    data = shared_path("data")
    submission = tmp_path / "sub"
    submission.mkdir()
    shutil.copy(data / "semeval2021_task6" / "test_set_task1.txt", submission / "semeval2021_t6_st1.json")
    shutil.copy(data / "semeval2021_task6" / "dev_set_task2.txt", submission / "semeval2021_t6_st2.json")
    shutil.copy(data / "semeval2021_task6" / "task3" / "dev_set_task3_labeled.txt", submission / "semeval2021_t6_st3.json")
    shutil.copy(data / "ate_absita" / "ate_absita_dev.ndjson", submission / "evalita2020_absita.ndjson")
    rows = "".join(path.read_text(encoding="utf-8") for path in
                   sorted((data / "nlp4if2019_flc" / "train-labels-FLC").glob("*.labels")))
    (submission / "nlp4if2019_flc.tsv").write_text(rows, encoding="utf-8")
    run = _kit_run(kit, tmp_path, "score_locally.py", submission, "--ref", data, "--out", tmp_path / "out",
                   "--resamples", 0)
    assert run.returncode == 0, run.stderr
    for line in ("gold for semeval2021_t6_st1.json: the test split (semeval2021_task6/test_set_task1.txt)",
                 "gold for semeval2021_t6_st2.json: the dev split (semeval2021_task6/dev_set_task2.txt)",
                 "gold for semeval2021_t6_st3.json: the dev split (semeval2021_task6/task3/dev_set_task3_labeled.txt)",
                 "gold for nlp4if2019_flc.tsv: the train split (nlp4if2019_flc/train-labels-FLC)",
                 "gold for evalita2020_absita.ndjson: the dev split (ate_absita/ate_absita_dev.ndjson)"):
        assert line in run.stdout.splitlines(), run.stdout
    assert "t6_st1_f1_micro: 1.000000" in run.stdout and "flc_f1: 1.000000" in run.stdout
    # --phase chooses the split; the wrong one says why
    wrong = _kit_run(kit, tmp_path, "score_locally.py", submission, "--ref", data / "semeval2021_task6",
                     "--out", tmp_path / "out2", "--resamples", 0, "--phase", "dev")
    assert wrong.returncode == 1 and "semeval2021_t6_st1.json: 200 " in wrong.stderr  # the file, how many ids
    # a folder with neither the competition's nor the tasks' names: the names it looks for
    (tmp_path / "nothing").mkdir()
    none = _kit_run(kit, tmp_path, "score_locally.py", submission, "--ref", tmp_path / "nothing", "--out",
                    tmp_path / "out3")
    assert none.returncode == 2
    assert all(name in none.stderr for name in ("aicup2022_nlu.csv", "dev_set_task1.txt"))  # both kinds of name


def test_score_locally_on_the_public_data_says_what_it_is(kit, tmp_path):
    run = _kit_run(kit, tmp_path, "score_locally.py", kit / "sample_submission.zip", "--ref",
                   kit / "public_data" / "dev", "--out", tmp_path / "out", "--resamples", 0)
    assert run.returncode == 1
    assert "public data" in run.stderr and "check_format.py" in run.stderr  # what it is, and the tool to use
    assert "missing field 'labels'" in run.stderr  # the details, shown because the participant holds them
    assert run.stderr.strip().splitlines()[-1].startswith("platform: not decided here")


def test_the_kit_readme_zip_command_works_without_a_shell_glob(kit, tmp_path):
    """The README's zip line (python -m zipfile, file names listed) works the same in bash, zsh and
    Windows: no glob, no zip program."""
    readme = (kit / "README.md").read_text(encoding="utf-8")
    line = next(l.strip() for l in readme.splitlines() if "-m zipfile -c" in l)
    assert "*" not in line and line.startswith("python3 -m zipfile -c ../submission.zip ")
    folder = tmp_path / "my_submission"
    folder.mkdir()
    zipfile.ZipFile(kit / "sample_submission.zip").extractall(folder)
    names = line.split()[5:]
    process = subprocess.run([sys.executable, "-m", "zipfile", "-c", "../submission.zip"] + names, cwd=str(folder),
                             capture_output=True, text=True)
    assert process.returncode == 0, process.stderr
    assert sorted(zipfile.ZipFile(tmp_path / "submission.zip").namelist()) == sorted(names)
    checked = _kit_run(kit, tmp_path, "check_format.py", tmp_path / "submission.zip")
    assert checked.returncode == 0, checked.stderr


def test_a_competition_of_fewer_tracks_names_the_page_lines_to_edit(built, tmp_path):
    from bundle.pages import NUMBER_WORDS, pages_to_edit

    _, stdout = built
    assert "speak of all" not in stdout and "speaks of all" not in stdout  # every track hosted: no note
    config = load_config()
    hosted, left_out = TRACKS[-1], TRACKS[0]
    # an organiser's page that counts all the tracks and names one this competition does not host
    pages = tmp_path / "pages"
    shutil.copytree(str(ROOT / "pages"), str(pages))
    (pages / "overview.html").write_text(
        "<h2>%s tracks</h2>\n<p>Submit for any subset.</p>\n<p>%s: <code>%s</code></p>\n<p><code>%s</code></p>\n"
        % (NUMBER_WORDS[len(TRACKS)].capitalize(), left_out.name, left_out.filename, hosted.filename),
        encoding="utf-8")
    lines = pages_to_edit(config, str(pages), [hosted], TRACKS)
    line = next(line for line in lines if line.startswith("pages/overview.html: "))
    assert line.split(": lines ")[1].split(" speak")[0].split(", ") == ["1", "2", "3"], line  # its own line stays
    assert pages_to_edit(config, str(ROOT / "pages"), TRACKS, TRACKS) == []


@pytest.mark.registry
def test_no_page_counts_or_lists_the_tracks_and_the_built_overview_lists_them_all(built):
    """The pages say "shared-task tracks" and hold ``@TRACKS_TABLE@``, which the build fills from the
    registry (bundle/pages.py): no track name, file or count of the tracks is written by hand."""
    import re
    from bundle.pages import NUMBER_WORDS

    counts = re.compile(r"\b(%s|%d)\b\W+(?:[\w-]+\W+){0,2}tracks?\b" % (NUMBER_WORDS[len(TRACKS)], len(TRACKS)), re.I)
    for page in sorted((ROOT / "pages").glob("*.html")):
        text = page.read_text(encoding="utf-8")
        for track in TRACKS:
            assert track.filename not in text, "%s names track %s's file %s: write @TRACKS_TABLE@ instead" % (
                page.name, track.name, track.filename)
        assert not counts.search(text), "%s counts the tracks: %r" % (page.name, counts.search(text).group(0))
    dist, _ = built
    with zipfile.ZipFile(str(dist / "competition_bundle.zip")) as upload:
        overview = upload.read("overview.html").decode("utf-8")
    assert "@TRACKS_TABLE@" not in overview
    for track in TRACKS:
        assert "<code>%s</code>" % track.filename in overview, "the built overview page misses track " + track.name
