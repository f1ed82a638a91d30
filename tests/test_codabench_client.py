"""codabench.py against a local fake of the endpoints it uses (tests/codabench_fake.py; the
shapes recorded from a real site in tests/fixtures/codabench/): upload, release (idempotent,
per-track), download (pagination, a missing page, a short file, the site going away and a second
run resuming, the bounds), check; every failure one line, never a traceback or the token."""

from __future__ import annotations

import io
import json
import os
import re
import zipfile
from pathlib import Path

import sys

import pytest

from codabench_fake import TOKENS, FakeCodabench
from conftest import ROOT

sys.path.insert(0, str(ROOT))
import codabench  # noqa: E402
from codabench_client import download as download_module  # noqa: E402
from ranking.client_download import CLIENT_MANIFEST  # noqa: E402
from ranking.codabench_download import download_phase  # noqa: E402
from ranking.codabench_export import check_export_meets_download, export_of_phase, read_results_export  # noqa: E402
from ranking.downloads import discover  # noqa: E402

TOKEN = "organiser-token-0123456789abcdef"


@pytest.fixture
def fake():
    site = FakeCodabench()
    yield site
    site.down = False
    site.stop()


@pytest.fixture(autouse=True)
def token(monkeypatch):
    monkeypatch.setenv("CODABENCH_TOKEN", TOKEN)
    monkeypatch.delenv("CODABENCH_SITE", raising=False)


def run(fake, capsys, *argv):
    code = codabench.main(["--site", fake.url, "--timeout", "5"] + list(argv))
    out, err = capsys.readouterr()
    for token in TOKENS:
        assert token not in out + err
    assert "Traceback" not in err
    return code, out, err


