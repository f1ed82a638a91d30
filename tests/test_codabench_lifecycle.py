"""The lifecycle through codabench.py against the fake site (tests/codabench_fake.py): publish, a
blind phase's reference data released when it opens, the gold attached only after the phase before
has ended, failed migrated copies re-run, fact sheets copied to migrated submissions, and `check`
saying `closed` for everything not yet due and exiting 0 at every step."""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile

from conftest import ROOT
from test_codabench_client import TOKEN, fake, run, token  # noqa: F401  (the fake site, the token and their helper)

import sys

sys.path.insert(0, str(ROOT))
from bundle.held_back import GOLD, STAND_IN, placeholder  # noqa: E402


def zip_of(entries) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in entries.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def real_stand_in() -> bytes:
    """The blind stand-in the scoring program derives from the sample test gold, zipped as the build
    zips it: `check` tells a stand-in by what it holds, never by its settings' flag."""
    import tempfile
    from pathlib import Path
    from scorer.outputs.blind import stand_in_reference
    with tempfile.TemporaryDirectory() as work:
        folder, _ = stand_in_reference(str(ROOT / "reference_data" / "test"), work)
        entries = {str(path.relative_to(folder)): path.read_bytes()
                   for path in sorted(Path(folder).rglob("*")) if path.is_file()}
    entries["scoring_config.json"] = '{"blind": true}'
    return zip_of(entries)


BLIND = real_stand_in()
GOLD_ZIP = zip_of({"semeval2021_t6_st1.json": '[{"id": "1", "labels": ["Smears"]}]', "scoring_config.json": "{}"})


def competition(fake, published=False):
    """Development, Evaluation (blind) and Post-Evaluation, as the build uploads them: the later
    phases' reference data are placeholders."""
    comp = fake.add_competition(phases=("Development", "Evaluation", "Post-Evaluation"), published=published)
    dates = [("2020-01-01T00:00:00Z", "2020-02-01T00:00:00Z"), ("2020-02-01T00:00:01Z", "2099-01-01T00:00:00Z"),
             ("2099-01-02T00:00:00Z", None)]
    for phase, (start, end) in zip(comp["phases"], dates):
        phase["start"], phase["end"] = start, end
    for phase, name, kind, data in ((comp["phases"][1], "test-blind_reference_data.zip", STAND_IN, BLIND),
                                    (comp["phases"][2], "test_reference_data.zip", GOLD, GOLD_ZIP)):
        set_file(fake, phase, held_back(name, phase["name"], kind, data))
    comp["phases"][1]["hide_output"] = True
    return comp


def held_back(name, phase_name, kind, data, after="2020-02-01T00:00:00+00:00", tracks=("t6_st1",)):
    """The build's placeholder of ``data`` (bundle/held_back.py), due from ``after``."""
    return placeholder(name, phase_name, kind, "release_test/" + name, "later", after,
                       hashlib.sha256(data).hexdigest(), tracks)


def set_file(fake, phase, data):
    """The bytes the site serves as the phase's task's reference data."""
    key = phase["tasks"][0]["public_datasets"][0]["key"]
    fake.storage[next(d for d in fake.datasets if d["key"] == key)["_path"]] = data


def release(tmp_path):
    folder = tmp_path / "release_test"
    (folder / "gold").mkdir(parents=True)
    (folder / "test_public_data.zip").write_bytes(b"public data")
    (folder / "starting_kit.zip").write_bytes(b"kit")
    (folder / "test-blind_reference_data.zip").write_bytes(BLIND)
    (folder / "gold" / "test_reference_data.zip").write_bytes(GOLD_ZIP)
    return folder


def reference_key(comp, number):
    return [d for d in comp["phases"][number]["tasks"][0]["public_datasets"] if d["type"] == "reference_data"][0]["key"]


def stored(fake, key):
    return fake.storage[next(d for d in fake.datasets if d["key"] == key)["_path"]]


def check_lines(fake, capsys):
    code, out, err = run(fake, capsys, "check", "1")
    assert code == 0, out + err
    return [line for line in out.splitlines() if "reference data by key" in line]


def test_publish_is_idempotent(fake, capsys):
    competition(fake)
    code, out, err = run(fake, capsys, "publish", "1")
    assert code == 0 and out.strip().startswith("competition 1 published"), err
    assert fake.competitions[1]["published"] is True
    code, out, err = run(fake, capsys, "publish", "1")
    assert code == 0 and out.strip().startswith("competition 1 ") and out.strip().endswith(": unchanged")
    assert fake.competitions[1]["published"] is True  # the toggle was not called again


