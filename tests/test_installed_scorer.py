"""The installable scorer (bundle/wheel.py, scorer/run/cli.py, scorer/run/api.py): the wheel installs with pip,
offline, into fresh virtual environments of Python 3.7 and of the newest Python under pyenv, and its
command gives exactly the numbers score.py writes, on every track's real data and on the benchmark
inputs; bad input gets score.py's lines and exit codes, an argument one line; the same sources give
the same wheel."""

from __future__ import annotations

import glob
import hashlib
import json
import os
import random
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT, nltk_data_dir, run_score, shared_path

sys.path.insert(0, str(ROOT))

from bundle.wheel import COMMAND, PACKAGE  # noqa: E402
from scorer.tracks.registry import TRACKS  # noqa: E402

NLU = ("data", "aidea_nlu")


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _needs(what: str):
    if _in_ci():
        pytest.fail(what)
    pytest.skip(what)


def pyenv_pythons():
    """(3.7's interpreter, the newest interpreter) under pyenv."""
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found = []
    for path in glob.glob(os.path.join(root, "versions", "3.*", "bin", "python3")):
        parts = os.path.basename(os.path.dirname(os.path.dirname(path))).split(".")
        if all(part.isdigit() for part in parts):
            found.append((tuple(int(part) for part in parts), path))
    oldest = [path for version, path in sorted(found) if version[:2] == (3, 7)]
    if not oldest:
        _needs("needs Python 3.7 under pyenv (%s/versions/3.7.*)" % root)
    return oldest[-1], max(found)[1]


def build_the_wheel(out: Path) -> Path:
    process = subprocess.run([sys.executable, str(ROOT / "build_bundle.py"), "--no-check", "--out", str(out)],
                             capture_output=True, text=True, cwd=str(ROOT))
    assert process.returncode == 0, process.stdout + process.stderr
    wheels = list(out.glob(PACKAGE + "-*.whl"))
    assert len(wheels) == 1, sorted(p.name for p in out.iterdir())
    assert "the installable scorer" in process.stdout
    return wheels[0]


@pytest.fixture(scope="module")
def wheel(repository_build):
    """The wheel of the session's build of the repository (conftest ``repository_build``)."""
    wheels = list(repository_build.out.glob(PACKAGE + "-*.whl"))
    assert len(wheels) == 1, sorted(p.name for p in repository_build.out.iterdir())
    assert "the installable scorer" in repository_build.stdout
    return wheels[0]


def install(wheel_path: Path, python: str, folder: Path) -> Path:
    """A fresh venv of ``python`` with the wheel pip-installed from the file alone; its command."""
    subprocess.run([python, "-m", "venv", str(folder)], check=True, capture_output=True)
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    process = subprocess.run([str(folder / "bin" / "python"), "-m", "pip", "install", "--no-index", "--no-deps",
                              str(wheel_path)], capture_output=True, text=True, env=env)
    assert process.returncode == 0, process.stdout + process.stderr
    return folder / "bin" / COMMAND


@pytest.fixture(scope="module")
def commands(wheel, tmp_path_factory):
    """version name -> the installed command, for Python 3.7 and the newest Python."""
    oldest, newest = pyenv_pythons()
    return {name: install(wheel, python, tmp_path_factory.mktemp("venv-" + name))
            for name, python in (("3.7", oldest), ("newest", newest))}


def run_command(command: Path, *arguments) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if nltk_data_dir() is not None:
        env.setdefault("NLTK_DATA", str(nltk_data_dir()))
    return subprocess.run([str(command)] + [str(a) for a in arguments], capture_output=True, text=True, env=env,
                          cwd=str(command.parent), timeout=600)


