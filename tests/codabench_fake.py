"""A local stand-in for the few Codabench endpoints ``codabench.py`` uses (http.server in a thread),
answering with the shapes recorded from a real site (``tests/fixtures/codabench/``): the same field
names, status codes, error bodies and pagination. It is a fake of the API's surface, not of the
platform: no unpacker, no scoring; a bundle upload makes a competition from the fixture.

As the platform's code has it (``src/apps/api/``, read, not copied): ``POST /api/datasets/``
stores an empty file before it answers with the upload URL (``DataViewSet.create``), and the
completion call sets ``file_size`` from what the storage holds (``Data.save``), so a failed upload
leaves an empty dataset; ``/api/my_profile/`` names the token's user; the datasets list filters by
``?_type=`` (``dataset``, ``bundle``, ``submission``) and names a bundle's competition; a phase's
``status`` is computed from its dates at each answer (``PhaseDetailSerializer.get_status``) and
each task names its ``phase``.

Switches for the failures the client must survive: ``short_once`` (storage paths whose first GET
ends early), ``stop_after_files`` (the whole site stops answering after that many file GETs, until ``down``
is set back to False),
``missing_pages`` (list URLs that answer 404), ``submission_page_size`` (paginate the submissions
list, as a site may), ``unpack_error`` (the unpacker fails with this message),
``failing_puts`` (file names whose next storage PUT answers 500 and stores nothing), ``ignores_queries``
(lists ignore ``?phase=``, ``?_type=`` and ``?type=``: every submission, every user's dataset),
``download_hosts`` (a dataset key, ``*`` for every one or ``new`` for those made from now on -> the
origin its download redirects to instead of the storage's, ``storage_url``: another origin of the
same server), ``api_redirects`` (API path -> the URL it redirects to); a phase's ``_status`` is the
status the site's clock gives it in place of the one its dates give.
"""

from __future__ import annotations

import copy
import datetime
import json
import os
import re
import threading
import time
import urllib.parse
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Dict, List, Optional

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "codabench")
TOKENS = {"organiser-token-0123456789abcdef": "organiser", "participant-token-0123456789abcd": "participant1"}
DATASET_PAGE = 2  # BasicPagination's page_size is 10 on the site; small here to make pages
DATASET_TYPES = ("input_data", "public_data", "reference_data", "ingestion_program", "scoring_program",
                 "starting_kit", "solution")  # ?_type=dataset


def fixture(name: str):
    with open(os.path.join(FIXTURES, name), encoding="utf-8") as handle:
        return json.load(handle)


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a client that hung up (the time-out test): nothing to report