def test_the_lifecycle_attaches_each_phases_data_when_due_and_check_says_closed_before(fake, capsys, tmp_path):
    comp = competition(fake, published=True)
    folder = release(tmp_path)
    # before Evaluation opens: both later phases' keys give the placeholder, "closed"
    lines = check_lines(fake, capsys)
    assert lines[1].startswith("closed  reference data by key: phase Evaluation") and "placeholder" in lines[1]
    assert lines[2].startswith("closed  reference data by key: phase Post-Evaluation") and "gold" in lines[2]
    # Evaluation opens: public data, kit and the blind stand-in; Post-Evaluation's gold stays
    code, out, err = run(fake, capsys, "release", "1", "Evaluation", str(folder))
    assert code == 0, err
    assert "uploaded test-blind_reference_data.zip" in out
    assert any("task Evaluation task (id 11)" in line and "test-blind_reference_data.zip" in line
               for line in out.splitlines() if "uploaded" not in line), out  # what the task scores on now
    assert stored(fake, reference_key(comp, 1)) == BLIND
    assert [patch for patch in fake.task_patches if patch[0] == 11][0][1]["reference_data"] == reference_key(comp, 1)
    code, out, err = run(fake, capsys, "release", "1", "Evaluation", str(folder))
    assert code == 0 and "uploaded" not in out
    assert re.search(r"reference data already [^\n]*test-blind_reference_data.zip[^\n]*: unchanged", out)
    code, out, err = run(fake, capsys, "release", "1", "Post-Evaluation", str(folder))
    assert code == 0 and any("placeholder" in line and "test_reference_data.zip (gold;" in line
                             for line in out.splitlines()), out
    lines = check_lines(fake, capsys)
    assert lines[1].startswith("open    reference data by key: phase Evaluation") and "stand-in" in lines[1]
    assert lines[2].startswith("closed  reference data by key: phase Post-Evaluation")
    # the gold before Evaluation has ended: refused, nothing changed
    gold = str(folder / "gold" / "test_reference_data.zip")
    code, out, err = run(fake, capsys, "attach-gold", "1", "Post-Evaluation", gold)
    assert code == 1 and err.count("\n") == 1 and "phase Evaluation (id 11)" in err and "ended" in err
    assert not [patch for patch in fake.task_patches if patch[0] == 12]
    # Evaluation ended: the gold goes up, once
    comp["phases"][1]["end"] = "2021-01-01T00:00:00Z"
    code, out, err = run(fake, capsys, "attach-gold", "1", "Post-Evaluation", gold)
    assert code == 0, err
    assert any("task Post-Evaluation task (id 12)" in line and "test_reference_data.zip" in line
               for line in out.splitlines() if "uploaded" not in line), out
    assert any("migrates" in line and "phase Evaluation (id 11)" in line for line in out.splitlines()), out
    assert stored(fake, reference_key(comp, 2)) == GOLD_ZIP
    code, out, err = run(fake, capsys, "attach-gold", "1", "Post-Evaluation", gold)
    assert code == 0 and "unchanged" in out and "uploaded" not in out
    lines = check_lines(fake, capsys)
    assert lines[2].startswith("open    reference data by key: phase Post-Evaluation") and "due" in lines[2] \
        and "phase Evaluation (id 11)" in lines[2]


def test_the_gold_zip_must_be_the_one_the_placeholder_stands_for(fake, capsys, tmp_path):
    comp = competition(fake)
    comp["phases"][1]["end"] = "2021-01-01T00:00:00Z"
    other = tmp_path / "dev_reference_data.zip"
    other.write_bytes(GOLD_ZIP)
    code, out, err = run(fake, capsys, "attach-gold", "1", "Post-Evaluation", str(other))
    assert code == 1 and err.count("\n") == 1  # the zip it names (tracks, sha256), and the one given
    assert "test_reference_data.zip (gold; tracks t6_st1, sha256 " in err and "dev_reference_data.zip" in err


def test_a_migration_before_the_gold_is_re_run_and_fact_sheets_are_copied(fake, capsys, tmp_path):
    comp = competition(fake, published=True)
    comp["phases"][1]["end"] = "2021-01-01T00:00:00Z"
    comp["phases"][2]["start"] = "2021-01-02T00:00:00Z"  # started: the migration ran on the placeholder
    sources = [fake.add_submission(comp, 1, owner, b"PK " + owner.encode(), team="team " + owner,
                                   file_name="%s.zip" % owner) for owner in ("participant1", "participant2")]
    copies = [fake.add_submission(comp, 2, s["owner"], b"PK", status="Failed", on_board=False, file_name=s["filename"])
              for s in sources]
    for copy in copies:
        copy["fact_sheet_answers"] = None  # the platform copies no answers
    code, out, err = run(fake, capsys, "attach-gold", "1", "Post-Evaluation", str(release(tmp_path) / "gold" /
                                                                                  "test_reference_data.zip"))
    assert code == 0, err
    assert sorted(fake.reruns) == sorted(c["id"] for c in copies)
    for copy in copies:  # each failed copy named, and re-run
        assert any("submission %d " % copy["id"] in line and "re-run" in line for line in out.splitlines()), out
    for copy in copies:
        copy["status"], copy["fact_sheet_answers"] = "Finished", None
    fresh = [s for s in fake.submissions if s["phase"] == comp["phases"][2]["id"] and s["id"] not in
             [c["id"] for c in copies]]
    for item in fresh:
        item["fact_sheet_answers"] = None
    code, out, err = run(fake, capsys, "copy-fact-sheets", "1", "Post-Evaluation")
    assert code == 0, err
    assert "4 migrated submissions" in out  # the copies and their re-runs
    for copy, source in zip(copies, sources):
        assert copy["fact_sheet_answers"] == source["fact_sheet_answers"]
    code, out, err = run(fake, capsys, "copy-fact-sheets", "1", "Post-Evaluation")
    assert code == 0 and "0 migrated submissions" in out and "4 unchanged" in out


