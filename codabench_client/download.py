"""A phase's submissions and its results export, as a folder ``rank_submissions.py`` reads:

    OUT/<id>_<owner>_PhaseId<phase>_<date>_<file>   each submission's file, named as the
                                                   submissions manager's bulk download names it
    OUT/results.json        the results export of the phase (the board and its fact sheets)
    OUT/submissions.csv     id, owner, team (fact sheet), date, status, on the board, file, bytes, sha256
    OUT/failed.txt          only when something was not downloaded: what, and why
                            (rank_submissions.py lists each line; removed once a run takes them all)
    OUT/codabench_download.json   what is complete (a second run resumes from it), and each
                                   file's submission id, owner and phase as the site lists them:
                                   rank_submissions.py takes the owners from it, not from the names

The endpoints (read in ``src/apps/api/views/submissions.py``, recorded from a real site):
``GET /api/submissions/?phase=<id>`` lists the phase's submissions (every one for a competition
admin; a plain list on the snapshot, DRF pages followed when a site paginates; children of
multi-task submissions have a ``parent`` and are left out); ``POST
/api/submissions/download_many/`` ``{"pks": [...]}`` gives each one's bulk name and file URL
(the storage's, fetched without the token; ``GET /api/submissions/<id>/get_details/``
``data_file`` where a site lacks it); ``GET /api/competitions/<id>/results.json?phase=<id>`` the
export (competition admins only).

Each file is checked against the size the storage declares; one that declares more than
``ranking.unpacking.MAX_MEMBER_BYTES`` or inflates more than ``MAX_MEMBER_RATIO`` times is
refused (listed in failed.txt), as ``rank_submissions.py`` refuses such a member of a bulk zip.
An interrupted file is kept as ``<name>.part`` and continued (HTTP Range) by the next run.
"""

from __future__ import annotations

import datetime
import http.client
import json
import os
import re
import zipfile
from typing import Callable, Dict, List, Optional, Tuple

from ranking.codabench_download import CODABENCH_ENTRY
from ranking.codabench_export import MAX_EXPORT_MEMBER_BYTES
from ranking.names import shown
from ranking.unpacking import MAX_MEMBER_BYTES, MAX_MEMBER_RATIO, RATIO_FLOOR_BYTES

from . import phases, resources
from .datasets import sha256_of
from .download_folder import (check_out, holds, is_complete, load_manifest, save_manifest, write_atomic,
                              write_failed, write_table)
from .errors import CodabenchError, HTTPStatusError, SiteDistrusted, URLRefused
from .shapes import identifier as site_id
from .shapes import record, records, text
from .site import Site

SELECT = ("all", "leaderboard", "last")
BATCH = 100  # submissions per download_many call
CHUNK = 1 << 20


class FileProblem(Exception):
    """One submission's file could not be taken (the others go on); ``retry``: a next run may
    get it (a short file, a missing object), else it is refused for good (over the bounds)."""

    def __init__(self, message: str, retry: bool = True):
        super().__init__(message)
        self.retry = retry


class Stopped(Exception):
    """The site went away (or stopped answering) in the middle: the run stops, resumable."""


def chosen_submissions(submissions: List[dict], mode: str) -> List[dict]:
    """The submissions ``mode`` keeps, by id: ``all``; ``leaderboard`` (those on the phase's board);
    ``last`` (per owner the highest-id Finished one, as Force_Last puts it on the board)."""
    top = sorted((s for s in submissions if not s.get("parent")), key=lambda s: int(s["id"]))
    if mode == "all":
        return top
    if mode == "leaderboard":
        return [s for s in top if s.get("on_leaderboard") or s.get("leaderboard")]
    last: Dict[str, dict] = {}
    for submission in top:
        if submission.get("status") == "Finished":
            last[str(submission.get("owner"))] = submission
    return sorted(last.values(), key=lambda s: int(s["id"]))


SAFE_NAME = re.compile(r"[^\w.@+\-]")  # letters and digits of any script stay (josé is not jos_)
MAX_NAME_BYTES = 200


