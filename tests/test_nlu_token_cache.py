"""nlu's gold tokens kept between runs: the token cache the build writes beside the gold, and the
gold kept in one process for the next submission.

A cache that is damaged, stale or made for another gold or another version of the code scores
exactly as with no cache (the scores and every id's row), with a note naming the cache, never a
crash: ids reversed or rows permuted under the build's identity, a token changed, any one field of
the wrong type, a truncated file, another gold's cache, a cache of another code version. The
sample gold of the repository keeps these runs short; the real gold checks the build's cache
gives the real scores.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from array import array

import pytest

from conftest import ROOT, nltk_data_dir, run_score, shared_path
from scorer.readers.options import Options
from scorer.tracks import nlu

CACHE = "aicup2022_nlu.tokens.json"
DEV = ROOT / "reference_data" / "dev"
NLU = ("data", "aidea_nlu")


def _gold_rows(text):
    return [line for line in text.splitlines() if line]


def _submission(gold_text):
    """An answer for each id of the test input; for the gold's ids, a part of its first answer,
    so that the ids score differently."""
    import csv
    import io
    first = {}
    for row in csv.reader(io.StringIO(gold_text)):
        first.setdefault(row[0], row)
    with open(str(DEV / nlu.TEST_INPUT), encoding="utf-8", newline="") as handle:
        inputs = list(csv.reader(handle))[1:]
    lines = ["id,q,r"]
    for k, row in enumerate(first.get(item[0], item) for item in inputs):
        q, r = row[1].strip('"').split(), row[2].strip('"').split()
        lines.append('%s,"""%s""","""%s"""' % (row[0], " ".join(q[:1 + k % len(q)]), " ".join(r[k % 3:])))
    return "\n".join(lines) + "\n"


def _folder(path, gold_text, cache=None):
    path.mkdir(parents=True)
    (path / nlu.FILE_NAME).write_text(gold_text, encoding="utf-8")
    shutil.copyfile(str(DEV / nlu.TEST_INPUT), str(path / nlu.TEST_INPUT))
    if cache is not None:
        (path / CACHE).write_bytes(cache)
    return path


def _built_cache(folder):
    return nlu.reference_data_extras(str(folder))[CACHE]


def _scored(folder, submission):
    result = nlu.score(str(folder / nlu.FILE_NAME), str(submission), nlu.FILE_NAME, Options(), str(folder))
    return result.scores, result.statistics.rows, [note for note in result.notes if CACHE in note]


def _objects(data):
    """The JSON objects of a cache file: the file's and each object it holds."""
    document = json.loads(data.decode("utf-8"))
    return [document] + [value for value in document.values() if isinstance(value, dict)]


def _canonical(value):
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


def _file(objects, consistent=False):
    """The cache file of ``objects``. A file ``{"sha256": S, "cache": C}`` (S the sha256 of C's
    bytes) is written in that order, S as it was, or, ``consistent``, made to match C (a forgery
    that keeps the file whole)."""
    top = objects[0]
    if set(top) != {"sha256", "cache"} or not isinstance(top["sha256"], str) or not isinstance(top["cache"], dict):
        return _canonical(top) + b"\n"
    body = _canonical(top["cache"])
    digest = hashlib.sha256(body).hexdigest() if consistent else top["sha256"]
    return b'{"sha256":"' + digest.encode("utf-8") + b'","cache":' + body + b"}\n"


def _with(data, changes, consistent=False):
    """The cache ``data`` with ``changes`` (field -> value) made in the object that holds each field."""
    objects = _objects(data)
    for name, value in changes.items():
        holder = next((item for item in objects if name in item), objects[-1])  # (a new field: the last)
        holder[name] = value
    return _file(objects, consistent)


def _field(data, name):
    return next(item[name] for item in _objects(data) if name in item)


def _int32(text):
    values = array("i")
    values.frombytes(base64.b64decode(text))
    return values


def _base64(values):
    return base64.b64encode(array("i", values).tobytes()).decode("ascii")


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """The sample gold, a submission, the scores without a cache and the build's cache."""
    base = tmp_path_factory.mktemp("nlu-token-cache")
    gold_text = (DEV / nlu.FILE_NAME).read_text(encoding="utf-8")
    submission = base / "submission.csv"
    submission.write_text(_submission(gold_text), encoding="utf-8")
    plain = _scored(_folder(base / "plain", gold_text), submission)
    assert plain[2] == [] and 0 < plain[0]["nlu_score"] < 1
    cache = _built_cache(base / "plain")
    return {"base": base, "gold": gold_text, "submission": submission, "plain": plain, "cache": cache}


