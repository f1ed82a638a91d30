"""The lifecycle commands decide by what the site holds, against the fake site (tests/codabench_fake.py),
by class:

1. gold goes up by one road: ``release`` never sets a zip whose placeholder says gold, ``attach-gold``
   waits for the phase before on the site's clock and the build's schedule, and a competition whose
   phases have no order is refused by every command that orders them;
2. a file is on the site once the site serves its bytes: a failed upload's empty dataset is replaced,
   never reused, and no description is taken for the bytes;
3. other phases', competitions', tracks' and users' objects are never changed or taken (a site that
   ignores ``?phase=`` and ``?_type=``, a placeholder of another build, two phases of one name);
4. the baseline is the organiser's own submission, by owner and file;
6. a phase's gold is public by design by its settings and ids, never by its position;
and a site that cannot be trusted at all (a redirect off the site, a scheme change, a file on a
third host) stops the command in one line. Each case: one line naming competition, phase (id),
task or dataset and what was seen; nothing changed on a refusal.
"""

from __future__ import annotations

import hashlib
import io
import re
import shutil
import sys
import zipfile

import pytest

from conftest import ROOT
from test_codabench_client import fake, release_folder, run, token  # noqa: F401  (the fake site, its helpers)
from test_codabench_lifecycle import (BLIND, GOLD_ZIP, competition, held_back, reference_key, release, set_file,
                                      stored, zip_of)

sys.path.insert(0, str(ROOT))
from bundle.held_back import GOLD, read_placeholder  # noqa: E402

TEST = ROOT / "reference_data" / "test"


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    return lines[0]


def changes(fake) -> list:
    return [r for r in fake.requests if r.startswith(("PATCH", "POST", "PUT"))]


def served(fake, comp, number: int) -> bytes:
    """The bytes the site serves as phase ``number``'s task's reference data."""
    return stored(fake, reference_key(comp, number))


def evaluation_ended(comp, post_started: bool = False) -> None:
    comp["phases"][1]["end"] = "2021-01-01T00:00:00Z"
    if post_started:
        comp["phases"][2]["start"] = "2021-01-02T00:00:00Z"


# === 1. gold goes up by one road ==============================================================

@pytest.mark.parametrize("case", ["the gold at the top of the folder", "the gold in the stand-in's name"])
def test_release_never_sets_a_zip_the_placeholder_does_not_name(fake, capsys, tmp_path, case):
    comp = competition(fake, published=True)
    folder = release(tmp_path)
    phase = "Post-Evaluation"
    if case == "the gold at the top of the folder":
        shutil.copy(folder / "gold" / "test_reference_data.zip", folder / "test_reference_data.zip")
    else:  # a hand-edited folder: the real gold where the blind stand-in was
        (folder / "test-blind_reference_data.zip").write_bytes(GOLD_ZIP)
        phase = "Evaluation"
    before = len(changes(fake))
    code, out, err = run(fake, capsys, "release", "1", phase, str(folder))
    assert code == 1
    line = one_line(err)
    assert "competition 1, phase %s (id 1" % phase in line and "placeholder" in line, line
    assert changes(fake)[before:] == []  # refused before anything changed
    assert read_placeholder(served(fake, comp, 1)) and read_placeholder(served(fake, comp, 2))


@pytest.mark.parametrize("index", ["missing", "repeated", "text", "boolean"])
def test_attach_gold_refuses_a_competition_whose_phases_have_no_order(fake, capsys, tmp_path, index):
    comp = competition(fake)  # Evaluation still runs: the gold is not due
    values = {"missing": [None, None, None], "repeated": [1, 1, 1], "text": [0, "x", 2],
              "boolean": [False, True, True]}[index]
    for phase, value in zip(comp["phases"], values):
        if value is None:
            phase.pop("index")
        else:
            phase["index"] = value
    code, out, err = run(fake, capsys, "attach-gold", "1", "Post-Evaluation",
                         str(release(tmp_path) / "gold" / "test_reference_data.zip"))
    line = one_line(err)  # the competition, the phase and its index (a repeated one: both phases)
    assert code == 1 and "competition 1: " in line and "index" in line and re.search(r"\(id 1[012]\)", line)
    assert not fake.task_patches and read_placeholder(served(fake, comp, 2))


