"""score.py as the platforms run it: layout, outputs, exit codes, messages, Python versions."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import PROGRAM, assert_clean_failure, parse_scores_v15, run_score
from registry_inputs import EXAMPLES, NEEDS_NLTK, ONE, ONE_SUBMITTED, STDLIB_SUBMITTED, STDLIB_TRACKS
from registry_inputs import REF as CARD_REF, SUBMITTED as CARD_SUBMITTED
from scorer.tracks.registry import ALL_KEYS, BY_NAME, LOWER_IS_BETTER, TRACKS
from scorer.outputs.scores_files import fixed_point

TEXT = "Vote for us! The corrupt elite hates you. Make the country great again."
ST1_GOLD = json.dumps([{"id": "1", "labels": ["Loaded Language", "Smears"], "text": TEXT},
                       {"id": "2", "labels": [], "text": "Nothing here."}])
ST2_GOLD = json.dumps([{"id": "1", "text": TEXT, "labels": [
    {"technique": "Smears", "start": 13, "end": 40, "text_fragment": TEXT[13:40]},
    {"technique": "Slogans", "start": 42, "end": 71, "text_fragment": TEXT[42:71]}]},
    {"id": "2", "text": "Nothing here.", "labels": []}])
ST3_GOLD = json.dumps([{"id": "1", "labels": ["Transfer"], "text": TEXT, "image": "1.png"},
                       {"id": "2", "labels": [], "text": "x", "image": "2.png"}])
FLC_GOLD = "1\tLoaded_Language\t0\t10\n1\tDoubt\t20\t30\n2\n"
ABSITA_GOLD = json.dumps({"id_sentence": "a", "sentence": "Ottima batteria", "aspects": ["batteria"],
                          "aspects_position": [[7, 15]], "polarities": [[1, 0]], "score": 5}) + "\n"
NLU_GOLD = '1,"""to be or not to be""","""yes"""\n'

REF = {"semeval2021_t6_st1.json": ST1_GOLD, "semeval2021_t6_st2.json": ST2_GOLD,
       "semeval2021_t6_st3.json": ST3_GOLD, "nlp4if2019_flc.tsv": FLC_GOLD,
       "evalita2020_absita.ndjson": ABSITA_GOLD, "aicup2022_nlu.csv": NLU_GOLD}


@pytest.mark.registry
def test_every_track_scores_and_the_outputs_follow_both_platforms_rules(tmp_path):
    run = run_score(tmp_path, CARD_REF, CARD_SUBMITTED)
    assert run.returncode == 0, run.stderr
    text = (run.output / "scores.txt").read_text(encoding="ascii")
    v15 = parse_scores_v15(text)
    codabench = yaml.safe_load(text)
    assert list(v15) == list(ALL_KEYS)
    assert all(isinstance(value, float) and math.isfinite(value) for value in codabench.values())
    assert codabench == v15 == run.scores_json
    for line in text.splitlines():
        value = line.split(": ")[1]
        assert len(value.split(".")[1]) >= 9 and "e" not in value.lower()
    assert sorted(os.listdir(run.output)) == ["detailed_results.html", "scores.json", "scores.txt"]
    page = (run.output / "detailed_results.html").read_text(encoding="utf-8")
    for track in TRACKS:
        assert 'id="%s"' % track.name in page
    # one inline script (the tables' sorting), never a src; no external resource
    assert re.findall(r"<script\b[^>]*>", page) == ["<script>"]
    assert "http" not in page.replace('lang="en"', "")


@pytest.mark.registry
def test_every_scored_track_has_its_signature_in_scores_json_and_on_the_page(tmp_path):
    from scorer import __version__
    from scorer.readers.options import Options, apply_settings
    from scorer.outputs.signature import track_signature

    run = run_score(tmp_path, CARD_REF, CARD_SUBMITTED)
    assert run.returncode == 0, run.stderr
    signatures = run.signatures
    assert list(signatures) == [track.name for track in TRACKS]
    for track in TRACKS:
        assert signatures[track.name] == track_signature(track.name, Options()), track.name
        assert signatures[track.name].startswith(track.name + "|")
        assert signatures[track.name].endswith("|v" + __version__)
        assert signatures[track.name].count("|") == len(track.settings) + 1
    page = (run.output / "detailed_results.html").read_text(encoding="utf-8")
    for signature in signatures.values():
        assert "<code>%s</code>" % signature in page
    assert "signature" not in (run.output / "scores.txt").read_text(encoding="ascii")

    # a setting of the phase changes the signature of the tracks that read it, and only theirs
    settings = {"overlapping_predictions": "keep"}  # neither track default ("error", "merge")
    changed = run_score(tmp_path, dict(CARD_REF, **{"scoring_config.json": json.dumps(settings)}), CARD_SUBMITTED)
    assert changed.returncode == 0, changed.stderr
    options = apply_settings(Options(), settings, "scoring_config.json")
    readers = [track.name for track in TRACKS if "overlapping_predictions" in track.settings]
    assert readers
    for track in TRACKS:
        assert changed.signatures[track.name] == track_signature(track.name, options)
        assert (changed.signatures[track.name] != signatures[track.name]) == (track.name in readers), track.name
        if track.name in readers:
            assert "overlap:keep" in changed.signatures[track.name]
    page = (changed.output / "detailed_results.html").read_text(encoding="utf-8")
    assert "<code>%s</code>" % changed.signatures[readers[0]] in page


@pytest.mark.registry
def test_scores_json_signature_is_not_stored_by_codabench(tmp_path):
    """Codabench's upload_submission_scores stores only the keys that are leaderboard columns."""
    run = run_score(tmp_path, CARD_REF, ONE_SUBMITTED)
    written = json.loads((run.output / "scores.json").read_text(encoding="ascii"))
    assert set(written) == set(ALL_KEYS) | {"signature"} and "signature" not in ALL_KEYS
    assert list(written["signature"]) == [ONE.name]


