"""The zips of one competition: the upload for both platforms, its starting kit, and each later
phase's files, held back until they are due.

The upload holds the pages, the logo, both platforms' yamls and the nested zips: the scoring
program, each phase's reference data (with its ``scoring_config.json`` and the ids of the earlier
phases), the first phase's public data, starting kit and sample submission. A later phase's public
data and starting kit go to ``release_<folder>/``, its reference data too, with a placeholder in
the upload (``held_back.py``). ``--release-all`` puts every phase's public data and starting kit,
and a blind phase's stand-in, in the upload; a later phase's gold is held back all the same.
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
from typing import Any, Dict, List, Sequence, Tuple

from baselines import write_submission
from scorer.readers.options import CONFIG_NAME, OTHER_PHASES
from scorer.readers.problems import ReferenceDataError

from .checks.report import Report
from .competition import phase_folder, settings_name, sorted_phases
from .held_back import GOLD, GOLD_FOLDER, STAND_IN, placeholder
from .keys import V15_YAML, V2_YAML
from .kit import starting_kit
from .lifecycle import is_blind
from .pages import fill_page
from .paths import PAGES
from .platforms import edition, solution_name, v15_yaml, v2_yaml
from .public_data import derive_public_data, later_items_problems, public_ids
from .schedule import due_from, due_text
from .zips import folder_data, folder_entries, read_bytes, zip_bytes

UPLOAD = "competition_bundle.zip"
KIT_ZIP = "starting_kit.zip"


class BuildError(Exception):
    """An organiser's input the build cannot use: its lines name the place and the reason."""

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__(lines[0] if lines else "")
        self.lines = list(lines)


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


class PhaseInputs:
    """What participants get for each phase, made once per gold folder: ``public`` (folder -> public
    data files), ``samples`` (reference-data zip name -> sample submission zip), ``ids`` (the first
    phase label on a folder -> its public ids), ``label_of`` (folder -> that label)."""

    def __init__(self) -> None:
        self.public: Dict[str, Dict[str, bytes]] = {}
        self.samples: Dict[str, bytes] = {}
        self.ids: Dict[str, Dict[str, List[str]]] = {}
        self.label_of: Dict[str, str] = {}


def phase_inputs(phases: List[Dict[str, Any]], tracks: Sequence, reference_root: str, work: str) -> PhaseInputs:
    """Each phase's public data (derived from its gold) and sample submission (the baselines on it),
    written under ``work``; refused when an earlier phase's inputs hold a later phase's items."""
    inputs = PhaseInputs()
    for phase in phases:
        inputs.label_of.setdefault(phase_folder(phase), str(phase["label"]))
    for phase in phases:
        folder = phase_folder(phase)
        if folder in inputs.public:  # a phase on the gold of an earlier one: the same inputs and sample
            inputs.samples[phase["reference_data"]] = next(inputs.samples[other["reference_data"]] for other in phases
                                                           if phase_folder(other) == folder)
            continue
        public = os.path.join(work, "public", folder)
        try:
            derive_public_data(os.path.join(reference_root, folder), public, tracks)
        except ReferenceDataError as error:  # a track module's own reading of the gold
            raise BuildError(["phase %s: %s" % (phase["label"], line) for line in error.private or error.public])
        inputs.public[folder] = folder_data(public)
        inputs.ids[inputs.label_of[folder]] = public_ids(public, tracks)
        submission = os.path.join(work, "submission", folder)
        write_submission(public, submission)
        inputs.samples[phase["reference_data"]] = zip_bytes(folder_entries(submission), {})
    overlaps = later_items_problems([(inputs.label_of[phase_folder(phase)],
                                      os.path.join(reference_root, phase_folder(phase)),
                                      inputs.ids[inputs.label_of[phase_folder(phase)]]) for phase in phases], tracks)
    if overlaps:
        raise BuildError(overlaps)
    return inputs