def assert_same_as_score_py(commands, tmp_path, cases):
    """``cases``: (track, gold given to the command, the staged ref/ entry name -> path, prediction).
    score.py scores each prediction in one Codalab layout; each command gives the same numbers."""
    by_track = {track.name: track for track in TRACKS}
    for track_name, gold, ref, prediction in cases:
        run = run_score(tmp_path, ref, {by_track[track_name].filename: prediction})
        assert run.returncode == 0, run.stderr
        expected_json = json.loads((run.output / "scores.json").read_text(encoding="ascii"))
        expected_txt = (run.output / "scores.txt").read_text(encoding="ascii").splitlines()
        keys = by_track[track_name].keys
        for name, command in commands.items():
            plain = run_command(command, track_name, gold, prediction)
            assert plain.returncode == 0, (name, plain.stderr)
            lines = [line for line in plain.stdout.splitlines() if ": warning: " not in line]
            assert [line for line in plain.stdout.splitlines() if ": warning: " in line] == [
                line for line in run.stdout.splitlines() if ": warning: " in line], (name, track_name)
            assert lines == [line for line in expected_txt if line.split(":")[0] in keys] + [
                "signature: " + expected_json["signature"][track_name]], (name, track_name)
            as_json = run_command(command, track_name, gold, prediction, "--json")
            assert as_json.returncode == 0, (name, as_json.stderr)
            scores = json.loads(as_json.stdout)
            assert scores == dict({key: expected_json[key] for key in keys},
                                  signature=expected_json["signature"][track_name]), (name, track_name)


def test_the_command_gives_score_pys_numbers_on_the_real_data(commands, tmp_path, nlu_gold_with_tokens):
    from test_detailed_results import phase_files
    ref, res = phase_files(random.Random(33))
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    cases = []
    released = {"semeval2021_t6_st1.json": "t6_st1", "semeval2021_t6_st2.json": "t6_st2",
                "semeval2021_t6_st3.json": "t6_st3", "nlp4if2019_flc": "flc", "evalita2020_absita.ndjson": "absita"}
    for gold_name, track_name in released.items():
        track = next(t for t in TRACKS if t.name == track_name)
        prediction = submissions / track.filename
        prediction.write_text(res[track.filename], encoding="utf-8")
        # the gold as the task released it (a file, or flc's folder of article labels)
        cases.append((track_name, ref[gold_name], {gold_name: ref[gold_name]}, prediction))
    # the real gold with the token cache a built phase holds beside it (the numbers, not the tokenizer,
    # are compared here: tests/test_nltk_tokens.py tokenizes the real gold)
    gold = nlu_gold_with_tokens / "aicup2022_nlu.csv"
    ref = {path.name: path for path in sorted(nlu_gold_with_tokens.iterdir())}
    for prediction in sorted(shared_path(*NLU, "subset_predictions").glob("*.csv")):
        cases.append(("nlu", gold, ref, prediction))
    # (the tracks with released data in ../shared; every track of the registry: the benchmark inputs below)
    assert {case[0] for case in cases} <= {track.name for track in TRACKS}
    assert_same_as_score_py(commands, tmp_path, cases)


def test_the_command_gives_score_pys_numbers_on_the_benchmark_inputs(commands, tmp_path):
    cases = []
    for track in TRACKS:
        folder = tmp_path / ("bench-" + track.name)
        for side in ("ref", "res"):
            (folder / side).mkdir(parents=True)
        track.write_benchmark_input(str(folder), 1, random.Random(6))
        ref = {path.name: path for path in sorted((folder / "ref").iterdir())}
        # the gold as the competition's reference folder of a phase
        cases.append((track.name, folder / "ref", ref, folder / "res" / track.filename))
    assert_same_as_score_py(commands, tmp_path, cases)


def _one_line(process, code):
    assert process.returncode == code, (process.returncode, process.stdout, process.stderr)
    assert "Traceback" not in process.stderr
    assert len(process.stderr.splitlines()) == 1, process.stderr
    return process.stderr.strip()