def _cut(name: str, limit: int) -> str:
    """``name`` cut to at most ``limit`` bytes of UTF-8 (a file name's bound is in bytes)."""
    return name.encode("utf-8")[:limit].decode("utf-8", "ignore")


def local_name(name: str, submission: dict, phase_id: int) -> str:
    """The file's name in OUT: the platform's bulk name (``: / \\`` and anything but letters,
    digits and ``. _ @ + -`` as ``_``, as the browser saves it); made from the submission's own
    fields when the site's name does not have that shape or another id. The owner is recorded in
    the manifest from the site's record: the name is for people, never parsed for it."""
    safe = _cut(SAFE_NAME.sub("_", name), MAX_NAME_BYTES)
    match = CODABENCH_ENTRY.match(safe)
    if match and match.group(1) == str(submission["id"]) and not safe.startswith("."):
        return safe
    when = str(submission.get("created_when") or "")
    try:
        stamp = datetime.datetime.fromisoformat(when.replace("Z", "+00:00")).strftime("%Y-%m-%d_%M-%S")
    except ValueError:
        stamp = "0000-00-00_00-00"
    file_name = SAFE_NAME.sub("_", str(submission.get("filename") or "submission.zip"))[-60:]
    owner = _cut(SAFE_NAME.sub("_", str(submission.get("owner") or "unknown")), 60)
    return "%s_%s_PhaseId%d_%s_%s" % (submission["id"], owner, phase_id, stamp, file_name)


def file_urls(site: Site, chosen: List[dict], phase_id: int) -> Dict[int, Tuple[str, str]]:
    """Submission id -> (name in OUT, file URL)."""
    found: Dict[int, Tuple[str, str]] = {}
    by_id = {int(s["id"]): s for s in chosen}
    ids = sorted(by_id)
    try:
        for start in range(0, len(ids), BATCH):
            batch = ids[start:start + BATCH]
            what = "the file list of submissions %d-%d" % (batch[0], batch[-1])
            answer = site.call("POST", "/api/submissions/download_many/", {"pks": batch}, what=what)
            for number, item in enumerate(records(answer, what), start=1):
                name = text(item.get("name", ""), "%s, item %d, name" % (what, number))
                head = name.split("_", 1)[0]
                if head.isdigit() and len(head) < 19 and int(head) in by_id and item.get("url"):
                    found[int(head)] = (local_name(name, by_id[int(head)], phase_id),
                                        text(item["url"], "%s, item %d, url" % (what, number)))
    except HTTPStatusError as error:
        if error.code not in (400, 404, 405):
            raise
    for wanted in ids:  # a site without download_many, or a submission it left out
        if wanted not in found:
            what = "submission %d's files" % wanted
            details = record(site.get("/api/submissions/%d/get_details/" % wanted, what=what) or {}, what)
            if details.get("data_file"):
                found[wanted] = (local_name("", by_id[wanted], phase_id), text(details["data_file"], what + ", data_file"))
    return found


def _total_from(answer, have: int) -> Optional[int]:
    if answer.status == 206:
        match = re.match(r"bytes (\d+)-(\d+)/(\d+)", answer.headers.get("Content-Range", ""))
        if not match or int(match.group(1)) != have:
            return None
        return int(match.group(3))
    length = answer.headers.get("Content-Length")
    return int(length) if length and length.isdigit() else None


