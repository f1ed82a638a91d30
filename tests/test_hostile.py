"""Hostile and careless submissions, for every track: clear errors, no tracebacks, no gold leaks.

Every case runs score.py as the platform does, on a gold that carries canary strings, and checks
the exit status, that the message names the right place, that no traceback reaches the
participant, and that no canary appears on stdout, stderr or anywhere in output/ (Codabench lets
participants download the whole folder); per-item details go only to a local run's --items folder.
"""

from __future__ import annotations

import html
import json
import subprocess
import sys
import textwrap

import pytest

from conftest import PROGRAM, run_score

from attacks import CANARY, GOLD  # the small gold, shared with benchmarks/run.py

ST1, ST2, ST3 = "semeval2021_t6_st1.json", "semeval2021_t6_st2.json", "semeval2021_t6_st3.json"
FLC, NLU, ABS = "nlp4if2019_flc.tsv", "aicup2022_nlu.csv", "evalita2020_absita.ndjson"
VALID = {
    ST1: '[{"id": "1", "labels": ["Smears"]}, {"id": "2", "labels": []}]',
    ST2: '[{"id": "1", "labels": [{"technique": "Smears", "start": 0, "end": 9}]}, {"id": "2", "labels": []}]',
    ST3: '[{"id": "1", "labels": ["Transfer"]}, {"id": "2", "labels": []}]',
    FLC: "11\tDoubt\t0\t12\n",
    NLU: '7,"gold q","gold r"\n8,"x y","z"\n9,"u","v"\n',
    ABS: '{"id_sentence": "r1", "aspects": ["batteria"], "polarities": [[1, 0]], "score": 4}\n'
         '{"id_sentence": "r2", "aspects": [], "polarities": [], "score": 2}\n',
}

