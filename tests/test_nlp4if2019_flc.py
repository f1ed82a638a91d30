"""The flc track against the official NLP4IF-2019 FLC scorer's recorded outputs."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import assert_clean_failure, run_score, shared_path
from scorer.readers.options import Options
from scorer.readers.problems import SubmissionError
from scorer.machinery.techniques import NLP4IF2019_FLC
from scorer.tracks import flc

FLC = ("data", "nlp4if2019_flc")
OPTION_SETS = {  # official command-line flags -> our settings
    ("-o",): Options(per_technique_recall="official"),
    ("-o", "-m"): Options(per_technique_recall="official", overlapping_predictions="merge"),
    ("-o", "-f"): Options(flc_ignore_techniques=True),
    ("-o", "-f", "-m"): Options(flc_ignore_techniques=True, overlapping_predictions="merge"),
}
# Where we differ from the official scorer on purpose (see flc.md):
ACCEPTED_ON_PURPOSE = {"p8_blank_line"}  # a trailing blank line is not an error


def expected_outputs():
    path = shared_path(*FLC, "synthetic_tests", "expected_official_outputs.jsonl")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def reference_dir(tmp_path, gold_folder):
    ref = tmp_path / "ref"
    if not ref.exists():
        shutil.copytree(gold_folder, ref / flc.GOLD_FOLDER)
    return ref


def score_case(tmp_path, case, options):
    synthetic = shared_path(*FLC, "synthetic_tests")
    ref = reference_dir(tmp_path, synthetic / "gold")
    submission = synthetic / "pred" / ("%s.tsv" % case)
    return flc.score(str(ref / flc.GOLD_FOLDER), str(submission), flc.FILE_NAME, options, str(ref))


def test_every_synthetic_case_and_option_set(tmp_path):
    checked = 0
    for expected in expected_outputs():
        options = OPTION_SETS.get(tuple(expected["options"]))
        if options is None:
            continue
        case = expected["case"]
        official_scored = expected["exit_code"] == 0 and expected["stdout"].strip()
        try:
            result = score_case(tmp_path, case, options)
        except SubmissionError as error:
            assert not official_scored, (case, expected["options"], error.lines)
            assert error.lines and all(line.startswith(flc.FILE_NAME + ": ") for line in error.lines)
            checked += 1
            continue
        if case in ACCEPTED_ON_PURPOSE:
            continue
        assert official_scored, (case, expected["options"], "we scored what the official refused")
        fields = expected["stdout"].strip().split("\t")
        ours = [result.scores["flc_f1"], result.scores["flc_precision"], result.scores["flc_recall"]]
        assert ["%.6f" % value for value in ours] == fields[:3], (case, expected["options"])
        if "-f" not in expected["options"]:  # the 18 per-technique F1 values, official variant
            assert len(fields) == 3 + len(NLP4IF2019_FLC)
            for row, official in zip(result.table, fields[3:]):
                assert row.f1 == pytest.approx(float(official), abs=1e-9), (case, row.label)
        checked += 1
    assert checked == 4 * 18 - len(ACCEPTED_ON_PURPOSE) * 4


def test_official_sample(tmp_path):
    sample = shared_path(*FLC, "official_sample")
    gold = tmp_path / "ref" / flc.GOLD_FOLDER
    gold.mkdir(parents=True)
    shutil.copy(sample / "article736757214.task-FLC.labels", gold)
    result = flc.score(str(gold), str(sample / "submission-task-FLC.tsv"), flc.FILE_NAME, Options(),
                       str(tmp_path / "ref"))
    assert ["%.6f" % result.scores[k] for k in ("flc_f1", "flc_precision", "flc_recall")] == \
        ["0.976378", "1.000000", "0.953846"]
    assert result.details["precision sum"] == 5.0
    # the correct per-technique recall of Loaded_Language (the official prints 1.000000)
    loaded = next(row for row in result.table if row.label == "Loaded_Language")
    assert loaded.recall == pytest.approx((40 / 52 + 1) / 2)


def test_trailing_tabs_and_spaces_are_stripped_as_the_official_reader_strips_them(tmp_path):
    # The official scorer right-strips each line before splitting it on TAB: a line ending with
    # TABs (a spreadsheet's empty columns) has 4 columns and is scored. The official sample's
    # numbers, with every line ending in TAB, TAB TAB, spaces or TAB CR LF.
    sample = shared_path(*FLC, "official_sample")
    gold = tmp_path / "ref" / flc.GOLD_FOLDER
    gold.mkdir(parents=True)
    shutil.copy(sample / "article736757214.task-FLC.labels", gold)
    lines = (sample / "submission-task-FLC.tsv").read_text(encoding="utf-8").splitlines()
    endings = ("\t\n", "\t\t\n", "  \n", "\t\r\n")
    submission = tmp_path / flc.FILE_NAME
    submission.write_bytes("".join(line + endings[i % 4] for i, line in enumerate(lines)).encode("utf-8"))
    result = flc.score(str(gold), str(submission), flc.FILE_NAME, Options(), str(tmp_path / "ref"))
    assert ["%.6f" % result.scores[k] for k in ("flc_f1", "flc_precision", "flc_recall")] == \
        ["0.976378", "1.000000", "0.953846"]
    assert result.warnings == []
    # a fifth column with a value is still a fifth column (the official p16 case)
    submission.write_text(lines[0] + "\t0.9\n", encoding="utf-8")
    with pytest.raises(SubmissionError, match="found 5"):
        flc.score(str(gold), str(submission), flc.FILE_NAME, Options(), str(tmp_path / "ref"))


def test_training_gold_against_itself(tmp_path):
    folder = shared_path(*FLC, "train-labels-FLC")
    submission = tmp_path / flc.FILE_NAME
    with submission.open("w", encoding="utf-8") as out:
        for path in sorted(folder.glob("*.labels")):
            out.write(path.read_text(encoding="utf-8"))
    result = flc.score(str(folder), str(submission), flc.FILE_NAME, Options(), str(folder.parent))
    assert result.scores == {"flc_f1": 1.0, "flc_precision": 1.0, "flc_recall": 1.0}
    assert result.details["articles"] == 350 and result.details["gold spans"] == 6041


def test_touching_gold_spans(tmp_path):
    # gold Doubt 0-10, 10-20, 5-8 (merged into 0-10); prediction Doubt 0-20
    gold = tmp_path / "ref" / flc.GOLD_FOLDER
    gold.mkdir(parents=True)
    (gold / "article1.task-FLC.labels").write_text("1\tDoubt\t0\t10\n1\tDoubt\t10\t20\n1\tDoubt\t5\t8\n")
    submission = tmp_path / flc.FILE_NAME
    submission.write_text("1\tDoubt\t0\t20\n")
    result = flc.score(str(gold), str(submission), flc.FILE_NAME, Options(per_technique_recall="official"),
                       str(tmp_path / "ref"))
    assert result.scores == {"flc_f1": 1.0, "flc_precision": 1.0, "flc_recall": 1.0}
    doubt = next(row for row in result.table if row.label == "Doubt")
    assert (doubt.precision, doubt.recall, round(doubt.f1, 6)) == (1.0, 0.5, 0.666667)


@pytest.mark.parametrize("case,fragment", [
    ("p4_badname", "did you mean 'Loaded_Language'?"),
    ("p5_unknown_article", "'9999'"),
    ("p6_too_many_articles", "'1005'"),
    ("p7_empty_span", "end must be greater than start"),
    ("p13_negative", "non-negative"),
    ("p14_float", "integer character offsets"),
    ("p16_5cols", "found 5"),
    ("p17_leading_zero_id", "'01001'"),
    ("p3_overlap_same", "overlap"),
])
def test_broken_submissions_through_score_py(tmp_path, case, fragment):
    synthetic = shared_path(*FLC, "synthetic_tests")
    run = run_score(tmp_path, {flc.GOLD_FOLDER: synthetic / "gold"},
                    {flc.FILE_NAME: synthetic / "pred" / ("%s.tsv" % case)})
    assert_clean_failure(run, fragment, flc.FILE_NAME + ": line 1" if case.startswith(("p4", "p7", "p13", "p14", "p16")) else flc.FILE_NAME)


def test_gold_as_a_single_tsv_with_article_declarations(tmp_path):
    ref = tmp_path / "ref"
    ref.mkdir()
    (ref / flc.FILE_NAME).write_text("1\tDoubt\t0\t10\n2\n", encoding="utf-8")
    submission = tmp_path / "sub.tsv"
    submission.write_text("1\tDoubt\t0\t10\n2\tDoubt\t0\t5\n", encoding="utf-8")
    result = flc.score(str(ref / flc.FILE_NAME), str(submission), flc.FILE_NAME, Options(), str(ref))
    assert result.scores["flc_precision"] == 0.5 and result.scores["flc_recall"] == 1.0


def test_spans_past_the_article_text_are_scored_as_official(tmp_path):
    gold = tmp_path / "ref" / flc.GOLD_FOLDER
    gold.mkdir(parents=True)
    (gold / "article7.task-FLC.labels").write_text("7\tDoubt\t0\t5\n")
    (gold / "article7.txt").write_text("Short text.\n", encoding="utf-8")  # 12 characters
    submission = tmp_path / "sub.tsv"
    submission.write_text("7\tDoubt\t0\t%d\n7\tSlogans\t20\t30\n" % 10 ** 18)
    result = flc.score(str(gold), str(submission), flc.FILE_NAME, Options(), str(tmp_path / "ref"))
    # the official scorer never reads the texts: [0, 10**18) against [0, 5), and a false alarm
    precision = (5 / 10 ** 18) / 2
    assert result.scores["flc_recall"] == 1.0 and result.scores["flc_precision"] == precision
    assert result.warnings == [
        "2 spans end past their article's text; scored as given (they can only lower precision); first at line 1",
        "1 span starts at or past the end of its article's text; it matches no gold span; first at line 2"]


def test_clause_d_overlapping_predictions_would_inflate_recall(tmp_path):
    """Overlapping predictions of one technique are refused (the official scorer refuses them too,
    without -m): counted as given ("keep") the training gold submitted twice has recall 2."""
    source = shared_path(*FLC, "train-labels-FLC")
    rows = "".join(path.read_text(encoding="utf-8") for path in sorted(source.glob("*.labels")))
    submission = tmp_path / flc.FILE_NAME
    submission.write_text(rows + rows, encoding="utf-8")
    inflated = flc.score(str(source), str(submission), flc.FILE_NAME, Options(overlapping_predictions="keep"),
                         str(tmp_path))
    assert inflated.scores["flc_recall"] == 2.0 and inflated.scores["flc_f1"] > 1.3
    with pytest.raises(SubmissionError) as error:
        flc.score(str(source), str(submission), flc.FILE_NAME, Options(), str(tmp_path))
    assert "spans overlap" in error.value.lines[0]


def test_a_header_line_is_skipped_with_a_warning(tmp_path):
    gold = tmp_path / "ref" / flc.GOLD_FOLDER
    gold.mkdir(parents=True)
    (gold / "article7.task-FLC.labels").write_text("7\tDoubt\t0\t5\n")
    submission = tmp_path / "sub.tsv"
    submission.write_text("article_id\ttechnique\tstart\tend\n7\tDoubt\t0\t5\n")
    result = flc.score(str(gold), str(submission), flc.FILE_NAME, Options(), str(tmp_path / "ref"))
    assert result.scores["flc_f1"] == 1.0
    assert result.warnings == ["1 header line (column names, not a span) was skipped; the format has no "
                               "header; first at line 1"]
    submission.write_text("7\tDoubt\t0\t5\narticle_id\ttechnique\tstart\tend\n")  # not a header there
    with pytest.raises(SubmissionError) as error:
        flc.score(str(gold), str(submission), flc.FILE_NAME, Options(), str(tmp_path / "ref"))
    assert "line 2: unknown technique 'technique'" in error.value.lines[0]


def test_gold_spans_past_their_text_are_a_reference_data_error(tmp_path):
    from scorer.readers.problems import ReferenceDataError
    gold = tmp_path / "ref" / flc.GOLD_FOLDER
    gold.mkdir(parents=True)
    (gold / "article7.task-FLC.labels").write_text("7\tDoubt\t0\t50\n")
    (gold / "article7.txt").write_text("Short text.\n", encoding="utf-8")
    submission = tmp_path / "sub.tsv"
    submission.write_text("7\tDoubt\t0\t5\n")
    with pytest.raises(ReferenceDataError) as error:
        flc.score(str(gold), str(submission), flc.FILE_NAME, Options(), str(tmp_path / "ref"))
    assert "beyond the end of the text (12 characters)" in error.value.private[0]


def test_overshooting_spans_on_the_training_gold_are_scored_as_official(tmp_path):
    """The 350 training gold files with texts (of a length the gold allows), and predictions
    shaped like a real team's overshooting ones: the gold spans, where about a third of the last
    spans of a technique in an article end up to 15 characters past the text, and one span lies
    wholly past it. F1/P/R equal the naive official-way oracle (sets of characters, no clipping)."""
    import random
    from oracles import naive_span_scores
    source = shared_path(*FLC, "train-labels-FLC")
    ref = tmp_path / "ref" / flc.GOLD_FOLDER
    shutil.copytree(source, ref)
    rng = random.Random(5)
    gold, predicted, past, lengths = {}, {}, 0, {}
    for path in sorted(ref.glob("*.labels")):
        article = path.name[len("article"):].split(".")[0]
        rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        spans = [(technique, int(start), int(end)) for _, technique, start, end in rows]
        length = max([end for _, _, end in spans], default=0) + rng.randint(0, 40)
        (ref / ("article%s.txt" % article)).write_text("x" * length, encoding="utf-8")
        lengths[article] = length
        last = {}
        for technique, start, end in spans:
            if technique not in last or start > last[technique][1]:
                last[technique] = (technique, start, end)
        moved = []
        for span in spans:
            if span == last[span[0]] and rng.random() < 0.35:
                span = (span[0], span[1], length + rng.randint(1, 15))
                past += 1
            moved.append(span)
        gold[article], predicted[article] = spans, moved
    first = next(article for article in sorted(predicted) if predicted[article])
    predicted[first] = predicted[first] + [("Doubt", lengths[first] + 20, lengths[first] + 29)]
    past += 1
    submission = tmp_path / flc.FILE_NAME
    submission.write_text("".join("%s\t%s\t%d\t%d\n" % (a, t, s, e) for a, spans in predicted.items()
                                  for t, s, e in spans), encoding="utf-8")
    result = flc.score(str(ref), str(submission), flc.FILE_NAME, Options(), str(tmp_path / "ref"))
    expected = naive_span_scores(gold, predicted)
    got = (result.scores["flc_precision"], result.scores["flc_recall"], result.scores["flc_f1"])
    assert ["%.6f" % value for value in got] == ["%.6f" % value for value in expected]
    assert all(abs(a - b) <= 1e-9 for a, b in zip(got, expected))
    assert past > 100
    assert [line.split(";")[0] for line in result.warnings] == [
        "%d spans end past their article's text" % past,
        "1 span starts at or past the end of its article's text"]


# --- the block reader against the line reader ---------------------------------------------------

_VALID_ROWS = st.tuples(st.sampled_from(["1", "2", "33"]), st.sampled_from(NLP4IF2019_FLC[:3]),
                        st.integers(0, 8), st.integers(1, 12)).map(lambda r: "%s\t%s\t%d\t%d" % (r[0], r[1], r[2], r[2] + r[3]))
_ROWS = st.one_of(
    _VALID_ROWS, _VALID_ROWS, _VALID_ROWS,
    st.tuples(st.sampled_from(["1", "2", "33", " 4", "5 ", ""]), st.sampled_from(list(NLP4IF2019_FLC[:3]) + ["Smear", "doubt"]),
              st.sampled_from(["0", "3", "07", "12", "1e3", "-1", "٣", "9" * 19]),
              st.sampled_from(["4", "9", "12", "40", "100", "x", "1" * 18])).map("\t".join),
    st.sampled_from(["", " ", "\r", "\t", "1\tDoubt\t1", "7"]),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_ROWS, max_size=30), st.sampled_from(["\n", "\r\n", "\r"]), st.integers(1, 60),
       st.sampled_from([{}, {"1": 10, "2": 100}]), st.booleans())
def test_blocks_read_as_the_line_by_line_reader(rows, newline, size, lengths, declarations):
    """Whole-block reading (any block size) adds the same spans and reports the same problems as
    reading the lines as the official reader's Python text mode does (universal newlines)."""
    import io
    import tempfile
    from scorer.readers.problems import Problems
    from scorer.readers.text_lines import newlines_as_lf, text_blocks
    from scorer.machinery.span_store import SpanStore
    text = newline.join(rows)
    by_lines, line_problems = SpanStore(NLP4IF2019_FLC), Problems("f")
    flc.LAYOUT.parse_lines(io.StringIO(text, newline=None).read().split("\n"), by_lines, line_problems, lengths,
                           declarations)
    by_blocks, block_problems = SpanStore(NLP4IF2019_FLC), Problems("f")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "f.tsv")
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        for first_line, block in text_blocks(path, "f", None, None, size=size):
            flc.LAYOUT.parse_lines(newlines_as_lf(block).split("\n"), by_blocks, block_problems, lengths,
                                   declarations, first_line)
    assert by_blocks.order == by_lines.order
    assert {a: list(t) for a, t in by_blocks.spans.items()} == {a: list(t) for a, t in by_lines.spans.items()}
    assert block_problems.lines == line_problems.lines


