"""The upload as organisers run a competition: every key in one table, the Test inputs held
back, the organiser's own tracks, one competition per track, the fact sheet, clean failures."""

from __future__ import annotations

import copy
import hashlib
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
import yaml

from conftest import ROOT, run_score

sys.path.insert(0, str(ROOT))

from bundle import keys  # noqa: E402
from bundle.fact_sheet import DEFAULT_FACT_SHEET, fact_sheet_problems  # noqa: E402
from bundle.keys import KEYS  # noqa: E402
from bundle.platforms import edition, ignored_keys, v2_config  # noqa: E402
from bundle.rules import validate  # noqa: E402
from scorer.tracks.registry import LOWER_IS_BETTER, TRACKS  # noqa: E402

BUILD = [sys.executable, str(ROOT / "build_bundle.py")]


def load_config():
    return yaml.safe_load((ROOT / "competition.yaml").read_text(encoding="utf-8"))


def problems_of(config, reference=ROOT / "reference_data"):
    return validate(config, str(ROOT / "pages"), str(reference), TRACKS, LOWER_IS_BETTER)


def _has(value, path):
    """Whether the mapping/list ``value`` holds ``path`` ("a.*.b": * is every item of a list or mapping)."""
    head, _, rest = path.partition(".")
    if head == "*":
        items = value if isinstance(value, list) else list(value.values())
        return bool(items) and all(_has(item, rest) if rest else True for item in items)
    if not isinstance(value, dict) or head not in value:
        return False
    return _has(value[head], rest) if rest else True


def _set(config, key, value):
    """``config`` with ``key`` (a row of keys.KEYS) set to ``value`` wherever it applies."""
    level = key.level
    if level == "top":
        config[key.name] = value
    elif level == "block":
        config.setdefault("codabench", {})[key.name] = value
    elif level == "phase":
        for phase in config["phases"].values():
            phase[key.name] = value
    elif level == "column":
        for column in config["leaderboard"]["columns"].values():
            column[key.name] = value
    elif level == "board":
        for board in config["leaderboard"]["leaderboards"].values():
            board[key.name] = value
    elif level == "leaderboard":
        config["leaderboard"][key.name] = value
    elif level == "html":
        config["html"][key.name] = value
    return config


# --- Every key in one table --------------------------------------------------------------------------

def test_every_key_the_build_accepts_has_a_row_and_the_rules_use_the_table():
    from bundle import rules
    assert rules.COMPETITION_KEYS is keys.COMPETITION_KEYS and rules.CODABENCH_KEYS is keys.CODABENCH_KEYS
    assert rules.PHASE_KEYS is keys.PHASE_KEYS and rules.COLUMN_KEYS is keys.COLUMN_KEYS
    places = [key.where for key in KEYS]
    assert len(places) == len(set(places))
    for key in KEYS:
        assert key.rule in ("copy", "derived", "listed", "refused"), key.where
        assert bool(key.codabench) == (key.rule in ("copy", "derived")), key.where


@pytest.mark.parametrize("key", [k for k in KEYS if k.rule in ("copy", "derived")], ids=lambda k: k.where)
def test_every_accepted_key_reaches_the_codabench_yaml(key):
    """Adding a key to the table's Codabench block (or anywhere) without writing it is caught here."""
    config = load_config()
    if key.where == "end_date":  # it ends the last phase when that one is not a never-ending one
        for phase in config["phases"].values():
            phase.pop("phase_never_ends", None)
    if key.example is not None:
        _set(config, key, key.example)
    written = v2_config(edition(config, release_all=True), {"dev_reference_data.zip": "dev_sample_submission.zip"})
    if key.where == "phases.*.phase_never_ends":  # written as the last phase's missing end
        assert "end" not in written["phases"][-1] and all("end" in phase for phase in written["phases"][:-1])
        return
    assert _has(written, key.codabench), (key.where, key.codabench)
    if key.rule == "copy" and key.example is not None:
        leaf = key.codabench.split(".")[-1]
        where = key.codabench.rsplit(".", 1)[0] if "." in key.codabench else ""
        holders = [written] if not where else _items(written, where)
        assert all(holder[leaf] == key.example for holder in holders), key.where