# (file, content, fragment that must be in stderr)
CASES = [
    # empty files
    (ST1, "", "semeval2021_t6_st1.json: the file is empty"),
    (ST2, "   \n", "semeval2021_t6_st2.json: the file is empty"),
    (NLU, "", "aicup2022_nlu.csv: no rows"),
    (ABS, "\n\n", "evalita2020_absita.ndjson: the file is empty"),
    # not UTF-8
    (ST1, b'[{"id": "1", "labels": ["Sme\xe9rs"]}]', "byte 28 (line 1): the file is not UTF-8"),
    (FLC, b"11\tDoubt\t0\t12\n12\tDoubt\t0\t\xff\n", "byte 25 (line 2)"),
    (ABS, b'{"id_sentence": "r1"}\n\xc3', "(line 2): the file is not UTF-8"),
    # wrong top level and shapes
    (ST1, '{"id": "1", "labels": []}', "top level: expected a JSON list"),
    (ST2, '"hello"', "top level: expected a JSON list"),
    (ST3, "[1, 2]", "record 1: expected an object"),
    (ABS, "[1, 2]\n", "line 1: expected a JSON object"),
    # missing fields and wrong types
    (ST1, '[{"id": "1"}, {"id": "2", "labels": []}]', "record 1 (id '1'): missing field 'labels'"),
    (ST1, '[{"labels": []}, {"id": "2", "labels": []}]', "record 1: missing field 'id'"),
    (ST1, '[{"id": "1", "labels": "Smears"}, {"id": "2", "labels": []}]', "field 'labels' must be a list"),
    (ST1, '[{"id": true, "labels": []}, {"id": "2", "labels": []}]', "field 'id' must be a string"),
    (ST1, '[{"id": null, "labels": []}, {"id": "2", "labels": []}]', "field 'id' must be a string"),
    (ST3, '[{"id": "1", "labels": [["Transfer"]]}, {"id": "2", "labels": []}]', "labels must be strings"),
    (ST2, '[{"id": "1", "labels": [{"technique": "Smears", "start": false, "end": 9}]}, {"id": "2", "labels": []}]',
     "label 1: start and end must be integer character offsets (found a boolean (false), the integer 9)"),
    (ST2, '[{"id": "1", "labels": [{"technique": "Smears", "start": null, "end": 9}]}, {"id": "2", "labels": []}]',
     "(found null, the integer 9)"),
    (ST2, '[{"id": "1", "labels": [{"technique": ["Smears"], "start": 0, "end": 9}]}, {"id": "2", "labels": []}]',
     "labels must be strings"),
    (ST2, '[{"id": "1", "labels": [{"start": 0, "end": 9}]}, {"id": "2", "labels": []}]', "missing field 'technique'"),
    (ABS, '{"id_sentence": "r1", "aspects": ["x"], "score": true}\n{"id_sentence": "r2", "aspects": [], "score": 1}\n',
     "line 1 (id_sentence 'r1'): field 'score' must be a finite number, found a boolean"),
    (ABS, '{"id_sentence": 5, "aspects": []}\n', "line 1: field 'id_sentence' must be a non-empty string"),
    # NaN and Infinity
    (ST2, '[{"id": "1", "labels": [{"technique": "Smears", "start": 0, "end": Infinity}]}]', "Infinity is not a JSON number"),
    (ABS, '{"id_sentence": "r1", "score": NaN}\n{"id_sentence": "r2", "score": 1}\n', "line 1: NaN is not a JSON number"),
    (ABS, '{"id_sentence": "r1", "score": 1e999}\n{"id_sentence": "r2", "score": 1}\n', "field 'score' must be a finite number"),
    # spans
    (ST2, '[{"id": "1", "labels": [{"technique": "Smears", "start": -1, "end": 9}]}, {"id": "2", "labels": []}]',
     "must be non-negative"),
    (ST2, '[{"id": "1", "labels": [{"technique": "Smears", "start": 9, "end": 2}]}, {"id": "2", "labels": []}]',
     "end must be greater than start (found start=9, end=2)"),
    (ST2, '[{"id": "1", "labels": [{"technique": "Smears", "start": 3, "end": 3}]}, {"id": "2", "labels": []}]',
     "end must be greater than start"),
    (FLC, "11\tDoubt\t-3\t5\n", "line 1: start and end must be non-negative"),
    (FLC, "11\tDoubt\t7\t7\n", "line 1: end must be greater than start"),
    (FLC, "11\tDoubt\t1e3\t5\n", "line 1: start and end must be integer character offsets (found '1e3', '5')"),
    (FLC, "11\tDoubt\t0\t12\n11\tDoubt\t0\t12\n", "article '11': two 'Doubt' spans overlap"),
    (ST2, '[{"id": "1", "labels": [{"technique": "Smears", "start": 0, "end": 9}, {"technique": "Smears", "start": 5, "end": 12}]},'
          ' {"id": "2", "labels": []}]', "meme '1': two 'Smears' spans overlap, [0, 9) and [5, 12)"),
    # ids
    (ST1, '[{"id": "1", "labels": []}]', "1 of the 2 meme ids of this phase are missing: '2'"),
    (ST1, '[{"id": "1", "labels": []}, {"id": "2", "labels": []}, {"id": "x9", "labels": []}]',
     "1 meme ids are not in this phase: 'x9'"),
    (ST1, '[{"id": "1"}, {"id": "2", "labels": []}, {"id": "2", "labels": []}]', "record 1 (id '1'): missing field 'labels'"),
    (ST2, '[{"id": "1", "labels": 5}, {"id": "2", "labels": []}, {"id": "2", "labels": []}]',
     "record 1 (id '1'): field 'labels' must be a list"),
    (FLC, "99\tDoubt\t0\t5\n", "1 article id is not in this phase: '99'"),
    (NLU, '7,"a","b"\n8,"x","z"\n', "1 of the 3 input ids of this phase are missing: '9'"),
    (NLU, '7,"a","b"\n7,"a","b"\n8,"x","z"\n9,"u","v"\n', "line 2: duplicate id '7'"),
    (ABS, '{"id_sentence": "r1", "score": 1}\n{"id_sentence": "r1", "score": 1}\n{"id_sentence": "r2", "score": 1}\n',
     "line 2: duplicate id 'r1'"),
    (ABS, '{"id_sentence": "r1", "score": 1}\n', "missing: 'r2'"),
    # techniques
    (ST1, '[{"id": "1", "labels": ["smears"]}, {"id": "2", "labels": []}]', "unknown technique 'smears' (did you mean 'Smears'?)"),
    (ST3, '[{"id": "1", "labels": ["Transfers"]}, {"id": "2", "labels": []}]', "(did you mean 'Transfer'?)"),
    (ST1, '[{"id": "1", "labels": ["Transfer"]}, {"id": "2", "labels": []}]', "unknown technique 'Transfer'"),
    (FLC, "11\tName Calling,Labeling\t0\t5\n", "(did you mean 'Name_Calling,Labeling'?)"),
    (ST1, '[{"id": "1", "labels": ["Name Calling"]}, {"id": "2", "labels": []}]',
     "unknown technique 'Name Calling' (did you mean 'Name calling/Labeling'?)"),
    (ST2, '[{"id": "1", "labels": [{"technique": "loaded_language", "start": 0, "end": 9}]}, {"id": "2", "labels": []}]',
     "(did you mean 'Loaded Language'?)"),
    (ST3, '[{"id": "1", "labels": ["Appeal to Emotions"]}, {"id": "2", "labels": []}]',
     "(did you mean 'Appeal to (Strong) Emotions'?)"),
    (FLC, "11\tName Calling\t0\t5\n", "(did you mean 'Name_Calling,Labeling'?)"),
    # columns
    (FLC, "11\tDoubt\t0\n", "line 1: expected 4 TAB-separated columns article_id, technique, start, end; found 3"),
    (FLC, "11\tDoubt\t0\t5\t0.9\n", "found 5"),
    (NLU, '7,"a"\n8,"x","z"\n9,"u","v"\n', "line 1: expected 3 comma-separated columns"),
    (NLU, '7,"a,"b"\n8,"x","z"\n9,"u","v"\n', "line 1: a quote closes a field but is not followed by a comma"),
    (NLU, '8,"x","z"\n9,"u","v"\n7,"a","b\n', "line 3: a quoted field is never closed (unterminated"),
    (NLU, '7,"a","b\n8,"x","z"\n', "line 2: a quote closes a field but is not followed by a comma"),
    # polarities and fields on some lines only
    (ABS, '{"id_sentence": "r1", "aspects": ["x"], "polarities": [[1]]}\n{"id_sentence": "r2", "aspects": [], "polarities": []}\n',
     "polarity 1 must be a pair of 0/1 integers"),
    (ABS, '{"id_sentence": "r1", "aspects": ["x"], "polarities": [[1, 0]]}\n{"id_sentence": "r2", "aspects": []}\n',
     "line 2: field 'polarities' is missing here but present on other lines"),
]


