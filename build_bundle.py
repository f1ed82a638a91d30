#!/usr/bin/env python3
"""Build the competition's upload (one zip for Codabench and Codalab v1.5), and check it the way the
platforms will use it.

    python3 build_bundle.py [--reference-data DIR] [--out dist] [--release-all] [--per-track] [--no-check]

1. validates competition.yaml (and phase_settings/) against the scoring program's tracks and both
   platforms' rules (bundle/rules.py; the table of every key is bundle/platforms.py's KEYS). The
   competition's tracks are those with a column in competition.yaml; gold of other tracks is left
   out, with a line saying so;
2. writes, reproducibly (same sources, same bytes):
   dist/competition_bundle.zip   the upload, for Codabench (it reads competition.yaml, a native
                                 version-2 yaml) and for self-hosted Codalab v1.5 (it reads the first
                                 .yaml entry, codalab_v1.5.yaml), with the pages, the logo and the
                                 nested zips (scoring program with the nltk files it loads vendored,
                                 reference data with the phase's scoring_config.json, the first phase's
                                 public data, starting kit and sample submission);
   dist/starting_kit.zip         the first phase's starting kit (also inside the upload);
   dist/release_<folder>/        for each later phase, what the organisers attach when it opens: its
                                 public data and a starting kit with its inputs and sample submission
                                 (held back from the upload: both platforms list every phase's files to
                                 participants from registration on). --release-all puts them in the
                                 upload instead;
   with --per-track, the same for each track alone in dist/<track>/ (one competition per track);
   dist/shared_task_scorer-<version>-py3-none-any.whl   the scoring program as an installable scorer
                                 (bundle/wheel.py: the command shared-task-score and score() in Python);
3. checks each upload: unpacks it as both platforms do and runs every phase's sample submission, a
   broken one and one single-track entry per track in both workers' layouts (bundle/checker.py).

A failed build leaves no zip in the output folder, whatever stage failed.

``--reference-data DIR`` holds one folder per phase (``dev/``, ``test/``: the ``<folder>`` of each
phase's ``<folder>_reference_data.zip``); it defaults to the sample gold in reference_data/.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import shutil
import sys
import tempfile
from typing import Any, Dict, List, Sequence, Tuple

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(ROOT, "scoring_program"))
sys.path.insert(0, os.path.join(ROOT, "starting_kit"))

import yaml  # noqa: E402

from bundle.checker import Report, check_bundle  # noqa: E402
from bundle.gold import check_gold  # noqa: E402
from bundle.held_back import GOLD_FOLDER, placeholder  # noqa: E402
from bundle.platforms import (V15_YAML, V2_YAML, competition_tracks, date_lines, edition, ignored_keys,  # noqa: E402
                              due_text, solution_name, sorted_phases, v15_yaml, v2_yaml)
from bundle.public_data import derive_public_data, later_items_problems, public_ids  # noqa: E402
from bundle.lifecycle import is_blind, lifecycle_lines, lifecycle_problems  # noqa: E402
from bundle.links import same_folder_problems, tree_problems  # noqa: E402
from bundle.rules import left_out, pages_to_edit, phase_folder, settings_name, validate  # noqa: E402
from bundle.kit import fill_template, generated_sections, sample_scores  # noqa: E402
from bundle.pages import fill_page  # noqa: E402
from bundle.vendor import VendorError, vendored_files  # noqa: E402
from bundle.wheel import PACKAGE as WHEEL_PACKAGE, build_wheel, program_version  # noqa: E402
from bundle.zips import folder_entries, is_junk, write_zip  # noqa: E402
from scorer.readers.options import CONFIG_NAME, OTHER_PHASES, load_options  # noqa: E402
from scorer.readers.problems import ReferenceDataError  # noqa: E402
from scorer.tracks.registry import LOWER_IS_BETTER, TRACKS  # noqa: E402

PAGES = os.path.join(ROOT, "pages")
PHASE_SETTINGS = os.path.join(ROOT, "phase_settings")
PROGRAM = os.path.join(ROOT, "scoring_program")
KIT = os.path.join(ROOT, "starting_kit")
KIT_FILES = ("README.md", "README.ipynb", "baselines.py", "score_locally.py", "staging.py", "check_format.py")
UPLOAD = "competition_bundle.zip"
KIT_ZIP = "starting_kit.zip"


class BuildError(Exception):
    """An organiser's input the build cannot use: its lines name the place and the reason."""

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__(lines[0] if lines else "")
        self.lines = list(lines)