def _check(sample, name, cache, noted=True):
    """The sample gold with ``cache`` beside it scores as with none; the note names the cache."""
    folder = _folder(sample["base"] / name, sample["gold"], cache)
    scores, rows, notes = _scored(folder, sample["submission"])
    assert (scores, rows) == sample["plain"][:2], name
    assert bool(notes) == noted, (name, notes)


def test_the_builds_cache_gives_the_same_scores_without_a_note(sample):
    _check(sample, "built", sample["cache"], noted=False)
    assert _built_cache(sample["base"] / "built") == sample["cache"]  # the same gold, the same bytes


def _transplanted(sample, name, gold_text):
    """The build's cache of ``gold_text`` given the sample gold's identity (its sha256)."""
    other = _folder(sample["base"] / (name + "-source"), gold_text)
    own = _field(sample["cache"], "gold_sha256")
    return _built_cache(other), own


def _ids_reversed(gold_text):
    rows = _gold_rows(gold_text)
    ids = list(dict.fromkeys(row.split(",", 1)[0] for row in rows))
    other = dict(zip(ids, reversed(ids)))
    return "\n".join(other[row.split(",", 1)[0]] + "," + row.split(",", 1)[1] for row in rows) + "\n"


def _rows_permuted(gold_text):
    rows = _gold_rows(gold_text)
    random.Random(7).shuffle(rows)
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize("case", ["ids reversed", "rows permuted"])
def test_another_golds_cache_under_the_builds_identity_is_not_used(sample, case):
    gold_text = (_ids_reversed if case == "ids reversed" else _rows_permuted)(sample["gold"])
    cache, own = _transplanted(sample, case.replace(" ", "-"), gold_text)
    _check(sample, case.replace(" ", "-"), _with(cache, {"gold_sha256": own}))


@pytest.mark.parametrize("case", ["ids reversed", "rows permuted"])
def test_a_whole_forgery_still_gives_each_text_its_own_tokens(sample, case):
    """The same cache with its digest made to match: each text's tokens are found by the text, so
    the numbers are still those of the gold."""
    gold_text = (_ids_reversed if case == "ids reversed" else _rows_permuted)(sample["gold"])
    cache, own = _transplanted(sample, "whole-" + case.replace(" ", "-"), gold_text)
    folder = _folder(sample["base"] / ("whole-" + case.replace(" ", "-")), sample["gold"],
                     _with(cache, {"gold_sha256": own}, consistent=True))
    assert _scored(folder, sample["submission"])[:2] == sample["plain"][:2]


def test_a_changed_token_is_a_damaged_cache(sample):
    tokens = _int32(_field(sample["cache"], "tokens"))
    changed = list(tokens)
    at = next(k for k, value in enumerate(changed) if value != changed[0])
    changed[0], changed[at] = changed[at], changed[0]  # two tokens swapped: still numbers of the vocabulary
    _check(sample, "changed-token", _with(sample["cache"], {"tokens": _base64(changed)}))


WRONG_VALUES = [5, -1, "x", "AAAA", [], {}, None, True, [1, 2]]


@pytest.mark.parametrize("consistent", [False, True], ids=["digest stale", "digest matching"])
def test_any_field_of_the_wrong_type_is_a_damaged_cache(sample, consistent):
    names = [name for item in _objects(sample["cache"]) for name in item]
    for name in names if not consistent else [name for name in names if name != "sha256"]:  # (that one: made to match)
        for value in WRONG_VALUES:
            if value == _field(sample["cache"], name):
                continue
            _check(sample, "wrong-%s-%s-%s" % (consistent, name, WRONG_VALUES.index(value)),
                   _with(sample["cache"], {name: value}, consistent))


