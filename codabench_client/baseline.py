"""The kit's baseline on a phase's board, submitted from the organiser's account: written by the
kit's own ``baselines.py`` from the phase's public data, zipped reproducibly (its name carries its
sha256), uploaded as a dataset of type ``submission`` and submitted (``POST /api/submissions/``)
with fact-sheet answers that mark it (team ``Baseline (organisers)``).

It is there already when the token's own user (``GET /api/my_profile/``) has a submission of that
file in the phase, as the site lists the phase's submissions and checked again by phase, owner and
file: a participant's submission named like it is not the baseline.
"""

from __future__ import annotations

import os
import sys
import tempfile
import zipfile
from typing import Callable, Dict

import yaml

from ranking.names import shown

from . import datasets, phases, resources
from .errors import CodabenchError, HTTPStatusError
from .migration import submissions_of
from .site import Site

BASELINE_TEAM = "Baseline (organisers)"


def baseline_answers(fact_sheet: object, variant: str) -> Dict[str, object]:
    """Fact-sheet answers that mark a submission as the organisers' baseline, one per question the
    competition asks (the site refuses answers whose keys differ from its fact sheet's)."""
    answers: Dict[str, object] = {}
    for key, question in (fact_sheet or {}).items() if isinstance(fact_sheet, dict) else []:
        kind = question.get("type") if isinstance(question, dict) else "text"
        selection = question.get("selection") if isinstance(question, dict) else ""
        if key == "team_name":
            answers[key] = BASELINE_TEAM
        elif key == "system_name":
            answers[key] = "%s baseline" % variant
        elif key == "description":
            answers[key] = ("The starting kit's %s baseline (starting_kit/baselines.py --multilabel %s), submitted by "
                            "the organisers with codabench.py baselines: a reference row, not a participant."
                            % (variant, variant))
        elif kind == "checkbox":
            answers[key] = False
        elif isinstance(selection, list) and selection:
            answers[key] = selection[0]
        else:
            answers[key] = "baseline"
    return answers


def _public_data_folder(path: str, phase: dict, work: str) -> str:
    """The phase's public inputs, unzipped into ``work``: ``path`` is a public data zip, a folder, or
    the upload (the public data zip its competition.yaml names for the phase at the site phase's
    index: the unpacker numbers the yaml's phases in their order)."""
    if os.path.isdir(path):
        return path
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            if "competition.yaml" in names:
                config = yaml.safe_load(archive.read("competition.yaml"))
                listed = [p for p in (config.get("phases") or []) if isinstance(p, dict)]
                listed.sort(key=lambda p: p.get("index", 0) if isinstance(p.get("index", 0), int) else 0)
                index = phase.get("index")
                wanted = [listed[index].get("public_data")] if isinstance(index, int) and 0 <= index < len(listed) else []
                if not wanted or not wanted[0] or wanted[0] not in names:
                    raise CodabenchError("%s holds no public data of phase %s (a later phase's is in "
                                         "dist/release_<folder>/)" % (shown(path), shown(str(phase.get("name")))))
                inner = os.path.join(work, "public.zip")
                with open(inner, "wb") as handle:
                    handle.write(archive.read(wanted[0]))
                return _public_data_folder(inner, phase, work)
            target = os.path.join(work, "public")
            for name in names:
                if name.startswith("/") or ".." in name.split("/"):
                    raise CodabenchError("%s: entry %s leaves the folder" % (shown(path), shown(name)))
            archive.extractall(target)
            return target
    except (zipfile.BadZipFile, OSError) as error:
        raise CodabenchError("%s: not a public data zip (%s)" % (shown(path), getattr(error, "strerror", None) or error))


def submit_baseline(site: Site, comp_id: int, phase_arg: str, public: str, variant: str = "random",
                    say: Callable[[str], None] = print) -> int:
    """Submit the kit's baseline to ``phase`` from the token's account, its fact sheet marking it
    (team ``Baseline (organisers)``); skipped when that account has a submission of this baseline's
    file (its sha256 in its name) in the phase that has not failed."""
    comp = resources.competition(site, comp_id)
    phase = phases.phase_of(comp, phase_arg)
    phases.ordered(comp)  # the upload's phase is found by the site's index
    where = phases.where(comp_id, phase)
    owner = datasets.me(site)
    kit = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "starting_kit")
    sys.path.insert(0, kit)
    from baselines import write_submission  # the kit's own baselines
    with tempfile.TemporaryDirectory(prefix="baseline-") as work:
        folder = _public_data_folder(public, phase, work)
        out = os.path.join(work, "submission")
        written = write_submission(folder, out, multilabel=variant)
        if not written:
            raise CodabenchError("%s: no track's public input found, so no baseline was written" % shown(public))
        buffer_path = os.path.join(work, "baseline.zip")
        with zipfile.ZipFile(buffer_path, "w", zipfile.ZIP_DEFLATED) as archive:
            for name in sorted(os.listdir(out)):
                info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
                with open(os.path.join(out, name), "rb") as handle:
                    archive.writestr(info, handle.read(), compress_type=zipfile.ZIP_DEFLATED)
        digest = datasets.sha256_of(buffer_path)[:12]
        file_name = "baseline_%s_%s.zip" % (variant, digest)
        named = os.path.join(work, file_name)
        os.replace(buffer_path, named)
        mine = [s for s in submissions_of(site, phase) if s.get("owner") == owner and s.get("filename") == file_name
                and not s.get("parent") and s.get("status") not in ("Failed", "Cancelled")]
        if mine:
            say("%s: the %s baseline is submission %s of %s already (%s, %s): unchanged"
                % (where, variant, mine[0].get("id"), shown(owner), file_name, mine[0].get("status")))
            return 0
        try:  # an organiser is approved on registering; the site answers 400 when already registered
            site.call("POST", "/api/competitions/%d/register/" % comp_id, {}, what="registering for competition %d" % comp_id)
        except HTTPStatusError as error:
            if error.code != 400:
                raise
        done = datasets.upload_dataset(site, datasets.local(named), "submission", extra={"competition": comp_id})
        body = {"data": done["key"], "phase": int(phase["id"]),
                "fact_sheet_answers": baseline_answers(comp.get("fact_sheet"), variant),
                "tasks": [int(task["id"]) for task in phases.tasks_of(phase)]}
        if not comp.get("fact_sheet"):
            body.pop("fact_sheet_answers")
        answer = site.call("POST", "/api/submissions/", body, what="submitting the %s baseline to %s" % (variant, where))
        submitted = answer.get("id") if isinstance(answer, dict) else None
        if not [s for s in submissions_of(site, phase) if str(s.get("id")) == str(submitted)
                and s.get("owner") == owner and s.get("filename") == file_name]:
            raise CodabenchError("%s: the site took the %s baseline but lists no submission %s of %s with %s"
                                 % (where, variant, shown(str(submitted), 30), shown(owner), file_name))
        say("%s: submitted the %s baseline (%s: %s) as submission %s of %s, team \"%s\"; rank it as a baseline with "
            "rank_submissions.py --baseline-owner %s"
            % (where, variant, file_name, ", ".join(written) if len(written) < 4 else "%d track files" % len(written),
               submitted, shown(owner), BASELINE_TEAM, shown(owner)))
    return 0