@pytest.mark.parametrize("command", ["check", "download", "copy-fact-sheets", "release", "attach-gold"])
def test_every_command_that_orders_phases_refuses_phases_without_order(fake, capsys, tmp_path, command):
    comp = competition(fake, published=True)
    for phase in comp["phases"]:
        phase.pop("index")
    folder = release(tmp_path)
    argv = {"check": ["1"], "download": ["1", "Evaluation", str(tmp_path / "out")],
            "copy-fact-sheets": ["1", "Post-Evaluation"], "release": ["1", "Evaluation", str(folder)],
            "attach-gold": ["1", "Post-Evaluation", str(folder / "gold" / "test_reference_data.zip")]}[command]
    code, out, err = run(fake, capsys, command, *argv)
    assert code == 1 and "competition 1: " in one_line(err) and "index" in one_line(err)
    assert not changes(fake)


@pytest.mark.parametrize("case", ["the build's schedule", "the site's clock"])
def test_attach_gold_waits_for_the_builds_schedule_and_the_sites_clock(fake, capsys, tmp_path, case):
    comp = competition(fake)
    evaluation_ended(comp)
    if case == "the build's schedule":  # the site's Evaluation ended early; the build schedules the gold later
        set_file(fake, comp["phases"][2], held_back("test_reference_data.zip", "Post-Evaluation", GOLD, GOLD_ZIP,
                                                    after="2099-01-01T00:00:00+00:00"))
    else:  # the end has passed by this machine's clock, not by the site's
        comp["phases"][1]["_status"] = "Current"
    code, out, err = run(fake, capsys, "attach-gold", "1", "Post-Evaluation",
                         str(release(tmp_path) / "gold" / "test_reference_data.zip"))
    assert code == 1
    line = one_line(err)
    assert ("schedule" in line and "2099-01-01" in line if case == "the build's schedule"  # which clock, and when
            else "phase Evaluation (id 11)" in line and "Current" in line), line
    assert not fake.task_patches and read_placeholder(served(fake, comp, 2))


# === 2. what the site serves, not what a description says ==========================================

@pytest.mark.parametrize("name", ["test_public_data.zip", "starting_kit.zip", "test-blind_reference_data.zip"])
def test_a_release_whose_upload_failed_replaces_the_empty_dataset(fake, capsys, tmp_path, name):
    comp = competition(fake)
    folder = release(tmp_path)
    fake.failing_puts.add(name)
    code, out, err = run(fake, capsys, "release", "1", "Evaluation", str(folder))
    assert code == 1 and "HTTP 500" in one_line(err)
    code, out, err = run(fake, capsys, "release", "1", "Evaluation", str(folder))
    assert code == 0, err
    assert "%s was uploaded before" % name not in out
    phase = comp["phases"][1]
    assert stored(fake, phase["public_data"]["key"]) == (folder / "test_public_data.zip").read_bytes()
    assert stored(fake, phase["starting_kit"]["key"]) == (folder / "starting_kit.zip").read_bytes()
    assert served(fake, comp, 1) == BLIND
    code, out, err = run(fake, capsys, "release", "1", "Evaluation", str(folder))
    assert code == 0 and "uploaded" not in out and out.count("unchanged") == 3, out


def test_attach_gold_whose_upload_failed_completes_on_the_rerun(fake, capsys, tmp_path):
    comp = competition(fake)
    evaluation_ended(comp)
    gold = str(release(tmp_path) / "gold" / "test_reference_data.zip")
    fake.failing_puts.add("test_reference_data.zip")
    code, out, err = run(fake, capsys, "attach-gold", "1", "Post-Evaluation", gold)
    assert code == 1 and "HTTP 500" in one_line(err)
    code, out, err = run(fake, capsys, "attach-gold", "1", "Post-Evaluation", gold)
    assert code == 0, err
    assert served(fake, comp, 2) == GOLD_ZIP and "reused" not in out