def test_the_items_file_holds_the_statistics_that_add_up_to_the_totals(tmp_path):
    from scorer.outputs.item_files import write_items
    result = score_case(tmp_path, "p10_split", Options())
    write_items(str(tmp_path / "items"), [result], [])
    written = json.loads((tmp_path / "items" / "flc_items.json").read_text(encoding="utf-8"))
    assert list(written) == ["items", "columns", "rows"] and len(written["items"]) == len(written["rows"])
    totals = dict.fromkeys(written["columns"], 0)
    for row in written["rows"]:
        for column, value in zip(written["columns"], row):
            totals[column] += value
    by_kind = {kind: sum(v for c, v in totals.items() if c.startswith(kind + "|"))
               for kind in ("gold", "predicted", "precision_sum")}
    assert by_kind["gold"] == result.details["gold spans"]
    assert by_kind["predicted"] == result.details["predicted spans"]
    assert abs(by_kind["precision_sum"] - result.details["precision sum"]) < 1e-9


_ARTICLE_SPANS = st.lists(st.tuples(st.sampled_from(NLP4IF2019_FLC[:3]), st.integers(0, 80), st.integers(1, 30)),
                          max_size=8)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["101", "102", "103", "7"]), _ARTICLE_SPANS, min_size=1),
       st.dictionaries(st.sampled_from(["101", "102", "103", "7"]), _ARTICLE_SPANS))
