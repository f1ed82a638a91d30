"""A competition as Codabench's API has it, checked for the shape the client reads:
``GET /api/competitions/<id>/`` (``CompetitionDetailSerializer``): ``title``, ``published``,
``phases`` (``id``, ``name``, ``index``, ``start``, ``end``, ``status``, ``public_data`` and
``starting_kit`` as datasets with ``id``, ``key``, ``name``, ``file_name``, ``file_size``; ``tasks``
with their ``phase`` and ``public_datasets``), ``leaderboards`` (``hidden``).
"""

from __future__ import annotations

import re

from ranking.names import shown

from .errors import CodabenchError
from .shapes import identifier, record, records
from .site import Site

COMPETITION_URL = re.compile(r"/competitions/(\d+)/?")


def competition_id(text: str) -> int:
    """A competition by its id or its page's URL (``https://.../competitions/12/``)."""
    text = text.strip()
    if text.isdigit():
        return int(text)
    match = COMPETITION_URL.search(text)
    if match:
        return int(match.group(1))
    raise CodabenchError("competition %s: expected its id (a number) or its page's URL" % shown(text))


def competition(site: Site, comp_id: int) -> dict:
    answer = site.get("/api/competitions/%d/" % comp_id, what="competition %d" % comp_id)
    if not isinstance(answer, dict) or not isinstance(answer.get("phases"), list):
        raise CodabenchError("competition %d: the site's answer has no phases" % comp_id)
    if identifier(answer.get("id"), "competition %d, id" % comp_id) != comp_id:
        raise CodabenchError("competition %d: the site answered with competition %s" % (comp_id, answer.get("id")))
    return checked_competition(answer, "competition %d" % comp_id)


def checked_competition(answer: dict, what: str) -> dict:
    """The competition's answer when every part the client reads has its shape (phases, their ids,
    tasks and datasets, boards: objects, lists, ids); one CodabenchError line naming the part."""
    for number, phase in enumerate(records(answer.get("phases"), what + ", phases"), start=1):
        where = "%s, phase %d" % (what, number)
        identifier(phase.get("id"), where + ", id")
        for kind in ("public_data", "starting_kit"):
            if phase.get(kind) is not None:
                record(phase[kind], "%s, %s" % (where, kind))
        for task_number, task in enumerate(records(phase.get("tasks"), where + ", tasks"), start=1):
            records(task.get("public_datasets"), "%s, task %d, public_datasets" % (where, task_number))
    records(answer.get("leaderboards"), what + ", leaderboards")
    return answer
