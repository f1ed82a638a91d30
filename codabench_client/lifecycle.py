"""The competition's steps after the upload, each idempotent and saying what it changed:

- ``publish``: ``POST /api/competitions/<id>/toggle_publish/`` (the editor's Publish button; it
  flips the flag, so the competition is read first and left alone when it is published);
- a phase's reference data set when it is due (``release`` for a blind phase's stand-in,
  ``attach-gold`` for gold): the build puts a placeholder in the upload (``bundle/held_back.py``);
  the real zip is uploaded as a dataset of type ``reference_data`` and set on the phase's task
  through ``PATCH /api/tasks/<id>/`` (``TaskSerializer``: ``reference_data`` by dataset key; the
  view sets ``ingestion_program``, ``input_data`` and ``reference_data`` to none when a request
  leaves them out, so the task's others are sent back as they are);
- ``copy_fact_sheets``: a migrated submission (``apply_phase_migration`` copies owner, participant
  and file, not the fact-sheet answers) gets the answers of the submission it was copied from
  (``PATCH /api/submissions/<id>/update_fact_sheet/``).

A submission the platform migrates before the gold is attached is scored on the placeholder and
fails ("no gold file of any track"); ``attach-gold`` then re-runs those copies
(``POST /api/submissions/<id>/re_run_submission/``), which read the task's reference data anew.
"""

from __future__ import annotations

import datetime
import os
import sys
import tempfile
import zipfile
from typing import Callable, Dict, List, Optional, Tuple

import yaml

from bundle.held_back import read_placeholder
from ranking.names import shown

from . import resources
from .errors import CodabenchError, HTTPStatusError
from .site import Site

PLACEHOLDER_BYTES = 1 << 16  # a placeholder is a few hundred bytes; more is read as "not a placeholder"


def publish(site: Site, comp_id: int, say: Callable[[str], None] = print) -> bool:
    """Publish the competition; True when this call changed it."""
    comp = resources.competition(site, comp_id)
    if comp.get("published"):
        say("competition %d is published already: unchanged" % comp_id)
        return False
    answer = site.call("POST", "/api/competitions/%d/toggle_publish/" % comp_id, {},
                       what="publishing competition %d" % comp_id)
    if not isinstance(answer, dict) or answer.get("published") is not True:
        raise CodabenchError("publishing competition %d: the site answered %s, not published"
                             % (comp_id, shown(str(answer), 200)))
    say("competition %d published: visitors see its pages; participants can register" % comp_id)
    return True


def _utc(text: object) -> Optional[datetime.datetime]:
    if not isinstance(text, str) or not text:
        return None
    try:
        moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.timezone.utc)


def now_utc() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


def previous_phase(comp: dict, phase: dict) -> Optional[dict]:
    earlier = [p for p in comp.get("phases") or [] if int(p.get("index") or 0) < int(phase.get("index") or 0)]
    return max(earlier, key=lambda p: int(p.get("index") or 0)) if earlier else None


def datasets_of(task: dict, kind: str) -> List[dict]:
    return [d for d in task.get("public_datasets") or [] if isinstance(d, dict) and d.get("type") == kind]


def read_small(site: Site, key: str, limit: int = PLACEHOLDER_BYTES) -> Optional[bytes]:
    """The dataset ``key``'s file when it is at most ``limit`` bytes (a placeholder), else None."""
    with site.open("GET", "/datasets/download/%s/" % key, what="the reference data %s" % key) as answer:
        data = answer.read(limit + 1)
    return data if len(data) <= limit else None


def task_reference(site: Site, task: dict) -> Tuple[Optional[dict], Optional[dict]]:
    """(the task's reference dataset as the competition API lists it, the placeholder's note when it
    is one)."""
    found = datasets_of(task, "reference_data")
    if not found:
        return None, None
    data = read_small(site, str(found[0].get("key")))
    return found[0], (read_placeholder(data) if data is not None else None)


