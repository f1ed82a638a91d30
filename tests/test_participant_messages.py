"""What participants read when a submission fails, through the public paths (score.py's stdout and
stderr and page, the starting kit's output, the built pages): one verdict line, in their words (no
platform folder), the problem lines naming file, place and field, no list of tracks not entered
before the real problem; where a failed submission's page is on Codabench (its row has no link);
what a copy scored before the organisers attached the gold says; what the board shows for a track
not entered."""

from __future__ import annotations

import html
import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT, nltk_data_dir, run_score
from registry_inputs import ONE, ONE_SUBMITTED, REF, SUBMITTED
from scorer.outputs.scores_files import NOT_ENTERED_HIGHER_IS_BETTER, NOT_ENTERED_LOWER_IS_BETTER
from scorer.outputs.verdict import DETAILED_RESULTS, FAILED
from scorer.tracks.registry import LOWER_IS_BETTER, TRACKS

KIT = ROOT / "starting_kit"
PLATFORM_FOLDERS = ("res/", "ref/", "input/")
OTHER = next(track for track in TRACKS if track is not ONE)
BROKEN = b"\xff\xfe not UTF-8\n"


def verdicts(stdout: str):
    return [line for line in stdout.splitlines() if line.startswith(FAILED)]


def assert_in_participant_words(*texts: str) -> None:
    for text in texts:
        for folder in PLATFORM_FOLDERS:
            assert folder not in text, (folder, text[-2000:])
        assert "Traceback" not in text


def page_text(run) -> str:
    return html.unescape((run.output / "detailed_results.html").read_text(encoding="utf-8"))


def test_a_failed_run_ends_with_one_verdict_that_gives_the_page_s_address(tmp_path):
    run = run_score(tmp_path, REF, {ONE.filename: BROKEN})
    assert run.returncode == 1
    assert verdicts(run.stdout) == [run.stdout.splitlines()[-1]], run.stdout
    assert DETAILED_RESULTS in run.stdout and "above" not in run.stdout  # no score was printed
    assert "not entered" not in run.stdout  # nothing of a failed submission reaches the board
    assert run.stderr.startswith(ONE.filename + ": ")
    assert_in_participant_words(run.stdout, run.stderr, page_text(run))


def test_the_verdict_speaks_of_the_scores_above_only_when_it_printed_some(tmp_path):
    run = run_score(tmp_path, REF, dict(ONE_SUBMITTED, **{OTHER.filename: BROKEN}))
    assert run.returncode == 1
    assert any(line.startswith(ONE.keys[0] + ": ") for line in run.stdout.splitlines()), run.stdout
    (line,) = verdicts(run.stdout)
    assert "the scores above" in line and "not entered" not in run.stdout
    page = page_text(run)
    assert page.index("This submission failed") < page.index("Problems") < page.index(ONE.title)


def test_a_misnamed_file_is_named_with_the_name_expected(tmp_path):
    misnamed = "my_" + ONE.filename
    run = run_score(tmp_path, REF, {misnamed: ONE_SUBMITTED[ONE.filename]})
    assert run.returncode == 1 and len(verdicts(run.stdout)) == 1 and "not entered" not in run.stdout
    lines = run.stderr.splitlines()
    assert lines and all(line.startswith("submission: ") for line in lines), lines
    assert misnamed in lines[0] and any(misnamed in line and line.endswith("expected " + ONE.filename)
                                        for line in lines[1:]), lines
    empty = run_score(tmp_path, REF, {})
    assert empty.returncode == 1 and empty.stderr.startswith("submission: ")
    for checked in (run, empty):
        assert_in_participant_words(checked.stdout, checked.stderr, page_text(checked))


def test_a_blind_phase_s_failure_has_the_same_verdict(tmp_path):
    run = run_score(tmp_path, dict(REF, **{"scoring_config.json": json.dumps({"blind": True})}),
                    dict(ONE_SUBMITTED, **{OTHER.filename: BROKEN}))
    assert run.returncode == 1
    assert verdicts(run.stdout) == [run.stdout.splitlines()[-1]] and "not entered" not in run.stdout
    assert "the scores above" not in run.stdout and run.stderr.startswith(OTHER.filename + ": ")


# --- the starting kit: its own verdict, the only one --------------------------------------------------

