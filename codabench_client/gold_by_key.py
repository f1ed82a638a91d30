"""What an anonymous visitor takes of each task's reference data by its dataset key, and whether
that is due: ``/datasets/download/<key>/`` redirects anyone to the file on snapshots without the
fix of codalab/codabench#2345 (``src/apps/datasets/views.py`` ``download``: no permission check);
the keys come from the competition API (each phase's tasks' ``public_datasets``), which a visitor
reads too once the competition is published.

A key is ``closed`` when it gives the build's placeholder (``bundle/held_back.py``) or nothing;
``open`` when it gives a blind phase's stand-in (told by what the zip holds, never by its
settings' flag) or gold that is public by design or due; ``OPEN`` otherwise. Gold is decided by
the phases' settings and ids, never by a name or a position: every phase whose task holds the same
gold (the same key or the same bytes) must be past its blind run (a zip whose
``scoring_config.json`` says ``"blind": true`` is blind until its phase ends on the site) and, when
a phase comes before it, past that phase's end. Gold that only the first phase scores on, not
blind, is that phase's practice data: public by design.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import tempfile
import zipfile
import zlib
from typing import Callable, Dict, List, NamedTuple, Optional, Set, Tuple

from bundle.held_back import read_placeholder
from ranking.names import shown

from . import phases, reference
from .datasets import DATASET_KEY
from .errors import CodabenchError, HTTPStatusError, SiteDistrusted
from .site import Site

PROBE_BYTES = 1 << 16
# A reference data zip up to this size is read whole to tell a blind phase's stand-in (the public
# inputs and ``scoring_config.json`` with ``"blind": true``, no answers: what the build uploads for a
# blind phase) from gold, and to compare it with the other phases'; a larger one is taken for gold.
STAND_IN_BYTES = 64 << 20
MAX_STAND_IN_MEMBERS = 100000


class Probe(NamedTuple):
    """What a visitor got for one key: ``taken`` (a file), ``how`` (its size or the refusal), the
    placeholder's ``note``, whether it is a blind ``stand_in``, the zip's ``blind`` flag, and the
    ``digest`` of the whole file (None when it was not read whole)."""
    taken: bool
    how: str
    note: Optional[dict]
    stand_in: bool
    blind: bool
    digest: Optional[str]


def reference_keys(comp: dict) -> List[Tuple[dict, dict, str]]:
    """(phase, task, key) of every task's reference data, in the phases' order."""
    found = []
    for phase in phases.ordered(comp):
        for task in phases.tasks_of(phase):
            data = reference.reference_dataset(task) or {}
            key = data.get("key")
            if isinstance(key, str) and DATASET_KEY.match(key):
                found.append((phase, task, key))
    return found


def _unpack(data: bytes, folder: str) -> bool:
    """The zip ``data`` into ``folder`` (regular files only, no name out of it, bounded in count and
    size); False when it is no such zip."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
            if len(members) > MAX_STAND_IN_MEMBERS or sum(m.file_size for m in members) > 4 * STAND_IN_BYTES:
                return False
            root = os.path.realpath(folder)
            for member in members:
                name = member.filename.replace("\\", "/")
                target = os.path.realpath(os.path.join(folder, *[part for part in name.split("/") if part]))
                if not target.startswith(root + os.sep) or ".." in name.split("/"):
                    return False
                if member.is_dir():
                    os.makedirs(target, exist_ok=True)
                    continue
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with archive.open(member) as source, open(target, "wb") as handle:
                    shutil.copyfileobj(source, handle, 1 << 20)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError, zlib.error):
        return False
    return True


def _is_blind_stand_in(data: bytes) -> bool:
    """Whether ``data`` is a whole zip whose every track's gold holds no answers: each is, byte for
    byte, the stand-in its own public inputs make (what the build uploads for a blind phase), or
    those public inputs themselves (``scorer.outputs.blind.not_gold``). Decided by what the zip holds, never by its
    ``scoring_config.json``: the real gold beside ``"blind": true`` is gold. A zip with no gold of
    any track, or that cannot be read, is not called harmless."""
    from scorer.outputs.blind import not_gold
    from scorer.tracks.registry import TRACKS
    with tempfile.TemporaryDirectory(prefix="codabench-check-") as work:
        folder = os.path.join(work, "ref")
        os.makedirs(folder)
        if not _unpack(data, folder):
            return False
        tracks = [track for track in TRACKS if track.find_gold(folder) is not None]
        return bool(tracks) and len(not_gold(folder, os.path.join(work, "derived"), tracks)) == len(tracks)


def _blind_flag(data: bytes) -> bool:
    """Whether the zip's ``scoring_config.json`` makes its phase blind (a phase's settings)."""
    from scorer.readers.options import CONFIG_NAME
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            with archive.open(CONFIG_NAME) as handle:
                settings = json.loads(handle.read(1 << 20).decode("utf-8"))
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, EOFError, NotImplementedError, RuntimeError,
            zlib.error, RecursionError):
        return False
    return isinstance(settings, dict) and settings.get("blind") is True