def _zip_bytes(entries: Dict[str, str], data: Dict[str, bytes], first: Tuple[str, ...] = ()) -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "x.zip")
        write_zip(path, entries, data.items(), first=first)
        with open(path, "rb") as handle:
            return handle.read()


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _folder_data(folder: str, prefix: str = "") -> Dict[str, bytes]:
    return {name: _read(path) for name, path in folder_entries(folder, prefix).items()}


def broken_submission(tracks: Sequence = TRACKS) -> bytes:
    """A submission every phase must refuse, whatever the track's format: the first track's file
    holding bytes that are not UTF-8 (every reader refuses them)."""
    return _zip_bytes({}, {tracks[0].filename: b"\xff\xfe not UTF-8 \xc3\x28\n"})


def phase_settings(config, reference_root: str) -> Tuple[Dict[str, bytes], List[str]]:
    """Each phase's scoring_config.json (from phase_settings/<name>.json, ``rules.settings_name``: the
    name of its reference data), checked by the scorer."""
    settings: Dict[str, bytes] = {}
    problems: List[str] = []
    for phase in config["phases"].values():
        folder, name = phase_folder(phase), settings_name(phase)
        source = os.path.join(PHASE_SETTINGS, "%s.json" % name)
        if os.path.isfile(os.path.join(reference_root, folder, CONFIG_NAME)):
            problems.append("%s: %s is set in phase_settings/%s.json; remove the copy in the reference data"
                            % (os.path.join(reference_root, folder), CONFIG_NAME, name))
        if not os.path.isfile(source):
            continue
        with tempfile.TemporaryDirectory() as staged:
            shutil.copyfile(source, os.path.join(staged, CONFIG_NAME))
            try:
                load_options(PROGRAM, staged)
            except ReferenceDataError as error:
                problems.extend(line.replace(os.path.join(staged, CONFIG_NAME), source) for line in error.public)
                continue
        settings[name] = _read(source)
    return settings, problems


class _Loader(yaml.SafeLoader):
    """yaml's safe loader, whose dates and integers that cannot be values (``2027-02-30``, hour 25,
    an integer of more digits than Python converts) are errors naming their place, as syntax
    errors are, rather than a ValueError from deep inside the constructor."""


def _checked(construct, what: str):
    def constructor(loader, node):
        try:
            return construct(loader, node)
        except (ValueError, OverflowError) as error:
            reason = str(error).split(":")[0] if "digits" in str(error) else str(error)
            raise yaml.constructor.ConstructorError(
                None, None, "%s is not %s (%s)" % (str(node.value)[:40] + ("..." if len(str(node.value)) > 40 else ""),
                                                     what, reason), node.start_mark) from None
    return constructor


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _checked(yaml.SafeLoader.construct_yaml_timestamp,
                                                                 "a date or time that exists"))
_Loader.add_constructor("tag:yaml.org,2002:int", _checked(yaml.SafeLoader.construct_yaml_int,
                                                           "an integer Python reads"))


