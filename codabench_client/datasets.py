"""Datasets as the site serves them: a dataset counts as holding a file only when the bytes read
back through ``/datasets/download/<key>/`` have the file's size and sha256 (the listed
``file_size``, the storage's answer at completion, rules out the others without a download), never
because a name or description says so.

A dataset is made as the site's own pages make it (``client.js`` ``create_dataset``):
``POST /api/datasets/`` with its metadata and ``request_sassy_file_name`` -> ``key`` and a
presigned ``sassy_url`` (the view stores an empty file there first); the file ``PUT`` there (no
token: it is the storage's URL); then ``PUT /api/datasets/completed/<key>/`` (for a bundle:
``{"status_id"}`` of the unpacker). The client reads the bytes back before completing: a dataset
whose upload failed stays empty, and is replaced by the next run, never reused.
"""

from __future__ import annotations

import hashlib
import os
import re
from typing import Dict, Iterable, List, NamedTuple, Optional, Tuple

from ranking.names import shown

from .errors import CodabenchError, HTTPStatusError
from .shapes import record, text
from .site import Site

DATASET_KEY = re.compile(r"^[0-9A-Za-z-]{1,64}$")  # a uuid: nothing that makes another path of the site
CHUNK = 1 << 20


class Local(NamedTuple):
    """A file of the organiser's: its path, name, size and sha256."""
    path: str
    name: str
    size: int
    sha256: str