def set_reference(site: Site, comp_id: int, phase: dict, path: str, today: str, say: Callable[[str], None],
                  wanted: Optional[str] = None) -> List[int]:
    """Set the zip at ``path`` as the reference data of each task of ``phase`` whose reference data
    is the placeholder of ``wanted`` (default: the file's name); a task already holding this file
    (the sha256 in its dataset's description) is left alone. The ids of the tasks changed."""
    name = os.path.basename(path)
    wanted = wanted or name
    tag = "sha256:" + resources.sha256_of(path)
    where = "competition %d, phase %s (id %s)" % (comp_id, shown(str(phase.get("name", ""))), phase.get("id"))
    changed: List[int] = []
    for task in phase.get("tasks") or []:
        current, note = task_reference(site, task)
        label = "task %s (id %s)" % (shown(str(task.get("name", ""))), task.get("id"))
        if current is not None and tag in str(current.get("description") or ""):
            say("%s, %s: reference data already %s (dataset %s): unchanged" % (where, label, shown(name), current.get("key")))
            continue
        if note is None:
            raise CodabenchError("%s, %s: its reference data is not the build's placeholder (held_back.json), so %s "
                                 "is not for it; set it by hand in the editor if it is (Resources > Tasks)"
                                 % (where, label, shown(name)))
        if note.get("held_back") != wanted:
            raise CodabenchError("%s, %s: its placeholder stands for %s, not %s"
                                 % (where, label, shown(str(note.get("held_back"))), shown(wanted)))
        # unique per competition and content: the site refuses a second dataset of the same name
        dataset_name = "#%d - %s - reference data - %s - %s - %s" % (comp_id, shown(str(phase.get("name", "")), 60),
                                                                     shown(name, 80), today, tag[len("sha256:"):][:8])
        description = ("reference data of phase %s of competition %d, attached %s by codabench.py from %s; %s"
                       % (phase.get("name"), comp_id, today, name, tag))
        existing = [d for d in resources.my_datasets(site, "reference_data")
                    if tag in str(d.get("description") or "") and "competition %d," % comp_id in str(d.get("description") or "")]
        if existing:
            key = str(existing[0]["key"])
            say("%s, %s: %s was uploaded before (dataset %s): reused" % (where, label, shown(name), key))
        else:
            done = resources.upload_dataset(site, path, "reference_data", name=dataset_name,
                                            description=description[:1000])
            key = str(done["key"])
            say("%s, %s: uploaded %s (%d bytes) as reference data dataset %s"
                % (where, label, shown(name), os.path.getsize(path), key))
        body: Dict[str, object] = {"reference_data": key}
        for kind in ("ingestion_program", "input_data", "scoring_program"):
            others = datasets_of(task, kind)
            if others:
                body[kind] = others[0].get("key")
        site.call("PATCH", "/api/tasks/%s/" % task.get("id"), body,
                  what="setting the reference data of %s of %s" % (label, where))
        changed.append(int(task["id"]))
    # read back as the competition page loads it
    phase_now = resources.phase_of(resources.competition(site, comp_id), str(phase["id"]))
    for task in phase_now.get("tasks") or []:
        if int(task.get("id") or 0) in changed:
            current = (datasets_of(task, "reference_data") or [{}])[0]
            if tag not in str(current.get("description") or ""):
                raise CodabenchError("%s: after the change task %s's reference data is %s, not %s: set it in the "
                                     "editor (Resources > Tasks)" % (where, task.get("id"), shown(str(current.get("key"))),
                                                                      shown(name)))
            say("%s: task %s now scores on %s (dataset %s)" % (where, task.get("id"), shown(name), current.get("key")))
    return changed


def release_reference(site: Site, comp_id: int, phase: dict, folder: str, today: str,
                      say: Callable[[str], None]) -> None:
    """On release day: each task of ``phase`` whose reference data is the placeholder of a zip in
    ``folder`` (a blind phase's stand-in) gets it; a placeholder of a zip not there (gold, due
    later) is named with when it is due."""
    zips = {name: os.path.join(folder, name) for name in sorted(os.listdir(folder))
            if name.lower().endswith("reference_data.zip") and os.path.isfile(os.path.join(folder, name))}
    where = "competition %d, phase %s (id %s)" % (comp_id, shown(str(phase.get("name", ""))), phase.get("id"))
    for task in phase.get("tasks") or []:
        current, note = task_reference(site, task)
        if note is not None and note.get("held_back") in zips:
            set_reference(site, comp_id, dict(phase, tasks=[task]), zips[note["held_back"]], today, say)
        elif note is not None:
            say("%s: reference data still the placeholder of %s (%s), due %s" % (
                where, shown(str(note.get("held_back"))), shown(str(note.get("kind", ""))), shown(str(note.get("due")), 300)))
        elif current is not None and any("sha256:" + resources.sha256_of(path) in str(current.get("description") or "")
                                         for path in zips.values()):
            say("%s: reference data already %s: unchanged" % (where, shown(str(current.get("name", "")), 200)))