def load_yaml(path: str) -> Tuple[str, Any, str]:
    """(text, value, problem) of competition.yaml; the problem is one line naming the place."""
    data = _read(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[:error.start]
        line = before.count(b"\n") + 1
        column = error.start - (before.rfind(b"\n") + 1) + 1
        return "", None, ("competition.yaml: line %d, column %d: byte 0x%02x is not UTF-8; save the file as UTF-8 "
                          "(both platforms read it as UTF-8)" % (line, column, data[error.start]))
    try:
        return text, yaml.load(text, Loader=_Loader), ""
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = "line %d, column %d: " % (mark.line + 1, mark.column + 1) if mark else ""
        line = text.split("\n")[mark.line] if mark and mark.line < text.count("\n") + 1 else ""
        key = line.split(":")[0].strip().lstrip("- ")
        if isinstance(error, yaml.constructor.ConstructorError) and key:
            hint = "%s: %s" % (key[:60], error.problem)
        else:
            hint = ("YAML indents with spaces only; replace the TAB character(s) on that line with spaces"
                    if "\t" in line or "\t" in str(getattr(error, "problem", "")) else
                    "not valid YAML (%s)" % getattr(error, "problem", error))
        return text, None, "competition.yaml: %s%s" % (where, hint)


def stage_reference_data(reference_root: str, phases: Sequence[Dict[str, Any]], tracks: Sequence,
                         staged_root: str) -> None:
    """Each phase's reference folder without the gold of tracks outside the competition."""
    others = [track for track in TRACKS if track not in tracks]
    for phase in phases:
        folder = phase_folder(phase)
        source = os.path.join(reference_root, folder)
        left = {os.path.normpath(os.path.join(source, name)) for track in others
                for name in track.gold_names + ((track.test_input,) if track.test_input else ())}
        target = os.path.join(staged_root, folder)
        if os.path.isdir(target):  # a phase on the gold of an earlier one
            continue
        os.makedirs(target)
        for name in sorted(os.listdir(source)):
            path = os.path.join(source, name)
            if os.path.normpath(path) in left or is_junk(name):
                continue
            if os.path.isdir(path):
                shutil.copytree(path, os.path.join(target, name))
            else:
                shutil.copyfile(path, os.path.join(target, name))


class Upload:
    """One competition's outputs: the upload, its starting kit and the held-back releases."""

    def __init__(self, subfolder: str) -> None:
        self.subfolder = subfolder  # "" or the track's name
        self.files: Dict[str, bytes] = {}  # path relative to the output folder -> bytes
        self.report = Report()
        self.releases: List[Tuple[str, str, str]] = []  # (phase label, public data zip, starting kit zip)
        self.samples: Dict[str, bytes] = {}
        # reference-data zip name -> the real zip of a later phase, held back (a placeholder in the upload)
        self.held_back: Dict[str, bytes] = {}
        # (phase label, what, path under the competition's output folder, when it is due)
        self.pending: List[Tuple[str, str, str, str]] = []


def build_upload(config: Dict[str, Any], tracks: Sequence, reference_root: str, settings: Dict[str, bytes],
                 program: Dict[str, bytes], release_all: bool, track=None, work: str = "") -> Upload:
    """The zips of one competition (``track``: the per-track competition of that track)."""
    upload = Upload(track.name if track is not None else "")
    shown = edition(config, release_all, track)
    phases = sorted_phases(shown)
    first = phases[0]
    label_of: Dict[str, str] = {}  # gold folder -> the first phase on it
    for phase in phases:
        label_of.setdefault(phase_folder(phase), str(phase["label"]))
    nested: Dict[str, bytes] = {"scoring_program.zip": _zip_bytes({}, program)}
    from baselines import write_submission
    public_of: Dict[str, Dict[str, bytes]] = {}
    samples: Dict[str, bytes] = {}
    ids_of_phase: Dict[str, Dict[str, List[str]]] = {}
    for phase in phases:
        folder = phase_folder(phase)
        if folder in public_of:  # a phase on the gold of an earlier one: the same inputs and sample
            samples[phase["reference_data"]] = next(samples[other["reference_data"]] for other in phases
                                                    if phase_folder(other) == folder)
            continue
        public = os.path.join(work, "public", folder)
        try:
            derive_public_data(os.path.join(reference_root, folder), public, tracks)
        except ReferenceDataError as error:  # a track module's own reading of the gold
            raise BuildError(["phase %s: %s" % (phase["label"], line) for line in error.private or error.public])
        public_of[folder] = _folder_data(public)
        ids_of_phase[label_of[folder]] = public_ids(public, tracks)
        submission = os.path.join(work, "submission", folder)
        write_submission(public, submission)
        samples[phase["reference_data"]] = _zip_bytes(folder_entries(submission), {})
    overlaps = later_items_problems([(label_of[phase_folder(phase)], os.path.join(reference_root, phase_folder(phase)),
                                      ids_of_phase[label_of[phase_folder(phase)]]) for phase in phases], tracks)
    if overlaps:
        raise BuildError(overlaps)
    earlier: Dict[str, Dict[str, List[str]]] = {}
    for phase in phases:
        folder = phase_folder(phase)
        extra = {CONFIG_NAME: settings[settings_name(phase)]} if settings_name(phase) in settings else {}
        # Earlier phases' ids only (they are public; Development predictions sent to the Test phase are
        # named as such); never a later phase's: one extra id in a submission would tell whether it is one.
        # A phase on the same gold (Evaluation, then Post-Evaluation) has the same ids: not another phase's.
        others = {label: ids for label, ids in earlier.items() if label != label_of[folder]}
        if others:
            extra[OTHER_PHASES] = (json.dumps(others, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
        earlier = dict(earlier, **{label_of[folder]: ids_of_phase[label_of[folder]]})
        blind = is_blind(phase, settings)
        if blind:
            # A blind phase's reference data holds no gold: the stand-in of its public inputs (ids and texts,
            # no answers), which is all the scoring program reads there (scoring_program/scorer/outputs/blind.py).
            stand_in = os.path.join(work, "blind", settings_name(phase))
            for track in tracks:
                track.write_stand_in_gold(os.path.join(work, "public", folder), stand_in, track.filename)
            real = _zip_bytes(folder_entries(stand_in), extra)
        else:
            for track in tracks:  # files made from the gold (nlu: its tokens, so a run need not tokenize it)
                extra.update(track.reference_data_extras(os.path.join(reference_root, folder)))
            real = _zip_bytes(folder_entries(os.path.join(reference_root, folder)), extra)
        if folder == phase_folder(first) or (blind and release_all):
            nested[phase["reference_data"]] = real  # the first phase's data (or inputs public by choice)
            continue
        # a later phase's data: held back (bundle/held_back.py); a placeholder in the upload
        kind = "blind stand-in" if blind else "gold"
        where = "release_%s/%s%s" % (folder, "" if blind else GOLD_FOLDER + "/", phase["reference_data"])
        due = due_text(shown, phase, blind, where)
        upload.files[where] = real
        upload.held_back[phase["reference_data"]] = real
        upload.pending.append((str(phase["label"]), kind, where, due))
        nested[phase["reference_data"]] = placeholder(phase["reference_data"], str(phase["label"]), kind, where, due)
    first_folder = phase_folder(first)
    kit = {name: _read(os.path.join(KIT, name)) for name in KIT_FILES}
    expected = sample_scores(PROGRAM, os.path.join(reference_root, first_folder), samples[first["reference_data"]])
    kit["README.md"] = (fill_template(kit["README.md"].decode("utf-8"), tracks)
                        + generated_sections(tracks, expected, str(first["label"]))).encode("utf-8")
    kit.update({"scoring_program/" + name: data for name, data in program.items()})
    kit.update({"public_data/%s/%s" % (first_folder, name): data for name, data in public_of[first_folder].items()})
    kit["sample_submission.zip"] = samples[first["reference_data"]]
    kit_zip = _zip_bytes({}, kit)
    released = [phase for phase in phases if phase is first or release_all]
    for phase in phases:
        folder = phase_folder(phase)
        public_zip = _zip_bytes({}, public_of[folder])
        original = config["phases"][next(key for key, value in config["phases"].items()
                                         if value["phasenumber"] == phase["phasenumber"])]
        if phase in released:
            if "public_data" in phase:
                nested[phase["public_data"]] = public_zip
            if "starting_kit" in phase:
                nested[phase["starting_kit"]] = kit_zip
            continue
        # held back: what the organisers attach when the phase opens
        release = "release_%s/" % folder
        public_name = release + original.get("public_data", "%s_public_data.zip" % folder)
        kit_name = release + original.get("starting_kit", KIT_ZIP)
        upload.files[public_name] = public_zip
        phase_kit = dict(kit)
        phase_kit.update({"public_data/%s/%s" % (folder, name): data for name, data in public_of[folder].items()})
        phase_kit["%s_sample_submission.zip" % folder] = samples[phase["reference_data"]]
        upload.files[kit_name] = _zip_bytes({}, phase_kit)
        upload.releases.append((str(phase["label"]), public_name, kit_name))
    files: Dict[str, bytes] = {}
    for name in [shown["image"]] + list(shown["html"].values()):
        files[name] = _read(os.path.join(PAGES, name))
        if name in shown["html"].values():  # the hosted tracks, from the registry (bundle/pages.py)
            files[name] = fill_page(files[name], tracks, config)
    files.update(nested)
    solutions = {phase["reference_data"]: solution_name(phase) for phase in released}
    for phase in released:
        files[solution_name(phase)] = samples[phase["reference_data"]]
    files[V15_YAML] = v15_yaml(shown).encode("utf-8")
    files[V2_YAML] = v2_yaml(shown, solutions).encode("utf-8")
    # Codalab v1.5 reads the first entry whose name contains ".yaml": the v1.5 yaml comes first
    upload.files[UPLOAD] = _zip_bytes({}, files, first=(V15_YAML,))
    upload.files[KIT_ZIP] = kit_zip
    upload.samples = samples
    return upload


def _clean(out_dir: str) -> None:
    """Remove what an earlier build wrote: a stale zip is no answer for a failed build."""
    if not os.path.isdir(out_dir):
        return
    for name in os.listdir(out_dir):
        path = os.path.join(out_dir, name)
        if name in (UPLOAD, KIT_ZIP, "codabench_bundle.zip") or (
                name.startswith(WHEEL_PACKAGE + "-") and name.endswith(".whl")) or (
                os.path.isdir(path) and (name.startswith("release_") or name in {t.name for t in TRACKS})):
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)


def build(reference_root: str, out_dir: str, cache: str, check: bool, python: List[str],
          release_all: bool = False, per_track: bool = False) -> int:
    _clean(out_dir)
    try:
        uploads, wheel = _build(reference_root, cache, check, python, release_all, per_track)
    except BuildError as error:
        for line in error.lines:
            print(line, file=sys.stderr)
        print("build: no zip was written to %s" % out_dir, file=sys.stderr)
        return 1
    # Written to a staging folder and moved into out_dir only when everything passed.
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
    for upload in uploads:
        _print_outputs(upload, out_dir)
    print("wrote %s (%d bytes, sha256 %s): the installable scorer (pip install it; docs/organisers.md, \"After the task\")"
          % (os.path.join(out_dir, wheel[0]), len(wheel[1]), hashlib.sha256(wheel[1]).hexdigest()))
    if check:
        for upload in uploads:
            print("check%s: %s" % (" (track %s)" % upload.subfolder if upload.subfolder else "", upload.report.summary()))
    for upload in uploads:
        print(upload_line(upload))
    return 0


def _print_outputs(upload: Upload, out_dir: str) -> None:
    base = os.path.join(out_dir, upload.subfolder)
    held = {where for _, _, where, _ in upload.pending}
    for name in sorted(upload.files):
        path = os.path.join(base, name)
        digest = hashlib.sha256(upload.files[name]).hexdigest()
        if name == UPLOAD:
            where = ("upload to Codabench (codabench.org: it reads competition.yaml), or to a self-hosted "
                     "Codalab v1.5 (it reads %s)" % V15_YAML)
        elif name == KIT_ZIP:
            where = "for participants (also inside the upload)"
        elif name in held:
            where = "held back: %s (below)" % _when(next(due for _, _, w, due in upload.pending if w == name))
        else:
            where = "held back: attach it when its phase opens (below)"
        print("wrote %s (%d bytes, sha256 %s): %s" % (path, len(upload.files[name]), digest, where))
    for line in organiser_steps(upload, out_dir):
        print(line)


def organiser_steps(upload: Upload, out_dir: str) -> List[str]:
    """The organiser's steps for one competition, in order, each with when it is run."""
    base = os.path.join(out_dir, upload.subfolder)
    short = os.path.relpath(base) if not os.path.relpath(base).startswith("..") else base
    lines = ["steps%s, in order (Codabench by command; Codalab v1.5: the same files at the same times in the phase "
             "editor's Public data, Starting kit and Reference data fields):"
             % (" (track %s)" % upload.subfolder if upload.subfolder else ""),
             "  now: .venv/bin/python codabench.py upload %s, then codabench.py publish COMPETITION"
             % shlex.quote(os.path.join(short, UPLOAD))]
    blind_due = {label: due for label, kind, _, due in upload.pending if kind == "blind stand-in"}
    for label, public, kit in upload.releases:
        folder = os.path.join(short, os.path.dirname(public))
        what = "public data, starting kit" + (" and reference data (the blind stand-in, no answers)"
                                              if label in blind_due else "")
        lines.append("  when phase %s opens: .venv/bin/python codabench.py release COMPETITION %s %s/   (%s)"
                     % (label, shlex.quote(label), shlex.quote(folder), what))
    for label, kind, where, due in upload.pending:
        if kind == "gold":
            when, command = _when(due), due[len(_when(due)) + 2:]
            lines.append("  %s: .venv/bin/python %s" % (when, command.replace("dist/" + where, shlex.quote(
                os.path.join(short, where)))))
    return lines


def _when(due: str) -> str:
    """The when of a held-back zip's due text (``bundle.platforms.due_text``)."""
    return due.split(": codabench.py", 1)[0]


def upload_line(upload: Upload) -> str:
    """The build's last line for one competition: what the upload holds and what is still owed."""
    prefix = "upload%s: " % (" (track %s)" % upload.subfolder if upload.subfolder else "")
    if not upload.pending and not upload.releases:
        return prefix + "%s holds every phase's data; nothing is owed" % UPLOAD
    owed = ["%s's %s %s" % (label, kind, _when(due)) for label, kind, _, due in upload.pending]
    owed += ["%s's public data and starting kit when it opens" % label for label, _, _ in upload.releases
             if not any(label == other and kind == "blind stand-in" for other, kind, _, _ in upload.pending)]
    return prefix + ("%s holds the first phase's data and, for each later phase, a placeholder; owed on the "
                     "platform by the steps above: %s" % (UPLOAD, "; ".join(owed)))


def scorer_wheel(program: Dict[str, bytes], config: Dict[str, Any]) -> Tuple[str, bytes]:
    """(file name, bytes) of the installable scorer made from ``program`` (the upload's scoring
    program, vendored nltk included), versioned as its signatures are."""
    return build_wheel(program, program_version(program), str(config["title"]), [track.name for track in TRACKS])


def _build(reference_root: str, cache: str, check: bool, python: List[str], release_all: bool,
           per_track: bool) -> Tuple[List[Upload], Tuple[str, bytes]]:
    yaml_text, config, problem = load_yaml(os.path.join(ROOT, "competition.yaml"))
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
    program = _folder_data(PROGRAM)
    try:
        program.update(vendored_files(cache))
    except VendorError as error:
        raise BuildError(["build: %s" % error])
    wheel = scorer_wheel(program, config)
    for line in date_lines(config):
        print("dates: " + line)
    for line in ignored_keys(config):
        print("note: " + line)
    uploads = []
    with tempfile.TemporaryDirectory() as work:
        staged = os.path.join(work, "reference")
        stage_reference_data(reference_root, phases, tracks, staged)
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
                with tempfile.TemporaryDirectory() as folder:
                    path = os.path.join(folder, UPLOAD)
                    with open(path, "wb") as handle:
                        handle.write(upload.files[UPLOAD])
                    check_bundle(path, upload.samples, broken_submission(chosen), python, upload.report, chosen,
                                 release_all, upload.held_back)
                prefix = "check%s: " % (" (track %s)" % track.name if track else "")
                for line in upload.report.lines:
                    print(prefix + "ok: " + line)
                if upload.report.problems:
                    for line in upload.report.problems:
                        print(prefix + "FAILED: " + line, file=sys.stderr)
                    count = len(upload.report.problems)
                    raise BuildError(["build: the check failed (%d problem%s above; the first: %s); fix the reference "
                                      "data, competition.yaml or phase_settings/ as the lines above say, then build "
                                      "again" % (count, "" if count == 1 else "s",
                                                 upload.report.problems[0].split("\n")[0])])
    return uploads, wheel


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference-data", default=os.path.join(ROOT, "reference_data"),
                        help="one folder per phase (default: the sample gold in reference_data/)")
    parser.add_argument("--out", default=os.path.join(ROOT, "dist"))
    parser.add_argument("--cache", default=os.path.join(ROOT, "build", "wheels"),
                        help="where downloaded wheels are kept")
    parser.add_argument("--release-all", action="store_true",
                        help="put every phase's public data, starting kit and sample submission in the upload "
                             "(for competitions whose test inputs are public anyway)")
    parser.add_argument("--per-track", action="store_true",
                        help="one competition per track: dist/<track>/competition_bundle.zip, each ranked by its "
                             "track's primary score")
    parser.add_argument("--no-check", action="store_true", help="build only")
    parser.add_argument("--python", default=shutil.which("python3") or sys.executable,
                        help="the interpreter the check runs the scoring program with (as -I -S)")
    args = parser.parse_args(argv)
    return build(os.path.abspath(args.reference_data), os.path.abspath(args.out), args.cache,
                 not args.no_check, [args.python, "-I", "-S"], args.release_all, args.per_track)


if __name__ == "__main__":
    sys.exit(main())