def test_bad_input_gets_score_pys_lines_and_an_argument_one_line(commands, tmp_path):
    command = commands["newest"]
    gold = ROOT / "reference_data" / "dev"
    st1 = next(t for t in TRACKS if t.name == "t6_st1")
    broken = {
        "not UTF-8": b"\xff\xfe not UTF-8 \xc3\x28\n",
        "invalid JSON": b'[{"id": "1", "labels": [}]\n',
        "an unknown technique": json.dumps([{"id": "x", "labels": ["Smears"]}]).encode("utf-8"),
    }
    for what, data in broken.items():
        prediction = tmp_path / what.replace(" ", "_") / st1.filename
        prediction.parent.mkdir()
        prediction.write_bytes(data)
        run = run_score(tmp_path, {st1.filename: gold / st1.filename}, {st1.filename: prediction})
        installed = run_command(command, "t6_st1", gold, prediction)
        assert installed.returncode == run.returncode == 1, what
        assert installed.stderr == run.stderr and "Traceback" not in installed.stderr, what
    prediction = gold / st1.filename
    assert _one_line(run_command(command, "absa", gold, prediction), 2) == \
        "unknown track 'absa' (did you mean 'absita'?); the tracks: " + ", ".join(track.name for track in TRACKS)
    assert _one_line(run_command(command, "t6_st1", tmp_path / "nowhere", prediction), 2) == \
        "GOLD %s: no such file or folder" % (tmp_path / "nowhere")
    assert _one_line(run_command(command, "t6_st1", gold, tmp_path / "nothing.json"), 2) == \
        "PREDICTION %s: no such file or folder" % (tmp_path / "nothing.json")
    assert _one_line(run_command(command, "t6_st1", gold, tmp_path), 2) == \
        "PREDICTION %s: is a folder, not a file" % tmp_path
    # a folder where the track's gold is one file: the names the command looks for
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _one_line(run_command(command, "t6_st1", empty, prediction), 2).startswith(
        "GOLD %s: is a folder holding no gold of t6_st1 (dev_set_task1.txt, semeval2021_t6_st1.json" % empty)
    assert _one_line(run_command(command, "t6_st1", tmp_path, prediction, "--bogus"), 2).startswith(
        "unknown option --bogus; usage: %s TRACK GOLD PREDICTION" % COMMAND)
    assert _one_line(run_command(command, "t6_st1", gold), 2).startswith("usage: ")
    bad_settings = tmp_path / "settings.json"
    bad_settings.write_text('{"per_technique_recal": "official"}', encoding="utf-8")
    assert _one_line(run_command(command, "t6_st1", gold, prediction, "--settings", bad_settings), 2).startswith(
        "%s: unknown setting per_technique_recal" % bad_settings)


def test_settings_card_and_version(commands, tmp_path):
    command = commands["3.7"]
    gold = ROOT / "reference_data" / "dev"
    settings = tmp_path / "official.json"
    settings.write_text('{"per_technique_recall": "official", "overlapping_predictions": "keep"}',
                        encoding="utf-8")
    from scorer import __version__
    run = run_command(command, "t6_st2", gold, gold / "semeval2021_t6_st2.json", "--json", "--settings", settings)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["signature"] == "t6_st2|overlap:keep|per_technique_recall:official|v" + __version__
    # a reference folder's own scoring_config.json counts, as in score.py; --settings goes over it
    phase = tmp_path / "phase"
    phase.mkdir()
    (phase / "semeval2021_t6_st2.json").write_bytes((gold / "semeval2021_t6_st2.json").read_bytes())
    (phase / "scoring_config.json").write_text('{"overlapping_predictions": "merge"}', encoding="utf-8")
    expected = run_score(tmp_path, {name: phase / name for name in ("semeval2021_t6_st2.json", "scoring_config.json")},
                         {"semeval2021_t6_st2.json": gold / "semeval2021_t6_st2.json"})
    run = run_command(command, "t6_st2", phase, gold / "semeval2021_t6_st2.json", "--json")
    assert json.loads(run.stdout)["signature"] == expected.signatures["t6_st2"]
    assert "overlap:merge" in expected.signatures["t6_st2"]
    run = run_command(command, "t6_st2", phase, gold / "semeval2021_t6_st2.json", "--json", "--settings", settings)
    assert json.loads(run.stdout)["signature"] == "t6_st2|overlap:keep|per_technique_recall:official|v" + __version__
    card = run_command(command, "--card", "nlu")
    assert card.returncode == 0 and card.stdout.startswith("# Metric card: `nlu`")
    assert run_command(command, "--version").stdout == "%s %s\n" % (COMMAND, __version__)