def test_fields_of_the_wrong_length_or_range_are_a_damaged_cache(sample):
    """A whole file (its digest matching) whose arrays do not fit together."""
    cache = sample["cache"]
    spans = list(_int32(_field(cache, "gold_spans")))
    tokens = list(_int32(_field(cache, "tokens")))
    vocabulary = _field(cache, "vocabulary")
    for label, changes in [
            ("a span cut off", {"gold_spans": _base64(spans[:-1])}),
            ("a text without its span", {"gold_spans": _base64(spans[:-2])}),
            ("a span past the tokens", {"gold_spans": _base64(spans[:-1] + [len(tokens) + 1])}),
            ("a span that ends before it starts", {"gold_spans": _base64([spans[1], spans[0]] + spans[2:])}),
            ("a negative span", {"gold_spans": _base64([-1] + spans[1:])}),
            ("a token past the vocabulary", {"tokens": _base64([len(vocabulary)] + tokens[1:])}),
            ("a negative token", {"tokens": _base64([-1] + tokens[1:])}),
            ("a token twice in the vocabulary", {"vocabulary": vocabulary[:-1] + vocabulary[:1]}),
            ("a token that is not a string", {"vocabulary": vocabulary[:-1] + [7]}),
            ("a text digest cut off", {"gold_texts": base64.b64encode(
                base64.b64decode(_field(cache, "gold_texts"))[:-1]).decode("ascii")}),
            ("a field more", {"first_row": "AAAAAA=="})]:
        _check(sample, "range-" + label.replace(" ", "-"), _with(cache, changes, consistent=True))


