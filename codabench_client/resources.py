"""A competition and its phases, datasets, and the bundle upload, as Codabench's API has them.

- ``GET /api/competitions/<id>/`` (``CompetitionDetailSerializer``): ``title``, ``published``,
  ``phases`` (``id``, ``name``, ``index``, ``public_data`` and ``starting_kit`` as datasets with
  ``id``, ``key``, ``name``, ``file_name``; ``tasks`` with their ``public_datasets``),
  ``leaderboards`` (``hidden``).
- a dataset is made as the site's own pages make it (``client.js`` ``create_dataset``):
  ``POST /api/datasets/`` with its metadata and ``request_sassy_file_name`` -> ``key`` and a
  presigned ``sassy_url``; the file ``PUT`` there (no token: it is the storage's URL); then
  ``PUT /api/datasets/completed/<key>/`` (for a bundle: ``{"status_id"}`` of the unpacker).
- the unpacker: ``GET /api/competitions/<status id>/creation_status/`` -> ``status``
  (``Starting``, ``Finished``, ``Failed``), ``details`` (the platform's error), and
  ``resulting_competition``.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from typing import Callable, Dict, List, Optional

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


def phase_of(comp: dict, wanted: str) -> dict:
    """The phase named ``wanted`` (any name, case and spaces ignored) or with that id."""
    phases = comp.get("phases") or []
    text = wanted.strip()
    by_id = [p for p in phases if text.isdigit() and str(p.get("id")) == text]
    by_name = [p for p in phases if " ".join(str(p.get("name", "")).split()).lower() == " ".join(text.split()).lower()]
    found = by_id or by_name
    if len(found) == 1:
        return found[0]
    listed = ", ".join("%s (id %s)" % (shown(p.get("name", "")), p.get("id")) for p in phases) or "none"
    if len(found) > 1:
        raise CodabenchError("competition %s: %d phases are named %s: give its id (phases: %s)"
                             % (comp.get("id"), len(found), shown(wanted), listed))
    raise CodabenchError("competition %s has no phase %s (its phases: %s)" % (comp.get("id"), shown(wanted), listed))


def sha256_of(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def upload_dataset(site: Site, path: str, kind: str, name: Optional[str] = None, description: str = "",
                   extra: Optional[Dict[str, object]] = None) -> dict:
    """Create a dataset of type ``kind`` from the file at ``path``; its ``{"key", ...}`` from the
    completion call (a bundle's has ``status_id``). A failure after the dataset was created says
    so: an empty dataset is left under Resources, and running again makes a new one."""
    size = os.path.getsize(path)
    file_name = os.path.basename(path)
    metadata: Dict[str, object] = {"type": kind, "request_sassy_file_name": file_name, "file_name": file_name,
                                   "file_size": size, "description": description, "is_public": False}
    if name:
        metadata["name"] = name
    metadata.update(extra or {})
    created = site.call("POST", "/api/datasets/", metadata, what="creating the dataset for %s" % shown(file_name))
    if not isinstance(created, dict) or not isinstance(created.get("key"), str) or not created.get("key") \
            or not isinstance(created.get("sassy_url"), str) or not created.get("sassy_url"):
        raise CodabenchError("creating the dataset for %s: the site gave no upload URL" % shown(file_name))
    key = created["key"]
    left = ("dataset %s (%s) was created but holds no file: delete it under Resources > Datasets, or leave it, "
            "and run the same command again" % (key, shown(file_name)))
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        with site.open("PUT", created["sassy_url"], data, {"Content-Type": "application/zip"},
                       what="uploading %s to the site's storage" % shown(file_name)) as answer:
            answer.read(1 << 20)
    except CodabenchError as error:
        raise CodabenchError("%s; %s" % (error, left)) from None
    try:
        done = site.call("PUT", "/api/datasets/completed/%s/" % key, what="completing the upload of %s" % shown(file_name))
    except CodabenchError as error:
        raise CodabenchError("%s; %s" % (error, left.replace("holds no file", "was not marked complete"))) from None
    result = dict(record(done, "completing the upload of %s" % shown(file_name)) if done is not None else {})
    result.setdefault("key", key)
    return result


def wait_for_unpacker(site: Site, status_id: int, timeout: float, poll: float = 2.0,
                      sleep: Callable[[float], None] = time.sleep) -> int:
    """The competition the unpacker made from a bundle; its error (``details``) in one line."""
    waited = 0.0
    while True:
        what = "the unpacker's status (status id %d)" % status_id
        state = record(site.get("/api/competitions/%d/creation_status/" % status_id, what=what) or {}, what)
        status = state.get("status")
        if status == "Finished" and state.get("resulting_competition"):
            return identifier(state["resulting_competition"], what + ", resulting_competition")
        if status == "Failed":
            details = " ".join(str(state.get("details") or "no details").split())
            raise CodabenchError("the site could not unpack the bundle: %s" % shown(details, 400))
        if waited >= timeout:
            raise CodabenchError("the unpacker had not finished after %g s (status id %d, status %s): the "
                                 "competition may still appear under Benchmarks > Management; do not upload again "
                                 "before checking" % (timeout, status_id, shown(str(status))))
        sleep(poll)
        waited += poll


def my_datasets(site: Site, kind: str) -> List[dict]:
    """The organiser's own datasets of one type (``?_type=dataset``: created by the token's user)."""
    return list(site.pages("/api/datasets/", what="your datasets", _type="dataset", type=kind, page_size=100))