@pytest.mark.registry
def test_tracks_without_a_submitted_file_are_skipped(tmp_path):
    run = run_score(tmp_path, CARD_REF, ONE_SUBMITTED)
    assert run.returncode == 0, run.stderr
    assert set(run.scores) == set(ONE.keys)


@pytest.mark.registry
def test_every_leaderboard_key_is_written_and_a_track_not_entered_ranks_last(tmp_path):
    run = run_score(tmp_path, CARD_REF, ONE_SUBMITTED)
    assert run.returncode == 0, run.stderr
    written = run.all_scores
    assert list(written) == list(ALL_KEYS) == list(run.scores_json)
    for key, value in written.items():
        if key in ONE.keys:
            assert 0 <= value <= 1
        elif key in LOWER_IS_BETTER:
            assert value == 9999999999.0  # sorts last ascending, storable (|x| < 1e10)
        else:
            assert value == -1.0  # sorts last descending
    page = (run.output / "detailed_results.html").read_text(encoding="utf-8")
    others = [track for track in TRACKS if track is not ONE]
    for track in others:
        assert '<h2 id="%s">' % track.name in page
        assert "%s: not entered" % track.name in run.stdout
        assert "%s = %s" % (track.keys[0], "9999999999" if track.keys[0] in LOWER_IS_BETTER else "-1") in page
    assert page.count(": not entered</h2>") == len(TRACKS) - 1
    without = run_score(tmp_path, {name: content for name, content in CARD_REF.items() if name not in
                                   {n for t in NEEDS_NLTK for n in EXAMPLES[t][0]}}, ONE_SUBMITTED)
    assert list(without.all_scores) == [key for key in ALL_KEYS
                                        if not any(key in BY_NAME[name].keys for name in NEEDS_NLTK)]


def test_metadata_is_only_command_and_description():
    metadata = yaml.safe_load((PROGRAM / "metadata").read_text(encoding="utf-8"))
    assert metadata == {"command": "python3 $program/score.py $input $output",
                        "description": metadata["description"]}
    assert "  " not in metadata["command"]