def _items(value, path):
    for part in path.split("."):
        if part == "*":
            value = [item for holder in value for item in (holder if isinstance(holder, list) else [holder])]
        else:
            value = [holder[part] for holder in (value if isinstance(value, list) else [value])]
    flat = []
    for holder in value:
        flat.extend(holder if isinstance(holder, list) else [holder])
    return flat


@pytest.mark.parametrize("key", [k for k in KEYS if k.rule == "refused"], ids=lambda k: k.where)
def test_every_refused_key_is_refused_with_its_reason(key):
    config = _set(load_config(), key, "x" if None in key.allowed else True)
    assert any(key.name in line and "refused" in line for line in problems_of(config)), key.where


@pytest.mark.parametrize("key", [k for k in KEYS if k.rule == "listed"], ids=lambda k: k.where)
def test_every_listed_key_is_listed_by_the_build(key):
    config = _set(load_config(), key, key.example)
    assert any(key.where in line for line in ignored_keys(config)), key.where


def test_the_readme_table_is_the_key_table():
    readme = (ROOT / "docs" / "organisers.md").read_text(encoding="utf-8")  # "Which key goes where"
    assert keys.key_table_markdown() in readme


# --- the fact sheet, checked as Codabench checks it ------------------------------------------------------

def test_the_default_fact_sheet_passes_codabench():
    assert fact_sheet_problems(DEFAULT_FACT_SHEET) == []


@pytest.mark.parametrize("change,fragment", [
    (lambda q: q.pop("is_on_leaderboard"), "must have exactly the fields"),
    (lambda q: q.update(extra=1), "missing or extra: extra"),
    (lambda q: q.update(key="other"), "must equal the question's own key"),
    (lambda q: q.update(type="textarea"), "type 'textarea' is not one of checkbox, text, select"),
    (lambda q: q.update(is_required=True), "is_required must be the string \"true\" or \"false\""),
])
def test_a_fact_sheet_codabench_refuses_or_misreads_is_refused(change, fragment):
    sheet = copy.deepcopy(DEFAULT_FACT_SHEET)
    change(sheet["description"])
    assert any(fragment in line for line in fact_sheet_problems(sheet)), fact_sheet_problems(sheet)


def test_the_checker_reads_the_fact_sheet_of_the_upload(tmp_path):
    from bundle.checks.checked_upload import CheckedUpload
    from bundle.checks.report import Report
    from bundle.checks.unpackers import check_codabench_unpacker
    config = load_config()
    written = v2_config(edition(config), {"dev_reference_data.zip": "dev_sample_submission.zip"})
    del written["fact_sheet"]["team_name"]["selection"]
    path = tmp_path / "upload.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("competition.yaml", yaml.safe_dump(written))
    report = Report()
    check_codabench_unpacker(CheckedUpload(str(path)), report)
    assert any("fact_sheet: question team_name" in line for line in report.problems)  # the key and the question


# --- Test inputs held back -----------------------------------------------------------------------------

def _shingles(data: bytes, size: int = 5) -> set:
    """Every run of ``size`` consecutive words of ``data`` (read as UTF-8, whatever its format):
    what "a text of this file appears there" means without knowing any track's format."""
    words = re.findall(r"\w+", data.decode("utf-8", "replace"))
    return {" ".join(words[i:i + size]) for i in range(len(words) - size + 1)}


def _runs_in(path: Path) -> set:
    """The word runs of a file, or of every file under a folder."""
    paths = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return set().union(*(_shingles(p.read_bytes()) for p in paths)) if paths else set()