@pytest.fixture(scope="module")
def phase(tmp_path_factory) -> Path:
    """Every track's worked example as gold (``ref``) and its public inputs (``public``)."""
    base = tmp_path_factory.mktemp("messages")
    (base / "ref").mkdir()
    (base / "public").mkdir()
    for name, content in REF.items():
        (base / "ref" / name).parent.mkdir(parents=True, exist_ok=True)
        (base / "ref" / name).write_text(content, encoding="utf-8")
    for track in TRACKS:
        track.write_public_input(str(base / "ref"), str(base / "public"), track.filename)
    return base


def _zip(path: Path, files: dict) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return path


def _kit(tool: str, *arguments, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if nltk_data_dir() is not None:
        env.setdefault("NLTK_DATA", str(nltk_data_dir()))
    return subprocess.run([sys.executable, str(KIT / tool)] + [str(a) for a in arguments], capture_output=True,
                          text=True, cwd=str(cwd), env=env, timeout=300)


@pytest.mark.parametrize("case", ["misnamed", "one broken file"])
def test_the_kit_says_one_verdict_in_participant_words(phase, tmp_path, case):
    if case == "misnamed":
        files = {"my_" + ONE.filename: ONE_SUBMITTED[ONE.filename]}
    else:
        files = dict(SUBMITTED, **{OTHER.filename: BROKEN})
    submission = _zip(tmp_path / "submission.zip", files)
    checked = _kit("check_format.py", submission, "--public", phase / "public", cwd=tmp_path)
    scored = _kit("score_locally.py", submission, "--ref", phase / "ref", "--out", tmp_path / "out",
                  "--resamples", 0, cwd=tmp_path)
    for run in (checked, scored):
        assert run.returncode == 1, run.stderr
        said = (run.stdout + run.stderr).splitlines()
        assert [line for line in said if line.startswith("platform: ")] == [run.stderr.splitlines()[-1]], said
        assert not verdicts(run.stdout) and "not entered" not in run.stdout
        assert_in_participant_words(run.stdout, run.stderr)
    if case == "misnamed":
        assert "rename them" in checked.stderr.splitlines()[-1]
        assert all(line.startswith("submission: ") for line in checked.stderr.splitlines()[:-1]), checked.stderr
    else:
        assert "the scores above" not in checked.stdout + checked.stderr  # check_format prints no score
        assert OTHER.filename in checked.stderr.splitlines()[-1]


# --- a copy scored before the gold was attached --------------------------------------------------------

@pytest.mark.parametrize("kind", ["gold", "blind stand-in"])
def test_a_run_on_the_build_s_placeholder_tells_the_participant_what_happens_next(repository_build, tmp_path,
                                                                                  kind):
    from bundle.held_back import read_placeholder
    with zipfile.ZipFile(str(repository_build.out / "competition_bundle.zip")) as upload:
        nested = {name: upload.read(name) for name in upload.namelist() if name.endswith(".zip")}
    placeholders = {note["kind"]: data for note, data in ((read_placeholder(data), data) for data in nested.values())
                    if note is not None}
    with zipfile.ZipFile(io.BytesIO(placeholders[kind])) as archive:
        ref = {name: archive.read(name) for name in archive.namelist()}
    run = run_score(tmp_path, ref, ONE_SUBMITTED, items=True)
    assert run.returncode == 1  # failed: the organisers' attach-gold re-runs the failed copies
    public = run.stdout + run.stderr + page_text(run)
    if kind == "gold":
        assert "not attached yet" in run.stderr and "re-run" in run.stderr  # why it failed, and what happens next
    else:
        assert "not released yet" in run.stderr
    for organisers in ("held_back", "score.py", "--items", "organisers see", "reference data", "codabench.py"):
        assert organisers not in public, organisers
    assert_in_participant_words(public)
    assert "held_back.json" in (run.items / "problems.txt").read_text(encoding="utf-8")  # the local run's detail


# --- the pages --------------------------------------------------------------------------------------------

def test_the_pages_and_the_kit_readme_give_a_failed_submission_s_address(repository_build):
    with zipfile.ZipFile(str(repository_build.out / "competition_bundle.zip")) as upload:
        evaluation = html.unescape(upload.read("evaluation.html").decode("utf-8"))
        overview = html.unescape(upload.read("overview.html").decode("utf-8"))
    with zipfile.ZipFile(str(repository_build.out / "starting_kit.zip")) as kit:
        readme = kit.read("README.md").decode("utf-8")
    for text in (evaluation, readme):
        assert DETAILED_RESULTS in text and "ID #" in text and "My Submissions" in text
    assert "<code>%g</code>" % NOT_ENTERED_HIGHER_IS_BETTER in overview
    if LOWER_IS_BETTER:
        assert "<code>%d</code>" % NOT_ENTERED_LOWER_IS_BETTER in overview
