"""The nlu track: nltk 3.7 tokens, bit-parallel LCS, CSV variants, and the real prediction files."""

from __future__ import annotations

import csv
import os
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import assert_clean_failure, nltk_data_dir, run_score, shared_path
from oracles import naive_lcs
from scorer.machinery.lcs import lcs_length
from scorer.machinery.nltk_tokens import PUNKT_SHA256, Tokenizer, find_punkt, load_punkt
from scorer.readers.options import Options
from scorer.readers.problems import ProgramError, SubmissionError
from scorer.tracks import nlu
from scorer.tracks.nlu.reading import strip_wrapping_quotes

NLU = ("data", "aidea_nlu")
GOLD = "train_answers_subset_1598ids.csv"


@pytest.fixture(scope="module")
def tokenizer():
    return Tokenizer()


# --- tokens --------------------------------------------------------------------------------------

def test_task_description_examples(tokenizer):
    assert tokenizer.tokens("today is my day.") == ["today", "is", "my", "day"]
    assert tokenizer.tokens("It's a question.") == ["It", "'s", "a", "question"]


def test_task_description_scoring_example(tmp_path):
    gold = tmp_path / "gold.csv"
    gold.write_text('1,"to be or not to be","to be or not to be"\n', encoding="utf-8")
    submission = tmp_path / "sub.csv"
    submission.write_text('id,q,r\n1,"not to be? No, to be","not to be? No, to be"\n', encoding="utf-8")
    result = nlu.score(str(gold), str(submission), nlu.FILE_NAME, Options(), str(tmp_path))
    assert result.scores == {"nlu_score": 0.5, "nlu_q": 0.5, "nlu_r": 0.5}  # 4 / (6 + 6 - 4)


def test_punkt_is_the_one_nltk_3_7_loads():
    path = find_punkt()
    assert path.endswith(os.path.join("punkt", "PY3", "english.pickle"))
    load_punkt(path)


def test_a_tampered_model_is_refused(tmp_path):
    bad = tmp_path / "english.pickle"
    bad.write_bytes(open(find_punkt(), "rb").read() + b"\0")
    with pytest.raises(ProgramError) as error:  # shipped with the program: its fault, not the data's
        load_punkt(str(bad))
    assert "sha256" in str(error.value) and PUNKT_SHA256 in str(error.value)


def test_a_program_without_its_punkt_model_says_so_without_a_traceback(tmp_path):
    """The model ships with the program: its absence is an installation fault of the program (one
    line naming it, exit 1), not a problem of the reference data."""
    import shutil
    import subprocess
    import sys
    from conftest import PROGRAM
    gold = '1,"""to be""","""yes"""\n'
    run = run_score(tmp_path, {"aicup2022_nlu.csv": gold}, {"aicup2022_nlu.csv": 'id,q,r\n1,"to be","yes"\n'})
    assert run.returncode == 0, run.stderr
    program = tmp_path / "program"
    shutil.copytree(PROGRAM, program, ignore=shutil.ignore_patterns("nltk_data", "__pycache__"))
    process = subprocess.run([sys.executable, str(program / "score.py"), str(run.output.parent / "input"),
                              str(tmp_path / "out")], capture_output=True, text=True,
                             env=dict(os.environ, NLTK_DATA=str(tmp_path / "empty")))
    assert process.returncode == 1 and "Traceback" not in process.stderr
    assert process.stderr.startswith("aicup2022_nlu.csv: ") and "Punkt" in process.stderr  # the file, what is missing
    assert "reference data" not in process.stderr and len(process.stderr.splitlines()) == 1


def test_the_unpickler_only_builds_punkt_classes():
    from scorer.machinery.nltk_tokens import _PunktUnpickler
    payload = pickle.dumps(os.system)  # a global a model has no business referring to
    with pytest.raises(pickle.UnpicklingError):
        _PunktUnpickler(payload, None).load()