@pytest.mark.parametrize("value,text", [(0.5, "0.500000000"), (1e-05, "0.000010000"), (0.0, "0.000000000"),
                                        (1.0136356603448233, "1.0136356603448233"), (-0.0, "0.000000000"),
                                        (123.25, "123.250000000")])
def test_fixed_point_round_trips(value, text):
    assert fixed_point(value) == text and float(text) == value


def test_empty_res_lists_the_expected_names(tmp_path):
    run = run_score(tmp_path, REF, {})
    assert_clean_failure(run, "no file of this phase was found", "semeval2021_t6_st2.json", "aicup2022_nlu.csv")


def test_misnamed_file_gets_a_guess(tmp_path):
    run = run_score(tmp_path, REF, {"task2.json": ST2_GOLD})
    assert_clean_failure(run, "found task2.json; expected semeval2021_t6_st2.json")


def test_wrapping_folder_and_junk(tmp_path):
    res = {"my_submission/semeval2021_t6_st1.json": ST1_GOLD, "__MACOSX/._x": "junk", ".DS_Store": "junk"}
    run = run_score(tmp_path, REF, res)
    assert run.returncode == 0, run.stderr
    assert "'my_submission'" in run.stdout  # the wrapping folder, named
    assert run.scores["t6_st1_f1_micro"] == 1.0


def test_a_file_at_two_depths_is_ambiguous(tmp_path):
    res = {"semeval2021_t6_st1.json": ST1_GOLD, "old/semeval2021_t6_st1.json": ST1_GOLD}
    assert_clean_failure(run_score(tmp_path, REF, res), "found both semeval2021_t6_st1.json and old/")


@pytest.mark.parametrize("name,content,fragments", [
    ("semeval2021_t6_st1.json", '[{"id": "1", "labels": ["Loaded language"]}]',
     ["record 1 (id '1'), field 'labels': unknown technique 'Loaded language' (did you mean 'Loaded Language'?)",
      "1 of the 2 meme ids of this phase are missing: '2'"]),
    ("semeval2021_t6_st1.json", '[{"id": "1", "labels": []},\n {"id": 2, "labels": []}]',
     ["record 2 (id 2): field 'id' must be a string (write \"2\", not 2)"]),
    ("semeval2021_t6_st1.json", '[{"id": "1", "labels": []}\n {"id": "2"}]', ["line 2, column 2: not valid JSON"]),
    ("semeval2021_t6_st1.json", '{"id": "1"}', ["top level: expected a JSON list"]),
    ("semeval2021_t6_st1.json", "", ["the file is empty"]),
    ("semeval2021_t6_st2.json", '[{"id": "1", "labels": [{"technique": "Smears", "start": 5, "end": 3}]}, {"id": "2", "labels": []}]',
     ["record 1 (id '1'), label 1: end must be greater than start"]),
    ("semeval2021_t6_st2.json", '[{"id": "1", "labels": [{"technique": "Smears", "start": 0, "end": 1e400}]}, {"id": "2", "labels": []}]',
     ["start and end must be integer character offsets (found the integer 0, the number inf)"]),
    ("nlp4if2019_flc.tsv", "1 Doubt 0 10\n", ["line 1: expected 4 TAB-separated columns", "separate the columns with TAB"]),
    ("nlp4if2019_flc.tsv", "1\tDoubt\t0\t10\n1\tDoubt\t5\t12\n", ["article '1': two 'Doubt' spans overlap"]),
])
def test_broken_submissions_exit_1_with_a_clear_line(tmp_path, name, content, fragments):
    run = run_score(tmp_path, REF, {name: content})
    assert_clean_failure(run, *fragments)