def _test_only_texts(tmp_path: Path):
    """track name -> the word runs of its Test public inputs (the files its module's
    ``write_public_input`` writes from the Test gold, by the names it returns: contract,
    ``write_public_input``) found in none of the Development inputs and gold nor in the scoring
    program (whose sample-text helpers the kit ships): the Test texts."""
    from bundle.public_data import derive_public_data
    derive_public_data(str(ROOT / "reference_data" / "dev"), str(tmp_path / "dev"))
    known = _runs_in(tmp_path / "dev") | _runs_in(ROOT / "reference_data" / "dev") | _runs_in(ROOT / "scoring_program" / "scorer")
    texts = {}
    for track in TRACKS:
        public = tmp_path / "test" / track.name
        public.mkdir(parents=True)
        names = track.write_public_input(str(ROOT / "reference_data" / "test"), str(public), track.filename)
        texts[track.name] = set().union(*(_runs_in(public / name) for name in names)) - known if names else set()
    return texts


def _contents(data: bytes, name: str = ""):
    """(entry path, bytes) of every file inside ``data``, nested zips opened."""
    yield name, data
    if data[:2] == b"PK":
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for entry in archive.namelist():
                yield from _contents(archive.read(entry), name + "/" + entry)


@pytest.fixture(scope="module")
def marked_build(tmp_path_factory):
    """The default build (its Test texts: ``phase_texts``)."""
    base = tmp_path_factory.mktemp("marked")
    process = subprocess.run(BUILD + ["--out", str(base / "dist"), "--no-check"], capture_output=True, text=True)
    assert process.returncode == 0, process.stdout + process.stderr
    return base / "dist"


@pytest.fixture(scope="module")
def phase_texts(tmp_path_factory):
    return _test_only_texts(tmp_path_factory.mktemp("public"))


@pytest.mark.registry
def test_no_test_text_in_anything_participants_get_before_the_test_phase(marked_build, phase_texts):
    dist, texts = marked_build, phase_texts
    assert all(texts.values()), (
        "no Test text (a run of 5 words no Development file holds) in the Test public input of %s: the files "
        "its write_public_input names from the sample gold (scorer/tracks/contract.py, write_public_input and "
        "write_sample_gold)" % [track.module_path for track in TRACKS if not texts[track.name]])
    test_texts = set().union(*texts.values())
    seen = []
    with zipfile.ZipFile(dist / "competition_bundle.zip") as upload:
        # every entry, the later phases' reference data included: placeholders, since the
        # Codabench that exists serves any dataset by its key to anyone
        for entry in upload.namelist():
            seen += [(path, data) for path, data in _contents(upload.read(entry), entry)]
    assert (dist / "release_test" / "gold" / "test_reference_data.zip").is_file()  # held back, not dropped
    seen += list(_contents((dist / "starting_kit.zip").read_bytes(), "starting_kit.zip"))
    leaked = [(path, sorted(_shingles(data) & test_texts)[:3]) for path, data in seen
              if not path.endswith(".zip") and _shingles(data) & test_texts]
    assert not leaked
    assert len(seen) > 100
    # ... and the release the organisers attach when the Test phase opens has every Test text
    release = set()
    for _, data in _contents((dist / "release_test" / "test_public_data.zip").read_bytes()):
        release |= _shingles(data)
    for track in TRACKS:
        assert texts[track.name] <= release, track.name


def test_a_test_id_in_a_development_submission_gets_no_hint(tmp_path):
    """Even where the Development reference data names the Test ids (a hand-made one: the build
    never writes them there), one Test id added to a Development submission is just an unknown id."""
    from bundle.public_data import derive_public_data, public_ids
    from baselines import write_submission
    dev, test = ROOT / "reference_data" / "dev", ROOT / "reference_data" / "test"
    derive_public_data(str(test), str(tmp_path / "public_test"))
    derive_public_data(str(dev), str(tmp_path / "public_dev"))
    test_ids = public_ids(str(tmp_path / "public_test"))
    ref = {p.name: p for p in dev.iterdir()}
    ref["other_phases.json"] = json.dumps({"Test": test_ids})
    write_submission(str(tmp_path / "public_dev"), str(tmp_path / "sub"))
    name = TRACKS[0].filename  # a JSON list of records with an id
    records = json.loads((tmp_path / "sub" / name).read_text(encoding="utf-8"))
    records.append(dict(records[0], id=test_ids[name][0]))
    (tmp_path / "sub" / name).write_text(json.dumps(records), encoding="utf-8")
    run = run_score(tmp_path, ref, {p.name: p for p in (tmp_path / "sub").iterdir()})
    assert run.returncode == 1 and run.stderr.startswith("%s: 1 " % name)  # the file, one unknown id
    outputs = run.stdout + run.stderr + "".join(p.read_text(encoding="utf-8") for p in run.output.iterdir())
    assert "Test" not in outputs and "other phase" not in outputs