def test_whole_track_equals_the_naive_oracle(gold_rows, predicted_rows):
    """Random gold folders and submissions (overlaps merged, as the official -m): F1/P/R within 1e-9."""
    import math
    import tempfile
    from pathlib import Path
    from oracles import naive_span_scores
    predicted_rows = {a: rows for a, rows in predicted_rows.items() if a in gold_rows}
    gold = {a: [(t, s, s + n) for t, s, n in rows] for a, rows in gold_rows.items()}
    predicted = {a: [(t, s, s + n) for t, s, n in rows] for a, rows in predicted_rows.items()}
    with tempfile.TemporaryDirectory() as folder:
        ref = Path(folder) / flc.GOLD_FOLDER
        ref.mkdir()
        for article, spans in gold.items():
            (ref / ("article%s.task-FLC.labels" % article)).write_text(
                "".join("%s\t%s\t%d\t%d\n" % (article, t, s, e) for t, s, e in spans), encoding="utf-8")
        submission = Path(folder) / flc.FILE_NAME
        submission.write_text("".join("%s\t%s\t%d\t%d\n" % (a, t, s, e) for a, spans in predicted.items()
                                      for t, s, e in spans), encoding="utf-8")
        result = flc.score(str(ref), str(submission), flc.FILE_NAME, Options(overlapping_predictions="merge"),
                           folder)
    expected = naive_span_scores(gold, predicted)
    got = (result.scores["flc_precision"], result.scores["flc_recall"], result.scores["flc_f1"])
    assert all(math.isclose(a, b, rel_tol=0, abs_tol=1e-9) for a, b in zip(got, expected)), (got, expected)