def test_gold_never_reaches_public_outputs(tmp_path):
    canary = "CANARY-7f3a"
    ref = dict(REF)
    ref["semeval2021_t6_st2.json"] = ST2_GOLD.replace("Vote for us", canary[:11])
    ref["evalita2020_absita.ndjson"] = ABSITA_GOLD.replace("batteria", canary)
    ref["nlp4if2019_flc.tsv"] = FLC_GOLD + "%s\n" % canary
    submissions = [
        {"semeval2021_t6_st2.json": '[{"id": "1", "labels": [{"technique": "Smears", "start": 0, "end": 9999}]}, {"id": "2", "labels": []}]'},
        {"evalita2020_absita.ndjson": '{"id_sentence": "a", "aspects": ["x"]}\n{"id_sentence": "b", "aspects": []}\n'},
        {"evalita2020_absita.ndjson": '{"id_sentence": "a", "aspects": ["x"], "polarities": [[1, 0]], "score": 4}\n'},
        {"nlp4if2019_flc.tsv": "1\tDoubt\t0\t10\n"},
    ]
    for res in submissions:
        run = run_score(tmp_path, ref, res)
        public = run.stdout + run.stderr
        for path in run.output.iterdir():
            if path.is_file():
                public += path.read_text(encoding="utf-8")
        assert canary not in public and canary[:11] not in public


def test_broken_gold_is_reported_without_its_content(tmp_path):
    ref = dict(REF, **{"semeval2021_t6_st1.json": '[{"id": "1", "labels": ["SECRET-LABEL"]}]'})
    run = run_score(tmp_path, ref, {"semeval2021_t6_st1.json": ST1_GOLD})
    assert_clean_failure(run, "reference data semeval2021_t6_st1.json: record 1 (id '1'), field 'labels'",
                         "organisers see the details by running scoring_program/score.py locally")
    assert len(run.stderr.splitlines()) == 1
    assert sorted(os.listdir(run.output)) == ["detailed_results.html", "scores.json", "scores.txt"]
    for path in run.output.iterdir():
        assert "SECRET-LABEL" not in path.read_text(encoding="utf-8")
    assert "SECRET-LABEL" not in run.stderr + run.stdout
    local = run_score(tmp_path, ref, {"semeval2021_t6_st1.json": ST1_GOLD}, items=True)
    assert "SECRET-LABEL" in (local.items / "problems.txt").read_text(encoding="utf-8")
    assert "SECRET-LABEL" not in local.stderr + local.stdout


def test_a_track_module_that_cannot_be_imported_is_one_line_not_a_traceback(tmp_path):
    """The registry imports every track module: one that fails to import is a program fault (exit
    1, one line on stderr), as any internal error."""
    run = run_score(tmp_path, REF, {"semeval2021_t6_st1.json": ST1_GOLD})
    assert run.returncode == 0
    broken = tmp_path / "program"
    shutil.copytree(PROGRAM, broken)
    module = broken / "scorer" / "tracks" / "absita" / "__init__.py"
    module.write_text("import no_such_module_of_ours\n" + module.read_text())
    process = subprocess.run([sys.executable, str(broken / "score.py"), str(run.output.parent / "input"),
                              str(tmp_path / "out")], capture_output=True, text=True)
    assert process.returncode == 1 and "Traceback" not in process.stderr
    assert "internal error" in process.stderr and len(process.stderr.splitlines()) == 1


def test_a_bug_of_ours_is_no_traceback_for_the_participant(tmp_path, monkeypatch):
    res_file = tmp_path / "x"
    run = run_score(tmp_path, REF, {"semeval2021_t6_st1.json": ST1_GOLD},
                    env={"PYTHONPATH": str(tmp_path / "boom")})
    assert run.returncode == 0  # sanity: the normal run works
    boom = tmp_path / "program"
    shutil.copytree(PROGRAM, boom)
    module = boom / "scorer" / "tracks" / "t6_st1.py"
    module.write_text(module.read_text() + "\n\ndef score(*args):\n    raise RuntimeError('bug')\n")
    base = run.output.parent
    process = subprocess.run([sys.executable, str(boom / "score.py"), str(base / "input"), str(tmp_path / "out")],
                             capture_output=True, text=True)
    assert process.returncode == 1 and "Traceback" not in process.stderr
    assert "internal error" in process.stderr and len(process.stderr.splitlines()) == 1
    assert sorted(os.listdir(tmp_path / "out")) == ["detailed_results.html", "scores.json", "scores.txt"]
    process = subprocess.run([sys.executable, str(boom / "score.py"), str(base / "input"), str(tmp_path / "out2"),
                              "--items", str(tmp_path / "items")], capture_output=True, text=True)
    assert process.returncode == 1 and "Traceback" not in process.stderr
    assert "RuntimeError" in (tmp_path / "items" / "problems.txt").read_text()
    del res_file