def test_a_truncated_or_unreadable_cache_is_not_used(sample):
    data = sample["cache"]
    for label, cut in [("half", data[:len(data) // 2]), ("the end cut", data[:-3]), ("the digest only", data[:80]),
                       ("empty", b""), ("not UTF-8", data[:-3] + b"\xff}\n"), ("nested", b"[" * 100000)]:
        _check(sample, "truncated-" + label.replace(" ", "-"), cut)


def test_another_golds_cache_is_not_used(sample):
    other = _folder(sample["base"] / "test-gold", (ROOT / "reference_data" / "test" / nlu.FILE_NAME).read_text(
        encoding="utf-8"))
    _check(sample, "another-gold", _built_cache(other))


def test_a_cache_of_another_version_of_the_tokenizing_code_is_not_used(sample, tmp_path):
    """The build of another version of the code (here its tokens upper-cased) wrote the cache."""
    program = tmp_path / "program"
    shutil.copytree(str(ROOT / "scoring_program"), str(program), ignore=shutil.ignore_patterns("__pycache__"))
    with open(str(program / "scorer" / "machinery" / "nltk_tokens.py"), "a", encoding="utf-8") as handle:
        handle.write("\n_TOKENS = Tokenizer.tokens\nTokenizer.tokens = lambda self, text: "
                     "[token.upper() for token in _TOKENS(self, text)]\n")
    folder = _folder(tmp_path / "gold", sample["gold"])
    script = ("import sys; sys.path.insert(0, sys.argv[1]); from scorer.tracks import nlu; "
              "sys.stdout.buffer.write(nlu.reference_data_extras(sys.argv[2])[%r])" % CACHE)
    env = dict(os.environ)
    if nltk_data_dir() is not None:
        env.setdefault("NLTK_DATA", str(nltk_data_dir()))
    cache = subprocess.run([sys.executable, "-c", script, str(program), str(folder)], check=True,
                           stdout=subprocess.PIPE, env=env).stdout
    assert _field(cache, "vocabulary") != _field(sample["cache"], "vocabulary")  # other tokens
    _check(sample, "another-code", cache)


DAMAGED = ["ids reversed", "a token changed", "first_row: 5", "vocabulary: 5", "truncated"]


@pytest.mark.parametrize("case", DAMAGED)
def test_score_py_scores_a_damaged_cache_as_without_one_and_says_so(sample, tmp_path, case):
    """The whole program, in a process of its own: exit 0, the same scores.json, the note on the
    page, never an internal error."""
    cache = sample["cache"]
    if case == "ids reversed":
        other, own = _transplanted(sample, "score-py", _ids_reversed(sample["gold"]))
        cache = _with(other, {"gold_sha256": own})
    elif case == "a token changed":
        tokens = list(_int32(_field(cache, "tokens")))
        tokens[0] = next(value for value in tokens if value != tokens[0])
        cache = _with(cache, {"tokens": _base64(tokens)})
    elif case == "truncated":
        cache = cache[:len(cache) // 3]
    else:
        name, value = case.split(": ")
        cache = _with(cache, {name: int(value)}, consistent=True)
    ref = {nlu.FILE_NAME: sample["gold"], nlu.TEST_INPUT: DEV / nlu.TEST_INPUT}
    res = {nlu.FILE_NAME: sample["submission"]}
    plain = run_score(tmp_path, ref, res)
    damaged = run_score(tmp_path, dict(ref, **{CACHE: cache}), res)
    assert plain.returncode == damaged.returncode == 0, damaged.stderr
    assert "internal error" not in damaged.stderr
    assert (damaged.output / "scores.json").read_bytes() == (plain.output / "scores.json").read_bytes()
    page = (damaged.output / "detailed_results.html").read_text(encoding="utf-8")
    assert CACHE in page and CACHE not in (plain.output / "detailed_results.html").read_text(encoding="utf-8")


def test_a_token_cache_in_the_submission_is_never_read(sample, tmp_path):
    """Only the reference data's copy counts: a damaged cache in res/ leaves no note, in ref/ it does."""
    ref = {nlu.FILE_NAME: sample["gold"]}
    damaged = sample["cache"][:100]
    in_res = run_score(tmp_path, ref, {nlu.FILE_NAME: sample["submission"], CACHE: damaged})
    in_ref = run_score(tmp_path, dict(ref, **{CACHE: damaged}), {nlu.FILE_NAME: sample["submission"]})
    assert in_res.returncode == in_ref.returncode == 0, in_res.stderr + in_ref.stderr
    assert in_res.scores == in_ref.scores
    assert CACHE not in (in_res.output / "detailed_results.html").read_text(encoding="utf-8")
    assert CACHE in (in_ref.output / "detailed_results.html").read_text(encoding="utf-8")


# --- the gold kept in one process --------------------------------------------------------------

def test_one_process_scores_each_gold_and_cache_it_is_given(tmp_path, sample):
    """Scoring submissions one after another in one process (rank_submissions.py, each --jobs
    worker): the gold rewritten at the same path, or its cache replaced, is read again."""
    gold = _folder(tmp_path / "gold", sample["gold"])
    first = _scored(gold, sample["submission"])
    assert first == sample["plain"]
    rows = _gold_rows(sample["gold"])
    (gold / nlu.FILE_NAME).write_text("\n".join(rows[:-1]) + "\n", encoding="utf-8")  # one answer less
    fewer = _folder(tmp_path / "fewer", "\n".join(rows[:-1]) + "\n")
    assert _scored(gold, sample["submission"]) == _scored(fewer, sample["submission"])
    (gold / nlu.FILE_NAME).write_text(sample["gold"], encoding="utf-8")
    assert _scored(gold, sample["submission"]) == first
    (gold / CACHE).write_bytes(b"{}")
    assert _scored(gold, sample["submission"])[2]  # the note of the cache now beside it
    (gold / CACHE).write_bytes(sample["cache"])
    assert _scored(gold, sample["submission"]) == first


def test_a_refused_submission_leaves_no_untokenized_gold_in_the_process(tmp_path):
    """The first submission is refused (its gold read, not tokenized); the next one is scored
    against a copy of the same gold elsewhere, while the first folder is gone or holds another
    gold with as many rows: the scores are those of the gold given."""
    from scorer.readers.problems import SubmissionError
    for case in ("deleted", "replaced"):
        gold_text = '1,"a b c","d e f"\n2,"x y","z %s"\n' % case  # (a gold of its own per case)
        good = '1,"a b","d e f"\n2,"x y","z %s"\n' % case
        first, second = tmp_path / case / "first", tmp_path / case / "second"
        for folder in (first, second):
            folder.mkdir(parents=True)
            (folder / nlu.FILE_NAME).write_text(gold_text, encoding="utf-8")
        (first / "refused.csv").write_text('1,"a b","d e f"\n', encoding="utf-8")  # id 2 missing
        with pytest.raises(SubmissionError):
            nlu.score(str(first / nlu.FILE_NAME), str(first / "refused.csv"), nlu.FILE_NAME, Options(), str(first))
        if case == "deleted":
            shutil.rmtree(str(first))
        else:
            (first / nlu.FILE_NAME).write_text('1,"p q r","s t u"\n2,"v w","y"\n', encoding="utf-8")
        (second / "sub.csv").write_text(good, encoding="utf-8")
        result = nlu.score(str(second / nlu.FILE_NAME), str(second / "sub.csv"), nlu.FILE_NAME, Options(),
                           str(second))
        assert result.scores["nlu_score"] == pytest.approx((2 / 3 + 1 + 2) / 4), case


# --- the real gold -------------------------------------------------------------------------------

def test_the_real_golds_cache_gives_its_scores(tmp_path):
    folder = tmp_path / "ref"
    folder.mkdir()
    shutil.copyfile(str(shared_path(*NLU, "train_answers_subset_1598ids.csv")), str(folder / nlu.FILE_NAME))
    submission = next(shared_path(*NLU, "subset_predictions").glob("wclu*"))
    plain = _scored(folder, submission)
    (folder / CACHE).write_bytes(_built_cache(folder))
    cached = _scored(folder, submission)
    assert cached == plain and "%.6f" % cached[0]["nlu_score"] == "0.775546"