@pytest.mark.parametrize("command", ["attach-gold", "release"])
def test_a_description_naming_the_files_sha256_is_not_the_file(fake, capsys, tmp_path, command):
    comp = competition(fake)
    evaluation_ended(comp)
    folder = release(tmp_path)
    if command == "attach-gold":  # the task's dataset says it holds the gold; it serves the placeholder
        path, phase = folder / "gold" / "test_reference_data.zip", "Post-Evaluation"
        listed = comp["phases"][2]["tasks"][0]["public_datasets"][0]
    else:  # the phase's public data says it is the file; it serves other bytes
        path, phase = folder, "Evaluation"
        listed = dict(fake.add_dataset("public_data", "test_public_data.zip", b"old public data"))
        comp["phases"][1]["public_data"] = {k: v for k, v in listed.items() if not k.startswith("_")}
    tag = "sha256:" + hashlib.sha256((path if command == "attach-gold" else folder / "test_public_data.zip")
                                     .read_bytes()).hexdigest()
    next(d for d in fake.datasets if d["key"] == listed["key"])["description"] = "uploaded by codabench.py; " + tag
    code, out, err = run(fake, capsys, command, "1", phase, str(path))
    assert code == 0, err
    if command == "attach-gold":
        assert served(fake, comp, 2) == GOLD_ZIP
    else:
        assert stored(fake, comp["phases"][1]["public_data"]["key"]) == b"public data"


# === 3. other phases', competitions', tracks' and users' objects =====================================

def migrated(fake, comp):
    """participant1's Evaluation entry migrated into Post-Evaluation before the gold (its copy failed),
    and a failed Development submission of the same owner and file, without a fact sheet."""
    evaluation_ended(comp, post_started=True)
    source = fake.add_submission(comp, 1, "participant1", b"PK eval", team="Team One", file_name="p1.zip")
    practice = fake.add_submission(comp, 0, "participant1", b"PK dev", status="Failed", on_board=False,
                                   file_name="p1.zip")
    practice["fact_sheet_answers"] = None
    copy = fake.add_submission(comp, 2, "participant1", b"PK eval", status="Failed", on_board=False,
                               file_name="p1.zip")
    copy["fact_sheet_answers"] = None
    return source, practice, copy


@pytest.mark.parametrize("command", ["attach-gold", "copy-fact-sheets"])
def test_a_site_ignoring_the_phase_query_changes_no_other_phases_submission(fake, capsys, tmp_path, command):
    comp = competition(fake)
    source, practice, copy = migrated(fake, comp)
    other = competition(fake)  # another competition's submission of the same owner and file
    elsewhere = fake.add_submission(other, 2, "participant1", b"PK", status="Failed", on_board=False,
                                    file_name="p1.zip")
    elsewhere["fact_sheet_answers"] = None
    fake.ignores_queries = True
    if command == "attach-gold":
        code, out, err = run(fake, capsys, command, "1", "Post-Evaluation",
                             str(release(tmp_path) / "gold" / "test_reference_data.zip"))
        assert code == 0, err
        assert fake.reruns == [copy["id"]]
    else:
        code, out, err = run(fake, capsys, command, "1", "Post-Evaluation")
        assert code == 0, err
        assert copy["fact_sheet_answers"] == source["fact_sheet_answers"]
        assert practice["fact_sheet_answers"] is None and elsewhere["fact_sheet_answers"] is None


@pytest.mark.parametrize("case", ["another track's gold", "an older build's gold"])
def test_attach_gold_refuses_a_zip_its_placeholder_does_not_name(fake, capsys, tmp_path, case):
    flc = fake.add_competition(title="Six tracks (track flc)", phases=("Development", "Evaluation"))
    flc["phases"][0]["start"], flc["phases"][0]["end"] = "2020-01-01T00:00:00Z", "2021-01-01T00:00:00Z"
    flc_gold = zip_of({"nlp4if2019_flc/article1.labels": "1\tSmears\t0\t4\n"})
    set_file(fake, flc["phases"][1], held_back("test_reference_data.zip", "Evaluation", GOLD, flc_gold, tracks=("flc",)))
    other = tmp_path / "test_reference_data.zip"
    other.write_bytes(zip_of({"aicup2022_nlu.csv": "1,q,r\n"}) if case == "another track's gold"
                      else zip_of({"nlp4if2019_flc/article1.labels": "1\tSmears\t0\t5\n"}))
    code, out, err = run(fake, capsys, "attach-gold", "1", "Evaluation", str(other))
    assert code == 1
    line = one_line(err)
    assert "competition 1, phase Evaluation (id 11), task Evaluation task (id 11)" in line
    assert "test_reference_data.zip (gold; tracks flc, sha256 %s" % hashlib.sha256(flc_gold).hexdigest()[:12] \
        in line, line
    assert not fake.task_patches


