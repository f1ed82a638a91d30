"""The competition's steps after the upload that are not a release or a download, each saying
what the site now holds, and ``unchanged`` on a second run:

- ``publish``: ``POST /api/competitions/<id>/toggle_publish/`` (the editor's Publish button; it
  flips the flag, so the competition is read first and left alone when it is published);
- ``attach_gold``: a held-back phase's gold set on its tasks (``reference``), only after the phase
  before has ended on the site's clock and the build's schedule (the placeholder's ``after``), and
  only the zip the placeholder stands for (its sha256); the failed migrated copies re-run
  (``migration``).
"""

from __future__ import annotations

import datetime
import os
from typing import Callable, List, Optional

from bundle.held_back import GOLD
from ranking.names import shown

from . import datasets, phases, reference, resources
from .errors import CodabenchError
from .migration import rerun_failed_copies
from .site import Site


def publish(site: Site, comp_id: int, say: Callable[[str], None] = print) -> bool:
    """Publish the competition; True when this call changed it."""
    comp = resources.competition(site, comp_id)
    if comp.get("published") is True:
        say("competition %d is published already: unchanged" % comp_id)
        return False
    answer = site.call("POST", "/api/competitions/%d/toggle_publish/" % comp_id, {},
                       what="publishing competition %d" % comp_id)
    if not isinstance(answer, dict) or answer.get("published") is not True \
            or resources.competition(site, comp_id).get("published") is not True:
        raise CodabenchError("publishing competition %d: the site answered %s, and does not list it published"
                             % (comp_id, shown(str(answer), 200)))
    say("competition %d published: visitors see its pages; participants can register" % comp_id)
    return True


def gold_tasks(site: Site, comp_id: int, phase: dict, file: datasets.Local, now: datetime.datetime,
               say: Callable[[str], None]) -> List[dict]:
    """The tasks of ``phase`` to set ``file`` on: those whose placeholder stands for it (name,
    sha256, kind gold) and whose time in the build's schedule has come; a task already serving
    its bytes is said unchanged. One line, before anything changes, for any other task."""
    tasks = phases.tasks_of(phase)
    if not tasks:
        raise CodabenchError("%s: the site lists no task of this phase" % phases.where(comp_id, phase))
    todo = []
    for task in tasks:
        where = "%s, %s" % (phases.where(comp_id, phase), reference.task_label(task))
        current = reference.reference_dataset(task)
        if current is not None and datasets.serves(site, current, file):
            say("%s: reference data already %s (dataset %s, its bytes served): unchanged"
                % (where, shown(file.name), current.get("key")))
            continue
        note = reference.placeholder_note(site, current)
        if note is None:
            raise CodabenchError("%s: its reference data is not the build's placeholder (held_back.json), so %s is not "
                                 "for it; set it by hand in the editor if it is (Resources > Tasks)"
                                 % (where, shown(file.name)))
        reference.check_stands_for(where, note, file, GOLD)
        after = phases.utc(note.get("after"))
        if after is None or after > now:
            raise CodabenchError("%s: the build's schedule puts the gold after %s (its placeholder: %s): not before"
                                 % (where, shown(str(note.get("after") or "no time")), shown(str(note.get("due")), 300)))
        todo.append(task)
    return todo


def attach_gold(site: Site, comp_id: int, phase_arg: str, path: str, today: str = "",
                say: Callable[[str], None] = print, now: Optional[datetime.datetime] = None) -> int:
    """Set a held-back phase's gold once it is due: the phase before it has ended (the gold is
    taken by anyone who has its key on this Codabench). Re-runs the phase's failed migrated copies
    (scored on the placeholder) when the migration came first. Exit status."""
    if not os.path.isfile(path):
        raise CodabenchError("%s: no such file (the build writes it to dist/release_<folder>/gold/)" % shown(path))
    now = now or phases.now_utc()
    today = today or now.strftime("%Y-%m-%d")
    comp = resources.competition(site, comp_id)
    phase = phases.phase_of(comp, phase_arg)
    where = phases.where(comp_id, phase)
    before = phases.previous(comp, phase)
    if before is not None and not phases.ended(before, now):
        raise CodabenchError("%s: phase %s (id %s) has not ended on the site (%s): its gold goes up after that, not "
                             "before (anyone who has a dataset's key takes it on this Codabench: codabench.py check)"
                             % (where, shown(str(before.get("name"))), before.get("id"), phases.dates(before)))
    file = datasets.local(path)
    todo = gold_tasks(site, comp_id, phase, file, now, say)
    if todo:  # (a task already serving it was said unchanged)
        reference.set_reference(site, comp_id, phase, todo, path, today, say)
    start = phases.utc(phase.get("start"))
    if before is None:
        return 0
    if start is not None and start <= now:
        rerun_failed_copies(site, comp_id, phase, before, say)
    else:
        say("%s starts %s: the site migrates the board's entries of phase %s (id %s) then (every 5 minutes), scored on "
            "this gold" % (where, shown(str(phase.get("start"))), shown(str(before.get("name"))), before.get("id")))
    return 0
