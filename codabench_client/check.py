"""What the site lets an anonymous visitor take from a competition, tried as one (no token):

- the reference data (gold) of every task by its dataset key: ``/datasets/download/<key>/``
  redirects anyone to the file on snapshots without the fix of codalab/codabench#2345
  (``src/apps/datasets/views.py`` ``download``: no permission check); the keys come from the
  competition API (each phase's tasks' ``public_datasets``), which a visitor reads too once the
  competition is published;
- each phase's board through ``GET /api/phases/<id>/get_leaderboard/`` (``AllowAny``), which
  matters when the board is hidden;
- a submission's detailed results (``get_detail_result``) and its details (``get_details``: the
  file, logs and outputs).

One line per channel: ``OPEN`` (a visitor takes what should be closed), ``open`` (public by the
competition's settings or due: a published competition, a board not hidden, the first phase's
gold, a released stand-in, a later phase's gold once the phase before has ended) or ``closed``
(the build's placeholder of what is not yet due, a refusal); the organiser's token (when given)
only finds the keys and submissions to try.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import tempfile
import zipfile
import zlib
from typing import Callable, List, Optional, Tuple

from ranking.names import shown

from bundle.held_back import read_placeholder

from . import lifecycle, resources
from .errors import CodabenchError, HTTPStatusError
from .shapes import identifier
from .site import Site

PROBE_BYTES = 1 << 16
DATASET_KEY = re.compile(r"^[0-9A-Za-z-]{1,64}$")  # a uuid: nothing that makes another path of the site
# A reference data zip up to this size is read whole to tell a blind phase's stand-in (the public
# inputs and ``scoring_config.json`` with ``"blind": true``, no answers: what the build uploads for a
# blind phase) from gold; a larger one is taken for gold.
STAND_IN_BYTES = 64 << 20


def reference_keys(comp: dict) -> List[Tuple[str, str, str]]:
    """(phase name, task name, key) of every task's reference data, once per key."""
    found: List[Tuple[str, str, str]] = []
    seen = set()
    for phase in comp.get("phases") or []:
        for task in phase.get("tasks") or []:
            for data in task.get("public_datasets") or []:
                key = data.get("key")
                if data.get("type") == "reference_data" and isinstance(key, str) and DATASET_KEY.match(key) \
                        and key not in seen:
                    seen.add(key)
                    found.append((str(phase.get("name", "")), str(task.get("name", "")), str(key)))
    return found


def _probe_download(visitor: Site, key: str) -> Tuple[bool, str, bool]:
    """(taken, how, blind): whether a visitor gets the file, its size or the refusal, and whether
    it is a blind phase's stand-in (no answers) rather than gold."""
    try:
        with visitor.open("GET", "/datasets/download/%s/" % key, what="the download of %s" % key) as answer:
            data = answer.read(PROBE_BYTES)
            length = answer.headers.get("Content-Length")
            if data and length and length.isdigit() and int(length) <= STAND_IN_BYTES:
                data += answer.read(int(length) - len(data) + 1)
    except HTTPStatusError as error:
        return False, "HTTP %d" % error.code, False
    except CodabenchError as error:
        return False, str(error), False
    if not data:
        return False, "an empty answer", False
    size = "%s bytes" % length if length else "%d+ bytes" % len(data)
    return True, size, _is_blind_stand_in(data)


MAX_STAND_IN_MEMBERS = 100000


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


def _placeholder_at(visitor: Site, key: str) -> Optional[dict]:
    """The note of the build's placeholder (bundle/held_back.py) when the key gives one, else None."""
    try:
        data = lifecycle.read_small(visitor, key)
    except CodabenchError:
        return None
    return read_placeholder(data) if data is not None else None


def _gold_due(comp: dict, phase_name: str) -> str:
    """Why a phase's gold may be on the platform now ("" when it may not): the first phase's is its
    practice data, in the upload by design; a later phase's is due once the phase before it has
    ended (the Post-Evaluation phase scores the migrated submissions on it)."""
    phases = sorted(comp.get("phases") or [], key=lambda p: int(p.get("index") or 0))
    names = [str(p.get("name", "")) for p in phases]
    if phase_name not in names:
        return ""
    number = names.index(phase_name)
    if number == 0:
        return "the first phase's gold (practice: in the upload by design)"
    end = lifecycle._utc(phases[number - 1].get("end"))
    if end is not None and end <= lifecycle.now_utc():
        return "phase %s ended %s" % (shown(names[number - 1]), phases[number - 1].get("end"))
    return ""


def _probe(visitor: Site, path: str) -> Tuple[bool, object, str]:
    try:
        answer = visitor.call("GET", path, what=path)
        return True, answer, "HTTP 200"
    except HTTPStatusError as error:
        return False, None, "HTTP %d" % error.code
    except CodabenchError as error:
        return False, None, str(error)