LOAD_PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
from scorer.machinery.nltk_tokens import Tokenizer
tokens = Tokenizer().tokens("Mr. Smith can't go. He said: 'yes'!")
loaded = sorted({m.split(".")[0] for m in sys.modules} & {"nltk", "numpy", "scipy", "sklearn", "regex", "pandas"})
import nltk
print(tokens, loaded, hasattr(nltk, "word_tokenize"))
"""


def test_the_tokenizer_loads_two_nltk_modules_and_leaves_no_trace():
    """nltk/__init__.py (every nltk module, numpy, scipy, scikit-learn) is not run for tokens."""
    import subprocess
    import sys
    from conftest import PROGRAM
    process = subprocess.run([sys.executable, "-c", LOAD_PROBE, str(PROGRAM)], capture_output=True, text=True)
    assert process.returncode == 0, process.stderr
    assert process.stdout.strip() == ("['Mr.', 'Smith', 'ca', \"n't\", 'go', 'He', 'said', \"'yes\"] [] True")


def test_tokens_equal_nltk_word_tokenize_on_real_texts(tokenizer, monkeypatch):
    import nltk
    data = nltk_data_dir()
    if data is None:
        shared_path("nltk_data")
    monkeypatch.setattr(nltk.data, "path", [str(data)] + list(nltk.data.path))
    texts = []
    with open(shared_path(*NLU, "test_data_no_label.csv"), encoding="utf-8", newline="") as handle:
        for row in list(csv.reader(handle))[1:400]:
            texts.extend(strip_wrapping_quotes(field) for field in row[1:3])
    texts += ["Mr. Smith went to Washington. He said: \"don't\" -- it's 5 p.m.!", "U.S. policy... OK?",
              "O.J. ? inferior. . . . yes", "'Cuz I said so", "studies\u2014which 1990\u20132000", ""]
    for text in texts:
        assert tokenizer.word_tokenize(text) == nltk.word_tokenize(text), text


# --- LCS ------------------------------------------------------------------------------------------

@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from("abcde"), max_size=70), st.lists(st.sampled_from("abcde"), max_size=70))
def test_bit_parallel_lcs_equals_the_dynamic_program(a, b):
    assert lcs_length(a, b) == naive_lcs(a, b) == lcs_length(b, a)


def test_long_answers_are_cheap():
    a = ["w%d" % (i % 7) for i in range(2000)]
    b = ["w%d" % (i % 5) for i in range(2000)]
    assert lcs_length(a, b) == naive_lcs(a[:300], b[:300]) or lcs_length(a, b) > 0


# --- the real prediction files ----------------------------------------------------------------------

@pytest.mark.parametrize("prefix,expected", [("ckwu", "0.770393"), ("wclu", "0.775546"), ("weeturn", "0.805140")])
def test_real_predictions(prefix, expected):
    folder = shared_path(*NLU, "subset_predictions")
    path = next(p for p in folder.iterdir() if p.name.startswith(prefix))
    result = nlu.score(str(shared_path(*NLU, GOLD)), str(path), nlu.FILE_NAME, Options(), str(folder))
    assert "%.6f" % result.scores["nlu_score"] == expected
    assert result.scores["nlu_score"] == pytest.approx((result.scores["nlu_q"] + result.scores["nlu_r"]) / 2)


def test_gold_against_itself_with_first_answers(tmp_path):
    gold = shared_path(*NLU, GOLD)
    seen, rows = set(), []
    with open(gold, encoding="utf-8", newline="") as handle:
        for row in csv.reader(handle):
            if row[0] not in seen:
                seen.add(row[0])
                rows.append(row)
    submission = tmp_path / "sub.csv"
    with open(submission, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    result = nlu.score(str(gold), str(submission), nlu.FILE_NAME, Options(), str(tmp_path))
    assert result.scores["nlu_score"] == 1.0
    assert result.details["scored ids"] == 1598


# --- file variants and the test-input mode -------------------------------------------------------------

GOLD_SMALL = '1,"""a b c""","""d e f"""\n1,"""a b""","""d e"""\n2,"""x y""","""z"""\n'


def score_text(tmp_path, text, gold=GOLD_SMALL, test_input=None, encoding="utf-8"):
    (tmp_path / "gold.csv").write_text(gold, encoding="utf-8")
    if test_input is not None:
        (tmp_path / nlu.TEST_INPUT).write_text(test_input, encoding="utf-8")
    (tmp_path / "sub.csv").write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return nlu.score(str(tmp_path / "gold.csv"), str(tmp_path / "sub.csv"), nlu.FILE_NAME, Options(), str(tmp_path))


@pytest.mark.parametrize("text", [
    'id,q,r\n1,"""a b c""","""d e f"""\n2,"""x y""","""z"""\n',  # header, RFC quoting as the real files
    "id,q',r'\r\n1,a b c,d e f\r\n2,x y,z\r\n",  # other header, CRLF, no quotes
    '\ufeff1,"a b c","d e f"\n2,"x y","z"\n\n\n',  # BOM, trailing blank lines
    '1,"a b c","d e f"\n2,"x \\"y\\"","z"\n',  # the task text's backslash escapes
])
def test_accepted_variants(tmp_path, text):
    result = score_text(tmp_path, text)
    expected_2 = 1.0 if "\\\"y" not in text else (0.5 + 1) / 2  # x "y" -> x `` y '': LCS 2 of 4
    assert result.scores["nlu_score"] == pytest.approx((1.0 + expected_2) / 2)


def test_ties_choose_the_first_answer_and_halves_are_reported(tmp_path):
    result = score_text(tmp_path, '1,"a b","d e f"\n2,"x y","z"\n')
    # answer 1: q 2/3, r 1 -> 1.667; answer 2: q 1, r 2/3 -> 1.667: the first wins
    assert result.statistics.rows[0][1:3] == (2 / 3, 1.0)  # (q', r') of the first answer
    assert result.scores["nlu_q"] == pytest.approx((2 / 3 + 1) / 2)


@pytest.mark.parametrize("text,fragment", [
    ('1,"a b c","d e f"\n', "1 of the 2 ids of this phase are missing: '2'"),
    ('1,"a","b"\n1,"a","b"\n2,"x","z"\n', "line 2: duplicate id '1'"),
    ('1,"a b c"\n2,"x y","z"\n', "line 1: expected 3 comma-separated columns"),
    ('1,"a b c,d e f\n2,x,z\n', "unterminated"),
    ('1,"a b c,"d e f"\n2,x,z\n', "line 1: a quote closes a field but is not followed by a comma"),
    ("", "no rows"),
])
def test_broken_files(tmp_path, text, fragment):
    with pytest.raises(SubmissionError) as error:
        score_text(tmp_path, text)
    assert any(fragment in line for line in error.value.lines), error.value.lines


def test_not_utf8_names_the_byte(tmp_path):
    with pytest.raises(SubmissionError) as error:
        score_text(tmp_path, b'1,"a","b"\n2,"\xff","z"\n')
    assert "byte 13 (line 2)" in error.value.lines[0]


def test_extra_ids_are_ignored_with_a_warning_without_test_input(tmp_path):
    result = score_text(tmp_path, '1,"a b c","d e f"\n2,"x y","z"\n3,"q","r"\n')
    assert result.scores["nlu_score"] == 1.0 and "1 ids are not scored" in result.warnings[0]


def test_with_test_input_the_ids_must_be_exactly_the_test_ids(tmp_path):
    test_input = 'id,q,r,s\n1,"a b c d","d e f g",AGREE\n2,"x y","z",DISAGREE\n3,"u","v",AGREE\n'
    result = score_text(tmp_path, '1,"a b c","d e f"\n2,"x y","z"\n3,"u","v"\n', test_input=test_input)
    assert result.scores["nlu_score"] == 1.0 and result.details["scored ids"] == 2  # 3 is unscored
    with pytest.raises(SubmissionError) as error:
        score_text(tmp_path, '1,"a b c","d e f"\n2,"x y","z"\n', test_input=test_input)
    assert "'3'" in error.value.lines[0]
    # an answer of 600 characters for a q of 7 is scored (it can only lower its own score)
    result = score_text(tmp_path, '1,"%s","d"\n2,"x","z"\n3,"u","v"\n' % ("a " * 300), test_input=test_input)
    assert result.scores["nlu_q"] == pytest.approx((1 / 301 + 1 / 2) / 2)  # LCS 1 of "a b"; "x" of "x y"


@pytest.mark.parametrize("test_input", [False, True], ids=["without_test_input", "with_test_input"])
def test_the_character_cap_applies_before_tokenizing_with_or_without_test_input(tmp_path, test_input, monkeypatch):
    import scorer.machinery.nltk_tokens  # (the track imports it when it tokenizes)
    monkeypatch.setattr(scorer.machinery.nltk_tokens, "shared_tokenizer", lambda: pytest.fail("tokenized before the cap"))
    text = '1,"%s","d"\n2,"x","z"\n3,"u","v"\n' % ("a" * 100001)
    with pytest.raises(SubmissionError) as error:
        score_text(tmp_path, text, test_input='id,q,r,s\n1,"a","b",AGREE\n2,"x","z",AGREE\n3,"u","v",AGREE\n'
                   if test_input else None)
    assert "q': the answer has 100001 characters; at most 100000 are accepted" in error.value.lines[0]


@pytest.mark.parametrize("test_input", [False, True], ids=["without_test_input", "with_test_input"])
def test_the_token_bound_holds_on_every_row_of_the_test_input(tmp_path, test_input):
    """With the test input in ref/ (scored ids mixed with unscored ones), the token bound holds on
    every row alike, so a refusal cannot tell which ids are scored; without it, rows of other ids
    are ignored unread (the public input then holds the gold ids only): the sample dev gold, the
    baseline's whole q and r on the scored ids and 5,001 words on each unscored one scores what the
    scored ids alone score (0.641165)."""
    dev = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "reference_data", "dev")
    with open(os.path.join(dev, nlu.FILE_NAME), encoding="utf-8", newline="") as handle:
        scored = {row[0] for row in csv.reader(handle) if row}
    with open(os.path.join(dev, nlu.TEST_INPUT), encoding="utf-8", newline="") as handle:
        inputs = [row for row in csv.reader(handle) if row][1:]
    assert 0 < len(scored) < len(inputs)
    rows = [(row[0], row[1] if row[0] in scored else "word " * 5001, row[2]) for row in inputs]
    submission = tmp_path / nlu.FILE_NAME
    with open(submission, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([("id", "q", "r")] + rows)
    ref = tmp_path / "ref"
    ref.mkdir()
    for name in (nlu.FILE_NAME, nlu.TEST_INPUT) if test_input else (nlu.FILE_NAME,):
        (ref / name).write_bytes(open(os.path.join(dev, name), "rb").read())
    if test_input:
        with pytest.raises(SubmissionError) as error:
            nlu.score(str(ref / nlu.FILE_NAME), str(submission), nlu.FILE_NAME, Options(), str(ref))
        unscored = len(inputs) - len(scored)
        assert len(error.value.lines) + error.value.more == unscored
        assert "the answer has at least 5001 tokens" in error.value.lines[0]
    else:
        result = nlu.score(str(ref / nlu.FILE_NAME), str(submission), nlu.FILE_NAME, Options(), str(ref))
        assert result.scores["nlu_score"] == 0.6411651772719884


def reference_nlu_score(gold_path, submitted):
    """The task's rule written out the slow way: nltk.word_tokenize (3.7), 1-character punctuation
    dropped, the textbook LCS, the best of the accepted answers per id, Σ / 2N."""
    import string
    import nltk

    def tokens(text):
        text = text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text
        return [t for t in nltk.word_tokenize(text) if not (len(t) == 1 and t in string.punctuation)]

    def ratio(a, b):
        common = naive_lcs(a, b)
        union = len(a) + len(b) - common
        return common / union if union else 0.0

    answers = {}
    with open(gold_path, encoding="utf-8", newline="") as handle:
        for row in csv.reader(handle):
            answers.setdefault(row[0], []).append((tokens(row[1]), tokens(row[2])))
    total = 0.0
    for identifier, accepted in answers.items():
        q, r = (tokens(text) for text in submitted[identifier])
        total += max(ratio(q, gold_q) + ratio(r, gold_r) for gold_q, gold_r in accepted)
    return total / (2 * len(answers))


def test_degenerate_generated_answers_are_scored_as_the_reference(tmp_path, monkeypatch):
    """A real generative run (seq2seq) with a few answers degenerated into 1,500 characters of
    "-- -- --", as five of the first-prize team's test submissions had; the test input in ref/
    has each q and r as short as the gold answer, so a cap relative to q and r would refuse them."""
    import nltk
    data = nltk_data_dir()
    if data is not None:
        monkeypatch.setenv("NLTK_DATA", str(data))
        monkeypatch.setattr(nltk.data, "path", [str(data)] + list(nltk.data.path))
    gold = shared_path(*NLU, GOLD)
    path = next(p for p in shared_path(*NLU, "subset_predictions").iterdir() if p.name.startswith("wclu"))
    with open(path, encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.reader(handle) if row and row[0] != "id"]
    degenerate = '"' + ("-- " * 500)[:1500] + '"'
    for row in rows[::200]:
        row[1] = degenerate
    rows[7][2] = degenerate
    submitted = {row[0]: (row[1], row[2]) for row in rows}
    submission = tmp_path / nlu.FILE_NAME
    with open(submission, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([["id", "q", "r"]] + rows)
    with open(tmp_path / nlu.TEST_INPUT, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([["id", "q", "r", "s"]] + [[row[0], "q", "r", "AGREE"] for row in rows])
    result = nlu.score(str(gold), str(submission), nlu.FILE_NAME, Options(), str(tmp_path))
    assert result.scores["nlu_score"] == pytest.approx(reference_nlu_score(gold, submitted), abs=1e-12)
    assert result.scores["nlu_score"] < 0.775546  # below the unmodified file's score


def test_end_to_end_with_the_real_baseline_submission(tmp_path, nlu_gold_with_tokens):
    """The real gold as a built phase holds it (with its token cache: conftest ``nlu_gold_with_tokens``)."""
    run = run_score(tmp_path, {path.name: path for path in nlu_gold_with_tokens.iterdir()},
                    {nlu.FILE_NAME: next(shared_path(*NLU, "subset_predictions").glob("ckwu*"))})
    assert run.returncode == 0, run.stderr
    assert "%.6f" % run.scores["nlu_score"] == "0.770393"
    assert set(run.scores) == {"nlu_score", "nlu_q", "nlu_r"}


def test_end_to_end_broken(tmp_path):
    run = run_score(tmp_path, {nlu.FILE_NAME: GOLD_SMALL}, {nlu.FILE_NAME: '1,"a","b"\n'})
    assert_clean_failure(run, "aicup2022_nlu.csv: 1 of the 2 ids of this phase are missing: '2'")


VERSION_PROBE = """
import sys
sys.path.insert(0, sys.argv[2])
sys.path.insert(0, sys.argv[1])
from scorer.machinery.nltk_tokens import import_nltk
from scorer.readers.problems import ProgramError
try:
    import_nltk()