def test_the_scoring_program_needs_python_3_7_at_most():
    vermin = pytest.importorskip("vermin")
    del vermin
    process = subprocess.run([str(Path(sys.executable).parent / "vermin"), "--no-tips", "--violations", "-t=3.7-",
                              "--no-parse-comments", "--eval-annotations", str(PROGRAM)],
                             capture_output=True, text=True)
    assert process.returncode == 0, process.stdout + process.stderr


def _pythons():
    """One interpreter per minor version 3.7-3.13 found on this machine (PATH or pyenv)."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found = []
    for minor in range(7, 14):
        candidates = [str(p / "bin" / "python3") for p in sorted(pyenv.glob("3.%d.*" % minor))]
        candidates.append(shutil.which("python3.%d" % minor))
        for candidate in filter(None, candidates):
            probe = subprocess.run([candidate, "-c", "import sys; print(sys.version_info[:2])"],
                                   capture_output=True, text=True)
            if probe.returncode == 0 and probe.stdout.strip() == "(3, %d)" % minor:
                found.append(candidate)
                break
    return found


@pytest.mark.registry
@pytest.mark.parametrize("python", _pythons() or [pytest.param(None, marks=pytest.mark.skip("no python3.7-3.13 found"))])
def test_stdlib_tracks_on_every_python_of_the_images(tmp_path, python):
    run = run_score(tmp_path, CARD_REF, STDLIB_SUBMITTED, python=python)
    assert run.returncode == 0, run.stderr
    assert sorted(run.scores) == sorted(key for track in STDLIB_TRACKS for key in track.keys)
    for track in STDLIB_TRACKS:  # each as its card prints it
        for key, printed in EXAMPLES[track.name][2].items():
            decimals = len(printed.split(".")[1]) if "." in printed else 0
            assert abs(run.scores[key] - float(printed)) <= 0.5 * 10 ** -decimals + 1e-12, (python, key)
    broken = run_score(tmp_path, REF, {"semeval2021_t6_st1.json": "[1, 2"}, python=python)
    assert_clean_failure(broken, "not valid JSON")


IMPORT_PROBE = """
import runpy, sys
sys.argv = ["score.py"] + sys.argv[1:]
try:
    runpy.run_path(sys.argv[0].replace("score.py", "") + "%s", run_name="__main__")
except SystemExit:
    pass