def test_check_finds_two_phases_of_one_name_by_their_ids(fake, capsys):
    comp = fake.add_competition(phases=("Test", "Test"), published=True)
    set_file(fake, comp["phases"][0], b"GOLD of the practice phase")
    code, out, err = run(fake, capsys, "check", "1")
    lines = [line for line in out.splitlines() if "reference data by key" in line]
    assert lines[0].startswith("open    reference data by key: phase Test (id 10)") and "practice" in lines[0]
    assert lines[1].startswith("OPEN    reference data by key: phase Test (id 11)"), lines
    assert code == 1


def test_a_site_ignoring_the_dataset_query_never_lends_another_users_dataset(fake, capsys, tmp_path):
    comp = fake.add_competition()
    folder = release_folder(tmp_path)
    digest = hashlib.sha256(b"public data").hexdigest()
    fake.add_dataset("public_data", "test_public_data.zip", b"public data", owner="participant1",  # as ours read
                     description="public data of phase Test of competition 1 (Six shared-task tracks), released "
                                 "2026-11-26 by codabench.py from test_public_data.zip; sha256:" + digest)
    fake.ignores_queries = True
    code, out, err = run(fake, capsys, "release", "1", "Test", str(folder))
    assert code == 0, err
    assert next(d for d in fake.datasets if d["key"] == comp["phases"][1]["public_data"]["key"])["created_by"] == \
        "organiser"


# === 4. the baseline is the organiser's own submission ================================================

@pytest.mark.parametrize("where", ["the same phase", "another phase, the phase query ignored"])
def test_a_participants_submission_named_like_the_baseline_is_not_it(fake, capsys, tmp_path, where):
    from bundle.public_data import derive_public_data
    public = tmp_path / "public"
    derive_public_data(str(ROOT / "reference_data" / "dev"), str(public))
    first = fake.add_competition()
    assert run(fake, capsys, "baselines", "1", "Development", str(public))[0] == 0
    name = fake.submissions[-1]["filename"]  # anyone computes it from the public data
    comp = fake.add_competition()
    fake.add_submission(comp, 0 if where == "the same phase" else 1, "participant1", b"PK", file_name=name)
    fake.ignores_queries = where != "the same phase"
    code, out, err = run(fake, capsys, "baselines", "2", "Development", str(public))
    assert code == 0, err
    assert "random baseline" in out and "unchanged" not in out
    ours = [s for s in fake.submissions if s["owner"] == "organiser" and s["phase"] == comp["phases"][0]["id"]]
    assert len(ours) == 1 and ours[0]["filename"] == name
    code, out, err = run(fake, capsys, "baselines", "2", "Development", str(public))
    assert code == 0 and "submission %d " % ours[0]["id"] in out and "organiser" in out and "unchanged" in out
    assert first["id"] == 1


# === 6. public by design by the phase's settings and ids ============================================

def gold_zip(blind: bool) -> bytes:
    entries = {path.name: path.read_bytes() for path in TEST.iterdir() if path.is_file()}
    if blind:
        entries["scoring_config.json"] = b'{"blind": true}'
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in sorted(entries.items()):
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize("case", ["one blind phase", "a first phase on the later phase's gold"])
def test_check_calls_gold_practice_only_when_its_phase_is_not_blind_and_nothing_later_scores_on_it(fake, capsys,
                                                                                                   case):
    if case == "one blind phase":
        comp = fake.add_competition(phases=("Evaluation",), published=True)
        set_file(fake, comp["phases"][0], gold_zip(blind=True))
    else:
        comp = fake.add_competition(phases=("Development", "Evaluation"), published=True)
        for phase in comp["phases"]:
            set_file(fake, phase, gold_zip(blind=False))
    for phase in comp["phases"]:
        phase["start"], phase["end"] = "2020-01-01T00:00:00Z", "2099-01-01T00:00:00Z"
    code, out, err = run(fake, capsys, "check", "1")
    assert code == 1, out + err
    first = next(line for line in out.splitlines() if "reference data by key: phase %s (id 10)"
                 % comp["phases"][0]["name"] in line)
    assert first.startswith("OPEN    ") and "practice" not in first, first
    assert ("is blind (its scoring_config.json) and has not ended" if case == "one blind phase"
            else "phase Evaluation (id 11) scores on it") in first