def attach_gold(site: Site, comp_id: int, phase_arg: str, path: str, today: str = "",
                say: Callable[[str], None] = print, now: Optional[datetime.datetime] = None) -> int:
    """Set a held-back phase's gold once it is due: the phase before it has ended (the gold is
    taken by anyone who has its key on this Codabench). Re-runs the phase's failed migrated copies
    (scored on the placeholder) when the migration came first. Exit status."""
    if not os.path.isfile(path):
        raise CodabenchError("%s: no such file (the build writes it to dist/release_<folder>/gold/)" % shown(path))
    today = today or now_utc().strftime("%Y-%m-%d")
    now = now or now_utc()
    comp = resources.competition(site, comp_id)
    phase = resources.phase_of(comp, phase_arg)
    before = previous_phase(comp, phase)
    end = _utc(before.get("end")) if before else None
    if before is not None and (end is None or end > now):
        raise CodabenchError("phase %s has not ended (its end: %s): the gold of phase %s goes up after that, not "
                             "before (anyone who has a dataset's key takes it on this Codabench: codabench.py check)"
                             % (shown(str(before.get("name"))), before.get("end") or "none", shown(str(phase.get("name")))))
    start = _utc(phase.get("start"))
    changed = set_reference(site, comp_id, phase, path, today, say)
    if not changed:
        say("competition %d, phase %s: nothing changed" % (comp_id, shown(str(phase.get("name")))))
    if start is not None and start <= now:
        rerun_failed_copies(site, comp, phase, before, say)
    else:
        say("phase %s starts %s: the site migrates the board's entries of phase %s then (every 5 minutes), scored on "
            "this gold" % (shown(str(phase.get("name"))), phase.get("start"), shown(str(before.get("name"))) if before else "-"))
    return 0


def _submissions(site: Site, phase: dict) -> List[dict]:
    return [s for s in site.pages("/api/submissions/", what="the submissions of phase %s" % shown(str(phase.get("name"))),
                                  phase=phase.get("id")) if isinstance(s, dict)]


def migrated_pairs(site: Site, phase: dict, before: dict) -> List[Tuple[dict, dict]]:
    """(copy in ``phase``, its source in ``before``): a migration copies each board entry of the
    phase before with its owner and file (``apply_phase_migration``); the list API does not name
    the source, so a copy is a submission of the same owner and file name as a board entry of
    the phase before (its re-runs too)."""
    sources: Dict[Tuple[str, str], dict] = {}
    for item in _submissions(site, before):
        if item.get("on_leaderboard") and not item.get("parent"):
            sources[(str(item.get("owner")), str(item.get("filename")))] = item
    pairs: List[Tuple[dict, dict]] = []
    seen = set()
    for item in sorted(_submissions(site, phase), key=lambda s: int(s.get("id") or 0)):
        pair_key = (str(item.get("owner")), str(item.get("filename")))
        if item.get("parent") or pair_key not in sources:
            continue  # every copy and its re-runs (a re-run is a new submission of the same owner and file)
        seen.add(pair_key)
        pairs.append((item, sources[pair_key]))
    return pairs


def rerun_failed_copies(site: Site, comp: dict, phase: dict, before: Optional[dict], say: Callable[[str], None]) -> None:
    if before is None:
        return
    failed = [copy for copy, _ in migrated_pairs(site, phase, before) if copy.get("status") == "Failed"]
    for copy in failed:
        answer = site.call("POST", "/api/submissions/%s/re_run_submission/" % copy.get("id"),
                           what="re-running submission %s" % copy.get("id"))
        say("submission %s (%s, migrated before the gold was there, failed): re-run as submission %s"
            % (copy.get("id"), shown(str(copy.get("owner"))), (answer or {}).get("id") if isinstance(answer, dict) else "?"))
    if not failed:
        say("phase %s: no failed migrated copy to re-run" % shown(str(phase.get("name"))))