sys.stdout.write("MODULES:" + ",".join(sorted(sys.modules)) + "\\n")
"""


def _modules_of_a_run(base, output):
    """The modules a whole score.py process on ``base/input`` has imported when it ends."""
    probe = IMPORT_PROBE % str(PROGRAM / "score.py")
    process = subprocess.run([sys.executable, "-c", probe, str(base / "input"), str(base / output)],
                             capture_output=True, text=True, cwd=str(base))
    listed = [line for line in process.stdout.splitlines() if line.startswith("MODULES:")]
    assert listed, process.stdout + process.stderr
    return set(listed[0][len("MODULES:"):].split(","))


def _imported_by_the_track_modules():
    """The top-level modules the registry's track modules import when they are loaded (their
    module-level imports; those inside functions or ``if TYPE_CHECKING`` are not): a track's own
    choice, which the contract leaves to it ("keep imports that cost start-up time inside the
    functions"), not the scoring machinery's."""
    import ast
    found = {}
    for track in TRACKS:
        for path in track.source_paths:
            for node in ast.parse(Path(path).read_text(encoding="utf-8")).body:
                names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                    [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
                for name in names:
                    found.setdefault(name.split(".")[0], path)
    return found


@pytest.mark.registry
def test_tracks_other_than_nlu_import_nothing_heavy(tmp_path):
    run = run_score(tmp_path, CARD_REF, STDLIB_SUBMITTED)
    loaded = _modules_of_a_run(run.output.parent, "out2")
    heavy = sorted(m for m in loaded if m.split(".")[0] in ("nltk", "regex", "pandas", "numpy", "yaml"))
    assert heavy == []
    assert "scorer.machinery.nltk_tokens" not in loaded  # (nlu's tokenizer module: nlu only)
    assert "string" not in loaded or "string" in _imported_by_the_track_modules()


@pytest.mark.parametrize("n", [0, 1, 4096, 4097, 9000])
def test_item_details_are_written_in_chunks_as_one_json_document(tmp_path, n):
    from scorer.machinery.per_item import ItemStatistics
    from scorer.outputs.item_files import write_items
    from scorer.readers.result import TrackResult
    rows = [[i, 0.5, 1] for i in range(n)]
    statistics = ItemStatistics("t", ["item %d" % i for i in range(n)], ["a", "b", "c"], rows)
    write_items(str(tmp_path / "items"), [TrackResult("t", "t", {}, statistics=lambda: statistics)], [])
    assert json.loads((tmp_path / "items" / "t_items.json").read_text(encoding="utf-8")) == {
        "items": statistics.items, "columns": ["a", "b", "c"], "rows": rows}


def test_predictions_for_another_phase_are_named_as_such(tmp_path):
    """The build writes each phase's public ids into the other phases' reference data; a file of
    Development predictions sent to the Test phase is then named as such, for every track."""
    from bundle.public_data import derive_public_data, public_ids
    from conftest import ROOT
    dev, test = ROOT / "reference_data" / "dev", ROOT / "reference_data" / "test"
    derive_public_data(str(dev), str(tmp_path / "public_dev"))
    other = {"Development": public_ids(str(tmp_path / "public_dev"))}
    assert set(other["Development"]) == {track.filename for track in TRACKS}
    ref = {p.name: p for p in test.iterdir()}
    ref["other_phases.json"] = json.dumps(other)
    from baselines import write_submission
    write_submission(str(tmp_path / "public_dev"), str(tmp_path / "dev_predictions"))
    res = {p.name: p for p in (tmp_path / "dev_predictions").iterdir()}
    run = run_score(tmp_path, ref, res)
    assert run.returncode == 1
    for track in TRACKS:  # the first line of each file says it, once; no id list follows
        lines = [line for line in run.stderr.splitlines() if line.startswith(track.filename + ": ")]
        assert "Development" in lines[0], lines  # the phase the predictions were made for, first
        assert sum("Development" in line for line in lines) == 1, lines
        assert all(":" not in line[len(track.filename) + 2:].split("phase")[-1] for line in lines[1:]), lines


def test_a_module_whose_scores_keys_differ_from_its_keys_fails_loudly(tmp_path):
    """A registered module declaring ``KEYS`` its aggregate does not name: the file is one internal
    error (exit 1) naming the module and both sets of keys for the organisers, never -1 in every
    column with exit 0."""
    from conftest import ROOT, copy_program, register_track
    program = copy_program(tmp_path / "program")
    module = (ROOT / "tests" / "toy_track" / "toy.py").read_text(encoding="utf-8")
    (program / "scorer" / "tracks" / "renamed.py").write_text(
        module + '\nNAME = "renamed"\nKEYS = ("renamed_accuracy",)\nLEADERBOARDS = (("renamed", "renamed_accuracy"),)\n',
        encoding="utf-8")
    register_track(program, "renamed")
    gold = '[{"id": "1", "text": "a", "label": "yes"}]'
    run = run_score(tmp_path, {"toy_labels.json": gold}, {"toy_labels.json": '[{"id": "1", "label": "yes"}]'},
                    program=program, items=True)
    assert run.returncode == 1, (run.stdout, run.stderr)
    assert "toy_labels.json: internal error of the scoring program" in run.stderr
    private = "".join(path.read_text(encoding="utf-8") for path in run.items.rglob("*") if path.is_file()) \
        + run.stderr + run.stdout
    assert "track module renamed: its scores' keys (toy_accuracy) are not among its KEYS (renamed_accuracy)" in private
