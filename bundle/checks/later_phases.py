"""The phases after the first, held back from the upload until they open.

Both platforms list every phase's public data and starting kit, Codabench also the tasks'
solutions, to participants from registration (codabench ``src/static/riot/competitions/detail/_tabs.tag``,
v1.5 ``templates/web/competitions/_get_starting_kit.html``): the upload holds nothing of a later
phase, and its reference data is a placeholder (``bundle/held_back.py``).
"""

from __future__ import annotations

import io
import json
import zipfile

from scorer.readers.options import OTHER_PHASES

from ..competition import sorted_phases
from ..held_back import read_placeholder
from ..keys import V15_YAML, V2_YAML
from .checked_upload import CheckedUpload
from .report import Report


def check_later_phases_held_back(upload: CheckedUpload, report: Report) -> None:
    """Nothing of a phase after the first in the upload (unless ``release_all``), no entry that neither
    yaml names, and no phase's reference data naming the ids of a later phase."""
    config, v2, release_all = upload.v15, upload.v2, upload.release_all
    phases = sorted_phases(config)
    named = {V15_YAML, V2_YAML, config.get("image"), v2.get("terms")} | set((config.get("html") or {}).values())
    for phase in phases:
        named |= {phase[field] for field in ("scoring_program", "reference_data", "public_data", "starting_kit")
                  if field in phase}
    for phase in v2.get("phases") or []:
        named |= {phase[field] for field in ("public_data", "starting_kit") if field in phase}
    named |= {solution["path"] for solution in v2.get("solutions") or []}
    for name in sorted(set(upload.files) - named):
        report.fail("upload: %s is named by neither yaml (participants may get it by other means; leave it out)" % name)
    later = phases[1:] if not release_all else []
    for phase in later:
        for field in ("public_data", "starting_kit"):
            if field in phase:
                report.fail("v1.5: phase %s: %s is in the upload: both platforms list it to participants from "
                            "registration; it is released when the phase opens" % (phase["label"], field))
    later_v2 = [phase for phase in v2["phases"] if phase["index"] >= 1] if not release_all else []
    later_tasks = {task for phase in later_v2 for task in phase["tasks"]}
    for phase in later_v2:
        for field in ("public_data", "starting_kit"):
            if field in phase:
                report.fail("Codabench: phase %s: %s is in the upload (listed to participants from registration)"
                            % (phase["name"], field))
    for solution in v2.get("solutions") or []:
        if set(solution["tasks"]) & later_tasks:
            report.fail("Codabench: solution %s belongs to a later phase's task: Codabench lists solutions to "
                        "participants, and cannot add one after the upload; leave it out" % solution["path"])
    labels = [str(phase["label"]) for phase in phases]
    for number, phase in enumerate(phases):
        with zipfile.ZipFile(io.BytesIO(upload.files[phase["reference_data"]])) as archive:
            if OTHER_PHASES not in archive.namelist():
                continue
            named_phases = set(json.loads(archive.read(OTHER_PHASES).decode("utf-8")))
        if named_phases - set(labels[:number]):
            report.fail("phase %s: its reference data names the ids of a later phase (%s): one extra id in a "
                        "submission would tell whether it is one" % (phase["label"], ", ".join(sorted(named_phases))))
    if not report.problems:
        report.ok("held back: %s; every entry is named by a yaml; no reference data names a later phase's ids"
                  % ("nothing of the phases after %s in the upload" % phases[0]["label"] if not release_all
                     else "--release-all: every phase's files in the upload"))
        report.verified["Codalab v1.5"].append("later phases held back" if not release_all else "every phase released")
        report.verified["Codabench"].append("later phases held back (no public data, kit or solution)"
                                            if not release_all else "every phase released")


def check_placeholders(upload: CheckedUpload, report: Report) -> None:
    """Each later phase's reference data in the upload is a placeholder and nothing else: no gold, no
    input, no stand-in made from them (whatever competition.yaml names)."""
    held_back = upload.held_back
    phases = sorted_phases(upload.v15)
    for phase in phases[1:]:
        name = phase["reference_data"]
        if name in held_back and read_placeholder(upload.files[name]) is None:
            report.fail("phase %s: %s in the upload is not a placeholder: a later phase's data goes up when it is "
                        "due" % (phase["label"], name))
    if held_back and not report.problems:
        report.ok("held back: %s: placeholders in the upload, nothing of their data"
                  % ", ".join("%s (%s)" % (phase["label"], phase["reference_data"]) for phase in phases
                              if phase["reference_data"] in held_back))
        for platform in ("Codalab v1.5", "Codabench"):
            report.verified[platform].append("no later phase's reference data in the upload (placeholders)")