def check(site: Site, comp_id: int, say: Callable[[str], None] = print) -> int:
    """1 when gold can be taken by a visitor before it is due, else 0."""
    visitor = site.anonymous()
    try:
        public_view = resources.competition(visitor, comp_id)
        say("open    competition API: a visitor reads competition %d, its phases and tasks (published: public by "
            "design)" % comp_id)
    except HTTPStatusError as error:
        public_view = None
        say("closed  competition API: a visitor gets HTTP %d for competition %d (not published)" % (error.code, comp_id))
    if site.token:
        comp = resources.competition(site, comp_id)
    elif public_view is not None:
        comp = public_view
    else:
        raise CodabenchError("competition %d: a visitor cannot read it; give the organiser's token to find the "
                             "dataset keys to try" % comp_id)
    gold_open = False
    visible = {key for _, _, key in reference_keys(public_view)} if public_view else set()
    keys = reference_keys(comp)
    if not keys:
        say("closed  reference data by key: the competition lists no reference data keys")
    for phase, task, key in keys:
        note = _placeholder_at(visitor, key)
        if note is not None:
            say("closed  reference data by key: phase %s, task %s: a visitor gets the build's placeholder, nothing of "
                "the data: the %s (%s) is held back, due %s" % (shown(phase), shown(task), shown(str(note.get("kind"))),
                                                                shown(str(note.get("held_back"))), shown(str(note.get("due")), 300)))
            continue
        taken, how, blind = _probe_download(visitor, key)
        seen = ("the competition API shows a visitor this key" if key in visible
                else "for anyone who has the key")
        due = _gold_due(comp, phase)
        if taken and not blind and due:
            say("open    reference data by key: phase %s, task %s: /datasets/download/%s/ gives a visitor the gold "
                "(%s; %s; codalab/codabench#2345): due, %s" % (shown(phase), shown(task), key, how, seen, due))
        elif taken and blind:
            say("open    reference data by key: phase %s, task %s: /datasets/download/%s/ gives a visitor a blind "
                "phase's stand-in, the public inputs without answers (%s; %s)" % (shown(phase), shown(task), key,
                                                                                   how, seen))
        elif taken:
            gold_open = True
            say("OPEN    reference data by key: phase %s, task %s: /datasets/download/%s/ gives a visitor the gold "
                "(%s; %s; codalab/codabench#2345)" % (shown(phase), shown(task), key, how, seen))
        else:
            say("closed  reference data by key: phase %s, task %s: a visitor gets %s" % (shown(phase), shown(task), how))
    hidden = any(board.get("hidden") for board in comp.get("leaderboards") or [])
    for phase in comp.get("phases") or []:
        ok, answer, how = _probe(visitor, "/api/phases/%s/get_leaderboard/" % phase.get("id"))
        rows = len(answer["submissions"]) if ok and isinstance(answer, dict) and \
            isinstance(answer.get("submissions"), list) else 0
        what = "board of phase %s" % shown(str(phase.get("name", "")))
        if ok and hidden:
            say("OPEN    %s (hidden in the editor): get_leaderboard gives a visitor %d rows" % (what, rows))
        elif ok:
            say("open    %s: public by the competition's settings (get_leaderboard: %d rows)" % (what, rows))
        else:
            say("closed  %s: a visitor gets %s" % (what, how))
    if not site.token:
        say("-       submission details and detailed results: not tried (give the organiser's token to list the "
            "submissions)")
        return 1 if gold_open else 0
    tried = False
    phases = sorted(comp.get("phases") or [], key=lambda p: int(p.get("index") or 0))
    for number, phase in enumerate(phases):
        submission = _board_entry(site, phase)
        if submission is None:
            continue
        tried = True
        name = shown(str(phase.get("name", "")))
        end = lifecycle._utc(phase.get("end"))
        running = number > 0 and end is not None and end > lifecycle.now_utc()
        for path, what in (("/api/submissions/%d/get_detail_result/" % submission, "detailed results"),
                           ("/api/submissions/%d/get_details/" % submission, "details (submitted file, logs, outputs)")):
            ok, answer, how = _probe(visitor, path)
            where = "%s of submission %d (phase %s)" % (what, submission, name)
            if ok and answer and what == "detailed results" and comp.get("published"):
                # get_detail_result: anyone's, for a published competition with detailed results enabled
                say("open    %s: a visitor reads them (published, detailed results enabled: public by design; %s)"
                    % (where, path))
            elif ok and answer and running:
                say("OPEN    %s: a visitor takes the board entry's submitted file while the phase runs (%s): another "
                    "team can copy it; set the phase's hide_output (the build does for a blind phase) and compare "
                    "prediction files with rank_submissions.py (identical and near-identical files are flagged)"
                    % (where, path))
            elif ok and answer:
                say("open    %s: a visitor reads them (%s; %s)" % (where, path, "the first phase: practice"
                                                                   if number == 0 else "the phase has ended or never "
                                                                   "ends: its board is public"))
            else:
                say("closed  %s: a visitor gets %s" % (where, how if not ok else "nothing"))
    if not tried:
        say("-       submission details and detailed results: not tried (no board entry in any phase yet)")
    return 1 if gold_open else 0


def _board_entry(site: Site, phase: dict) -> Optional[int]:
    """The newest finished board entry of ``phase``, as the organiser lists them."""
    found = [identifier(item.get("id"), "the submissions, id")
             for item in site.pages("/api/submissions/", what="the submissions", phase=phase.get("id"))
             if isinstance(item, dict) and item.get("status") == "Finished" and not item.get("parent")
             and item.get("on_leaderboard", True)]
    return max(found) if found else None
