"""A task's reference data, as the site serves it: the build's placeholder (``bundle/held_back.py``:
which zip it stands for, its sha256, kind and tracks) or a file, and the real zip set in its place.

The zip goes up as a dataset of type ``reference_data`` and is set on the task through
``PATCH /api/tasks/<id>/`` (``TaskSerializer``: ``reference_data`` by dataset key; the view sets
``ingestion_program``, ``input_data`` and ``reference_data`` to none when a request leaves them
out, so the task's others are sent back as they are), then read back: the task names the dataset
and the site serves the zip's bytes as it.

Each kind by its own road: ``release`` sets a blind phase's stand-in, ``attach-gold`` the gold;
neither sets a zip whose sha256 is not the placeholder's.
"""

from __future__ import annotations

import os
from typing import Callable, Dict, List, Optional

from bundle.held_back import GOLD, STAND_IN, read_placeholder
from ranking.names import shown

from . import datasets, phases, resources
from .errors import CodabenchError
from .site import Site

PLACEHOLDER_BYTES = 1 << 16  # a placeholder is a few hundred bytes; more is read as "not a placeholder"


def reference_dataset(task: dict) -> Optional[dict]:
    """The task's reference data as the competition API lists it (``public_datasets``)."""
    found = [d for d in task.get("public_datasets") or [] if isinstance(d, dict) and d.get("type") == "reference_data"]
    return found[0] if found else None


def read_small(site: Site, key: object, limit: int = PLACEHOLDER_BYTES) -> Optional[bytes]:
    """The dataset ``key``'s file when it is at most ``limit`` bytes (a placeholder), else None."""
    with site.open("GET", datasets.download_path(key), what="the reference data %s" % key) as answer:
        data = answer.read(limit + 1)
    return data if len(data) <= limit else None


def placeholder_note(site: Site, dataset: Optional[dict]) -> Optional[dict]:
    """The placeholder's note when the site serves one as ``dataset``, else None."""
    if dataset is None:
        return None
    size = datasets.listed_size(dataset)
    if size is not None and size > PLACEHOLDER_BYTES:
        return None
    data = read_small(site, dataset.get("key"))
    return read_placeholder(data) if data is not None else None


def due_on_site(comp: dict, phase: dict, note: dict) -> str:
    """When a placeholder's zip is due, by the site's dates as they are now (not the build's)."""
    before = phases.previous(comp, phase)
    if note.get("kind") == GOLD and before is not None:
        return "due after phase %s (id %s) ends (its end on the site: %s), by codabench.py attach-gold" % (
            shown(str(before.get("name", ""))), before.get("id"), shown(str(before.get("end") or "none")))
    command = "attach-gold" if note.get("kind") == GOLD else "release"
    return "due when phase %s (id %s) opens (its start on the site: %s), by codabench.py %s" % (
        shown(str(phase.get("name", ""))), phase.get("id"), shown(str(phase.get("start") or "none")), command)


def stands_for(note: dict) -> str:
    """What a placeholder names, for a line: its zip, kind, tracks and sha256."""
    tracks = note.get("tracks") if isinstance(note.get("tracks"), list) else []
    return "%s (%s%s, sha256 %s...)" % (shown(str(note.get("held_back"))), shown(str(note.get("kind"))),
                                        "; tracks " + shown(", ".join(str(t) for t in tracks), 200) if tracks else "",
                                        shown(str(note.get("sha256") or "none")[:12]))


def check_stands_for(where: str, note: dict, file: datasets.Local, kind: str) -> None:
    """One line unless the placeholder ``note`` stands for ``file`` (name and sha256) of ``kind``."""
    if note.get("kind") != kind:
        road = "codabench.py attach-gold" if note.get("kind") == GOLD else "codabench.py release"
        raise CodabenchError("%s: its placeholder stands for %s, which goes up by %s, not here"
                             % (where, stands_for(note), road))
    if note.get("held_back") != file.name:
        raise CodabenchError("%s: its placeholder stands for %s, not %s" % (where, stands_for(note), shown(file.name)))
    if note.get("sha256") != file.sha256:
        raise CodabenchError("%s: its placeholder stands for %s, not this %s (sha256 %s...): the zip of another "
                             "build, competition or track" % (where, stands_for(note), shown(file.path), file.sha256[:12]))


def task_label(task: dict) -> str:
    return "task %s (id %s)" % (shown(str(task.get("name", ""))), task.get("id"))