def fetch(site: Site, url: str, path: str, shown_as: str) -> int:
    """The file at ``url`` into ``path`` (through ``path.part``, continued where an earlier run
    stopped); its size. FileProblem for this file, Stopped when the site went away."""
    part = path + ".part"
    have = os.path.getsize(part) if os.path.exists(part) else 0
    headers = {"Range": "bytes=%d-" % have} if have else {}
    try:
        answer = site.open("GET", url, headers=headers, what="%s's file" % shown_as)
    except HTTPStatusError as error:
        if error.code == 416 and have:  # the part is no prefix of the file any more: start again
            os.remove(part)
            return fetch(site, url, path, shown_as)
        if error.code in (403, 404, 410):
            raise FileProblem(str(error)) from None
        raise Stopped(str(error)) from None
    except FileProblem:
        raise
    except URLRefused as error:  # a URL the client does not open (file:, ...): this file, never retried
        raise FileProblem(str(error), retry=False) from None
    except SiteDistrusted:
        raise  # another host than the site's and its storage's: the command stops
    except CodabenchError as error:
        raise Stopped(str(error)) from None
    with answer:
        if answer.status != 206:
            have = 0
        total = _total_from(answer, have)
        if answer.status == 206 and total is None:
            answer.close()
            os.remove(part)
            return fetch(site, url, path, shown_as)
        if total is not None and total > MAX_MEMBER_BYTES:
            raise FileProblem("%s: declares %d bytes; a submission may have at most %d (Codalab v1.5's upper bound, "
                              "as rank_submissions.py applies)" % (shown_as, total, MAX_MEMBER_BYTES), retry=False)
        written = have
        try:
            with open(part, "ab" if have else "wb") as target:
                while True:
                    chunk = answer.read(CHUNK)
                    if not chunk:
                        break
                    written += len(chunk)
                    if written > MAX_MEMBER_BYTES:
                        target.close()
                        os.remove(part)
                        raise FileProblem("%s: more than %d bytes; refused" % (shown_as, MAX_MEMBER_BYTES), retry=False)
                    target.write(chunk)
        except CodabenchError as error:  # the answer's deadline passed
            raise Stopped(str(error)) from None
        except (http.client.HTTPException, ConnectionError, TimeoutError, OSError) as error:
            if isinstance(error, OSError) and getattr(error, "filename", None):
                raise  # our own disk: not the site's doing
            raise Stopped("%s: the download broke off after %d of %s bytes (%s)"
                          % (shown_as, written, total if total is not None else "?",
                             shown(str(error) or type(error).__name__))) from None
    if total is not None and written < total:
        raise FileProblem("%s: %d of %d bytes arrived (a short file, kept as .part: run again to continue it)"
                          % (shown_as, written, total))
    os.replace(part, path)
    return written