def test_the_public_input_is_told_from_gold(tmp_path):
    """score_locally.py asks is_public_input to tell a participant who passed public_data/ as gold."""
    gold, public = tmp_path / "gold", tmp_path / "public"
    assert flc.write_sample_gold(str(gold), "dev", 7) == [flc.GOLD_FOLDER + "/"]
    flc.write_public_input(str(gold), str(public), flc.FILE_NAME)
    assert flc.is_public_input(str(public)) and not flc.is_public_input(str(gold))


def test_flc_gold_file_with_a_row_of_another_article_is_refused(tmp_path):
    from scorer.readers.problems import ReferenceDataError
    (tmp_path / "article11.task-FLC.labels").write_text("11\tDoubt\t0\t5\n12\tDoubt\t0\t5\n", encoding="utf-8")
    with pytest.raises(ReferenceDataError) as error:
        flc.LAYOUT.read_gold(str(tmp_path))
    assert "article11.task-FLC.labels" in " ".join(error.value.public)
    assert "a row names another article than the file name" in " ".join(error.value.private)
    (tmp_path / "article11.task-FLC.labels").write_text("11\tDoubt\t0\t5\n 11\tDoubt\t1\t5\n", encoding="utf-8")
    store, _ = flc.LAYOUT.read_gold(str(tmp_path))
    assert store.count("11") == 2
