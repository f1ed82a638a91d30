"""The organisers' tools under a hostile site, a careless folder and odd names. One test per case,
by class:

1. data loss: the tools write only into folders they made or that hold their own marker and
   nothing else (release_task.py --out, codabench.py download OUT);
2. nothing a site answers is trusted: URL schemes (file:, a redirect to one), http elsewhere, a
   drip past --timeout, nesting and shapes, a 200 answer that echoes the token, a reference zip
   told harmless by its flag, a FIFO in a release folder;
3. names: owners from the site's records (``alice_PhaseId7_...`` is not alice; ``josé`` keeps
   its name and its row), a --teams row naming no submission stops the run;
4. links: --results and the build refuse links out of their tree, a phase's folder that is another
   phase's (``dev -> test``), and a copy of a later phase's items;
5. the installed scorer and rank_submissions.py --ref recognise gold by what it holds;
6. release.yaml validated as CITATION.cff and Zenodo define its fields.

Every case: one clear line and a non-zero exit, no traceback, no token, nothing lost.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import stat
import subprocess
import sys
import threading
import time
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from codabench_fake import TOKENS
from conftest import ROOT

sys.path.insert(0, str(ROOT))
import codabench  # noqa: E402
import rank_submissions  # noqa: E402
from codabench_client import release as release_module  # noqa: E402
from codabench_client.errors import CodabenchError  # noqa: E402
from codabench_client.site import Site  # noqa: E402
from ranking.downloads import discover  # noqa: E402
from task_release.citation import citation_cff, release_metadata, zenodo_json  # noqa: E402
from task_release.errors import ReleaseError  # noqa: E402

from test_codabench_client import TOKEN, fake, token  # noqa: E402,F401  (the fake site and the organiser's token)
DEV, TEST = ROOT / "reference_data" / "dev", ROOT / "reference_data" / "test"
RELEASE = [sys.executable, str(ROOT / "release_task.py")]


def client(url, capsys, *argv, timeout="5"):
    code = codabench.main(["--site", url, "--timeout", timeout] + list(argv))
    out, err = capsys.readouterr()
    for secret in TOKENS:
        assert secret not in out + err
    assert "Traceback" not in out + err
    return code, out, err


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    return lines[0]


def _run(command, **kwargs):
    return subprocess.run([str(part) for part in command], capture_output=True, text=True, cwd=str(ROOT),
                          timeout=600, **kwargs)


def snapshot(folder: Path):
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


# --- a hostile site: each path answers as the test says ---------------------------------------------

class Hostile:
    """A site on loopback whose answers are set per path: ``routes[path] = (status, headers, body)``,
    ``drip[path] = (head, rest, seconds)`` (``head`` at once, then ``rest`` one byte every ``seconds``), ``echo`` (a 200
    answer repeating the request's headers, not JSON)."""

    def __init__(self):
        self.routes, self.drip, self.echo = {}, {}, set()
        hostile = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                path = self.path.split("?")[0]
                try:
                    if path in hostile.drip:
                        head, data, pause = hostile.drip[path]
                        self.wfile.write(head)
                        self.wfile.flush()
                        for byte in data:
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                            time.sleep(pause)
                        return
                    if path in hostile.echo:
                        body = ("you sent %s with %s" % (self.headers.get("Authorization"), str(self.headers))
                                ).encode("utf-8")
                        status, headers = 200, {"Content-Type": "text/html"}
                    else:
                        status, headers, body = hostile.routes.get(path, (404, {}, b'{"detail": "Not found."}'))
                    self.send_response(status)
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_POST = do_GET

        class Quiet(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                pass

        self.server = Quiet(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()

    def json(self, path, value, status=200):
        self.routes[path] = (status, {"Content-Type": "application/json"}, json.dumps(value).encode("utf-8"))

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def hostile():
    site = Hostile()
    yield site
    site.stop()


def submission_zip(name: str, text: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, text)
    return buffer.getvalue()


# === 1. data loss ====================================================================================

def test_release_out_holding_its_own_sha256sums_is_left_alone(tmp_path):
    thesis = tmp_path / "thesis"
    thesis.mkdir()
    (thesis / "thesis.tex").write_text("years of work", encoding="utf-8")
    (thesis / "photo.jpg").write_bytes(b"\xff\xd8 a photo")
    (thesis / "SHA256SUMS").write_text("0" * 64 + "  thesis.tex\n", encoding="utf-8")
    before = snapshot(thesis)
    process = _run(RELEASE + ["--out", thesis])
    assert process.returncode == 2 and "Traceback" not in process.stderr
    assert "--out %s: " % thesis in one_line(process.stderr)  # refused, in one line naming it
    assert snapshot(thesis) == before


def test_release_out_whose_sums_match_but_are_not_a_release_is_left_alone(tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "a.jpg").write_bytes(b"a photo")
    subprocess.run("sha256sum a.jpg > SHA256SUMS", shell=True, cwd=str(folder), check=True)
    before = snapshot(folder)
    process = _run(RELEASE + ["--out", folder])
    assert process.returncode == 2
    assert "--out %s: " % folder in one_line(process.stderr) and "SHA256SUMS" in process.stderr
    assert snapshot(folder) == before


def test_release_out_that_is_a_file_or_a_link_is_one_line(tmp_path):
    existing = tmp_path / "notes.txt"
    existing.write_text("mine", encoding="utf-8")
    process = _run(RELEASE + ["--out", existing])
    assert process.returncode == 2 and "is a file, not a folder" in one_line(process.stderr)
    assert existing.read_text(encoding="utf-8") == "mine"
    target = tmp_path / "elsewhere"
    target.mkdir()
    (tmp_path / "link").symlink_to(target)
    process = _run(RELEASE + ["--out", tmp_path / "link"])
    assert process.returncode == 2 and "is a symbolic link" in one_line(process.stderr)


@pytest.fixture(scope="module")
def a_release(tmp_path_factory):
    out = tmp_path_factory.mktemp("release") / "release"
    old = os.umask(0o022)
    try:
        process = _run(RELEASE + ["--out", out])
    finally:
        os.umask(old)
    assert process.returncode == 0, process.stderr
    return out


def test_a_release_folder_has_the_mode_mkdir_gives_and_holds_no_gold(a_release):
    assert stat.S_IMODE(a_release.stat().st_mode) == 0o755
    assert not (a_release / "gold").exists()


def test_an_earlier_release_with_a_file_added_is_not_replaced(a_release, tmp_path):
    copy = tmp_path / "release"
    shutil.copytree(a_release, copy)
    (copy / "my_notes.txt").write_text("mine", encoding="utf-8")
    process = _run(RELEASE + ["--out", copy])
    assert process.returncode == 2 and "my_notes.txt: not listed in SHA256SUMS" in one_line(process.stderr)
    assert (copy / "my_notes.txt").read_text(encoding="utf-8") == "mine"
    (copy / "my_notes.txt").unlink()
    os.mkfifo(str(copy / "pipe"))
    process = _run(RELEASE + ["--out", copy])  # a FIFO is not opened (it would block)
    assert process.returncode == 2 and "named pipe" in one_line(process.stderr)
    process = _run(RELEASE + ["--verify", copy])
    assert process.returncode == 1 and "named pipe" in process.stderr


def test_download_into_a_folder_of_ones_own_files_is_refused(fake, capsys, tmp_path):
    comp = fake.add_competition()
    fake.add_submission(comp, 1, "participant1", submission_zip("semeval2021_t6_st1.json", "[]"))
    folder = tmp_path / "documents"
    folder.mkdir()
    (folder / "results.json").write_text("my own results", encoding="utf-8")
    (folder / "failed.txt").write_text("my own list", encoding="utf-8")
    before = snapshot(folder)
    code, out, err = client(fake.url, capsys, "download", "1", "Test", str(folder))
    line = one_line(err)  # refused, naming a file of its own; the folder untouched
    assert code == 1 and line.startswith("codabench: OUT ") and ("failed.txt" in line or "results.json" in line)
    assert snapshot(folder) == before
    existing = tmp_path / "a_file"
    existing.write_text("x", encoding="utf-8")
    code, out, err = client(fake.url, capsys, "download", "1", "Test", str(existing))
    assert code == 1 and "is not a folder" in one_line(err)


def test_rank_submissions_out_of_ones_own_files_is_refused_and_its_own_output_rewritten(tmp_path, t6_ref):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "a.zip").write_bytes(submission_zip("semeval2021_t6_st1.json", _t6_prediction(TEST, True)))
    mine = tmp_path / "paper"
    mine.mkdir()
    (mine / "results.md").write_text("my own draft", encoding="utf-8")
    (mine / "notes.txt").write_text("mine", encoding="utf-8")
    before = snapshot(mine)
    argv = [str(submissions), "--ref", str(t6_ref), "--resamples", "5", "--quiet", "--out"]
    with pytest.raises(SystemExit) as raised:
        rank_submissions.main(argv + [str(mine)])
    message = str(raised.value)  # refused in one line, naming what the folder holds
    assert message.startswith("rank_submissions: --out ") and "notes.txt" in message and "\n" not in message
    assert snapshot(mine) == before
    out = tmp_path / "out"
    assert rank_submissions.main(argv + [str(out)]) == 0
    assert rank_submissions.main(argv + [str(out)]) == 0  # its own earlier output: written again


# === 2. nothing a site answers is trusted =========================================================

def test_a_file_url_from_the_site_is_never_opened(fake, capsys, tmp_path):
    secret = tmp_path / "private.txt"
    secret.write_text("the organiser's private file", encoding="utf-8")
    comp = fake.add_competition()
    submission = fake.add_submission(comp, 1, "participant1", submission_zip("semeval2021_t6_st1.json", "[]"))
    fake.storage.pop(submission["_data"]["_path"])
    submission["_data"]["_path"] = "/storage/x"  # download_many answers with fake.storage_url + this: a file: URL
    fake.storage_url = "file://" + str(tmp_path) + "/private.txt#"
    code, out, err = client(fake.url, capsys, "download", "1", "Test", str(tmp_path / "out"))
    assert code != 0 or "refused" in out
    assert "only https" in out + err
    for path in (tmp_path / "out").rglob("*"):
        if path.is_file():
            assert b"private file" not in path.read_bytes(), path


@pytest.mark.parametrize("target", ["file:///etc/passwd", "ftp://127.0.0.1/x", "http://codabench.example.org/x"])
def test_a_redirect_to_a_url_the_client_does_not_open_is_refused(hostile, target):
    hostile.routes["/api/competitions/1/"] = (302, {"Location": target}, b"")
    site = Site(hostile.url, TOKEN, 5)
    with pytest.raises(CodabenchError) as raised:
        site.get("/api/competitions/1/", what="competition 1")
    assert "only https" in str(raised.value) or "is not allowed" in str(raised.value)
    assert TOKEN not in str(raised.value) and "\n" not in str(raised.value)


def test_http_elsewhere_needs_a_flag_and_warns(hostile, capsys):
    code, out, err = client("http://codabench.example.org", capsys, "check", "1")
    assert code == 1 and "--allow-http" in one_line(err)
    warned = []
    Site("http://codabench.example.org", TOKEN, 5, allow_http=True, warn=warned.append)
    assert len(warned) == 1 and "unencrypted" in warned[0]
    warned.clear()
    Site(hostile.url, TOKEN, 5, warn=warned.append)  # loopback: no flag, no warning
    Site("http://localhost:1", TOKEN, 5, warn=warned.append)
    assert warned == []


def test_a_200_answer_echoing_the_request_never_prints_the_token(hostile, capsys):
    hostile.echo.add("/api/competitions/1/")
    code, out, err = client(hostile.url, capsys, "download", "1", "Test", "/nonexistent/out")
    assert code == 1 and "not JSON" in one_line(err) and "you sent Token <token>" in err


def test_a_title_echoing_the_token_is_printed_without_it(fake, capsys, tmp_path):
    comp = fake.add_competition()
    comp["phases"][1]["name"] = "Test " + TOKEN
    code, out, err = client(fake.url, capsys, "download", "1", str(comp["phases"][1]["id"]), str(tmp_path / "o"))
    assert "<token>" in out + err


@pytest.mark.parametrize("where", ["headers", "body"])
def test_a_site_dripping_bytes_cannot_hold_the_timeout(hostile, capsys, where):
    body = json.dumps({"phases": []}).encode("utf-8") * 50
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
    hostile.drip["/api/competitions/1/"] = ((head, body, 0.5) if where == "body" else
                                            (b"", head[:12] + b" " * 200, 0.5))
    started = time.monotonic()
    code, out, err = client(hostile.url, capsys, "check", "1", timeout="3")
    elapsed = time.monotonic() - started
    assert code == 1 and "within 3 s" in one_line(err)
    assert elapsed < 6, elapsed


DEEP = "[" * 100000 + "]" * 100000


@pytest.mark.parametrize("answer", [DEEP, "[" * 500 + "]" * 500, json.dumps({"phases": [1, 2]}),
                                    json.dumps({"phases": [{"id": "x"}]}), json.dumps(["not", "a", "competition"]),
                                    json.dumps({"phases": [{"id": 1, "tasks": "none"}]})],
                         ids=["deep", "nested", "phases-numbers", "id-text", "list", "tasks-text"])
def test_a_competition_of_a_wrong_shape_is_one_line(hostile, capsys, answer):
    hostile.routes["/api/competitions/1/"] = (200, {"Content-Type": "application/json"}, answer.encode("utf-8"))
    code, out, err = client(hostile.url, capsys, "download", "1", "Test", "/nonexistent/out")
    assert code == 1
    assert one_line(err).startswith("codabench: competition 1")


@pytest.mark.parametrize("listing", [["a", "b"], [{"id": "one"}], [{"id": 1, "owner": ["x"]}], {"results": 5}],
                         ids=["strings", "id-text", "owner-list", "results-number"])
def test_a_submissions_list_of_a_wrong_shape_is_one_line(fake, capsys, tmp_path, listing, monkeypatch):
    comp = fake.add_competition()
    original = Site.call

    def call(self, method, path, *args, **kwargs):
        if path.startswith("/api/submissions/?"):
            return listing
        return original(self, method, path, *args, **kwargs)
    monkeypatch.setattr(Site, "call", call)
    code, out, err = client(fake.url, capsys, "download", "1", str(comp["phases"][1]["id"]), str(tmp_path / "o"))
    assert code == 1 and "submissions" in one_line(err) and "phase %s" % comp["phases"][1]["id"] in one_line(err)
    assert not (tmp_path / "o").exists()


def _stand_in_zip(tmp_path: Path, gold: Path, blind_flag: bool) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        if blind_flag:
            archive.writestr("scoring_config.json", '{"blind": true}')
        for path in sorted(gold.rglob("*")):
            if path.is_file():
                archive.write(str(path), str(path.relative_to(gold)))
    return buffer.getvalue()


def test_check_calls_the_real_gold_beside_a_blind_flag_open(fake, capsys, tmp_path):
    comp = fake.add_competition()
    for phase in comp["phases"]:
        key = phase["tasks"][0]["public_datasets"][0]["key"]
        dataset = next(d for d in fake.datasets if d["key"] == key)
        fake.storage[dataset["_path"]] = _stand_in_zip(tmp_path, TEST, blind_flag=True)
    code, out, err = client(fake.url, capsys, "check", "1")
    assert code == 1
    lines = [line for line in out.splitlines() if "reference data by key" in line]
    # the real gold beside "blind": true is gold, and blind: not even the first phase's is practice data
    assert len(lines) == 2 and all(line.startswith("OPEN    ") and "gold" in line for line in lines), lines


def test_a_fifo_in_the_release_folder_is_refused_without_blocking(tmp_path):
    folder = tmp_path / "release_test"
    folder.mkdir()
    (folder / "test_public_data.zip").write_bytes(b"PK")
    os.mkfifo(str(folder / "starting_kit.zip"))
    done = []

    def attempt():
        try:
            release_module.release_files(str(folder))
        except CodabenchError as error:
            done.append(str(error))
    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(10)
    assert done and "named pipe" in done[0]


# === 3. names ========================================================================================

def _t6_prediction(gold: Path, right: bool) -> str:
    items = json.loads((gold / "semeval2021_t6_st1.json").read_text(encoding="utf-8"))
    return json.dumps([{"id": item["id"], "labels": item["labels"] if right else []} for item in items])


@pytest.fixture
def t6_ref(tmp_path):
    ref = tmp_path / "ref"
    ref.mkdir()
    shutil.copy(TEST / "semeval2021_t6_st1.json", ref)
    return ref


def test_an_owner_named_like_a_bulk_file_name_is_not_alice(fake, capsys, tmp_path, t6_ref):
    comp = fake.add_competition()
    fake.add_submission(comp, 1, "alice", submission_zip("semeval2021_t6_st1.json", _t6_prediction(TEST, True)))
    impostor = "alice_PhaseId%d_2027-03-02_00-00_x" % comp["phases"][1]["id"]
    fake.add_submission(comp, 1, impostor, submission_zip("semeval2021_t6_st1.json", _t6_prediction(TEST, False)))
    out_dir = tmp_path / "download"
    code, out, err = client(fake.url, capsys, "download", "1", "Test", str(out_dir))
    assert code == 0, out + err
    found = discover(str(out_dir))
    assert sorted(entry.owner for entry in found.entries) == sorted(["alice", impostor])
    results = tmp_path / "results"
    assert rank_submissions.main([str(out_dir), "--ref", str(t6_ref), "--out", str(results), "--select", "last",
                                  "--resamples", "10", "--quiet"]) == 0
    table = (results / "t6_st1.csv").read_text(encoding="utf-8")
    alice = next(line for line in table.splitlines() if line.startswith("alice,"))
    assert ",1.0" in alice or ",1," in alice, table
    assert impostor in table


def test_an_owner_with_an_accent_keeps_its_name_and_its_row(fake, capsys, tmp_path, t6_ref):
    comp = fake.add_competition()
    fake.add_submission(comp, 1, "josé", submission_zip("semeval2021_t6_st1.json", _t6_prediction(TEST, True)))
    fake.add_submission(comp, 1, "bob", submission_zip("semeval2021_t6_st1.json", _t6_prediction(TEST, False)))
    out_dir = tmp_path / "download"
    code, out, err = client(fake.url, capsys, "download", "1", "Test", str(out_dir))
    assert code == 0, out + err
    assert any(path.name.startswith("100_josé_") for path in out_dir.iterdir())
    results = tmp_path / "results"
    assert rank_submissions.main([str(out_dir), "--results", str(out_dir / "results.json"), "--ref", str(t6_ref),
                                  "--out", str(results), "--resamples", "10", "--quiet"]) == 0
    table = (results / "t6_st1.csv").read_text(encoding="utf-8")
    assert "josé" in table and "bob" in table


def test_a_teams_row_naming_no_submission_stops_the_run_and_a_row_naming_one_is_applied(fake, capsys, tmp_path,
                                                                                          t6_ref):
    comp = fake.add_competition()
    fake.add_submission(comp, 1, "josé", submission_zip("semeval2021_t6_st1.json", _t6_prediction(TEST, True)))
    out_dir = tmp_path / "download"
    assert client(fake.url, capsys, "download", "1", "Test", str(out_dir))[0] == 0
    teams = tmp_path / "teams.csv"
    teams.write_bytes("submission,team\njosé,Équipe José\nnobody,Team Ghost\n".encode("cp1252"))
    results = tmp_path / "results"
    with pytest.raises(SystemExit) as stopped:
        rank_submissions.main([str(out_dir), "--ref", str(t6_ref), "--out", str(results), "--teams", str(teams),
                               "--resamples", "10", "--quiet"])
    message = str(stopped.value.code)
    assert "\n" not in message and "line 3: 'nobody' " in message  # the row, and what it names
    assert not (results / "t6_st1.csv").exists()  # stopped before any scoring
    teams.write_bytes("submission,team\njosé,Équipe José\n".encode("cp1252"))
    assert rank_submissions.main([str(out_dir), "--ref", str(t6_ref), "--out", str(results), "--teams", str(teams),
                                  "--resamples", "10", "--quiet"]) == 0
    assert "Équipe José" in (results / "t6_st1.csv").read_text(encoding="utf-8")


# === 4. links ========================================================================================

def test_release_results_with_a_link_out_of_the_tree_is_refused(tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    (results / "results.md").write_text("# results", encoding="utf-8")
    (results / "t6_st1.csv").symlink_to(TEST / "semeval2021_t6_st1.json")
    (results / "gold").symlink_to(TEST)
    out = tmp_path / "release"
    process = _run(RELEASE + ["--out", out, "--results", results])
    assert process.returncode == 2 and "symbolic link" in one_line(process.stderr) and "outside" in process.stderr
    assert not out.exists()


def _build(reference: Path, out: Path):
    process = _run([sys.executable, ROOT / "build_bundle.py", "--no-check", "--reference-data", reference, "--out", out])
    # the build's closing line says what was not written; the problem is the line before it
    process.stderr = "\n".join(line for line in process.stderr.splitlines() if not line.startswith("build: no zip"))
    return process


def test_the_build_refuses_a_phase_folder_that_is_a_link_to_another(tmp_path):
    reference = tmp_path / "reference_data"
    reference.mkdir()
    shutil.copytree(TEST, reference / "test")
    (reference / "dev").symlink_to("test")
    process = _build(reference, tmp_path / "out")
    assert process.returncode != 0 and "Traceback" not in process.stderr + process.stdout
    line = one_line(process.stderr)  # both phases named
    assert "Development" in line and "Evaluation" in line and "link" in line
    assert not list((tmp_path / "out").rglob("*.zip"))


def test_the_build_refuses_a_copy_of_the_test_items_as_dev_and_a_link_out(tmp_path):
    reference = tmp_path / "reference_data"
    shutil.copytree(TEST, reference / "test")
    shutil.copytree(TEST, reference / "dev")
    process = _build(reference, tmp_path / "out")
    assert process.returncode != 0 and "Traceback" not in process.stderr + process.stdout
    assert "Evaluation" in process.stderr and "dev/" in process.stderr  # the later phase, the earlier file
    shutil.rmtree(reference / "dev")
    shutil.copytree(DEV, reference / "dev")
    (reference / "dev" / "notes.txt").symlink_to(ROOT / "README.md")
    process = _build(reference, tmp_path / "out")
    assert process.returncode != 0 and "symbolic link" in one_line(process.stderr)


# === 5. the installed scorer's gold ================================================================

def _cli(*argv):
    sys.path.insert(0, str(ROOT / "scoring_program"))
    from scorer.run.cli import main
    return main(list(map(str, argv)), "shared-task-score")


@pytest.fixture(scope="module")
def stand_in(tmp_path_factory):
    sys.path.insert(0, str(ROOT / "scoring_program"))
    from scorer.outputs.blind import stand_in_reference
    folder, _ = stand_in_reference(str(TEST), str(tmp_path_factory.mktemp("stand_in")))
    return Path(folder)


def _track_names():
    sys.path.insert(0, str(ROOT / "scoring_program"))
    from scorer.tracks.registry import TRACKS
    return [track.name for track in TRACKS]


@pytest.mark.parametrize("track", _track_names())
def test_the_installed_scorer_refuses_the_blind_stand_in_of_every_track(stand_in, tmp_path, capsys, track):
    from scorer.tracks.registry import BY_NAME
    prediction = tmp_path / BY_NAME[track].filename
    prediction.write_text("x", encoding="utf-8")
    assert _cli(track, stand_in, prediction) == 1
    line = one_line(capsys.readouterr().err)
    assert line.startswith("GOLD %s: " % stand_in) and "stand-in" in line


@pytest.fixture(scope="module")
def public_data(tmp_path_factory):
    from bundle.public_data import derive_public_data
    folder = tmp_path_factory.mktemp("public") / "test"
    derive_public_data(str(TEST), str(folder))
    return folder


@pytest.mark.parametrize("track", _track_names())
def test_the_installed_scorer_refuses_a_phases_public_data_as_gold(public_data, tmp_path, capsys, track):
    from scorer.tracks.registry import BY_NAME
    prediction = tmp_path / BY_NAME[track].filename
    prediction.write_text("x", encoding="utf-8")
    assert _cli(track, public_data, prediction) in (1, 2)  # 2: no file of the gold's name at all (nlu)
    line = one_line(capsys.readouterr().err)
    assert line.startswith("GOLD %s: " % public_data) and ("public input" in line or "holding no gold" in line), line


@pytest.mark.parametrize("track", _track_names())
def test_the_real_gold_is_still_gold(tmp_path, track):
    """The recognition calls no real gold a stand-in or an input (the content test's control)."""
    from scorer.run.api import gold_problem
    from scorer.tracks.registry import BY_NAME
    for folder in (DEV, TEST):
        gold = BY_NAME[track].find_gold(str(folder))
        assert gold_problem(BY_NAME[track], gold, str(folder), str(tmp_path / "none")) == ""


def test_the_nlu_test_input_and_a_prediction_are_not_gold(tmp_path, capsys):
    import csv
    rows = list(csv.reader(io.StringIO((TEST / "aicup2022_nlu_test.csv").read_text(encoding="utf-8"))))
    prediction = tmp_path / "aicup2022_nlu.csv"
    with open(prediction, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([["id", "q", "r"]] + [row[:3] for row in rows[1:]])
    given = tmp_path / "input.csv"
    shutil.copy(TEST / "aicup2022_nlu_test.csv", given)
    assert _cli("nlu", given, prediction) == 1
    line = one_line(capsys.readouterr().err)
    assert line.startswith("GOLD %s: " % given) and "public input" in line
    other = tmp_path / "other.csv"
    shutil.copy(prediction, other)
    assert _cli("nlu", other, prediction) == 1  # a prediction (its header id,q,r) given as gold
    err = capsys.readouterr().err
    assert err.startswith("GOLD %s: line 1: " % other) and "id,q,r" in err, err  # the place and what it found


def test_a_broken_gold_is_the_golds_problem(tmp_path, capsys):
    gold = tmp_path / "my_gold.json"
    gold.write_text('[{"id": "1", "text": "x", "labels": 5}]', encoding="utf-8")
    prediction = tmp_path / "semeval2021_t6_st1.json"
    prediction.write_text('[{"id": "1", "labels": []}]', encoding="utf-8")
    assert _cli("t6_st1", gold, prediction) == 1
    err = capsys.readouterr().err
    assert all(line.startswith("GOLD %s: " % gold) for line in err.splitlines()), err
    assert "semeval2021_t6_st1.json:" not in err  # never the prediction's problem


def test_rank_submissions_refuses_a_stand_in_as_ref_without_its_flag(stand_in, tmp_path, capsys):
    ref = tmp_path / "ref"
    shutil.copytree(stand_in, ref)
    (ref / "scoring_config.json").unlink(missing_ok=True)
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "a.zip").write_bytes(submission_zip("semeval2021_t6_st1.json", _t6_prediction(TEST, True)))
    with pytest.raises(SystemExit) as raised:
        rank_submissions.main([str(submissions), "--ref", str(ref), "--out", str(tmp_path / "out"), "--quiet"])
    assert "stand-in" in str(raised.value) and "Traceback" not in str(raised.value)
    assert not list((tmp_path / "out").iterdir())  # nothing scored, nothing written


# === 6. the release's metadata ====================================================================

METADATA = [
    ("authors: [{name: A}]\nkeywords: propaganda\n", "keywords must be a list of strings"),
    ('authors: [{name: "A\\x1bB"}]\n', "authors, entry 1, name holds the control character U+001B"),
    ('authors: [{name: "A\\nB"}]\n', "U+000A"),
    ("authors: [{name: A}]\nkeywords: [shared task, [nested]]\n", "keywords, entry 2 must be a string"),
    ("authors: [{name: A, orcid: 0000-0002-1825-0097}]\n", "orcid"),
    ("authors: [{name: A}]\nrepository: github.com/x/y\n", "repository"),
    ("authors: [{name: A}]\nlicense: [CC-BY-4.0]\n", "license must be a string"),
    ("- just a list\n", "expected the keys"),
]


@pytest.mark.parametrize("text,fragment", METADATA, ids=[m[1][:24] for m in METADATA])
def test_release_metadata_is_validated_as_the_schemas_define_it(tmp_path, text, fragment):
    path = tmp_path / "release.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ReleaseError) as raised:
        release_metadata(str(path))
    assert fragment in str(raised.value) and "\n" not in str(raised.value)


def test_a_latin1_release_yaml_is_one_line_naming_the_byte(tmp_path):
    path = tmp_path / "release.yaml"
    path.write_bytes("authors:\n  - name: José\n".encode("latin-1"))
    with pytest.raises(ReleaseError) as raised:
        release_metadata(str(path))
    assert str(raised.value).startswith("%s: line 2, byte 23 (0xe9) " % path) and "UTF-8" in str(raised.value)


def test_valid_metadata_gives_a_citation_cff_yaml_reads(tmp_path):
    import yaml
    path = tmp_path / "release.yaml"
    path.write_text("authors:\n  - name: José Ñandú\n    orcid: https://orcid.org/0000-0002-1825-0097\n"
                    "keywords:\n  - propaganda\nrepository: https://example.org/x\n", encoding="utf-8")
    from bundle.competition import load_yaml
    meta = release_metadata(str(path))
    _, config, _ = load_yaml(str(ROOT / "competition.yaml"))
    cff = yaml.safe_load(citation_cff(config, meta, "w.whl"))
    assert cff["keywords"] == ["propaganda"] and cff["authors"][0]["name"] == "José Ñandú"
    assert json.loads(zenodo_json(config, meta, "w.whl"))["keywords"] == ["propaganda"]