except ProgramError as error:
    print(error)
print(sorted(m for m in sys.modules if m.startswith("nltk")))
"""


@pytest.mark.parametrize("version, expected", [
    ("3.8", "needs nltk 3.7 exactly (its tokens define the score); found nltk 3.8"),
    (None, "nltk 3.7 is needed for the nlu track and cannot be imported"),
])
def test_another_nltk_or_none_is_refused_before_loading_it(tmp_path, version, expected):
    import subprocess
    import sys
    from conftest import PROGRAM
    fake = tmp_path / "site"
    (fake / "nltk").mkdir(parents=True)
    (fake / "nltk" / "__init__.py").write_text("raise RuntimeError('must not run')\n")
    if version:
        (fake / "nltk" / "VERSION").write_text(version + "\n")
    process = subprocess.run([sys.executable, "-c", VERSION_PROBE, str(PROGRAM), str(fake)],
                             capture_output=True, text=True)
    assert process.returncode == 0, process.stderr
    first, loaded = process.stdout.strip().splitlines()
    assert expected in first
    assert loaded == "[]"


def _real_rows():
    path = next(p for p in shared_path(*NLU, "subset_predictions").iterdir() if p.name.startswith("wclu"))
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))  # header id,q,r, then the rows


def _written(rows, delimiter=",", index=False, bom=False, newline="\n"):
    """What pandas' to_csv writes for these rows (its default is QUOTE_MINIMAL, like csv's)."""
    import io
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator=newline)
    for number, row in enumerate(rows):
        writer.writerow(([""] if number == 0 else [str(number - 1)]) + row if index else row)
    return ("\ufeff" if bom else "") + buffer.getvalue()


@pytest.mark.parametrize("variant,fragment", [
    (dict(index=True), "line 1: an index column before id,q',r': the first column is empty in the header; "
                       "write the file without it (pandas: to_csv(path, index=False))"),
    (dict(delimiter=";", bom=True, newline="\r\n"),  # European Excel
     "line 1: the columns are separated by semicolons (';'), as Excel writes CSV in some locales; separate "
     "the columns with commas (pandas: to_csv(path, sep=\",\", index=False)"),
    (dict(delimiter="\t"), "line 1: the columns are separated by TAB characters (a TSV file)"),
])
def test_the_usual_csv_mistakes_are_named_with_their_fix(tmp_path, variant, fragment):
    rows = _real_rows()
    (tmp_path / "sub.csv").write_text(_written(rows, **variant), encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        nlu.score(str(shared_path(*NLU, GOLD)), str(tmp_path / "sub.csv"), nlu.FILE_NAME, Options(), str(tmp_path))
    assert error.value.lines == ["%s: %s" % (nlu.FILE_NAME, fragment)] or fragment in error.value.lines[0]
    assert len(error.value.lines) == 1
    # the same rows written correctly score
    (tmp_path / "sub.csv").write_text(_written(rows), encoding="utf-8")
    result = nlu.score(str(shared_path(*NLU, GOLD)), str(tmp_path / "sub.csv"), nlu.FILE_NAME, Options(), str(tmp_path))
    assert "%.6f" % result.scores["nlu_score"] == "0.775546"


def test_an_index_column_without_header_is_named(tmp_path):
    with pytest.raises(SubmissionError) as error:
        score_text(tmp_path, '0,1,"a b c","d e f"\n1,2,"x y","z"\n')
    assert error.value.lines == ["aicup2022_nlu.csv: line 1: an index column before id,q',r': the first column is a row "
                                 "number; write the file without it (pandas: to_csv(path, index=False))"]
    assert score_text(tmp_path, '1,"a b c, d","d e f"\n2,"x y","z"\n').scores["nlu_score"] < 1  # a comma quoted