# Input the official scorers score, and so do we, with one counted warning line (the refusal
# policy, scoring_program/POLICY.md): (file, content, warning fragment, expected scores)
P18 = 9 / 10 ** 18  # the precision of [0, 10**18) against the gold span [0, 9)
PF = 7 / (10 ** 18 - 5)  # [5, 10**18) against [0, 12)
WARNED = [
    (ST2, '[{"id": "1", "labels": [{"technique": "Smears", "start": "0", "end": 9}]}, {"id": "2", "labels": []}]',
     "warning: 1 offset is not a JSON integer; read with int() as the official scorer does",
     {"t6_st2_f1": 1.0, "t6_st2_precision": 1.0, "t6_st2_recall": 1.0}),
    (ST2, '[{"id": "1", "labels": [{"technique": "Smears", "start": 0.0, "end": 9.9}]}, {"id": "2", "labels": []}]',
     "warning: 2 offsets are not JSON integers", {"t6_st2_f1": 1.0}),
    (ST2, '[{"id": "1", "labels": [{"technique": "Smears", "start": 0, "end": 1000000000000000000}]}, {"id": "2", "labels": []}]',
     "warning: 1 span ends past its meme's text; scored as given (it can only lower precision); first at record 1",
     {"t6_st2_precision": P18, "t6_st2_recall": 1.0, "t6_st2_f1": 2 * P18 / (P18 + 1.0)}),
    (FLC, "11\tDoubt\t5\t1000000000000000000\n",
     "warning: 1 span ends past its article's text; scored as given (it can only lower precision); first at line 1",
     {"flc_precision": PF, "flc_recall": 7 / 12, "flc_f1": 2 * PF * (7 / 12) / (PF + 7 / 12)}),
    (ST3, '[{"id": "1", "labels": ["Transfer"]}, {"id": "2", "labels": ["Transfer"]}, {"id": "2", "labels": []}]',
     "warning: 1 id appears more than once; its last copy is scored, as the official scorer does; first at record 3",
     {"t6_st3_f1_micro": 1.0, "t6_st3_f1_macro": 1.0}),
    (ST2, '[{"id": "1", "labels": []}, {"id": "1", "labels": [{"technique": "Smears", "start": 0, "end": 9}]},'
          ' {"id": "2", "labels": []}]', "warning: 1 id appears more than once", {"t6_st2_f1": 1.0}),
]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("hostile")


def public_text(run) -> str:
    """Everything a participant can see: stdout, stderr and all of output/."""
    text = run.stdout + run.stderr
    for path in run.output.rglob("*"):
        if path.is_file():
            text += path.read_text(encoding="utf-8", errors="replace")
    return text