# --- the organiser's tracks --------------------------------------------------------------------------------

def _tracked_copy(target: Path) -> None:
    names = subprocess.run(["git", "ls-files", "-z"], cwd=str(ROOT), capture_output=True, check=True).stdout
    for name in names.decode("utf-8").split("\0"):
        if name and (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(str(ROOT / name), str(target / name))
    if (ROOT / "build" / "wheels").is_dir():  # the pinned nltk wheel, not downloaded again
        shutil.copytree(str(ROOT / "build" / "wheels"), str(target / "build" / "wheels"))


def _keep_columns(repo: Path, names) -> None:
    """competition.yaml with only the columns of the tracks ``names`` (the first track's primary ranks)."""
    keys = {key for track in TRACKS if track.name in names for key in track.keys}
    text = (repo / "competition.yaml").read_text(encoding="utf-8")
    head, columns = text.split("\n  columns:\n")
    blocks = re.split(r"\n(?=    \S)", columns.rstrip("\n"))  # one block per column
    kept = [block for block in blocks if block.strip().split(":")[0] in keys]
    primary = next(track for track in TRACKS if track.name in names).keys[0]
    kept = [block if not block.strip().startswith(primary + ":") or "selection_default" in block
            else block.replace(primary + ":\n", primary + ":\n      selection_default: 1\n", 1) for block in kept]
    (repo / "competition.yaml").write_text(head + "\n  columns:\n" + "\n".join(kept) + "\n", encoding="utf-8")


def test_a_three_track_competition_builds_checks_and_scores_only_its_tracks(tmp_path):
    """The SemEval-2021 Task 6 subtasks alone: only the yaml's columns and the gold folders changed."""
    repo = tmp_path / "repo"
    _tracked_copy(repo)
    chosen = ("t6_st1", "t6_st2", "t6_st3")
    _keep_columns(repo, chosen)
    for phase in ("dev", "test"):
        for track in TRACKS:
            if track.name not in chosen:
                for name in track.gold_names + ((track.test_input,) if track.test_input else ()):
                    path = repo / "reference_data" / phase / name
                    shutil.rmtree(path) if path.is_dir() else path.unlink() if path.exists() else None
    build = subprocess.run([sys.executable, "build_bundle.py", "--out", str(tmp_path / "dist")], cwd=str(repo),
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    assert "check: the upload's runs pass" in build.stdout
    keys = [key for track in TRACKS if track.name in chosen for key in track.keys]
    for layout in ("v1.5", "codabench"):
        assert "%s, phase Post-Evaluation, sample submission: exit 0, %d leaderboard scores" % (layout, len(keys)) \
            in build.stdout
        assert "only flc" not in build.stdout
    work = tmp_path / "run"
    with zipfile.ZipFile(tmp_path / "dist" / "competition_bundle.zip") as bundle:
        v2 = yaml.safe_load(bundle.read("competition.yaml"))
        for name in ("scoring_program.zip", "dev_reference_data.zip", "dev_sample_submission.zip"):
            zipfile.ZipFile(io.BytesIO(bundle.read(name))).extractall(work / name[:-4])
    assert [column["key"] for column in v2["leaderboards"][0]["columns"]] == keys
    assert sorted(os.listdir(work / "dev_sample_submission")) == sorted(t.filename for t in TRACKS if t.name in chosen)
    shutil.copytree(work / "dev_reference_data", work / "input" / "ref")
    shutil.copytree(work / "dev_sample_submission", work / "input" / "res")
    process = subprocess.run([sys.executable, str(work / "scoring_program" / "score.py"), str(work / "input"),
                              str(work / "output")], capture_output=True, text=True)
    assert process.returncode == 0, process.stderr
    assert [line.split(":")[0] for line in (work / "output" / "scores.txt").read_text().splitlines()] == keys
    with zipfile.ZipFile(tmp_path / "dist" / "starting_kit.zip") as kit:
        readme = kit.read("README.md").decode("utf-8")
    assert "nlp4if2019_flc" not in readme and "aicup2022_nlu" not in readme


def test_gold_of_a_track_outside_the_competition_is_left_out_with_a_note(tmp_path):
    config = load_config()
    flc = next(track for track in TRACKS if track.name == "flc")
    for key in flc.keys:
        del config["leaderboard"]["columns"][key]
    assert problems_of(config) == []
    from bundle.gold import left_out
    notes = left_out(config, str(ROOT / "reference_data"), TRACKS)
    assert len(notes) == 2 and all("track flc" in n and "competition.yaml" in n and "left out" in n for n in notes)


def test_one_competition_per_track(tmp_path):
    process = subprocess.run(BUILD + ["--out", str(tmp_path), "--no-check", "--per-track"], capture_output=True,
                             text=True)
    assert process.returncode == 0, process.stderr
    from bundle.wheel import wheel_name
    from scorer import __version__
    # one competition per track, and the one installable scorer of them all
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([track.name for track in TRACKS]
                                                                + [wheel_name(__version__)])
    for track in TRACKS:
        with zipfile.ZipFile(tmp_path / track.name / "competition_bundle.zip") as bundle:
            v2 = yaml.safe_load(bundle.read("competition.yaml"))
            v15 = yaml.safe_load(bundle.read("codalab_v1.5.yaml"))
            # each placeholder names its own build's zip: its path, sha256 and the competition's track
            for name, folder in (("test_reference_data.zip", "release_test/gold"), ("test-blind_reference_data.zip",
                                                                                   "release_test")):
                note = json.loads(zipfile.ZipFile(io.BytesIO(bundle.read(name))).read("held_back.json"))
                held = tmp_path / track.name / folder / name
                assert note["release"] == "%s/%s/%s" % (track.name, folder, name)
                assert "dist/%s/%s" % (track.name, folder) in note["due"]
                assert note["sha256"] == hashlib.sha256(held.read_bytes()).hexdigest()
                assert note["tracks"] == [track.name]
            with zipfile.ZipFile(io.BytesIO(bundle.read("dev_reference_data.zip"))) as ref:
                golds = [name for name in ref.namelist() if any(name.split("/")[0] in t.gold_names for t in TRACKS)]
        (board,) = v2["leaderboards"]
        assert [column["key"] for column in board["columns"]] == list(track.keys)
        assert board["columns"][board["primary_index"]]["key"] == track.keys[0]
        assert v2["title"].endswith("(track %s)" % track.name) and v15["title"] == v2["title"]
        assert {name.split("/")[0] for name in golds} == {next(n for n in track.gold_names
                                                               if n == golds[0].split("/")[0])}
        assert (tmp_path / track.name / "release_test" / "test_public_data.zip").is_file()


# --- organiser mistakes: one line each, and no zip ------------------------------------------------------

def _break_json(ref):
    path = ref / "dev" / "semeval2021_t6_st1.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"id"', "id", 1), encoding="utf-8")


def _bad_label(ref):
    path = ref / "test" / "semeval2021_t6_st1.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"Bandwagon"', '"Bandwagonn"'), encoding="utf-8")


def _nlu_ids(ref):
    path = ref / "test" / "aicup2022_nlu_test.csv"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[:1] + lines[3:]), encoding="utf-8")


