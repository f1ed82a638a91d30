"""What every track meets beyond its own format (``scorer/tracks/contract.py``), one registry test a
point, each failing with a line that names the track's module and the rule: its name is its
module's, the error analysis shows every track or says why not, the stand-in gold makes its own
folder, files are recognised by their names only (a README or notes beside them are no misnamed
file), a Development submission given to the Evaluation phase is named as such (with ids, or the
items' content ids of a track without ids, or a note where only the count tells), and the scores'
scale.

The inputs are the repository's sample gold (``reference_data/``, which each module writes) and
each module's own baseline: a new track is in every test here without an edit."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scoring_program"))

from scorer.readers.options import OTHER_PHASES, Options  # noqa: E402
from scorer.readers.problems import SubmissionError  # noqa: E402
from scorer.tracks.registry import TRACKS  # noqa: E402

pytestmark = pytest.mark.registry

NAMES = [track.name for track in TRACKS]
DEV, TEST = ROOT / "reference_data" / "dev", ROOT / "reference_data" / "test"


def _track(name):
    return next(track for track in TRACKS if track.name == name)


def _public_and_baseline(track, gold: Path, work: Path, seed: int = 42):
    """The track's public inputs of ``gold`` and its baseline predictions on them (its own functions)."""
    public, predictions = work / "public", work / "predictions"
    public.mkdir(parents=True, exist_ok=True)
    predictions.mkdir(parents=True, exist_ok=True)
    written = track.write_public_input(str(gold), str(public), track.filename)
    missing = [name for name in written if not (public / name).exists()]
    assert written and not missing, "%s: write_public_input returned %s, names of no file it wrote in public_dir " \
        "(scorer/tracks/contract.py, write_public_input)" % (track.module_path, missing or written)
    track.write_baseline(str(public), str(predictions), track.filename, seed=seed)
    return public, predictions / track.filename


def assert_shows_its_items_or_says_why_not(page: str, track) -> None:
    """The error analysis's section of ``track``: its worst items, or the note naming what the track
    does not declare (contract, ``score``'s ``item_view`` and ``item_error``: both optional)."""
    assert '<h2 id="%s">' % track.name in page, "%s: the error analysis page has no section for it" % track.module_path
    section = page.split('<h2 id="%s">' % track.name, 1)[1].split("<h2 ", 1)[0]
    said = [note for note in ("<h3>item ", "No item has an error", "gives no view of an item",
                              "gives no error of an item") if note in section]
    assert said, "%s: the error analysis shows none of its items and does not say why" % track.module_path


@pytest.mark.parametrize("name", NAMES)
def test_a_tracks_name_is_its_modules(name):
    """Contract, ``NAME``: the registry lists modules, and everything else (outputs, leaderboards,
    the card beside the module) knows the track by the same name."""
    track = _track(name)
    assert track.name == track.module_name, "%s: NAME is %r, not the module's name %r (scorer/tracks/contract.py, " \
        "NAME)" % (track.module_path, track.name, track.module_name)


@pytest.mark.parametrize("name", NAMES)
def test_the_error_analysis_shows_every_track_or_says_why_not(tmp_path, name):
    from scorer.outputs.error_analysis import render_error_analysis
    track = _track(name)
    _, prediction = _public_and_baseline(track, DEV, tmp_path)
    result = track.score(track.find_gold(str(DEV)), str(prediction), track.filename, Options(), str(DEV))
    assert_shows_its_items_or_says_why_not(render_error_analysis([result]), track)


@pytest.mark.parametrize("name", NAMES)
def test_the_stand_in_gold_makes_its_folder(tmp_path, name):
    track = _track(name)
    public, _ = _public_and_baseline(track, DEV, tmp_path)
    target = tmp_path / "not" / "yet"
    try:
        written = track.write_stand_in_gold(str(public), str(target), track.filename)
    except OSError as error:
        raise AssertionError("%s: write_stand_in_gold into a folder that does not exist yet: %s"
                             % (track.module_path, error))
    assert written and track.find_gold(str(target)), "%s: write_stand_in_gold wrote no gold find_gold finds" \
        % track.module_path


# The names participants put beside their files (README, notes), with every extension of the registry's files.
NOTES = sorted({"README.txt", "README.md"} | {stem + (os.path.splitext(track.filename)[1] or ".txt")
                                             for track in TRACKS for stem in ("README", "notes")})


def _taken_for_the_tracks_file(track, res: Path):
    """The notices of ``locate_submission`` that take a README or notes (``NOTES``) beside ``track``'s
    file in ``res`` for a misnamed copy of it (the track alone in the phase: a guess can only name its
    file). The notes are written into ``res``."""
    from scorer.run.submission import locate_submission
    res.mkdir(parents=True, exist_ok=True)
    for extra in NOTES:
        if extra != track.filename:
            (res / extra).write_text("my notes\n", encoding="utf-8")
    located = locate_submission(str(res), [track])
    assert track.filename in located.files, "%s: %s not found" % (track.module_path, track.filename)
    return [notice for notice in located.notices if "; expected " in notice]