def probe(visitor: Site, key: str) -> Probe:
    """What a visitor gets for ``key``: the file (read whole up to STAND_IN_BYTES), or the refusal."""
    try:
        with visitor.open("GET", "/datasets/download/%s/" % key, what="the download of %s" % key) as answer:
            data = answer.read(PROBE_BYTES)
            length = answer.headers.get("Content-Length")
            if data and length and length.isdigit() and int(length) <= STAND_IN_BYTES:
                data += answer.read(int(length) - len(data) + 1)
    except HTTPStatusError as error:
        return Probe(False, "HTTP %d" % error.code, None, False, False, None)
    except SiteDistrusted:
        raise
    except CodabenchError as error:
        return Probe(False, str(error), None, False, False, None)
    if not data:
        return Probe(False, "an empty answer", None, False, False, None)
    whole = (length is not None and length.isdigit() and int(length) == len(data)) or len(data) < PROBE_BYTES
    note = read_placeholder(data) if len(data) <= reference.PLACEHOLDER_BYTES else None
    size = "%s bytes" % length if length else "%d+ bytes" % len(data)
    return Probe(True, size, note, note is None and _is_blind_stand_in(data), _blind_flag(data),
                 hashlib.sha256(data).hexdigest() if whole else None)


def named(phase: dict) -> str:
    return "phase %s (id %s)" % (shown(str(phase.get("name", ""))), phase.get("id"))


def gold_verdict(comp: dict, key: str, probes: Dict[str, Probe], uses: List[Tuple[dict, str]],
                 now) -> Tuple[bool, str]:
    """(due, why) for the gold a visitor takes by ``key``: every phase scoring on it (``uses``:
    (phase, key) of every task, the same key or the same bytes) past its blind run and past the
    end of the phase before it."""
    mine = probes[key]
    users = []
    for phase, other in uses:
        same = other == key or (mine.digest is not None and probes[other].digest == mine.digest)
        if same and all(user.get("id") != phase.get("id") for user in users):
            users.append(phase)
    problems, reasons = [], []
    for phase in users:
        before = phases.previous(comp, phase)
        if mine.blind and not phases.ended(phase, now):
            problems.append("%s is blind (its scoring_config.json) and has not ended on the site" % named(phase))
        elif mine.blind:
            reasons.append("%s ended %s" % (named(phase), shown(str(phase.get("end")))))
        if before is not None and not phases.ended(before, now):
            problems.append("%s scores on it and %s before it has not ended on the site" % (named(phase), named(before)))
        elif before is not None:
            reasons.append("%s ended %s" % (named(before), shown(str(before.get("end")))))
    if problems:
        return False, "; ".join(problems)
    if not reasons:
        return True, ("public by design: %s is not blind and no later phase scores on this gold (practice)"
                      % named(users[0]))
    return True, "due, " + "; ".join(reasons)


def gold_lines(visitor: Site, comp: dict, visible: Set[str], say: Callable[[str], None]) -> Tuple[bool, Set[str]]:
    """One line per task's reference data; (whether gold is taken before it is due, the ids of the
    phases whose gold is their practice data)."""
    keys = reference_keys(comp)
    if not keys:
        say("closed  reference data by key: the competition lists no reference data keys")
    probes: Dict[str, Probe] = {}
    for _, _, key in keys:
        if key not in probes:
            probes[key] = probe(visitor, key)
    uses = [(phase, key) for phase, _, key in keys if probes[key].taken and probes[key].note is None]
    now = phases.now_utc()
    gold_open, practice = False, set()
    for phase, task, key in keys:
        found = probes[key]
        at = "reference data by key: %s, %s" % (named(phase), reference.task_label(task))
        seen = "the competition API shows a visitor this key" if key in visible else "for anyone who has the key"
        if found.note is not None:
            say("closed  %s: a visitor gets the build's placeholder, nothing of the data: the %s (%s) is held back, %s"
                % (at, shown(str(found.note.get("kind"))), shown(str(found.note.get("held_back"))),
                   reference.due_on_site(comp, phase, found.note)))
        elif not found.taken:
            say("closed  %s: a visitor gets %s" % (at, found.how))
        elif found.stand_in:
            say("open    %s: /datasets/download/%s/ gives a visitor a blind phase's stand-in, the public inputs without "
                "answers (%s; %s)" % (at, key, found.how, seen))
        else:
            due, why = gold_verdict(comp, key, probes, uses, now)
            if due and why.startswith("public by design"):
                practice.add(str(phase.get("id")))
            gold_open = gold_open or not due
            say("%s %s: /datasets/download/%s/ gives a visitor the gold (%s; %s; codalab/codabench#2345)%s %s"
                % ("open   " if due else "OPEN   ", at, key, found.how, seen, ":" if due else " before it is due:", why))
    return gold_open, practice