class FakeCodabench:
    def __init__(self):
        self.errors = fixture("errors.json")
        self.storage: Dict[str, bytes] = {}
        self.datasets: List[dict] = []
        self.competitions: Dict[int, dict] = {}
        self.submissions: List[dict] = []
        self.statuses: Dict[int, dict] = {}
        self.results: Dict[int, dict] = {}
        self.requests: List[str] = []  # "METHOD path" of every request, with its Authorization (or "-")
        self.short_once: set = set()
        self.stop_after_files: Optional[int] = None
        self.missing_pages: set = set()
        self.submission_page_size: Optional[int] = None
        self.unpack_error: Optional[str] = None
        self.file_gets = 0
        self.down = False  # True: every request is hung up on (the site went away)
        self.refuse_storage_puts = False  # the storage refuses the upload (an expired presigned URL)
        self.failing_puts: set = set()  # file names whose next storage PUT fails with HTTP 500 (the empty file stays)
        self.ignores_queries = False
        self.download_hosts: Dict[str, str] = {}
        self.api_redirects: Dict[str, str] = {}
        self.slow: Dict[str, float] = {}  # path -> seconds the site takes to answer
        self.task_patches: List[tuple] = []  # (task id, body) of every PATCH /api/tasks/<id>/
        self.reruns: List[int] = []  # the submissions re-run
        self.registered: Dict[int, set] = {}  # competition id -> the users registered
        self.server = _QuietServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        # the storage (S3) is another origin, as AWS_S3_ENDPOINT_URL is the site's: the same server here
        self.storage_url = "http://localhost:%d" % self.server.server_address[1]
        # (a short poll: shutdown() waits for the loop's next poll, 0.5 s by default, at every test's end)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    # --- the site's objects, from the fixtures ---------------------------------------------------

    def add_competition(self, title: str = "Six shared-task tracks", phases=("Development", "Test"),
                        published: bool = True, hidden_board: bool = False) -> dict:
        comp = fixture("competition.json")
        identifier = len(self.competitions) + 1
        comp["id"], comp["title"], comp["published"] = identifier, title, published
        template = comp["phases"][0]
        comp["phases"] = []
        for index, name in enumerate(phases):
            phase = copy.deepcopy(template)
            phase["id"], phase["index"], phase["name"] = identifier * 10 + index, index, name
            if index:  # later phases held back: nothing attached yet
                phase["public_data"] = phase["starting_kit"] = None
            task = phase["tasks"][0]
            task["id"] = task["phase"] = phase["id"]
            task["key"] = task["task"] = str(uuid.uuid4())
            task["name"] = "%s task" % name
            gold = self.add_dataset("reference_data", "%s_reference_data.zip" % name.lower(), b"GOLD " + name.encode(),
                                    owner="organiser")
            task["public_datasets"][0].update({"id": gold["id"], "key": gold["key"], "name": gold["name"],
                                               "file_name": gold["file_name"]})
            comp["phases"].append(phase)
        comp["leaderboards"][0]["hidden"] = hidden_board
        self.competitions[identifier] = comp
        return comp

    def add_dataset(self, kind: str, file_name: str, data: Optional[bytes], owner: str = "organiser",
                    name: Optional[str] = None, description: str = "") -> dict:
        dataset = fixture("dataset.json")
        dataset.update({"id": len(self.datasets) + 1, "type": kind, "file_name": file_name, "name": name or file_name,
                        "key": str(uuid.uuid4()), "created_by": owner, "description": description})
        dataset["value"] = dataset["key"]
        dataset["_path"] = "/storage/%s/%s" % (dataset["key"], file_name)
        dataset["_complete"] = data is not None
        self.storage[dataset["_path"]] = data or b""  # DataViewSet.create: an empty file until the upload
        self.datasets.append(dataset)
        return dataset

    def phase_status(self, phase: dict) -> str:
        """As PhaseDetailSerializer.get_status computes it from the phase's dates, at each answer."""
        if phase.get("_status"):
            return phase["_status"]
        def moment(text):
            return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")) if text else None
        now = datetime.datetime.now(datetime.timezone.utc)
        start, end = moment(phase.get("start")), moment(phase.get("end"))
        if start is not None and start > now:
            return "Next"
        return "Previous" if end is not None and end < now else "Current"

    def competition_answer(self, comp: dict) -> dict:
        """The competition as its serializers render it now: each phase's status, each dataset as it is."""
        answer = copy.deepcopy(comp)
        by_key = {d["key"]: d for d in self.datasets}

        def now(listed):
            known = by_key.get(listed.get("key")) if isinstance(listed, dict) else None
            return dict(listed, **self.dataset_answer(known)) if known else listed
        for phase in answer["phases"]:
            phase["status"] = self.phase_status(phase)
            for field in ("public_data", "starting_kit"):
                phase[field] = now(phase.get(field))
            for task in phase["tasks"]:
                task["public_datasets"] = [now(d) for d in task["public_datasets"]]
        return answer

    def dataset_answer(self, dataset: dict) -> dict:
        """A dataset as the list shows it (DataDetailSerializer): its file_size as Data.save recorded it
        at the completion call (0 before: the empty file), a bundle names the competition made from it."""
        answer = {k: v for k, v in dataset.items() if not k.startswith("_")}
        answer["file_size"] = float(len(self.storage.get(dataset["_path"], b""))) if dataset["_complete"] else 0.0
        made = self.competitions.get(dataset.get("_competition"))
        if dataset["type"] == "competition_bundle" and made is not None:
            answer["competition"] = {"id": made["id"], "title": made["title"]}
        return answer

    def add_submission(self, comp: dict, phase_index: int, owner: str, data: bytes, status: str = "Finished",
                       on_board: bool = True, team: str = "", file_name: str = "sample_submission.zip") -> dict:
        submission = fixture("submission.json")
        phase = comp["phases"][phase_index]
        identifier = 100 + len(self.submissions)
        stored = self.add_dataset("submission", file_name, data, owner=owner, name=None)
        submission.update({"id": identifier, "pk": identifier, "phase": phase["id"], "phase_name": phase["name"],
                           "owner": owner, "status": status, "filename": file_name,
                           "leaderboard": 1 if on_board else None, "on_leaderboard": on_board,
                           "fact_sheet_answers": {"team_name": team or owner, "system_name": "sys-" + owner},
                           "_data": stored})
        self.submissions.append(submission)
        # the export's shape (results_export.json): "<board> - <phase>(<id>)" -> "<owner>-<id>" -> answers, columns
        key = "%s-%d" % (owner, identifier)
        boards = self.results.setdefault(phase["id"], {})
        title = "%s - %s(%d)" % (comp["leaderboards"][0]["title"], phase["name"], phase["id"])
        if on_board and status == "Finished":
            task = phase["tasks"][0]
            columns = {"%s(%s)-%s" % (task["name"], task["id"], column["title"]): "0.5"
                       for column in comp["leaderboards"][0]["columns"]}
            boards.setdefault(title, {})[key] = dict({"fact_sheet_answers": submission["fact_sheet_answers"]}, **columns)
        return submission

    # --- the lifecycle's endpoints (publish, a task's reference data, re-runs, fact sheets) ---------

    def task(self, task_id: int) -> Optional[dict]:
        for comp in self.competitions.values():
            for phase in comp["phases"]:
                for task in phase["tasks"]:
                    if task["id"] == task_id:
                        return task
        return None

    def lifecycle_api(self, handler, method: str, path: str, payload, user: Optional[str]) -> bool:
        """The endpoints of the lifecycle commands, as the site's views answer them; True when handled."""
        match = re.match(r"^/api/competitions/(\d+)/toggle_publish/$", path)
        if match and method == "POST":
            comp = self.competitions.get(int(match.group(1)))
            if comp is None or user != "organiser":
                handler._error("not_found")
                return True
            comp["published"] = not comp["published"]  # the view flips the flag
            handler._send(200, {"published": comp["published"]})
            return True
        match = re.match(r"^/api/competitions/(\d+)/register/$", path)
        if match and method == "POST":
            registered = self.registered.setdefault(int(match.group(1)), set())
            if user in registered:
                handler._send(400, ["You already applied for participation in this competition!"])
                return True
            registered.add(user)
            handler._send(201, {"participant_status": "approved"})
            return True
        if path == "/api/submissions/" and method == "POST":
            comp = next((c for c in self.competitions.values() for p in c["phases"] if p["id"] == payload.get("phase")), None)
            data = [d for d in self.datasets if d["key"] == payload.get("data") and d["created_by"] == user]
            if comp is None or not data or user not in self.registered.get(comp["id"], set()):
                handler._send(400, {"non_field_errors": ["You must be approved to make a submission"]})
                return True
            answers = payload.get("fact_sheet_answers")
            if answers is not None and set(answers) != set(comp.get("fact_sheet") or {}):
                handler._send(400, {"non_field_errors": ["Fact Sheet keys do not match Answer keys"]})
                return True
            index = next(p["index"] for p in comp["phases"] if p["id"] == payload["phase"])
            submission = self.add_submission(comp, index, user, self.storage[data[0]["_path"]],
                                             file_name=data[0]["file_name"])
            submission["fact_sheet_answers"] = answers
            handler._send(201, {"id": submission["id"], "phase": payload["phase"]})
            return True
        match = re.match(r"^/api/tasks/(\d+)/$", path)
        if match and method in ("PATCH", "PUT"):
            task = self.task(int(match.group(1)))
            if task is None or user != "organiser":
                handler._error("not_found")
                return True
            kept = [d for d in task["public_datasets"] if d["type"] not in ("reference_data", "input_data",
                                                                             "ingestion_program", "scoring_program")]
            for kind in ("reference_data", "input_data", "ingestion_program", "scoring_program"):
                # TaskViewSet.update: a field left out of the request is set to none (but the scoring program)
                key = payload.get(kind)
                current = [d for d in task["public_datasets"] if d["type"] == kind]
                if key is None and kind == "scoring_program":
                    kept += current
                    continue
                if key is None:
                    continue
                found = [d for d in self.datasets if d["key"] == key]
                if not found:
                    handler._send(400, {kind: ["Object with key=%s does not exist." % key]})
                    return True
                kept.append({k: v for k, v in found[0].items() if not k.startswith("_")})
            task["public_datasets"] = kept
            self.task_patches.append((int(match.group(1)), dict(payload)))
            handler._send(200, {"id": task["id"], "key": task["key"]})
            return True
        match = re.match(r"^/api/submissions/(\d+)/(re_run_submission|update_fact_sheet|get_details)/$", path)
        if match:
            found = [s for s in self.submissions if s["id"] == int(match.group(1))]
            if not found:
                return False
            submission = found[0]
            phase = next(p for c in self.competitions.values() for p in c["phases"] if p["id"] == submission["phase"])
            if match.group(2) == "get_details":
                if phase.get("hide_output") and user != "organiser":
                    handler._send(403, {"detail": "Cannot access submission details while phase marked to hide output."})
                    return True
                return False
            if user != "organiser" and user != submission["owner"]:
                handler._error("not_found")
                return True
            if match.group(2) == "update_fact_sheet" and method == "PATCH":
                submission["fact_sheet_answers"] = payload
                handler._send(200, {})
                return True
            if match.group(2) == "re_run_submission" and method == "POST":
                comp = next(c for c in self.competitions.values() if phase in c["phases"])
                copy = self.add_submission(comp, phase["index"], submission["owner"], self.storage[submission["_data"]["_path"]],
                                           file_name=submission["filename"])
                copy["fact_sheet_answers"] = submission["fact_sheet_answers"]
                self.reruns.append(submission["id"])
                handler._send(200, {"id": copy["id"]})
                return True
        return False

    # --- HTTP ------------------------------------------------------------------------------------

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _send(self, status: int, body, headers=None, raw: Optional[bytes] = None):
                data = raw if raw is not None else json.dumps(body).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json" if raw is None else "application/octet-stream")
                self.send_header("Content-Length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            def _error(self, name: str):
                error = fake.errors[name]
                self._send(error["status"], error["body"])

            def _user(self) -> Optional[str]:
                header = self.headers.get("Authorization", "")
                if not header:
                    return None
                token = header[len("Token "):] if header.startswith("Token ") else ""
                return TOKENS.get(token, "!")

            def _body(self):
                length = int(self.headers.get("Content-Length") or 0)
                data = self.rfile.read(length) if length else b""
                return data

            def do_GET(self):
                self._dispatch("GET")

            def do_POST(self):
                self._dispatch("POST")

            def do_PUT(self):
                self._dispatch("PUT")

            def do_PATCH(self):
                self._dispatch("PATCH")

            def _hang_up(self):
                self.close_connection = True
                try:
                    self.request.shutdown(2)
                except OSError:
                    pass

            def _dispatch(self, method: str):
                fake.requests.append("%s %s %s" % (method, self.path, self.headers.get("Authorization", "-")))
                if fake.down:
                    return self._hang_up()
                body = self._body()
                parts = urllib.parse.urlsplit(self.path)
                if parts.path in fake.slow:
                    time.sleep(fake.slow[parts.path])
                path, query = parts.path, dict(urllib.parse.parse_qsl(parts.query))
                if path.startswith("/storage/"):
                    return self._storage(method, path, body)
                if path.startswith("/datasets/download/"):
                    key = path.rstrip("/").split("/")[-1]
                    found = [d for d in fake.datasets if d["key"] == key]
                    if not found:
                        return self._send(404, None, raw=b"<html><title>Not Found</title></html>")
                    self.send_response(302)
                    host = fake.download_hosts.get(key, fake.download_hosts.get("*", fake.storage_url))
                    self.send_header("Location", host + found[0]["_path"])
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if path in fake.api_redirects:
                    self.send_response(302)
                    self.send_header("Location", fake.api_redirects[path])
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if self.path in fake.missing_pages:
                    return self._error("invalid_page" if "page=" in self.path else "not_found")
                user = self._user()
                if user == "!":
                    return self._error("invalid_token")
                anonymous_ok = (re.match(r"^/api/competitions/\d+/$", path) and method == "GET") or \
                    path.endswith("/get_leaderboard/") or path.endswith("/get_detail_result/") or \
                    (path.endswith("/get_details/") and method == "GET")
                if user is None and not anonymous_ok:
                    return self._error("no_credentials")
                return self._api(method, path, query, body, user)

            def _storage(self, method: str, path: str, body: bytes):
                if method == "PUT" and fake.refuse_storage_puts:
                    return self._send(403, None, raw=b"<Error><Code>AccessDenied</Code><Message>Request has expired"
                                                     b"</Message></Error>")
                if method == "PUT" and path.rsplit("/", 1)[-1] in fake.failing_puts:
                    fake.failing_puts.discard(path.rsplit("/", 1)[-1])
                    return self._send(500, None, raw=b"<Error><Code>InternalError</Code><Message>We encountered an "
                                                     b"internal error. Please try again.</Message></Error>")
                if method == "PUT":
                    fake.storage[path] = body
                    return self._send(200, None, raw=b"")
                if path not in fake.storage:
                    return self._send(404, None, raw=b"<Error><Code>NoSuchKey</Code></Error>")
                if fake.stop_after_files is not None and fake.file_gets >= fake.stop_after_files:
                    fake.down = True  # the site goes away mid-download: from now on nothing answers
                    return self._hang_up()
                fake.file_gets += 1
                data = fake.storage[path]
                start = 0
                match = re.match(r"bytes=(\d+)-$", self.headers.get("Range", ""))
                if match:
                    start = int(match.group(1))
                    if start >= len(data):
                        return self._send(416, None, raw=b"")
                    self.send_response(206)
                    self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(data) - 1, len(data)))
                else:
                    self.send_response(200)
                self.send_header("Content-Length", str(len(data) - start))
                self.end_headers()
                if path in fake.short_once:  # a file shorter than its listed size, once
                    fake.short_once.discard(path)
                    self.wfile.write(data[start:start + (len(data) - start) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(data[start:])

            def _api(self, method, path, query, body, user):
                payload = json.loads(body.decode("utf-8")) if body else {}
                if fake.lifecycle_api(self, method, path, payload, user):
                    return None
                if path == "/api/datasets/" and method == "POST":
                    name = payload.get("name")
                    if name and any(d["name"] == name and d["created_by"] == user for d in fake.datasets):
                        return self._send(400, {"non_field_errors": ["You already have a dataset by this name, please "
                                                                     "delete that dataset or rename this one"]})
                    dataset = fake.add_dataset(payload["type"], payload["request_sassy_file_name"], None, owner=user,
                                               name=name, description=payload.get("description") or "")
                    if "new" in fake.download_hosts:
                        fake.download_hosts[dataset["key"]] = fake.download_hosts["new"]
                    return self._send(201, {"key": dataset["key"], "sassy_url": fake.storage_url + dataset["_path"]})
                match = re.match(r"^/api/datasets/completed/([0-9a-f-]+)/$", path)
                if match and method == "PUT":
                    found = [d for d in fake.datasets if d["key"] == match.group(1) and d["created_by"] == user]
                    if not found:
                        return self._error("not_found")
                    found[0]["_complete"] = True
                    if found[0]["type"] == "competition_bundle":
                        status_id = len(fake.statuses) + 1
                        state = fixture("creation_status.json")
                        if fake.unpack_error:
                            state.update({"status": "Failed", "details": fake.unpack_error,
                                          "resulting_competition": None})
                        else:
                            state["resulting_competition"] = found[0]["_competition"] = fake.add_competition()["id"]
                        fake.statuses[status_id] = state
                        return self._send(200, {"status_id": status_id})
                    return self._send(200, {"key": found[0]["key"]})
                if path == "/api/datasets/" and method == "GET":  # DataViewSet.get_queryset
                    if fake.ignores_queries:
                        return self._page([fake.dataset_answer(d) for d in reversed(fake.datasets)], query, DATASET_PAGE)
                    types = {"dataset": DATASET_TYPES, "bundle": ("competition_bundle",),
                             "submission": ("submission",)}.get(query.get("_type", ""))
                    mine = [d for d in fake.datasets if d["created_by"] == user and (types is None or d["type"] in types)
                            and (not query.get("type") or d["type"] == query["type"])
                            and (not query.get("key") or d["key"] == query["key"])]
                    mine.sort(key=lambda d: -d["id"])
                    return self._page([fake.dataset_answer(d) for d in mine], query, DATASET_PAGE)
                if path == "/api/my_profile/" and method == "GET":  # GetMyProfile: MyProfileSerializer
                    return self._send(200, {"username": user, "name": "", "email": "%s@example.org" % user,
                                            "github_info": None})
                match = re.match(r"^/api/competitions/(\d+)/creation_status/$", path)
                if match:
                    state = fake.statuses.get(int(match.group(1)))
                    return self._send(200, state) if state else self._error("no_status")
                match = re.match(r"^/api/competitions/(\d+)/$", path)
                if match and method == "GET":
                    comp = fake.competitions.get(int(match.group(1)))
                    if comp is None or (user is None and not comp["published"]):
                        return self._error("no_competition")
                    return self._send(200, self._public(fake.competition_answer(comp)))
                match = re.match(r"^/api/competitions/(\d+)/results\.json$", path)
                if match:
                    if user != "organiser":
                        return self._error("not_admin")
                    phase = int(query["phase"])
                    return self._send(200, fake.results.get(phase) or {})
                match = re.match(r"^/api/phases/(\d+)/$", path)
                if match and method == "PATCH":
                    phase = self._phase(int(match.group(1)))
                    if phase is None:
                        return self._error("not_found")
                    for field in ("public_data", "starting_kit"):
                        if field in payload:
                            found = [d for d in fake.datasets if d["id"] == payload[field]]
                            if not found:
                                return self._send(400, {field: ['Invalid pk "%s" - object does not exist.'
                                                                % payload[field]]})  # errors.json invalid_pk
                            phase[field] = {k: v for k, v in found[0].items() if not k.startswith("_")}
                    return self._send(200, {"id": phase["id"], "name": phase["name"]})
                match = re.match(r"^/api/phases/(\d+)/get_leaderboard/$", path)
                if match:
                    board = fixture("leaderboard.json")
                    row = board["submissions"][0]
                    board["id"] = int(match.group(1))
                    board["submissions"] = [dict(row, id=s["id"], owner=s["owner"], fact_sheet_answers=s["fact_sheet_answers"])
                                            for s in fake.submissions
                                            if s["phase"] == int(match.group(1)) and s["on_leaderboard"]]
                    return self._send(200, board)
                if path == "/api/submissions/" and method == "GET":
                    rows = [self._public(s) for s in fake.submissions
                            if (fake.ignores_queries or str(s["phase"]) == query.get("phase"))
                            and (user == "organiser" or s["owner"] == user)]
                    rows.sort(key=lambda s: -s["id"])
                    if fake.submission_page_size:
                        return self._page(rows, query, fake.submission_page_size)
                    return self._send(200, rows)
                if path == "/api/submissions/download_many/" and method == "POST":
                    wanted = payload.get("pks") or []
                    found = [s for s in fake.submissions if s["id"] in wanted]
                    if len(found) != len(wanted):
                        return self._error("download_many_invalid")
                    return self._send(200, [{"name": "%d_%s_PhaseId%d_2026-11-26:%02d-%02d_%s"
                                                     % (s["id"], s["owner"], s["phase"], s["id"] % 60, 7, s["filename"]),
                                             "url": fake.storage_url + s["_data"]["_path"]} for s in found])
                match = re.match(r"^/api/submissions/(\d+)/(get_details|get_detail_result)/$", path)
                if match:
                    found = [s for s in fake.submissions if s["id"] == int(match.group(1))]
                    if not found or (user is None and not found[0]["on_leaderboard"]):
                        return self._error("no_submission")
                    url = fake.storage_url + found[0]["_data"]["_path"]
                    details = fixture("details.json")
                    details.update({"data_file": url, "fact_sheet_answers": found[0]["fact_sheet_answers"]})
                    if match.group(2) == "get_detail_result":
                        return self._send(200, details["detailed_result"])
                    return self._send(200, details)
                return self._error("not_found")

            def _phase(self, identifier: int) -> Optional[dict]:
                for comp in fake.competitions.values():
                    for phase in comp["phases"]:
                        if phase["id"] == identifier:
                            return phase
                return None

            def _public(self, item):
                if isinstance(item, dict):
                    return {k: self._public(v) for k, v in item.items() if not k.startswith("_")}
                if isinstance(item, list):
                    return [self._public(v) for v in item]
                return item

            def _page(self, rows, query, size):
                page = int(query.get("page", "1"))
                chunk = rows[(page - 1) * size:page * size]
                if page > 1 and not chunk:
                    return self._error("invalid_page")

                def link(number):
                    q = dict(query, page=str(number))
                    return "%s%s?%s" % (fake.url, self.path.split("?")[0], urllib.parse.urlencode(q))

                return self._send(200, {"count": len(rows), "next": link(page + 1) if page * size < len(rows) else None,
                                        "previous": link(page - 1) if page > 1 else None,
                                        "results": [self._public(r) for r in chunk]})

        return Handler