@pytest.mark.parametrize("name", NAMES)
def test_files_are_recognised_by_the_registrys_names_only(tmp_path, name):
    """Contract, ``FILE_NAME``: the track's file is found by its name, and a README or notes beside it
    (any extension of the registry's files) are ignored without being taken for a misnamed copy of
    it (``check_format.py`` would exit 1): its stem is not near theirs."""
    track = _track(name)
    _, prediction = _public_and_baseline(track, DEV, tmp_path)
    res = tmp_path / "res"
    res.mkdir()
    os.replace(str(prediction), str(res / track.filename))
    guessed = _taken_for_the_tracks_file(track, res)
    assert not guessed, ("%s: FILE_NAME %r is near the names participants put beside their files, which are then "
                         "taken for a misnamed copy of it (scorer/tracks/contract.py, FILE_NAME): %s; choose a "
                         "name whose stem is further from README and notes" % (track.module_path, track.filename,
                                                                                guessed))


def test_check_format_accepts_a_readme_beside_every_tracks_file(tmp_path):
    """The kit's check and the platform's scoring agree on a zip of every track's baseline with a
    README.txt and notes beside them: both exit 0 (the same rule: ``locate_submission``)."""
    from bundle.public_data import derive_public_data
    from baselines import write_submission
    derive_public_data(str(DEV), str(tmp_path / "public_data" / "dev"))
    write_submission(str(tmp_path / "public_data" / "dev"), str(tmp_path / "predictions"))
    for track in TRACKS:
        (tmp_path / track.name).mkdir()
        (tmp_path / track.name / track.filename).write_text("", encoding="utf-8")
    at_fault = [track.module_path for track in TRACKS if _taken_for_the_tracks_file(track, tmp_path / track.name)]
    assert not at_fault, "the notes beside the files are taken for misnamed files of %s (contract, FILE_NAME)" % at_fault
    archive = tmp_path / "submission.zip"
    with zipfile.ZipFile(str(archive), "w") as handle:
        for path in sorted((tmp_path / "predictions").rglob("*")):
            if path.is_file():
                handle.write(str(path), str(path.relative_to(tmp_path / "predictions")))
        for extra in NOTES:
            handle.writestr(extra, "my notes\n")
    process = subprocess.run([sys.executable, str(ROOT / "starting_kit" / "check_format.py"), str(archive),
                              "--public", str(tmp_path / "public_data" / "dev")],
                             capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stdout + process.stderr


@pytest.mark.parametrize("name", NAMES)
def test_predictions_for_another_phase_are_named_as_such(tmp_path, name):
    """A track's Development baseline scored in the Evaluation phase (whose reference data lists the
    Development inputs' ids, as the build writes them): its first problem line names the phase,
    whether its items have ids or only content ids (``records.content_id``); a track whose
    predictions carry neither ids nor inputs, given as many as the phase has, is scored with a note
    naming the phase it cannot tell them from (``records.check_item_count``)."""
    import json
    import shutil
    track = _track(name)
    dev_public, prediction = _public_and_baseline(track, DEV, tmp_path / "dev")
    ref = tmp_path / "ref"
    shutil.copytree(str(TEST), str(ref))
    ids = track.public_ids(str(dev_public), track.filename)
    assert ids, "%s: public_ids gives no ids of its public inputs (a track without ids gives content ids)" \
        % track.module_path
    (ref / OTHER_PHASES).write_text(json.dumps({"public_data/dev": {track.filename: ids}}), encoding="utf-8")
    try:
        result = track.score(track.find_gold(str(ref)), str(prediction), track.filename, Options(), str(ref))
    except SubmissionError as error:
        first = error.lines[0]
    else:
        assert any("public_data/dev" in note for note in result.notes), (
            "%s: a Development submission was scored against the Evaluation gold, and its result's notes do not "
            "say that predictions for the public_data/dev phase cannot be told from this phase's (contract, score; "
            "records.check_item_count)" % track.module_path)
        return
    assert "public_data/dev" in first, \
        "%s: the first problem line does not name the other phase: %s" % (track.module_path, first)


@pytest.mark.parametrize("name", NAMES)
def test_the_scores_scale(tmp_path, name):
    """Scores are fractions in [0, 1]; a lower-is-better key is an error >= 0 (contract, ``KEYS``)."""
    track = _track(name)
    for seed, gold in ((42, DEV), (7, TEST)):
        _, prediction = _public_and_baseline(track, gold, tmp_path / str(seed), seed)
        result = track.score(track.find_gold(str(gold)), str(prediction), track.filename, Options(), str(gold))
        for key, value in result.scores.items():
            assert isinstance(value, float) and math.isfinite(value), "%s: %s is %r" % (track.module_path, key, value)
            if key in track.lower_is_better:
                assert value >= 0, "%s: %s = %r, an error below 0" % (track.module_path, key, value)
            else:
                assert 0 <= value <= 1, "%s: %s = %r, not a fraction in [0, 1]" % (track.module_path, key, value)