def reference_data(upload: Upload, nested: Dict[str, bytes], shown: Dict[str, Any], inputs: PhaseInputs,
                   tracks: Sequence, reference_root: str, settings: Dict[str, bytes], release_all: bool,
                   work: str) -> None:
    """Each phase's reference data zip: the first phase's (and a blind stand-in public by choice) into
    ``nested``; a later phase's held back in ``upload``, with a placeholder in ``nested``."""
    phases = sorted_phases(shown)
    earlier: Dict[str, Dict[str, List[str]]] = {}
    for phase in phases:
        folder = phase_folder(phase)
        label = inputs.label_of[folder]
        extra = {CONFIG_NAME: settings[settings_name(phase)]} if settings_name(phase) in settings else {}
        # Earlier phases' ids only (they are public; Development predictions sent to the Test phase are
        # named as such); never a later phase's: one extra id in a submission would tell whether it is one.
        # A phase on the same gold (Evaluation, then Post-Evaluation) has the same ids: not another phase's.
        others = {other: ids for other, ids in earlier.items() if other != label}
        if others:
            extra[OTHER_PHASES] = (json.dumps(others, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
        earlier = dict(earlier, **{label: inputs.ids[label]})
        blind = is_blind(phase, settings)
        if blind:
            # A blind phase's reference data holds no gold: the stand-in of its public inputs (ids and texts,
            # no answers), which is all the scoring program reads there (scoring_program/scorer/outputs/blind.py).
            stand_in = os.path.join(work, "blind", settings_name(phase))
            for track in tracks:
                track.write_stand_in_gold(os.path.join(work, "public", folder), stand_in, track.filename)
            real = zip_bytes(folder_entries(stand_in), extra)
        else:
            for track in tracks:  # files made from the gold (nlu: its tokens, so a run need not tokenize it)
                extra.update(track.reference_data_extras(os.path.join(reference_root, folder)))
            real = zip_bytes(folder_entries(os.path.join(reference_root, folder)), extra)
        if folder == phase_folder(phases[0]) or (blind and release_all):
            nested[phase["reference_data"]] = real  # the first phase's data (or inputs public by choice)
            continue
        # a later phase's data: held back (bundle/held_back.py); a placeholder in the upload
        kind = STAND_IN if blind else GOLD
        where = "release_%s/%s%s" % (folder, "" if blind else GOLD_FOLDER + "/", phase["reference_data"])
        release = posixpath.join(upload.subfolder, where)  # under the build's output folder
        due = due_text(shown, phase, blind, release)
        upload.files[where] = real
        upload.held_back[phase["reference_data"]] = real
        upload.pending.append((str(phase["label"]), kind, where, due))
        nested[phase["reference_data"]] = placeholder(
            phase["reference_data"], str(phase["label"]), kind, release, due, due_from(shown, phase, blind).isoformat(),
            hashlib.sha256(real).hexdigest(), [track.name for track in tracks])


def public_data_and_kits(upload: Upload, nested: Dict[str, bytes], config: Dict[str, Any], phases: List[Dict[str, Any]],
                         inputs: PhaseInputs, kit: Dict[str, bytes], kit_zip: bytes, release_all: bool
                         ) -> List[Dict[str, Any]]:
    """Each phase's public data and starting kit (``kit``: the first phase's files, ``kit_zip`` their
    zip): in ``nested`` for the phases released with the upload (returned), under ``release_<folder>/``
    in ``upload`` for the others (the kit with that phase's inputs and sample submission)."""
    released = [phase for phase in phases if phase is phases[0] or release_all]
    for phase in phases:
        folder = phase_folder(phase)
        public_zip = zip_bytes({}, inputs.public[folder])
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
        phase_kit.update({"public_data/%s/%s" % (folder, name): data for name, data in inputs.public[folder].items()})
        phase_kit["%s_sample_submission.zip" % folder] = inputs.samples[phase["reference_data"]]
        upload.files[kit_name] = zip_bytes({}, phase_kit)
        upload.releases.append((str(phase["label"]), public_name, kit_name))
    return released


def upload_zip(shown: Dict[str, Any], config: Dict[str, Any], tracks: Sequence, nested: Dict[str, bytes],
               samples: Dict[str, bytes], released: List[Dict[str, Any]]) -> bytes:
    """The upload: the pages (the hosted tracks filled in), the logo, ``nested``, the released phases'
    sample submissions (Codabench's solutions) and both yamls, the v1.5 yaml first."""
    files: Dict[str, bytes] = {}
    for name in [shown["image"]] + list(shown["html"].values()):
        files[name] = read_bytes(os.path.join(PAGES, name))
        if name in shown["html"].values():  # the hosted tracks, from the registry (bundle/pages.py)
            files[name] = fill_page(files[name], tracks, config)
    files.update(nested)
    solutions = {phase["reference_data"]: solution_name(phase) for phase in released}
    for phase in released:
        files[solution_name(phase)] = samples[phase["reference_data"]]
    files[V15_YAML] = v15_yaml(shown).encode("utf-8")
    files[V2_YAML] = v2_yaml(shown, solutions).encode("utf-8")
    # Codalab v1.5 reads the first entry whose name contains ".yaml": the v1.5 yaml comes first
    return zip_bytes({}, files, first=(V15_YAML,))


def build_upload(config: Dict[str, Any], tracks: Sequence, reference_root: str, settings: Dict[str, bytes],
                 program: Dict[str, bytes], release_all: bool, track=None, work: str = "") -> Upload:
    """The zips of one competition (``track``: the per-track competition of that track)."""
    upload = Upload(track.name if track is not None else "")
    shown = edition(config, release_all, track)
    phases = sorted_phases(shown)
    first = phases[0]
    inputs = phase_inputs(phases, tracks, reference_root, work)
    nested: Dict[str, bytes] = {"scoring_program.zip": zip_bytes({}, program)}
    reference_data(upload, nested, shown, inputs, tracks, reference_root, settings, release_all, work)
    kit = starting_kit(tracks, program, os.path.join(reference_root, phase_folder(first)), phase_folder(first),
                       str(first["label"]), inputs.public[phase_folder(first)], inputs.samples[first["reference_data"]])
    kit_zip = zip_bytes({}, kit)
    released = public_data_and_kits(upload, nested, config, phases, inputs, kit, kit_zip, release_all)
    upload.files[UPLOAD] = upload_zip(shown, config, tracks, nested, inputs.samples, released)
    upload.files[KIT_ZIP] = kit_zip
    upload.samples = inputs.samples
    return upload