# === a site that cannot be trusted at all ============================================================

@pytest.mark.parametrize("case", ["an API call redirected to another origin", "a scheme change",
                                  "a dataset on a third host", "an upload read back from a third host"])
def test_the_command_stops_where_the_site_cannot_be_trusted(fake, capsys, tmp_path, case):
    comp = competition(fake, published=True)
    port = fake.url.rsplit(":", 1)[1]
    command = ["check", "1"]
    if case == "an API call redirected to another origin":
        fake.api_redirects["/api/competitions/1/"] = fake.storage_url + "/api/competitions/1/"
        expected = "the site's API redirected to another origin, http://localhost:%s" % port
    elif case == "a scheme change":
        fake.api_redirects["/api/competitions/1/"] = "https://127.0.0.1:%s/api/competitions/1/" % port
        expected = "the site sent the client from http to https://127.0.0.1:%s (a scheme change)" % port
    elif case == "a dataset on a third host":
        fake.download_hosts[reference_key(comp, 2)] = "http://127.0.0.2:%s" % port
        expected = "a file on http://127.0.0.2:%s, neither the site (127.0.0.1:%s) nor its storage" % (port, port)
    else:
        fake.download_hosts["new"] = "http://127.0.0.2:%s" % port
        command = ["release", "1", "Evaluation", str(release(tmp_path))]
        expected = "a file on http://127.0.0.2:%s, neither the site" % port
    code, out, err = run(fake, capsys, *command)
    assert code == 1 and expected in one_line(err), err
    assert not fake.task_patches and comp["phases"][1]["public_data"] is None


# === what the site holds, its dates, a second run ================================================

def test_release_for_post_evaluation_reuses_the_datasets_the_site_serves(fake, capsys, tmp_path):
    comp = competition(fake)
    folder = release(tmp_path)
    assert run(fake, capsys, "release", "1", "Evaluation", str(folder))[0] == 0
    datasets = len(fake.datasets)
    code, out, err = run(fake, capsys, "release", "1", "Post-Evaluation", str(folder))
    assert code == 0, err
    assert len(fake.datasets) == datasets and "uploaded" not in out and out.count("another phase's): reused") == 2
    for kind in ("public_data", "starting_kit"):
        assert comp["phases"][2][kind]["key"] == comp["phases"][1][kind]["key"]
    code, out, err = run(fake, capsys, "release", "1", "Post-Evaluation", str(folder))
    assert code == 0 and "(nothing changed)" in out and "reused" not in out


def test_check_quotes_the_sites_dates_not_the_builds(fake, capsys):
    comp = competition(fake, published=True)
    comp["phases"][1]["end"] = "2098-06-30T12:00:00Z"  # the organiser moved Evaluation's end on the site
    code, out, err = run(fake, capsys, "check", "1")
    assert code == 0, err
    line = next(line for line in out.splitlines() if "phase Post-Evaluation (id 12), task" in line)
    assert "phase Evaluation (id 11)" in line and "2098-06-30T12:00:00Z" in line, line  # the site's date
    assert "later" not in line  # the placeholder's own (the build's) due text


def test_a_second_upload_of_the_same_bundle_names_its_competition(fake, capsys, tmp_path):
    bundle = tmp_path / "competition_bundle.zip"
    bundle.write_bytes(b"PK bundle bytes")
    assert run(fake, capsys, "upload", str(bundle))[0] == 0
    code, out, err = run(fake, capsys, "upload", str(bundle))
    assert code == 0, err
    assert "competition 1: %s/competitions/1/ " % fake.url in out and "unchanged" in out
    assert len(fake.competitions) == 1
    bundle.write_bytes(b"PK other bytes")
    assert run(fake, capsys, "upload", str(bundle))[0] == 0 and len(fake.competitions) == 2
