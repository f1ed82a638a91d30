"""The task's release (release_task.py): its checksums verify, it holds no gold unless a phase is
named, a second run gives the same bytes, CITATION.cff validates (cffconvert), and the README's two
commands score on the test set with the signature of the final tables."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT

sys.path.insert(0, str(ROOT))

RELEASE = [sys.executable, str(ROOT / "release_task.py")]


def _run(command, **kwargs):
    return subprocess.run([str(part) for part in command], capture_output=True, text=True, cwd=str(ROOT), **kwargs)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """rank_submissions.py's tables for two submissions (the baseline of the Test phase's public data)."""
    sys.path.insert(0, str(ROOT / "starting_kit"))
    from baselines import write_submission
    from bundle.public_data import derive_public_data
    work = tmp_path_factory.mktemp("ranked")
    derive_public_data(str(ROOT / "reference_data" / "test"), str(work / "public"))
    write_submission(str(work / "public"), str(work / "submissions" / "alice"))
    shutil.copytree(work / "submissions" / "alice", work / "submissions" / "bob")
    process = _run([sys.executable, ROOT / "rank_submissions.py", work / "submissions", "--ref",
                    ROOT / "reference_data" / "test", "--out", work / "results", "--resamples", 20, "--quiet"])
    assert process.returncode == 0, process.stdout + process.stderr
    return work


@pytest.fixture(scope="module")
def released(results, tmp_path_factory):
    out = tmp_path_factory.mktemp("release") / "release"
    process = _run(RELEASE + ["--out", out, "--results", results / "results", "--gold", "Post-Evaluation"])
    assert process.returncode == 0, process.stdout + process.stderr
    return out


def _files(folder: Path):
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def test_a_second_run_gives_the_same_bytes_and_the_checksums_verify(released, results, tmp_path):
    again = tmp_path / "again"
    process = _run(RELEASE + ["--out", again, "--results", results / "results", "--gold", "test"])
    assert process.returncode == 0, process.stderr
    assert _files(again) == _files(released)
    # over an earlier release: replaced, the same bytes
    process = _run(RELEASE + ["--out", again, "--results", results / "results", "--gold", "test"])
    assert process.returncode == 0, process.stderr
    assert _files(again) == _files(released)
    listed = (released / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    assert len(listed) == len(_files(released)) - 1
    assert subprocess.run(["sha256sum", "-c", "--quiet", "SHA256SUMS"], cwd=str(released)).returncode == 0
    verified = _run(RELEASE + ["--verify", released])
    assert verified.returncode == 0 and verified.stdout.strip().endswith("every file matches SHA256SUMS")
    (again / "cards" / "nlu.md").write_text("changed", encoding="utf-8")
    (again / "extra.txt").write_text("x", encoding="utf-8")
    tampered = _run(RELEASE + ["--verify", again])
    assert tampered.returncode == 1
    assert tampered.stderr.splitlines()[0].startswith("cards/nlu.md: sha256 ")
    assert tampered.stderr.splitlines()[1] == "extra.txt: not listed in SHA256SUMS"


def test_the_release_holds_what_it_says(released):
    from scorer import __version__
    from scorer.tracks.registry import TRACKS
    names = set(_files(released))
    assert "scorer/shared_task_scorer-%s-py3-none-any.whl" % __version__ in names
    assert {"cards/%s.md" % track.name for track in TRACKS} <= names
    assert {"settings/dev.json", "settings/test.json", "README.md", "CITATION.cff", ".zenodo.json",
            "results/index.html", "results/results.md", "results/flc.csv"} <= names
    assert any(name.startswith("public_data/dev/") for name in names)
    assert any(name.startswith("public_data/test/") for name in names)
    assert (released / "gold" / "test" / "semeval2021_t6_st1.json").read_bytes() == \
        (ROOT / "reference_data" / "test" / "semeval2021_t6_st1.json").read_bytes()
    assert not any(name.startswith("gold/dev/") for name in names)
    # the wheel is the build's: the same bytes from the same sources
    from bundle.paths import PROGRAM
    from bundle.vendor import vendored_files
    from bundle.wheel import scorer_wheel
    from bundle.zips import folder_data
    program = folder_data(PROGRAM)
    program.update(vendored_files(os.path.join(str(ROOT), "build", "wheels")))
    config = yaml.safe_load((ROOT / "competition.yaml").read_text(encoding="utf-8"))
    name, data = scorer_wheel(program, config)
    assert (released / "scorer" / name).read_bytes() == data
    zenodo = json.loads((released / ".zenodo.json").read_text(encoding="utf-8"))
    assert zenodo["title"] == config["title"] and zenodo["version"] == __version__
    # No end_date (the Post-Evaluation phase never ends): the day the last phase starts, when the results are final.
    last_start = config["phases"][max(config["phases"])]["start_date"]
    assert zenodo["publication_date"] == str(config.get("end_date") or last_start)[:10] == "2027-04-01"
    assert zenodo["upload_type"] == "dataset"
    assert zenodo["creators"] and all(creator["name"] for creator in zenodo["creators"])


def test_no_gold_unless_a_phase_is_named(results, tmp_path):
    out = tmp_path / "release"
    process = _run(RELEASE + ["--out", out, "--results", results / "results"])
    assert process.returncode == 0, process.stderr
    assert "--gold PHASE" in process.stdout  # the option that adds one
    from scorer.tracks.registry import TRACKS
    gold = set()
    for folder in ("dev", "test"):
        for track in TRACKS:
            path = track.find_gold(str(ROOT / "reference_data" / folder))
            paths = [Path(path)] if os.path.isfile(path) else [p for p in Path(path).rglob("*.labels")]
            gold |= {hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}
    files = _files(out)
    assert not [name for name in files if name.startswith("gold/")]
    assert not [name for name, data in files.items() if hashlib.sha256(data).hexdigest() in gold]
    readme = files["README.md"].decode("utf-8")
    assert "shared-task-score TRACK TEST_GOLD PREDICTION --settings settings/test.json" in readme
    assert "`gold/" not in readme  # no folder of gold named


def test_citation_cff_validates_with_cffconvert(released):
    cffconvert = Path(sys.executable).parent / "cffconvert"
    assert cffconvert.exists(), "cffconvert is pinned in requirements-dev.txt: pip install -r requirements-dev.txt"
    process = subprocess.run([str(cffconvert), "--validate", "-i", str(released / "CITATION.cff")],
                             capture_output=True, text=True)
    assert process.returncode == 0, process.stdout + process.stderr
    assert "valid according to schema version 1.2.0" in process.stdout
    broken = released.parent / "broken.cff"
    broken.write_text((released / "CITATION.cff").read_text(encoding="utf-8").replace("authors:", "author:"),
                      encoding="utf-8")
    assert subprocess.run([str(cffconvert), "--validate", "-i", str(broken)], capture_output=True).returncode != 0


def test_the_readmes_two_commands_score_on_the_test_set_with_the_tables_signature(released, results, tmp_path):
    readme = (released / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^    (pip install .*|shared-task-score .*)$", readme, flags=re.M)
    assert len(commands) == 2 and commands[0].startswith("pip install scorer/"), commands
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    install = commands[0].split()
    process = subprocess.run([str(venv / "bin" / "pip")] + install[1:] + ["--no-index", "--no-deps"],
                             cwd=str(released), capture_output=True, text=True)
    assert process.returncode == 0, process.stdout + process.stderr
    from scorer.tracks.registry import TRACKS
    header = (released / "results" / "flc.csv").read_text(encoding="utf-8").splitlines()[0]
    for track in TRACKS:
        score = commands[1].replace("TRACK", track.name).replace(
            "PREDICTION", str(results / "submissions" / "alice" / track.filename)).split()
        run = subprocess.run([str(venv / "bin" / score[0])] + score[1:] + ["--json"], cwd=str(released),
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        signature = json.loads(run.stdout)["signature"]
        assert "; %s;" % signature in header + ";", (signature, header)


def test_bad_arguments_are_one_line(results, tmp_path):
    for arguments, expected in (
            (["--gold", "Final"], "--gold Final: no such phase in competition.yaml; the phases: Development (folder "
                                  "dev); Evaluation / Post-Evaluation (folder test)"),
            (["--results", tmp_path / "none"], "--results %s: no such folder" % (tmp_path / "none")),
            (["--results", ROOT / "pages"], "--results %s: not an output folder of rank_submissions.py"
             % (ROOT / "pages"))):
        process = _run(RELEASE + ["--out", tmp_path / "out"] + arguments)
        assert process.returncode == 2 and len(process.stderr.splitlines()) == 1, process.stderr
        assert process.stderr.startswith(expected), process.stderr
        assert not (tmp_path / "out").exists()
    other = tmp_path / "other_version"
    shutil.copytree(results / "results", other)
    text = (other / "flc.csv").read_text(encoding="utf-8")
    (other / "flc.csv").write_text(text.replace("|v0.", "|v9.", 1).replace("|v1.", "|v9.", 1), encoding="utf-8")
    process = _run(RELEASE + ["--out", tmp_path / "out", "--results", other])
    assert process.returncode == 1 and len(process.stderr.splitlines()) == 1
    assert "scored by scorer v9." in process.stderr and "run rank_submissions.py again" in process.stderr
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine", encoding="utf-8")
    process = _run(RELEASE + ["--out", tmp_path / "busy"])
    assert process.returncode == 2 and "--out %s: " % (tmp_path / "busy") in process.stderr  # refused, named


def test_phases_and_folders_come_from_competition_yaml():
    """Phases sharing a folder (an evaluation and its post-evaluation) are one; --gold takes either label."""
    from task_release.phases import chosen_gold, phases_of
    config = {"phases": {
        1: {"phasenumber": 1, "label": "Development", "reference_data": "dev_reference_data.zip"},
        2: {"phasenumber": 2, "label": "Evaluation", "reference_data": "eval_reference_data.zip"},
        3: {"phasenumber": 3, "label": "Post-Evaluation", "reference_data": "eval_reference_data.zip"}}}
    phases = phases_of(config)
    assert [(p.folder, p.labels) for p in phases] == [("dev", ["Development"]),
                                                      ("eval", ["Evaluation", "Post-Evaluation"])]
    assert chosen_gold(phases, ["post-evaluation", "eval"]) == [phases[1]]