def _id(case):
    return "%s:%s" % (case[0].split(".")[0].split("_")[-1], case[2][:30])


@pytest.mark.parametrize("name,content,fragment", CASES, ids=[_id(c) for c in CASES])
def test_broken_submission(workdir, name, content, fragment):
    run = run_score(workdir, GOLD, {name: content})
    assert run.returncode == 1, (run.stdout, run.stderr)
    assert "Traceback" not in run.stderr + run.stdout
    assert fragment in run.stderr, run.stderr
    assert all(line.startswith((name + ": ", "... and ")) for line in run.stderr.splitlines()), run.stderr
    assert CANARY not in public_text(run) and CANARY.lower() not in public_text(run)


@pytest.mark.parametrize("name,content,warning,expected", WARNED, ids=[_id(c) for c in WARNED])
def test_scored_with_a_warning(workdir, name, content, warning, expected):
    run = run_score(workdir, GOLD, {name: content})
    assert run.returncode == 0, run.stderr
    assert run.stderr == "" and "%s: %s" % (name, warning) in run.stdout, run.stdout
    for key, value in expected.items():
        assert run.scores[key] == pytest.approx(value, rel=1e-12, abs=0), key
    page = html.unescape((run.output / "detailed_results.html").read_text(encoding="utf-8"))
    assert "%s: %s" % (name, warning) in page
    assert CANARY not in public_text(run) and CANARY.lower() not in public_text(run)


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_submissions_leak_nothing(workdir, name):
    run = run_score(workdir, GOLD, {name: VALID[name]}, items=True)
    assert run.returncode == 0, run.stderr
    assert CANARY not in public_text(run) and CANARY.lower() not in public_text(run)
    assert sorted(p.name for p in run.output.iterdir()) == ["detailed_results.html", "scores.json", "scores.txt"]
    assert list(run.items.glob("*_items.json"))  # the details went to the local run's folder only


@pytest.mark.parametrize("res,fragment", [
    ({"task2.json": VALID[ST2]}, "found task2.json; expected semeval2021_t6_st2.json"),
    ({"readme.txt": "hi", "predictions.tsv": VALID[FLC]}, "found predictions.tsv; expected nlp4if2019_flc.tsv"),
    ({"__MACOSX/._x": "", ".DS_Store": ""}, "no file of this phase was found"),
    ({"a/" + ST1: VALID[ST1], ST1: VALID[ST1]}, "found both semeval2021_t6_st1.json and a/semeval2021_t6_st1.json"),
    ({ST1 + "/x": "folder"}, "semeval2021_t6_st1.json: expected a file, found a folder"),
])
def test_submission_layouts(workdir, res, fragment):
    run = run_score(workdir, GOLD, res)
    assert run.returncode == 1 and fragment in run.stderr and "Traceback" not in run.stderr, run.stderr


def test_wrapped_folder_with_junk_is_read(workdir):
    run = run_score(workdir, GOLD, {"results/" + FLC: VALID[FLC], "results/.DS_Store": "", "__MACOSX/results/._x": ""})
    assert run.returncode == 0, run.stderr
    assert "'results'" in run.stdout and "flc_f1" in run.scores  # the wrapping folder named, its files read


def test_bom_crlf_and_trailing_blank_lines_are_accepted(workdir):
    res = {ST1: "\ufeff" + VALID[ST1].replace(", ", ",\r\n") + "\r\n\r\n",
           FLC: "\ufeff11\tDoubt\t0\t12\r\n\r\n\r\n",
           NLU: "\ufeffid,q,r\r\n" + VALID[NLU].replace("\n", "\r\n") + "\r\n",
           ABS: "\ufeff" + VALID[ABS].replace("\n", "\r\n") + "\r\n"}
    run = run_score(workdir, GOLD, res)
    assert run.returncode == 0, run.stderr
    assert run.scores["flc_f1"] == 1.0 and run.scores["t6_st1_f1_micro"] == 1.0


def test_problem_lists_are_capped(workdir):
    lines = "".join("11\tDoubt\t%d\t%d\n" % (i, i) for i in range(5000))
    run = run_score(workdir, GOLD, {FLC: lines})
    errors = run.stderr.splitlines()
    assert run.returncode == 1 and len(errors) == 21 and errors[-1].startswith("... and ")