def submission_zip(text: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("semeval2021_t6_st1.json", text)
    return buffer.getvalue()


def release_folder(tmp_path, name="release_test", public=b"public data", kit=b"kit"):
    folder = tmp_path / name
    folder.mkdir(parents=True)
    (folder / "test_public_data.zip").write_bytes(public)
    (folder / "starting_kit.zip").write_bytes(kit)
    return folder


# --- upload ------------------------------------------------------------------------------------------

def test_upload_creates_the_competition_and_sends_the_token_to_the_site_only(fake, capsys, tmp_path):
    bundle = tmp_path / "competition_bundle.zip"
    bundle.write_bytes(b"PK bundle bytes")
    code, out, err = run(fake, capsys, "upload", str(bundle))
    assert code == 0, err
    assert "competition 1: %s/competitions/1/" % fake.url in out
    assert "Development (id 10), Test (id 11)" in out
    storage = [r for r in fake.requests if r.startswith("PUT /storage/")]
    assert storage and all(r.endswith(" -") for r in storage)  # the presigned URL gets no token
    assert fake.storage[[p for p in fake.storage if p.endswith("competition_bundle.zip")][0]] == b"PK bundle bytes"


def test_upload_says_the_platforms_own_error_in_one_line(fake, capsys, tmp_path):
    bundle = tmp_path / "competition_bundle.zip"
    bundle.write_bytes(b"PK")
    fake.unpack_error = "Error in phase 1: 'start' is required\n  (line 12)"
    code, out, err = run(fake, capsys, "upload", str(bundle))
    assert code == 1
    assert err.count("\n") == 1 and err.startswith("codabench: ")  # one line, quoting the platform's own error
    assert "Error in phase 1: 'start' is required (line 12)" in err


def test_a_refused_token_is_one_line_without_the_token(fake, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("CODABENCH_TOKEN", "not-a-token-secret-42")
    fake.add_competition()
    code, out, err = run(fake, capsys, "download", "1", "Test", str(tmp_path / "out"))
    assert code == 1
    assert err.count("\n") == 1 and "refused the token" in err and "Invalid token." in err
    assert "not-a-token-secret-42" not in err


def test_the_token_from_a_file_and_its_problems(fake, capsys, tmp_path, monkeypatch):
    monkeypatch.delenv("CODABENCH_TOKEN")
    fake.add_competition()
    code, out, err = run(fake, capsys, "release", "1", "Test", str(release_folder(tmp_path)))
    assert code == 1 and err.count("\n") == 1 and "CODABENCH_TOKEN" in err and "--token-file" in err
    (tmp_path / "token").write_text(TOKEN + "\n")
    code, out, err = run(fake, capsys, "--token-file", str(tmp_path / "token"), "release", "1", "Test",
                         str(tmp_path / "release_test"))
    assert code == 0, err
    (tmp_path / "bad").write_text("two words\n")
    code, out, err = run(fake, capsys, "--token-file", str(tmp_path / "bad"), "check", "1")
    assert code == 1 and err.count("\n") == 1 and err.startswith("codabench: --token-file %s " % (tmp_path / "bad"))
    assert "two words" not in err  # what the file holds is never printed


def test_an_unreachable_site_and_a_missing_competition_or_phase(fake, capsys, tmp_path):
    code = codabench.main(["--site", "http://127.0.0.1:9", "check", "1"])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("codabench: competition 1: cannot reach 127.0.0.1:9 (") and err.count("\n") == 1
    code, out, err = run(fake, capsys, "download", "7", "Test", str(tmp_path / "out"))
    assert code == 1 and err.count("\n") == 1 and err.startswith("codabench: competition 7: ")
    assert fake.url[7:] in err and "HTTP 404" in err
    fake.add_competition(phases=("Development", "Evaluation", "Post-Evaluation"))
    code, out, err = run(fake, capsys, "download", "1", "Test", str(tmp_path / "out"))
    assert code == 1 and err.count("\n") == 1 and err.startswith("codabench: competition 1") and "Test" in err
    assert "Development (id 10), Evaluation (id 11), Post-Evaluation (id 12)" in err  # the phases it has


# --- release -----------------------------------------------------------------------------------------

def test_release_attaches_both_datasets_and_a_second_run_changes_nothing(fake, capsys, tmp_path):
    comp = fake.add_competition(phases=("Development", "Evaluation", "Post-Evaluation"))
    for number in range(5):  # other datasets of the organiser: the lookup pages through them
        fake.add_dataset("public_data", "old%d.zip" % number, b"old", name="old %d" % number)
    folder = release_folder(tmp_path)
    code, out, err = run(fake, capsys, "release", "1", "evaluation", str(folder))
    assert code == 0, err
    phase = comp["phases"][1]
    assert phase["public_data"]["file_name"] == "test_public_data.zip"
    assert phase["starting_kit"]["file_name"] == "starting_kit.zip"
    assert re.match(r"Six shared-task tracks #1 - Evaluation - public data - 20\d\d-\d\d-\d\d - [0-9a-f]{8}$",
                    phase["public_data"]["name"])
    assert comp["phases"][0]["public_data"]["name"].startswith("public_data @ ")  # as the unpacker named it
    assert comp["phases"][2]["public_data"] is None and comp["phases"][2]["starting_kit"] is None
    assert any(line.startswith("competition 1, phase Evaluation (id 11) ") and "public data" in line
               and "starting kit" in line for line in out.splitlines()), out  # what the phase serves now
    datasets, requests = len(fake.datasets), len(fake.requests)
    code, out, err = run(fake, capsys, "release", "1", "11", str(folder))  # by id: the same phase
    assert code == 0, err
    assert out.count(": unchanged") == 2 and "(nothing changed)" in out
    assert len(fake.datasets) == datasets
    assert not [r for r in fake.requests[requests:] if r.startswith(("PATCH", "POST", "PUT"))]


def test_release_reuses_a_dataset_uploaded_by_a_run_that_stopped_before_setting_the_phase(fake, capsys, tmp_path):
    comp = fake.add_competition()
    folder = release_folder(tmp_path)
    fake.missing_pages.add("/api/phases/11/")
    code, out, err = run(fake, capsys, "release", "1", "Test", str(folder))
    assert code == 1 and "setting public_data, starting_kit of competition 1, phase Test (id 11)" in err
    fake.missing_pages.clear()
    datasets = len(fake.datasets)
    code, out, err = run(fake, capsys, "release", "1", "Test", str(folder))
    assert code == 0, err
    assert out.count("was uploaded before") == 2 and len(fake.datasets) == datasets
    assert comp["phases"][1]["public_data"]["file_name"] == "test_public_data.zip"


def test_release_of_a_per_track_build_sets_each_competition_from_its_own_folder(fake, capsys, tmp_path):
    flc = fake.add_competition(title="Six tracks (track flc)")
    nlu = fake.add_competition(title="Six tracks (track nlu)")
    release_folder(tmp_path / "dist" / "flc", public=b"flc public")
    release_folder(tmp_path / "dist" / "nlu", public=b"nlu public")
    code, out, err = run(fake, capsys, "release", "1,2", "Test", str(tmp_path / "dist"))
    assert code == 0, err
    for comp, text in ((flc, b"flc public"), (nlu, b"nlu public")):
        key = comp["phases"][1]["public_data"]["key"]
        assert fake.storage["/storage/%s/test_public_data.zip" % key] == text


def test_release_refuses_a_folder_with_other_files(fake, capsys, tmp_path):
    fake.add_competition()
    folder = release_folder(tmp_path)
    (folder / "notes.txt").write_text("x")
    code, out, err = run(fake, capsys, "release", "1", "Test", str(folder))
    assert code == 1 and err.count("\n") == 1 and "notes.txt" in err and not fake.datasets[2:]


# --- download ----------------------------------------------------------------------------------------

def populate(fake):
    comp = fake.add_competition()
    fake.add_submission(comp, 1, "participant1", submission_zip("first"), on_board=False)
    fake.add_submission(comp, 1, "participant2", submission_zip("second"), team="Team Two")
    fake.add_submission(comp, 1, "participant1", submission_zip("third"))
    fake.add_submission(comp, 1, "participant3", submission_zip("broken"), status="Failed", on_board=False)
    fake.add_submission(comp, 0, "participant1", submission_zip("dev"))  # another phase
    return comp


def test_download_gives_a_folder_rank_submissions_reads(fake, capsys, tmp_path):
    populate(fake)
    out_dir = tmp_path / "out"
    code, out, err = run(fake, capsys, "download", "1", "Test", str(out_dir))
    assert code == 0, err
    assert "4 of 4 submissions in" in out and "results.json with 2 board entries" in out
    found = discover(str(out_dir))
    assert found.platform == "codabench"
    assert [e.platform_id for e in found.entries] == ["100", "101", "102", "103"]
    assert [e.owner for e in found.entries] == ["participant1", "participant2", "participant1", "participant3"]
    assert download_phase(found.entries, str(out_dir)) == "11"
    export, _ = read_results_export(str(out_dir / "results.json"))
    export = export_of_phase(export, "11", "results.json")
    check_export_meets_download(export, found.entries, "results.json", str(out_dir))
    assert sorted(e.key() for e in export) == ["participant1-102", "participant2-101"]
    with zipfile.ZipFile(found.entries[2].source) as archive:
        assert archive.read("semeval2021_t6_st1.json") == b"third"
    table = (out_dir / "submissions.csv").read_text().splitlines()
    assert table[0] == "id,owner,team,created_when,status,on_leaderboard,file,bytes,sha256"
    assert table[2].startswith("101,participant2,Team Two,") and ",Finished,True,101_participant2_PhaseId11_" in table[2]
    assert not (out_dir / "failed.txt").exists()  # written only when something was not taken
    code, out, err = run(fake, capsys, "download", "1", "Test", str(out_dir))
    assert code == 0 and "(0 downloaded now, 4 already there)" in out and "unchanged" in out


@pytest.mark.parametrize("mode, ids", [("leaderboard", ["101", "102"]), ("last", ["101", "102"]),
                                       ("all", ["100", "101", "102", "103"])])
def test_download_selects_as_rank_submissions_does(fake, capsys, tmp_path, mode, ids):
    populate(fake)
    code, out, err = run(fake, capsys, "download", "1", "Test", str(tmp_path / "out"), "--select", mode)
    assert code == 0, err
    assert [e.platform_id for e in discover(str(tmp_path / "out")).entries] == ids


def test_download_follows_pages_and_a_missing_page_is_one_line(fake, capsys, tmp_path):
    populate(fake)
    fake.submission_page_size = 3
    code, out, err = run(fake, capsys, "download", "1", "Test", str(tmp_path / "out"))
    assert code == 0, err
    assert len(discover(str(tmp_path / "out")).entries) == 4
    fake.missing_pages.add("/api/submissions/?phase=11&page=2")
    code, out, err = run(fake, capsys, "download", "1", "Test", str(tmp_path / "again"))
    assert code == 1
    assert err.count("\n") == 1 and err.startswith("codabench: ") and "phase 11" in err and "HTTP 404" in err


def test_a_short_file_is_kept_and_completed_by_the_next_run(fake, capsys, tmp_path):
    populate(fake)
    short = fake.submissions[1]["_data"]["_path"]
    fake.short_once.add(short)
    out_dir = tmp_path / "out"
    code, out, err = run(fake, capsys, "download", "1", "Test", str(out_dir))
    assert code == 1
    assert "101_participant2_PhaseId11_2026-11-26_41-07_sample_submission.zip: " in out
    assert ".part" in out  # kept, to be continued
    assert "1 not downloaded" in out and "failed.txt" in out
    assert len(discover(str(out_dir)).entries) == 3
    assert "short file" in (out_dir / "failed.txt").read_text()
    before = len(fake.requests)
    code, out, err = run(fake, capsys, "download", "1", "Test", str(out_dir))
    assert code == 0, err
    gets = [r for r in fake.requests[before:] if r.startswith("GET /storage/")]
    assert gets == ["GET %s -" % short]  # only the short one, continued from where it stopped
    assert "4 of 4 submissions" in out and "(1 downloaded now, 3 already there)" in out
    assert not (out_dir / "failed.txt").exists()
    with zipfile.ZipFile(discover(str(out_dir)).entries[1].source) as archive:
        assert archive.read("semeval2021_t6_st1.json") == b"second"


def test_the_site_going_away_mid_download_and_a_second_run_resuming(fake, capsys, tmp_path):
    populate(fake)
    fake.stop_after_files = 2
    out_dir = tmp_path / "out"
    code, out, err = run(fake, capsys, "download", "1", "Test", str(out_dir))
    assert code == 1
    assert "stopped: 102_participant1_PhaseId11_" in out
    assert "2 of 4 submissions" in out and str(out_dir) in out and "(2 this run)" in out
    assert not (out_dir / "results.json").exists()
    fake.down, fake.stop_after_files = False, None
    before = len(fake.requests)
    code, out, err = run(fake, capsys, "download", "1", "Test", str(out_dir))
    assert code == 0, err
    assert len([r for r in fake.requests[before:] if r.startswith("GET /storage/")]) == 2  # nothing twice
    assert [e.platform_id for e in discover(str(out_dir)).entries] == ["100", "101", "102", "103"]
    manifest = json.loads((out_dir / CLIENT_MANIFEST).read_text())
    assert sorted(manifest["files"]) == ["100", "101", "102", "103"]


def test_a_file_over_the_bound_is_refused_before_it_is_written(fake, capsys, tmp_path, monkeypatch):
    populate(fake)
    big = len(fake.submissions[3]["_data"] and fake.storage[fake.submissions[3]["_data"]["_path"]])
    monkeypatch.setattr(download_module, "MAX_MEMBER_BYTES", big - 1)
    for submission in fake.submissions[:3]:  # the others are smaller
        fake.storage[submission["_data"]["_path"]] = b"PK" * 4
    code, out, err = run(fake, capsys, "download", "1", "Test", str(tmp_path / "out"))
    assert code == 0, err
    assert "refused: 103_participant3_PhaseId11_" in out and "declares %d bytes" % big in out
    assert "1 refused (listed in failed.txt" in out
    assert not [n for n in os.listdir(tmp_path / "out") if n.startswith("103_")]
    assert discover(str(tmp_path / "out")).notes[0].startswith("not downloaded from the platform: 103_participant3_")


def test_a_download_folder_of_another_phase_is_refused(fake, capsys, tmp_path):
    populate(fake)
    assert run(fake, capsys, "download", "1", "Test", str(tmp_path / "out"))[0] == 0
    code, out, err = run(fake, capsys, "download", "1", "Development", str(tmp_path / "out"))
    assert code == 1 and "holds a download of competition 1 phase 11" in err


# --- check -------------------------------------------------------------------------------------------

def test_check_reports_the_gold_open_by_key_and_exits_non_zero(fake, capsys):
    populate(fake)
    code, out, err = run(fake, capsys, "check", "1")
    assert code == 1, err
    lines = out.splitlines()
    gold = [line for line in lines if "reference data by key" in line]
    # the Development gold is its practice data (not blind, no later phase scores on it: public by
    # design); the Test gold is taken while the phase before it still runs: OPEN
    assert len(gold) == 2 and gold[0].startswith("open") and "public by design" in gold[0]
    assert gold[1].startswith("OPEN    reference data by key: phase Test (id 11)")
    assert any(line.startswith("open    detailed results of submission 102 (phase Test (id 11))") for line in lines)
    assert any(line.startswith("OPEN    details (submitted file, logs, outputs) of submission 102 (phase Test (id 11))")
               for line in lines)
    assert any(line.startswith("open    board of phase Test (id 11)") for line in lines)
    # only the visitor's requests tried the channels: no token on them
    assert all(r.endswith(" -") for r in fake.requests if "/datasets/download/" in r or "get_leaderboard" in r)


def test_check_tells_a_blind_phases_stand_in_from_gold(fake, capsys, tmp_path):
    """A blind phase's reference data (the build's stand-in: scoring_config.json says blind, no
    answers) taken by key is 'open', not gold. The stand-in is told by what it holds: the
    one the scoring program derives from the test gold, as the build uploads it."""
    from scorer.outputs.blind import stand_in_reference
    folder, _ = stand_in_reference(str(ROOT / "reference_data" / "test"), str(tmp_path))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("scoring_config.json", '{"blind": true}')
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file():
                archive.write(str(path), str(path.relative_to(folder)))
    comp = fake.add_competition()
    test_key = comp["phases"][1]["tasks"][0]["public_datasets"][0]["key"]
    dataset = next(d for d in fake.datasets if d["key"] == test_key)
    fake.storage[dataset["_path"]] = buffer.getvalue()
    code, out, err = run(fake, capsys, "check", "1")
    assert code == 0, err  # the Development gold: the first phase's, open by design
    lines = [line for line in out.splitlines() if "reference data by key" in line]
    assert lines[0].startswith("open    reference data by key: phase Development (id 10)") and "gold" in lines[0]
    assert lines[1].startswith("open    reference data by key: phase Test (id 11)") and "stand-in" in lines[1]


def test_check_when_the_keys_lead_nowhere(fake, capsys):
    comp = fake.add_competition(published=False, hidden_board=True)
    for phase in comp["phases"]:
        phase["tasks"][0]["public_datasets"][0]["key"] = "00000000-0000-0000-0000-00000000000%d" % phase["index"]
    code, out, err = run(fake, capsys, "check", "1")
    assert code == 0, err
    first = out.splitlines()[0]
    assert first.startswith("closed  competition API: ") and "HTTP 404" in first
    line = next(line for line in out.splitlines() if line.startswith("closed  reference data by key: phase Test (id 11)"))
    assert "task Test task (id 11)" in line and "HTTP 404" in line
    line = next(line for line in out.splitlines() if line.startswith("OPEN    board of phase Test (id 11)"))
    assert "hidden" in line and "get_leaderboard" in line and "0 rows" in line


def test_a_participants_token_downloads_nothing(fake, capsys, tmp_path, monkeypatch):
    populate(fake)
    monkeypatch.setenv("CODABENCH_TOKEN", "participant-token-0123456789abcd")
    code, out, err = run(fake, capsys, "download", "1", "Test", str(tmp_path / "out"))
    assert code == 1
    assert err.count("\n") == 1 and err.startswith("codabench: ") and "phase 11" in err
    assert "HTTP 403: You are not a competition admin or superuser" in err  # the site's own words
    assert not (tmp_path / "out").exists()


def test_a_half_finished_upload_says_what_was_left_and_how_to_go_on(fake, capsys, tmp_path):
    bundle = tmp_path / "competition_bundle.zip"
    bundle.write_bytes(b"PK")
    fake.refuse_storage_puts = True
    code, out, err = run(fake, capsys, "upload", str(bundle))
    assert code == 1 and err.count("\n") == 1
    key = fake.datasets[-1]["key"]
    assert err.startswith("codabench: ") and "competition_bundle.zip" in err
    assert "HTTP 403: Request has expired" in err  # what the storage said
    assert "dataset %s" % key in err and "Resources > Datasets" in err  # what was left, and where


def test_a_site_that_does_not_answer_in_time(fake, capsys, tmp_path):
    fake.add_competition()
    fake.slow["/api/competitions/1/"] = 2
    code = codabench.main(["--site", fake.url, "--timeout", "0.5", "check", "1"])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and err.startswith("codabench: competition 1: ")
    assert fake.url[7:] in err and "0.5 s" in err


def test_hostile_names_from_the_site_stay_inside_out(fake, capsys, tmp_path):
    comp = fake.add_competition()
    fake.add_submission(comp, 1, "../../evil\u202e", submission_zip("x"), file_name="..\\a:b/../c.zip")
    out_dir = tmp_path / "deep" / "out"
    code, out, err = run(fake, capsys, "download", "1", "Test", str(out_dir))
    assert code == 0, err
    names = os.listdir(out_dir)
    submission = [n for n in names if n.startswith("100_")]
    assert submission == ["100_.._.._evil__PhaseId11_2026-11-26_40-07_.._a_b_.._c.zip"]
    assert sorted(os.listdir(tmp_path)) == ["deep"] and sorted(os.listdir(tmp_path / "deep")) == ["out"]
    assert [e.platform_id for e in discover(str(out_dir)).entries] == ["100"]


def test_the_same_file_released_to_two_competitions_gets_a_dataset_each(fake, capsys, tmp_path):
    first, second = fake.add_competition(), fake.add_competition()
    folder = release_folder(tmp_path)
    assert run(fake, capsys, "release", "1", "Test", str(folder))[0] == 0
    code, out, err = run(fake, capsys, "release", "2", "Test", str(folder))
    assert code == 0, err
    assert "was uploaded before" not in out and out.count("uploaded ") == 2
    assert first["phases"][1]["public_data"]["key"] != second["phases"][1]["public_data"]["key"]


def test_a_corrected_release_the_same_day_replaces_the_phases_dataset(fake, capsys, tmp_path):
    comp = fake.add_competition()
    folder = release_folder(tmp_path)
    assert run(fake, capsys, "release", "1", "Test", str(folder))[0] == 0
    first = comp["phases"][1]["public_data"]["key"]
    (folder / "test_public_data.zip").write_bytes(b"corrected public data")
    code, out, err = run(fake, capsys, "release", "1", "Test", str(folder))
    assert code == 0, err
    assert "starting kit already" in out and "uploaded test_public_data.zip (21 bytes" in out
    assert comp["phases"][1]["public_data"]["key"] != first
    assert fake.storage["/storage/%s/test_public_data.zip" % comp["phases"][1]["public_data"]["key"]] == \
        b"corrected public data"