def sha256_of(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def local(path: str) -> Local:
    return Local(path, os.path.basename(path), os.path.getsize(path), sha256_of(path))


def download_path(key: object) -> str:
    """The site's download path of a dataset key; one line when the key is no dataset key."""
    if not isinstance(key, str) or not DATASET_KEY.match(key):
        raise CodabenchError("the site gives %s as a dataset key" % shown(repr(key), 80))
    return "/datasets/download/%s/" % key


def served(site: Site, key: object, limit: int) -> Optional[Tuple[int, str]]:
    """(size, sha256) of what the site serves for the dataset ``key``, reading at most ``limit`` + 1
    bytes (a size of ``limit`` + 1: more than ``limit``); None when it serves no file (HTTP 403,
    404 or 410, the site's or its storage's)."""
    digest, size = hashlib.sha256(), 0
    try:
        with site.open("GET", download_path(key), what="dataset %s's file" % key) as answer:
            while size <= limit:
                chunk = answer.read(min(CHUNK, limit + 1 - size))
                if not chunk:
                    break
                digest.update(chunk)
                size += len(chunk)
    except HTTPStatusError as error:
        if error.code in (403, 404, 410):
            return None
        raise
    return size, digest.hexdigest()


def seen(answer: Optional[Tuple[int, str]], limit: int) -> str:
    """What ``served`` found, for a line: "no file", "0 bytes", "N bytes (sha256 ab12...)"."""
    if answer is None:
        return "no file"
    if answer[0] > limit:
        return "more than %d bytes" % limit
    return "%d bytes" % answer[0] + (" (sha256 %s...)" % answer[1][:12] if answer[0] else "")


def listed_size(dataset: dict) -> Optional[int]:
    size = dataset.get("file_size")
    if isinstance(size, (int, float)) and not isinstance(size, bool) and size >= 0 and size == int(size):
        return int(size)
    return None


def serves(site: Site, dataset: dict, file: Local) -> bool:
    """Whether the site serves ``file``'s bytes as ``dataset`` (a listed size that differs is
    enough to say no; an equal one is read back)."""
    size = listed_size(dataset)
    if size is not None and size not in (0, file.size):
        return False  # (0: a listing written before the file was complete; read back)
    return served(site, dataset.get("key"), file.size) == (file.size, file.sha256)


def first_serving(site: Site, candidates: Iterable[dict], file: Local) -> Optional[dict]:
    """The first of ``candidates`` the site serves ``file``'s bytes as, or None."""
    for dataset in candidates:
        if isinstance(dataset, dict) and isinstance(dataset.get("key"), str) and serves(site, dataset, file):
            return dataset
    return None


def me(site: Site) -> str:
    """The token's user name (``GET /api/my_profile/``: ``MyProfileSerializer``)."""
    answer = record(site.get("/api/my_profile/", what="your profile"), "your profile")
    return text(answer.get("username"), "your profile, username")


def mine(site: Site, kind: str, owner: str, selection: str = "dataset") -> List[dict]:
    """``owner``'s datasets of type ``kind``, as the site lists them (``?_type=``) and checked
    again: another user's dataset, or one of another type, is never taken for the organiser's."""
    listed = site.pages("/api/datasets/", what="your datasets", _type=selection, type=kind, page_size=100)
    return [d for d in listed if d.get("created_by") == owner and d.get("type") == kind]


def made_for(dataset: dict, comp_id: int) -> bool:
    """Whether the dataset's description says this client made it for competition ``comp_id``
    (with the served bytes and the owner, what makes an earlier upload reusable)."""
    return re.search(r"\bcompetition %d\b" % comp_id, str(dataset.get("description") or "")) is not None


def free_name(name: str, datasets: Iterable[dict]) -> str:
    """``name``, or ``name (2)``, ... when a dataset of the organiser's has it (the site refuses a
    second dataset of one name; a half-made one keeps its name)."""
    taken = {d.get("name") for d in datasets}
    number, candidate = 1, name
    while candidate in taken:
        number += 1
        candidate = "%s (%d)" % (name, number)
    return candidate


def upload_dataset(site: Site, file: Local, kind: str, name: Optional[str] = None, description: str = "",
                   extra: Optional[Dict[str, object]] = None) -> dict:
    """A dataset of type ``kind`` holding ``file``: its ``{"key", ...}`` from the completion call (a
    bundle's has ``status_id``), completed only once the site serves the file's bytes. A failure
    after the dataset was created says so: it is left under Resources, and the next run replaces it."""
    metadata: Dict[str, object] = {"type": kind, "request_sassy_file_name": file.name, "file_name": file.name,
                                   "file_size": file.size, "description": description, "is_public": False}
    if name:
        metadata["name"] = name
    metadata.update(extra or {})
    created = site.call("POST", "/api/datasets/", metadata, what="creating the dataset for %s" % shown(file.name))
    if not isinstance(created, dict) or not isinstance(created.get("key"), str) or not created.get("key") \
            or not isinstance(created.get("sassy_url"), str) or not created.get("sassy_url"):
        raise CodabenchError("creating the dataset for %s: the site gave no upload URL" % shown(file.name))
    key = created["key"]
    left = ("dataset %s (%s) was created but holds no file: delete it under Resources > Datasets, or leave it, "
            "and run the same command again" % (key, shown(file.name)))
    with open(file.path, "rb") as handle:
        data = handle.read()
    try:
        with site.open("PUT", created["sassy_url"], data, {"Content-Type": "application/zip"},
                       what="uploading %s to the site's storage" % shown(file.name)) as answer:
            answer.read(1 << 20)
    except CodabenchError as error:
        raise CodabenchError("%s; %s" % (error, left)) from None
    back = served(site, key, file.size)
    if back != (file.size, file.sha256):
        raise CodabenchError("uploading %s: the storage took it but the site serves %s as dataset %s, not its %d bytes "
                             "(sha256 %s...); run the same command again (that dataset is replaced, not reused)"
                             % (shown(file.name), seen(back, file.size), key, file.size, file.sha256[:12]))
    try:
        done = site.call("PUT", "/api/datasets/completed/%s/" % key, what="completing the upload of %s" % shown(file.name))
    except CodabenchError as error:
        raise CodabenchError("%s; %s" % (error, left.replace("holds no file", "was not marked complete"))) from None
    result = dict(record(done, "completing the upload of %s" % shown(file.name)) if done is not None else {})
    result["key"] = key
    return result