def copy_fact_sheets(site: Site, comp_id: int, phase_arg: str, say: Callable[[str], None] = print) -> int:
    """Give each migrated copy in ``phase`` without fact-sheet answers those of its source."""
    comp = resources.competition(site, comp_id)
    phase = resources.phase_of(comp, phase_arg)
    before = previous_phase(comp, phase)
    if before is None:
        raise CodabenchError("phase %s is the first phase: no migrated submissions" % shown(str(phase.get("name"))))
    changed = kept = 0
    for copy, source in migrated_pairs(site, phase, before):
        answers = source.get("fact_sheet_answers")
        if copy.get("fact_sheet_answers") or not answers:
            kept += 1
            continue
        site.call("PATCH", "/api/submissions/%s/update_fact_sheet/" % copy.get("id"), answers,
                  what="the fact sheet of submission %s" % copy.get("id"))
        changed += 1
        say("submission %s (%s): the fact sheet of submission %s copied (team %s, system %s)"
            % (copy.get("id"), shown(str(copy.get("owner"))), source.get("id"),
               shown(str(answers.get("team_name", "")) if isinstance(answers, dict) else ""),
               shown(str(answers.get("system_name", "")) if isinstance(answers, dict) else "")))
    say("phase %s: %d migrated submission%s given their fact sheet, %d unchanged"
        % (shown(str(phase.get("name"))), changed, "" if changed == 1 else "s", kept))
    return 0


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
    the upload (its phase's public data zip, as its competition.yaml names it)."""
    if os.path.isdir(path):
        return path
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            if "competition.yaml" in names:
                config = yaml.safe_load(archive.read("competition.yaml"))
                wanted = [p.get("public_data") for p in config.get("phases") or []
                          if str(p.get("name", "")).lower() == str(phase.get("name", "")).lower()]
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
    (team ``Baseline (organisers)``); skipped when that account's last submission of the phase is
    already this baseline's file (the same sha256 in its name)."""
    comp = resources.competition(site, comp_id)
    phase = resources.phase_of(comp, phase_arg)
    where = "competition %d, phase %s (id %s)" % (comp_id, shown(str(phase.get("name"))), phase.get("id"))
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
        digest = resources.sha256_of(buffer_path)[:12]
        file_name = "baseline_%s_%s.zip" % (variant, digest)
        named = os.path.join(work, file_name)
        os.replace(buffer_path, named)
        mine = [s for s in _submissions(site, phase) if s.get("filename") == file_name and not s.get("parent")
                and s.get("status") not in ("Failed", "Cancelled")]
        if mine:
            say("%s: the %s baseline is submission %s already (%s): unchanged" % (where, variant, mine[0].get("id"),
                                                                                 mine[0].get("status")))
            return 0
        try:  # an organiser is approved on registering; the site answers 400 when already registered
            site.call("POST", "/api/competitions/%d/register/" % comp_id, {}, what="registering for competition %d" % comp_id)
        except HTTPStatusError as error:
            if error.code != 400:
                raise
        done = resources.upload_dataset(site, named, "submission", extra={"competition": comp_id})
        body = {"data": done["key"], "phase": int(phase["id"]),
                "fact_sheet_answers": baseline_answers(comp.get("fact_sheet"), variant),
                "tasks": [int(task["id"]) for task in phase.get("tasks") or []]}
        if not comp.get("fact_sheet"):
            body.pop("fact_sheet_answers")
        answer = site.call("POST", "/api/submissions/", body, what="submitting the %s baseline to %s" % (variant, where))
        say("%s: submitted the %s baseline (%s: %s) as submission %s, team \"%s\"; rank it as a baseline with "
            "rank_submissions.py --baseline-owner <your user name>"
            % (where, variant, file_name, ", ".join(written) if len(written) < 4 else "%d track files" % len(written),
               (answer or {}).get("id") if isinstance(answer, dict) else "?", BASELINE_TEAM))
    return 0