def reference_dataset_for(site: Site, comp_id: int, phase: dict, file: datasets.Local, today: str,
                          say: Callable[[str], None], where: str) -> str:
    """The key of a dataset of the organiser's made for this competition whose served bytes are
    ``file``'s (an earlier run's), else of a new one."""
    owner = datasets.me(site)
    own = datasets.mine(site, "reference_data", owner)
    earlier = datasets.first_serving(site, [d for d in own if datasets.made_for(d, comp_id)], file)
    if earlier is not None:
        say("%s: %s was uploaded before and the site serves it (dataset %s): reused" % (where, shown(file.name),
                                                                                        earlier["key"]))
        return str(earlier["key"])
    # unique per competition and content: the site refuses a second dataset of the same name
    name = datasets.free_name("#%d - %s - reference data - %s - %s - %s" % (
        comp_id, shown(str(phase.get("name", "")), 60), shown(file.name, 80), today, file.sha256[:8]), own)
    description = ("reference data of phase %s (id %s) of competition %d, attached %s by codabench.py from %s; "
                   "sha256:%s" % (phase.get("name"), phase.get("id"), comp_id, today, file.name, file.sha256))
    key = str(datasets.upload_dataset(site, file, "reference_data", name=name, description=description[:1000])["key"])
    say("%s: uploaded %s (%d bytes) as reference data dataset %s" % (where, shown(file.name), file.size, key))
    return key


def set_reference(site: Site, comp_id: int, phase: dict, tasks: List[dict], path: str, today: str,
                  say: Callable[[str], None]) -> List[int]:
    """Set the zip at ``path`` as the reference data of each of ``tasks`` (of ``phase``, checked by
    the caller: their placeholder stands for it), then read it back. The ids of the tasks set."""
    file = datasets.local(path)
    where = phases.where(comp_id, phase)
    key = reference_dataset_for(site, comp_id, phase, file, today, say, where)
    for task in tasks:
        body: Dict[str, object] = {"reference_data": key}
        for kind in ("ingestion_program", "input_data", "scoring_program"):
            others = [d for d in task.get("public_datasets") or [] if isinstance(d, dict) and d.get("type") == kind]
            if others:
                body[kind] = others[0].get("key")
        site.call("PATCH", "/api/tasks/%s/" % task.get("id"), body,
                  what="setting the reference data of %s of %s" % (task_label(task), where))
    # read back as the competition page loads it
    wanted = {str(task.get("id")) for task in tasks}
    phase_now = phases.phase_of(resources.competition(site, comp_id), str(phase["id"]))
    found = [task for task in phases.tasks_of(phase_now) if str(task.get("id")) in wanted]
    for task in found:
        current = reference_dataset(task) or {}
        if current.get("key") != key or not datasets.serves(site, current, file):
            raise CodabenchError("%s: after the change %s's reference data is dataset %s, not %s serving %s: set it in "
                                 "the editor (Resources > Tasks)" % (where, task_label(task),
                                                                     shown(str(current.get("key"))), key,
                                                                     shown(file.name)))
        say("%s: %s now scores on %s (dataset %s, its bytes served back)" % (where, task_label(task),
                                                                             shown(file.name), key))
    if len(found) != len(wanted):
        raise CodabenchError("%s: after the change the site lists %d of its %d tasks set: set them in the editor "
                             "(Resources > Tasks)" % (where, len(found), len(wanted)))
    return [int(task["id"]) for task in found]


def reference_zips(folder: str) -> Dict[str, datasets.Local]:
    """The top-level ``*reference_data.zip`` files of a release folder, by name."""
    return {name: datasets.local(os.path.join(folder, name)) for name in sorted(os.listdir(folder))
            if name.lower().endswith("reference_data.zip") and os.path.isfile(os.path.join(folder, name))}


def release_plan(site: Site, comp: dict, phase: dict, folder: str, say: Callable[[str], None]) -> Dict[str, List[dict]]:
    """On release day, before anything changes: zip path -> the tasks of ``phase`` whose placeholder
    stands for that blind stand-in (name and sha256) in ``folder``. A placeholder of gold is never
    set here, whatever the folder holds (one line when the folder holds its zip); a stand-in's
    placeholder whose zip is not in the folder is said with when it is due."""
    zips = reference_zips(folder)
    where = phases.where(comp["id"], phase)
    plan: Dict[str, List[dict]] = {}
    for task in phases.tasks_of(phase):
        label = "%s, %s" % (where, task_label(task))
        current = reference_dataset(task)
        note = placeholder_note(site, current)
        if note is None:
            same = [z for z in zips.values() if current is not None and datasets.serves(site, current, z)]
            if same:
                say("%s: reference data already %s (dataset %s): unchanged" % (label, shown(same[0].name),
                                                                               current.get("key")))
            continue
        if note.get("kind") == GOLD and note.get("held_back") in zips:
            raise CodabenchError("%s: %s holds %s, which its placeholder names as gold: gold goes up only by "
                                 "codabench.py attach-gold (%s); nothing was changed"
                                 % (label, shown(folder), shown(str(note.get("held_back"))),
                                    due_on_site(comp, phase, note)))
        if note.get("kind") == STAND_IN and note.get("held_back") in zips:
            file = zips[note["held_back"]]
            check_stands_for(label, note, file, STAND_IN)
            plan.setdefault(file.path, []).append(task)
            continue
        say("%s: reference data still the placeholder of %s, %s" % (label, stands_for(note),
                                                                    due_on_site(comp, phase, note)))
    return plan