def _flc_texts(ref):
    for path in (ref / "dev" / "nlp4if2019_flc").glob("article*.txt"):
        path.unlink()


@pytest.mark.parametrize("breakage,expected", [
    (_break_json, "phase Development: %s/semeval2021_t6_st1.json: line 3, column 3: not valid JSON (Expecting "
                  "property name enclosed in double quotes)"),
    (_bad_label, "field 'labels': unknown technique 'Bandwagonn' (did you mean 'Bandwagon'?)"),
    (_nlu_ids, "aicup2022_nlu.csv: 1 gold ids are not in aicup2022_nlu_test.csv: 5006"),
    (_flc_texts, "articles have no article<ID>.txt text (the first: article"),
], ids=["json", "label", "nlu-ids", "flc-texts"])
def test_broken_gold_is_one_line_naming_the_place_and_no_zip_is_left(tmp_path, breakage, expected):
    shutil.copytree(ROOT / "reference_data", tmp_path / "ref")
    breakage(tmp_path / "ref")
    out = tmp_path / "dist"
    (out / "release_test").mkdir(parents=True)
    (out / "competition_bundle.zip").write_bytes(b"an earlier build")
    (out / "release_test" / "test_public_data.zip").write_bytes(b"an earlier build")
    process = subprocess.run(BUILD + ["--reference-data", str(tmp_path / "ref"), "--out", str(out), "--no-check"],
                             capture_output=True, text=True)
    assert process.returncode == 1
    assert "Traceback" not in process.stderr
    lines = process.stderr.strip().splitlines()
    expected = expected % (tmp_path / "ref" / "dev") if "%s" in expected else expected
    assert any(expected in line for line in lines), process.stderr
    assert lines[-1] == "build: no zip was written to %s" % out
    assert not list(out.rglob("*.zip"))