def test_the_command_ends_quietly_on_a_closed_pipe(commands, tmp_path):
    """``shared-task-score --help | head -1`` (tests/test_closed_pipe.py: every tool of the repository)."""
    from test_closed_pipe import BUFFERING, assert_quiet, into_closed_pipe
    for command in commands.values():
        for arguments in (["--help"], ["--card", TRACKS[0].name]):
            for buffering in BUFFERING:
                assert_quiet(into_closed_pipe([str(command)] + arguments, buffering, tmp_path))


def test_the_python_api(commands, tmp_path):
    python = commands["3.7"].parent / "python"
    gold = ROOT / "reference_data" / "dev" / "semeval2021_t6_st1.json"
    code = ("import json, sys; from %s import score, ScoringError\n"
            "print(json.dumps(score('t6_st1', sys.argv[1], sys.argv[1], per_technique_recall='official')))\n"
            "try:\n    score('t6_st1', sys.argv[1], sys.argv[2])\n"
            "except ScoringError as error:\n    print(error.exit_code, error.lines)\n" % PACKAGE)
    process = subprocess.run([str(python), "-c", code, str(gold), str(tmp_path / "missing.json")],
                             capture_output=True, text=True, cwd=str(tmp_path))
    assert process.returncode == 0, process.stderr
    first, second = process.stdout.splitlines()
    from scorer import __version__
    assert json.loads(first) == {"t6_st1_f1_micro": 1.0, "t6_st1_f1_macro": 1.0, "signature": "t6_st1|v" + __version__}
    assert second == "2 ['PREDICTION %s: no such file or folder']" % (tmp_path / "missing.json")


def test_the_wheel_is_reproducible_and_well_formed(wheel, tmp_path):
    again = build_the_wheel(tmp_path)
    assert hashlib.sha256(again.read_bytes()).digest() == hashlib.sha256(wheel.read_bytes()).digest()
    from scorer import __version__
    assert wheel.name == "%s-%s-py3-none-any.whl" % (PACKAGE, __version__)
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = "%s-%s.dist-info/" % (PACKAGE, __version__)
        package = [name for name in names if not name.startswith(info)]
        meta = [name for name in names[:-1] if name.startswith(info)]
        assert names == sorted(package) + sorted(meta) + [info + "RECORD"]
        assert {entry.date_time for entry in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        import base64
        record = archive.read(info + "RECORD").decode("utf-8").splitlines()
        assert len(record) == len(names)
        for line in record[:-1]:
            name, digest, size = line.rsplit(",", 2)
            data = archive.read(name)
            assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(
                b"=").decode("ascii") and int(size) == len(data), name
        assert "Requires-Python: >=3.7" in archive.read(info + "METADATA").decode("utf-8")
        assert "Version: %s\n" % __version__ in archive.read(info + "METADATA").decode("utf-8")
        assert archive.read(info + "entry_points.txt").decode("utf-8") == \
            "[console_scripts]\n%s = %s:main\n" % (COMMAND, PACKAGE)
        # the vendored nltk pieces and the Punkt model, as in the upload's scoring program
        for needed in ("program/vendor/nltk/tokenize/punkt.py", "program/vendor/nltk/VERSION",
                       "program/nltk_data/tokenizers/punkt/PY3/english.pickle", "program/scorer/tracks/nlu.md",
                       "program/scoring_config.json"):
            assert PACKAGE + "/" + needed in names, needed
        assert not [name for name in names if "__pycache__" in name or name.endswith(".pyc")]
        archive.extractall(tmp_path / "unpacked")
    # everything it installs runs on Python 3.7 (its Requires-Python)
    vermin = Path(sys.executable).parent / "vermin"
    assert vermin.exists(), "vermin is pinned in requirements-dev.txt"
    process = subprocess.run([str(vermin), "--no-tips", "--violations", "-t=3.7-", "--no-parse-comments",
                              "--eval-annotations", str(tmp_path / "unpacked")], capture_output=True, text=True)
    assert process.returncode == 0, process.stdout + process.stderr