def test_limits_are_configurable(workdir):
    gold = dict(GOLD, **{"scoring_config.json": json.dumps({"max_file_bytes": 10})})
    run = run_score(workdir, gold, {FLC: VALID[FLC]})
    assert run.returncode == 1 and "the file has 14 bytes; the limit is 10 bytes" in run.stderr
    gold = dict(GOLD, **{"scoring_config.json": json.dumps({"max_spans_per_document": 1})})
    run = run_score(workdir, gold, {FLC: "11\tDoubt\t0\t3\n11\tDoubt\t4\t8\n"})
    assert run.returncode == 1 and "at most 1 per article are accepted" in run.stderr
    gold = dict(GOLD, **{"scoring_config.json": json.dumps({"max_spans": 1})})
    run = run_score(workdir, gold, {FLC: VALID[FLC]})
    assert run.returncode == 1 and "unknown setting max_spans" in run.stderr


def test_nlu_answers_longer_than_their_text_are_scored(workdir):
    # 10,000 characters for a q of 12: a degenerate generated answer; it can only lower its score
    long_answer = "word " * 2000
    run = run_score(workdir, GOLD, {NLU: '7,"%s","b"\n8,"x","z"\n9,"u","v"\n' % long_answer})
    assert run.returncode == 0, run.stderr
    assert 0 < run.scores["nlu_score"] < 1


RESOURCE_SCRIPT = textwrap.dedent("""
    import resource, subprocess, sys, time
    start = time.time()
    process = subprocess.run([sys.executable, sys.argv[1], sys.argv[2], sys.argv[3]],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(process.returncode, time.time() - start, peak_kib)
""")


def measure(workdir, res):
    staged = run_score(workdir, GOLD, {})  # stage input/ref; res replaced below
    base = staged.output.parent
    for name, content in res.items():
        (base / "input" / "res" / name).write_text(content, encoding="utf-8")
    process = subprocess.run([sys.executable, "-c", RESOURCE_SCRIPT, str(PROGRAM / "score.py"),
                              str(base / "input"), str(base / "output2")], capture_output=True, text=True)
    code, seconds, peak_kib = process.stdout.split()
    return int(code), float(seconds), int(peak_kib) / 1024


def test_resources_huge_offsets(workdir):
    # 10**18 offsets cost O(1): a gold folder without texts accepts them and scores them
    code, seconds, peak_mib = measure(workdir, {FLC: "12\tDoubt\t0\t%d\n11\tDoubt\t%d\t%d\n" % (10 ** 18, 10 ** 17, 10 ** 18)})
    assert code == 0 and peak_mib < 200  # 11 has a text: past its end, a warning (time: benchmarks/run.py)


def test_resources_fifty_megabytes(workdir):
    spans = "".join("12\tLoaded_Language\t%d\t%d\n" % (3 * i, 3 * i + 2) for i in range(2000000))
    assert len(spans) > 50 * 10 ** 6
    code, seconds, peak_mib = measure(workdir, {FLC: spans})
    assert code == 1 and peak_mib < 1000, (seconds, peak_mib)  # > max spans per article (time: benchmarks/run.py)
    records = json.dumps([{"id": str(i), "labels": ["Smears"], "text": "x" * 50} for i in range(700000)])
    assert len(records) > 50 * 10 ** 6
    code, seconds, peak_mib = measure(workdir, {ST1: records})
    assert code == 1 and peak_mib < 1000, (seconds, peak_mib)


def test_local_tools_refuse_zip_bombs(tmp_path, monkeypatch):
    import zipfile
    import staging
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(ST1, b"\0" * (3 * 1024 * 1024))  # compresses to a few KiB
    monkeypatch.setattr(staging, "MAX_UNPACKED_BYTES", 1024 * 1024)
    with pytest.raises(staging.KitError, match="unpacks to 3145728 bytes"):
        staging.safe_extract(str(bomb), str(tmp_path / "out"))
    many = tmp_path / "many.zip"
    with zipfile.ZipFile(many, "w") as archive:
        for i in range(30):
            archive.writestr("f%d.txt" % i, "x")
    monkeypatch.setattr(staging, "MAX_MEMBERS", 20)
    with pytest.raises(staging.KitError, match="has 30 entries; at most 20"):
        staging.safe_extract(str(many), str(tmp_path / "out2"))
    (tmp_path / "not.zip").write_text("plain text")
    with pytest.raises(staging.KitError, match="is not a zip file"):
        staging.safe_extract(str(tmp_path / "not.zip"), str(tmp_path / "out3"))