def test_a_competition_yaml_that_is_not_utf8_names_the_place():
    from bundle.competition import load_yaml
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "competition.yaml")
        with open(path, "wb") as handle:
            handle.write("title: Comp\ndescription: caf\xe9\n".encode("latin-1"))
        _, config, problem = load_yaml(path)
    assert config is None
    assert problem == ("competition.yaml: line 2, column 17: byte 0xe9 is not UTF-8; save the file as UTF-8 (both "
                       "platforms read it as UTF-8)")


def test_another_phase_is_named_only_when_nearly_all_of_a_files_ids_are_its():
    """The rule every track uses (scorer/readers/records.py): a few ids of another phase are just unknown ids."""
    from scorer.readers.records import other_phase_line
    other = {"Test": frozenset("t%d" % i for i in range(100))}
    for unknown, submitted, named in ((["t1"], 100, False), (["t%d" % i for i in range(50)], 100, False),
                                      (["t%d" % i for i in range(90)], 100, True), (["t1", "t2"], 2, True)):
        line = other_phase_line(unknown, other, submitted)
        assert ("predictions for the Test phase's inputs" in line) is named, (len(unknown), submitted)


def test_the_checker_refuses_an_upload_that_gives_the_test_phase_away(marked_build, tmp_path):
    from bundle.checks.checked_upload import CheckedUpload
    from bundle.checks.later_phases import check_later_phases_held_back
    from bundle.checks.report import Report
    from bundle.checks.unpackers import check_codabench_unpacker, check_v15_unpacker
    with zipfile.ZipFile(marked_build / "competition_bundle.zip") as upload:
        files = {name: upload.read(name) for name in upload.namelist()}
    v2 = yaml.safe_load(files["competition.yaml"])
    v2["phases"][1]["public_data"] = "test_public_data.zip"
    v2["solutions"].append({"index": 1, "path": "test_sample_submission.zip", "tasks": [1]})
    files["competition.yaml"] = yaml.safe_dump(v2).encode("utf-8")
    files["test_public_data.zip"] = files["test_sample_submission.zip"] = files["dev_public_data.zip"]
    files["stray.zip"] = b"PK"
    path = tmp_path / "upload.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for name in ["codalab_v1.5.yaml"] + sorted(set(files) - {"codalab_v1.5.yaml"}):
            archive.writestr(name, files[name])
    report, upload = Report(), CheckedUpload(str(path))
    check_v15_unpacker(upload, report)
    check_codabench_unpacker(upload, report)
    assert report.problems == []
    check_later_phases_held_back(upload, report)
    text = "\n".join(report.problems)
    assert "upload: stray.zip " in text  # each problem names the entry, or the phase and the key
    assert "Codabench: phase Evaluation: public_data " in text
    assert "Codabench: solution test_sample_submission.zip " in text