def check_archive(path: str, shown_as: str) -> None:
    """A zip inflating more than MAX_MEMBER_RATIO times (above RATIO_FLOOR_BYTES) is refused; a
    file that is not a zip is left for rank_submissions.py to report."""
    size = os.path.getsize(path)
    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(member.file_size for member in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError):
        return
    if unpacked > RATIO_FLOOR_BYTES and unpacked > MAX_MEMBER_RATIO * max(1, size):
        os.remove(path)
        raise FileProblem("%s: inflates %d times (%d bytes from %d); at most %d times is accepted"
                          % (shown_as, unpacked // max(1, size), unpacked, size, MAX_MEMBER_RATIO), retry=False)


def checked_submission(submission: dict, what: str) -> dict:
    """A listed submission with the fields the download reads in their shapes: ``id`` an id,
    ``owner`` and ``status`` strings (or absent); one CodabenchError line otherwise."""
    where = "%s, submission %s" % (what, shown(repr(submission.get("id")), 30))
    submission["id"] = site_id(submission.get("id"), where + ", id")
    for key in ("owner", "status", "filename", "created_when"):
        if submission.get(key) is not None:
            text(submission[key], "%s, %s" % (where, key))
    return submission


def download(site: Site, comp_id: int, phase_arg: str, out: str, mode: str = "all",
             say: Callable[[str], None] = print) -> int:
    """Download; 0 when every chosen submission is in OUT (or refused, with its reason), 1 otherwise."""
    comp = resources.competition(site, comp_id)
    phase = phases.phase_of(comp, phase_arg)
    phases.ordered(comp)
    phase_id = site_id(phase["id"], "the phase's id")
    check_out(out)
    what = "the submissions of phase %d" % phase_id
    listed = [checked_submission(s, what) for s in site.pages("/api/submissions/", what=what, phase=phase_id)]
    listed = [s for s in listed if str(s.get("phase")) == str(phase_id)]
    chosen = chosen_submissions(listed, mode)
    # the export first: only a competition admin may take it, and anyone else's token lists only
    # their own submissions (a count that would look complete)
    export = site.call("GET", "/api/competitions/%d/results.json?phase=%d" % (comp_id, phase_id),
                       what="the results export of phase %d" % phase_id)
    if export is not None:
        record(export, "the results export of phase %d" % phase_id)
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as error:
        raise CodabenchError("OUT %s: cannot be made (%s)" % (shown(out), error.strerror or error)) from None
    manifest = load_manifest(out, site, comp_id, phase_id)
    files = manifest["files"]
    say("competition %d, phase %s (id %d): %d submissions listed, %d chosen (--select %s)"
        % (comp_id, shown(str(phase.get("name", ""))), phase_id, len([s for s in listed if not s.get("parent")]),
           len(chosen), mode))
    for submission in chosen:  # the owner as the site lists it (an earlier run's entries too)
        if isinstance(files.get(str(submission["id"])), dict):
            files[str(submission["id"])].update(owner=str(submission.get("owner") or ""), phase=phase_id)
    todo = [s for s in chosen if not is_complete(out, files.get(str(s["id"])))]
    already = len(chosen) - len(todo)
    urls = file_urls(site, todo, phase_id) if todo else {}
    problems: Dict[str, str] = {}
    retry: List[str] = []
    fetched = 0
    stopped = ""
    for submission in todo:
        identifier = int(submission["id"])
        if identifier not in urls:
            problems[str(identifier)] = "submission %d: the site gives no file for it" % identifier
            retry.append(str(identifier))
            continue
        name, url = urls[identifier]
        path = os.path.join(out, name)
        try:
            size = fetch(site, url, path, name)
            check_archive(path, name)
        except FileProblem as problem:
            problems[str(identifier)] = str(problem)
            if problem.retry:
                retry.append(str(identifier))
            say("%s: %s" % ("not downloaded" if problem.retry else "refused", problem))
            continue
        except Stopped as stop:
            stopped = str(stop)
            break
        files[str(identifier)] = {"name": name, "bytes": size, "sha256": sha256_of(path),
                                  "owner": str(submission.get("owner") or ""), "phase": phase_id}
        fetched += 1
        save_manifest(out, manifest)
    save_manifest(out, manifest)
    complete = [s for s in chosen if is_complete(out, files.get(str(s["id"])))]
    write_table(out, chosen, files)
    write_failed(out, chosen, files, problems)
    if stopped:
        say("stopped: %s" % stopped)
        say("%d of %d submissions are in %s (%d this run): run the same command again to resume"
            % (len(complete), len(chosen), shown(out), fetched))
        return 1
    data = json.dumps(export if export is not None else {}, indent=4).encode("utf-8")
    if len(data) > MAX_EXPORT_MEMBER_BYTES:
        raise CodabenchError("the results export is %d bytes, over %d" % (len(data), MAX_EXPORT_MEMBER_BYTES))
    results = os.path.join(out, "results.json")
    same = fetched == 0 and holds(results, data)
    write_atomic(results, data)
    entries = sum(len(board) for board in (export or {}).values() if isinstance(board, dict)) \
        if isinstance(export, dict) else 0
    say("%d of %d submissions in %s (%d downloaded now, %d already there), results.json with %d board entries%s"
        % (len(complete), len(chosen), shown(out), fetched, already, entries, ": unchanged" if same else ""))
    refused = len(problems) - len(retry)
    if retry:
        say("%d not downloaded (listed in failed.txt): run the same command again to retry them" % len(retry))
        return 1
    if len(complete) + refused != len(chosen):
        say("the count differs: %d listed by the API, %d in %s" % (len(chosen), len(complete), shown(out)))
        return 1
    if refused:
        say("%d refused (listed in failed.txt; rank_submissions.py lists them as not downloaded)" % refused)
    say("next: rank_submissions.py %s --results %s --ref <the phase's gold> --out <folder>"
        % (shown(out), shown(os.path.join(out, "results.json"))))
    return 0
