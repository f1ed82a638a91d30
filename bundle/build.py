"""The build, stage by stage: read and validate the organiser's inputs, make every competition's zips
and the scorer's wheel, check each upload as both platforms use it, and only then move the files
into the output folder, so that a failed build leaves no zip there.

Each stage prints what it found (``phases:``, ``dates:``, ``note:``, ``check: ok:``); a refusal is a
``BuildError`` whose lines name the place and the reason.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from typing import Any, Dict, List, Sequence, Tuple

from scorer.tracks.registry import LOWER_IS_BETTER, TRACKS

from .checker import check_bundle
from .competition import competition_tracks, load_yaml, phase_folder, sorted_phases
from .gold import check_gold, left_out, stage_reference_data
from .lifecycle import lifecycle_lines, lifecycle_problems
from .links import same_folder_problems, tree_problems
from .organiser_steps import upload_line, written_lines
from .pages import pages_to_edit
from .paths import PAGES, PHASE_SETTINGS, PROGRAM, ROOT
from .platforms import ignored_keys
from .rules import validate
from .schedule import date_lines
from .settings import phase_settings
from .upload import KIT_ZIP, UPLOAD, BuildError, Upload, build_upload
from .vendor import VendorError, vendored_files
from .wheel import PACKAGE as WHEEL_PACKAGE, scorer_wheel
from .zips import folder_data


def clean_outputs(out_dir: str) -> None:
    """Remove what an earlier build wrote: a stale zip is no answer for a failed build."""
    if not os.path.isdir(out_dir):
        return
    for name in os.listdir(out_dir):
        path = os.path.join(out_dir, name)
        if name in (UPLOAD, KIT_ZIP) or (
                name.startswith(WHEEL_PACKAGE + "-") and name.endswith(".whl")) or (
                os.path.isdir(path) and (name.startswith("release_") or name in {t.name for t in TRACKS})):
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)


def build(reference_root: str, out_dir: str, cache: str, check: bool, python: List[str],
          release_all: bool = False, per_track: bool = False) -> int:
    """The command: 0 when every file was written, 1 (and the problems on stderr) otherwise."""
    clean_outputs(out_dir)
    try:
        uploads, wheel = built(reference_root, cache, check, python, release_all, per_track)
    except BuildError as error:
        for line in error.lines:
            print(line, file=sys.stderr)
        print("build: no zip was written to %s" % out_dir, file=sys.stderr)
        return 1
    write_outputs(uploads, wheel, out_dir)
    for upload in uploads:
        for line in written_lines(upload, out_dir):
            print(line)
    print("wrote %s (%d bytes, sha256 %s): the installable scorer (pip install it; docs/organisers.md, \"After the task\")"
          % (os.path.join(out_dir, wheel[0]), len(wheel[1]), hashlib.sha256(wheel[1]).hexdigest()))
    if check:
        for upload in uploads:
            print("check%s: %s" % (" (track %s)" % upload.subfolder if upload.subfolder else "", upload.report.summary()))
    for upload in uploads:
        print(upload_line(upload))
    return 0


def write_outputs(uploads: Sequence[Upload], wheel: Tuple[str, bytes], out_dir: str) -> None:
    """Every file of ``uploads`` and the wheel, written to a staging folder and moved into ``out_dir``."""
    os.makedirs(out_dir, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out_dir, prefix=".staging-") as staging:
        written = []
        for upload in uploads:
            for name, data in sorted(upload.files.items()):
                path = os.path.join(staging, upload.subfolder, name)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as handle:
                    handle.write(data)
                written.append(os.path.join(upload.subfolder, name))
        with open(os.path.join(staging, wheel[0]), "wb") as handle:
            handle.write(wheel[1])
        written.append(wheel[0])
        for relative in written:
            target = os.path.join(out_dir, relative)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.replace(os.path.join(staging, relative), target)


def read_competition(reference_root: str) -> Tuple[Dict[str, Any], Dict[str, bytes], List, List[Dict[str, Any]]]:
    """(config, settings, tracks, phases) of competition.yaml, phase_settings/ and the reference data,
    validated; the notes on gold left out and the phases' kinds printed."""
    _, config, problem = load_yaml(os.path.join(ROOT, "competition.yaml"))
    if problem:
        raise BuildError([problem])
    problems = validate(config, PAGES, reference_root, TRACKS, LOWER_IS_BETTER)
    if not problems:
        settings, problems = phase_settings(config, reference_root)
    if problems:
        raise BuildError(problems)
    tracks = competition_tracks(config, TRACKS)
    for line in left_out(config, reference_root, TRACKS):
        print("note: " + line)
    problems = lifecycle_problems(config, settings)
    if problems:
        raise BuildError(problems)
    phases = sorted_phases(config)
    # nothing read through a link out of the reference data, no pipe opened; no two phases on one folder
    problems = tree_problems(reference_root, "--reference-data %s" % reference_root) + same_folder_problems(
        reference_root, [(str(phase["label"]), phase_folder(phase)) for phase in phases])
    for folder in [f for f in (PAGES, PHASE_SETTINGS) if os.path.isdir(f)]:  # the repository's: no link out
        problems += tree_problems(folder, os.path.relpath(folder, ROOT), boundary=ROOT)
    if problems:
        raise BuildError(problems)
    for line in lifecycle_lines(config, settings):
        print("phases: " + line)
    return config, settings, tracks, phases