def test_check_reports_a_board_entrys_file_closed_when_the_phase_hides_output(fake, capsys):
    comp = competition(fake, published=True)
    entry = fake.add_submission(comp, 1, "participant1", b"PK predictions")
    code, out, err = run(fake, capsys, "check", "1")
    assert code == 0, err
    line = next(line for line in out.splitlines() if line.startswith(
        "closed  details (submitted file, logs, outputs) of submission %d (phase Evaluation (id 11))" % entry["id"]))
    assert "HTTP 403" in line
    comp["phases"][1]["hide_output"] = False
    code, out, err = run(fake, capsys, "check", "1")
    assert "OPEN    details (submitted file, logs, outputs) of submission %d (phase Evaluation (id 11))" % entry["id"] in out
    assert code == 0  # the exit status is for the gold
    assert json.dumps(TOKEN) not in out


def test_baselines_are_submitted_once_from_the_organisers_account_marked(fake, capsys, tmp_path):
    comp = competition(fake, published=True)
    bundle = ROOT / "dist" / "competition_bundle.zip"
    out = tmp_path / "dist"
    import subprocess
    process = subprocess.run([sys.executable, str(ROOT / "build_bundle.py"), "--out", str(out), "--no-check"],
                             capture_output=True, text=True, cwd=str(ROOT))
    assert process.returncode == 0, process.stderr
    bundle = out / "competition_bundle.zip"
    # the fake's phases are named as the build names them
    code, out_text, err = run(fake, capsys, "baselines", "1", "Development", str(bundle))
    assert code == 0, err
    assert "random baseline" in out_text and 'team "Baseline (organisers)"' in out_text
    mine = [s for s in fake.submissions if s["owner"] == "organiser"]
    assert len(mine) == 1 and mine[0]["phase"] == comp["phases"][0]["id"]
    assert mine[0]["fact_sheet_answers"]["team_name"] == "Baseline (organisers)"
    assert set(mine[0]["fact_sheet_answers"]) == set(comp["fact_sheet"])
    with zipfile.ZipFile(io.BytesIO(fake.storage[mine[0]["_data"]["_path"]])) as archive:
        assert "semeval2021_t6_st1.json" in archive.namelist()
    code, out_text, err = run(fake, capsys, "baselines", "1", "Development", str(bundle))
    assert code == 0 and "unchanged" in out_text
    assert len([s for s in fake.submissions if s["owner"] == "organiser"]) == 1
    # a later phase's public data is not in the upload: said, not guessed
    code, out_text, err = run(fake, capsys, "baselines", "1", "Evaluation", str(bundle))
    assert code == 1 and err.count("\n") == 1 and "public data" in err and "phase Evaluation" in err


def test_a_per_track_release_sets_each_competitions_stand_in_from_its_own_folder(fake, capsys, tmp_path):
    comps = []
    for track in ("flc", "nlu"):
        comp = fake.add_competition(title="Six tracks (track %s)" % track, phases=("Development", "Evaluation"))
        stand_in = zip_of({"scoring_config.json": '{"blind": true}', "track.txt": track})
        set_file(fake, comp["phases"][1], held_back("test-blind_reference_data.zip", "Evaluation", STAND_IN, stand_in,
                                                    tracks=(track,)))
        folder = tmp_path / "dist" / track / "release_test"
        folder.mkdir(parents=True)
        (folder / "test_public_data.zip").write_bytes(b"public " + track.encode())
        (folder / "starting_kit.zip").write_bytes(b"kit")
        (folder / "test-blind_reference_data.zip").write_bytes(stand_in)
        comps.append((comp, track))
    code, out, err = run(fake, capsys, "release", "1,2", "Evaluation", str(tmp_path / "dist"))
    assert code == 0, err
    for comp, track in comps:
        with zipfile.ZipFile(io.BytesIO(stored(fake, reference_key(comp, 1)))) as archive:
            assert archive.read("track.txt").decode() == track


def test_a_release_before_the_phase_starts_says_it_is_public_from_now_on(fake, capsys, tmp_path):
    """The site lists every phase's keys to any visitor: a release run before its phase starts says
    so (the Post-Evaluation phase here starts in 2099); one in a running phase (Evaluation) does not."""
    competition(fake, published=True)
    folder = release(tmp_path)
    code, out, err = run(fake, capsys, "release", "1", "Evaluation", str(folder))
    assert code == 0, err
    assert "note: " not in out
    code, out, err = run(fake, capsys, "release", "1", "Post-Evaluation", str(folder))
    assert code == 0, err
    assert any("phase Post-Evaluation (id 12): note: " in line and "2099-01-02T00:00:00Z" in line
               and "anyone" in line for line in out.splitlines()), out