def scoring_program(cache: str) -> Dict[str, bytes]:
    """The scoring program's files as the upload ships them, the vendored nltk pieces included."""
    program = folder_data(PROGRAM)
    try:
        program.update(vendored_files(cache))
    except VendorError as error:
        raise BuildError(["build: %s" % error])
    return program


def built(reference_root: str, cache: str, check: bool, python: List[str], release_all: bool,
          per_track: bool) -> Tuple[List[Upload], Tuple[str, bytes]]:
    """Every competition's ``Upload`` (one, or one per track), checked unless ``check`` is false, and
    the scorer's wheel."""
    config, settings, tracks, phases = read_competition(reference_root)
    program = scoring_program(cache)
    wheel = scorer_wheel(program, config)
    for line in date_lines(config):
        print("dates: " + line)
    for line in ignored_keys(config):
        print("note: " + line)
    uploads = []
    with tempfile.TemporaryDirectory() as work:
        staged = os.path.join(work, "reference")
        stage_reference_data(reference_root, phases, tracks, staged)
        problems: List[str] = []
        for phase in {phase_folder(phase): phase for phase in reversed(phases)}.values():  # each gold once
            problems += check_gold(os.path.join(staged, phase_folder(phase)), tracks, str(phase["label"]),
                                   os.path.join(reference_root, phase_folder(phase)))
        if problems:
            raise BuildError(problems)
        editions = [(track, [track]) for track in tracks] if per_track else [(None, tracks)]
        for track, chosen in editions:
            # the pages and the title are the organiser's prose: say which lines count tracks not hosted
            for line in pages_to_edit(config, PAGES, chosen, TRACKS):
                print("note%s: %s" % (" (track %s)" % track.name if track else "", line))
            edition_work = os.path.join(work, track.name if track else "all")
            if track is not None:
                edition_ref = os.path.join(edition_work, "reference")
                stage_reference_data(staged, phases, chosen, edition_ref)
            else:
                edition_ref = staged
            upload = build_upload(config, chosen, edition_ref, settings, program, release_all, track, edition_work)
            uploads.append(upload)
            if check:
                check_upload(upload, chosen, python, release_all)
    return uploads, wheel


def check_upload(upload: Upload, tracks: Sequence, python: List[str], release_all: bool) -> None:
    """The checks of ``upload`` (``checker.check_bundle``), each passed one printed; a ``BuildError``
    naming the first problem when one failed."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, UPLOAD)
        with open(path, "wb") as handle:
            handle.write(upload.files[UPLOAD])
        check_bundle(path, upload.samples, python, upload.report, tracks, release_all, upload.held_back)
    prefix = "check%s: " % (" (track %s)" % upload.subfolder if upload.subfolder else "")
    for line in upload.report.lines:
        print(prefix + "ok: " + line)
    if upload.report.problems:
        for line in upload.report.problems:
            print(prefix + "FAILED: " + line, file=sys.stderr)
        count = len(upload.report.problems)
        raise BuildError(["build: the check failed (%d problem%s above; the first: %s); fix the reference "
                          "data, competition.yaml or phase_settings/ as the lines above say, then build "
                          "again" % (count, "" if count == 1 else "s", upload.report.problems[0].split("\n")[0])])
