"""SemEval-2021 Task 6 tracks on the real gold: the official figures of the research note."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from scorer.machinery.meme_multilabel import majority_labels, random_labels
from scorer.tracks.t6_st1 import MAJORITY as MAJORITY_ST1
from scorer.tracks.t6_st2 import random_spans
from scorer.tracks.t6_st3 import MAJORITY as MAJORITY_ST3
from conftest import shared_path
from oracles import naive_st2_scores, sklearn_0232_micro_macro
from scorer.readers.options import Options
from scorer.readers.problems import SubmissionError
from scorer.machinery.span_metric import SpanStatistics, span_track_result
from scorer.machinery.techniques import SEMEVAL2021_T6_ST1_ST2, SEMEVAL2021_T6_ST3
from scorer.tracks import t6_st1, t6_st2, t6_st3

T6 = ("data", "semeval2021_task6")


def gold(*parts):
    return shared_path(*(T6 + parts))


def score_records(module, gold_path, records, tmp_path, **options):
    """The track's scores; for ST1 and ST3 also checked, bit for bit, against the official float
    steps (``oracles.sklearn_0232_micro_macro``) on every real-data test."""
    return score_result(module, gold_path, records, tmp_path, **options).scores


def score_result(module, gold_path, records, tmp_path, **options):
    path = tmp_path / "submission.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    result = module.score(str(gold_path), str(path), "submission.json", Options(**options), str(tmp_path))
    classes = {t6_st1: SEMEVAL2021_T6_ST1_ST2, t6_st3: SEMEVAL2021_T6_ST3}.get(module)
    if classes is not None:
        gold_records = load(gold_path)
        by_id = {record["id"]: record["labels"] for record in records}  # the last copy wins
        official = sklearn_0232_micro_macro([record["labels"] for record in gold_records],
                                            [by_id[record["id"]] for record in gold_records], classes)
        assert tuple(result.scores.values()) == official
    return result


def load(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


def st3_training_gold(tmp_path):
    lines = gold("task3", "memes_acl2021", "train.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "st3_train.json"
    path.write_text(json.dumps([json.loads(line) for line in lines if line.strip()]), encoding="utf-8")
    return path


# --- gold against itself ---------------------------------------------------------------------

@pytest.mark.parametrize("split", ["training", "dev", "test"])
def test_st1_gold_against_itself(split, tmp_path):
    path = gold("%s_set_task1.txt" % split)
    assert score_records(t6_st1, path, load(path), tmp_path) == {"t6_st1_f1_micro": 1.0, "t6_st1_f1_macro": 1.0}


@pytest.mark.parametrize("split", ["train", "dev", "test"])
def test_st3_gold_against_itself(split, tmp_path):
    path = {"train": None, "dev": gold("task3", "dev_set_task3_labeled.txt"),
            "test": gold("task3", "test_set_task3.txt")}[split] or st3_training_gold(tmp_path)
    assert score_records(t6_st3, path, load(path), tmp_path) == {"t6_st3_f1_micro": 1.0, "t6_st3_f1_macro": 1.0}


@pytest.mark.parametrize("split", ["dev", "test"])
def test_st2_gold_against_itself(split, tmp_path):
    path = gold("%s_set_task2.txt" % split)
    assert score_records(t6_st2, path, load(path), tmp_path) == {
        "t6_st2_f1": 1.0, "t6_st2_precision": 1.0, "t6_st2_recall": 1.0}


def test_st2_training_gold_the_documented_exception(tmp_path):
    path = gold("training_set_task2.txt")
    records = load(path)
    # 15 overlapping same-technique pairs in 9 memes: by default that is an error ...
    with pytest.raises(SubmissionError) as error:
        score_records(t6_st2, path, records, tmp_path)
    lines = error.value.lines  # one line per (meme, technique) with an overlap: 11, in 9 memes
    assert len(lines) == 11 and all("overlap" in line for line in lines)
    assert len({line.split("'")[1] for line in lines}) == 9
    # ... as the official scorer does not check them, "keep" gives its 1.013636 (recall inflated)
    scores = score_records(t6_st2, path, records, tmp_path, overlapping_predictions="keep")
    assert "%.6f" % scores["t6_st2_f1"] == "1.013636"
    assert scores["t6_st2_precision"] == scores["t6_st2_recall"] == scores["t6_st2_f1"]


# --- the official baselines --------------------------------------------------------------------

def test_st1_random_baseline_dev(tmp_path):
    path = gold("dev_set_task1.txt")
    scores = score_records(t6_st1, path, random_labels(load(path), SEMEVAL2021_T6_ST1_ST2), tmp_path)
    # the official scorer's -l output: 0.011948529411764707 \t 0.0449438202247191
    assert scores == {"t6_st1_f1_micro": 0.0449438202247191, "t6_st1_f1_macro": 0.011948529411764707}


def test_st3_random_baseline_dev(tmp_path):
    inputs = load(gold("task3", "dev_set_task3.txt"))
    scores = score_records(t6_st3, gold("task3", "dev_set_task3_labeled.txt"),
                           random_labels(inputs, SEMEVAL2021_T6_ST3), tmp_path)
    assert "%.5f" % scores["t6_st3_f1_micro"] == "0.03376"
    assert "%.5f" % scores["t6_st3_f1_macro"] == "0.05596"


def test_st2_random_baseline_dev(tmp_path):
    path = gold("dev_set_task2.txt")
    predictions = random_spans(load(path), SEMEVAL2021_T6_ST1_ST2)
    scores = score_records(t6_st2, path, predictions, tmp_path, overlapping_predictions="keep")
    assert ["%.6f" % scores[k] for k in ("t6_st2_f1", "t6_st2_precision", "t6_st2_recall")] == \
        ["0.006994", "0.068966", "0.003684"]


def test_st1_majority_baseline_test_matches_the_paper(tmp_path):
    path = gold("test_set_task1.txt")
    scores = score_records(t6_st1, path, majority_labels(load(path), MAJORITY_ST1), tmp_path)
    assert round(scores["t6_st1_f1_micro"], 3) == 0.374
    assert round(scores["t6_st1_f1_macro"], 3) == 0.033


def test_majority_labels_are_the_most_frequent_in_training():
    from collections import Counter
    st1 = Counter(l for r in load(gold("training_set_task1.txt")) for l in r["labels"])
    assert st1.most_common(1)[0][0] == MAJORITY_ST1
    lines = gold("task3", "memes_acl2021", "train.jsonl").read_text(encoding="utf-8").splitlines()
    st3 = Counter(l for line in lines if line.strip() for l in json.loads(line)["labels"])
    assert st3.most_common(1)[0][0] == MAJORITY_ST3


# --- behaviours listed in the research note ----------------------------------------------------

def test_st1_all_empty(tmp_path):
    dev = load(gold("dev_set_task1.txt"))
    empty = [{"id": r["id"], "labels": []} for r in dev]
    assert score_records(t6_st1, gold("dev_set_task1.txt"), empty, tmp_path) == {
        "t6_st1_f1_micro": 0.0, "t6_st1_f1_macro": 0.15}  # 3 techniques absent from dev gold
    test = load(gold("test_set_task1.txt"))
    empty = [{"id": r["id"], "labels": []} for r in test]
    assert score_records(t6_st1, gold("test_set_task1.txt"), empty, tmp_path) == {
        "t6_st1_f1_micro": 0.0, "t6_st1_f1_macro": 0.0}


def test_st1_duplicate_labels_and_order_do_not_matter(tmp_path):
    records = load(gold("dev_set_task1.txt"))
    doubled = [{"id": r["id"], "labels": r["labels"] * 2} for r in reversed(records)]
    assert score_records(t6_st1, gold("dev_set_task1.txt"), doubled, tmp_path)["t6_st1_f1_micro"] == 1.0


def test_st1_duplicate_id_last_copy_wins_as_official(tmp_path):
    path = gold("dev_set_task1.txt")
    records = load(path)
    first_labelled = next(record for record in records if record["labels"])  # '111_batch_2', 2 labels
    empty_copy = {"id": first_labelled["id"], "labels": []}
    # research note §8: the official scorer keeps the last copy (0.99830 / 0.99180) ...
    result = score_result(t6_st1, path, records + [empty_copy], tmp_path)
    assert ["%.5f" % result.scores[k] for k in ("t6_st1_f1_macro", "t6_st1_f1_micro")] == ["0.99830", "0.99180"]
    assert result.warnings == ["1 id appears more than once; its last copy is scored, as the official "
                               "scorer does; first at record %d (id %r)" % (len(records) + 1, first_labelled["id"])]
    # ... so an empty first copy changes nothing
    assert score_records(t6_st1, path, [empty_copy] + records, tmp_path) == {
        "t6_st1_f1_micro": 1.0, "t6_st1_f1_macro": 1.0}


def st2_scores(gold_records, predicted):
    """The metric core on in-memory spans (no text-length check, policy "keep")."""
    def index(records):
        return {r["id"]: _by_technique(r["labels"]) for r in records}
    gold, guesses = index(gold_records), index(predicted)
    statistics = SpanStatistics(SEMEVAL2021_T6_ST1_ST2)
    for record in gold_records:
        statistics.add_document(record["id"], gold[record["id"]], guesses.get(record["id"], {}))
    result = span_track_result("t6_st2", "", statistics, SEMEVAL2021_T6_ST1_ST2, False, "meme")
    return ["%.6f" % result.scores[k] for k in ("t6_st2_f1", "t6_st2_precision", "t6_st2_recall")]


def _by_technique(labels):
    spans = {}
    for label in labels:
        spans.setdefault(label["technique"], []).append((label["start"], label["end"]))
    return spans


def _map_spans(records, function):
    return [{"id": r["id"], "labels": function(r)} for r in records]


@pytest.mark.parametrize("split,expected", [("dev", "0.833618"), ("test", "0.878989")])
def test_st2_shift_every_span_by_two(split, expected):
    records = load(gold("%s_set_task2.txt" % split))
    shifted = _map_spans(records, lambda r: [dict(l, start=l["start"] + 2, end=l["end"] + 2) for l in r["labels"]])
    assert st2_scores(records, shifted)[0] == expected


@pytest.mark.parametrize("split,expected", [("dev", "0.666667"), ("test", "0.667769")])
def test_st2_drop_every_second_span(split, expected):
    records = load(gold("%s_set_task2.txt" % split))
    counter = iter(range(10 ** 9))
    kept = _map_spans(records, lambda r: [l for l in r["labels"] if next(counter) % 2 == 0])
    assert st2_scores(records, kept)[0] == expected


@pytest.mark.parametrize("split", ["dev", "test"])
def test_st2_every_span_duplicated(split):
    records = load(gold("%s_set_task2.txt" % split))
    doubled = _map_spans(records, lambda r: r["labels"] * 2)
    assert st2_scores(records, doubled) == ["1.333333", "1.000000", "2.000000"]


@pytest.mark.parametrize("split,expected", [("dev", ["0.590259", "0.418701", "1.000000"]),
                                            ("test", ["0.653426", "0.485250", "1.000000"])])
def test_st2_one_whole_text_span_per_gold_technique(split, expected):
    records = load(gold("%s_set_task2.txt" % split))
    whole = _map_spans(records, lambda r: [{"technique": t, "start": 0, "end": len(r["text"])}
                                           for t in sorted({l["technique"] for l in r["labels"]})])
    assert st2_scores(records, whole) == expected


def test_st2_all_empty_scores_zero(tmp_path):
    path = gold("dev_set_task2.txt")
    empty = [{"id": r["id"], "labels": []} for r in load(path)]
    assert score_records(t6_st2, path, empty, tmp_path)["t6_st2_f1"] == 0.0


def st2_official(path, records):
    """The naive oracle's (F1, P, R) at the official scorer's printed precision."""
    precision, recall, f1 = naive_st2_scores(load(path), records)
    return ["%.6f" % value for value in (f1, precision, recall)]


def printed(scores):
    return ["%.6f" % scores[k] for k in ("t6_st2_f1", "t6_st2_precision", "t6_st2_recall")]


def test_st2_an_end_far_past_the_text_is_scored_as_official(tmp_path):
    path = gold("dev_set_task2.txt")
    records = load(path)
    first = next(r for r in records if r["labels"])
    first["labels"][0]["end"] = 100000
    # research note §8: the official scorer gives R = 1.005495 (the long span overlaps two gold
    # spans of its technique); predicted spans that overlap are kept only with "keep"
    result = score_result(t6_st2, path, records, tmp_path, overlapping_predictions="keep")
    assert printed(result.scores)[2] == "1.005495"
    assert printed(result.scores) == st2_official(path, records)
    assert result.warnings == ["1 span ends past its meme's text; scored as given (it can only lower "
                               "precision); first at record %d (id %r), label 1" % (records.index(first) + 1, first["id"])]
    # ... the same recall as the span cut at the end of the text: the bound protected nothing
    first["labels"][0]["end"] = len(first["text"])
    clipped = score_records(t6_st2, path, records, tmp_path, overlapping_predictions="keep")
    assert clipped["t6_st2_recall"] == result.scores["t6_st2_recall"]
    assert clipped["t6_st2_precision"] > result.scores["t6_st2_precision"]


def overshooting(records, seed, share=0.3, most=15):
    """Predictions shaped like a real team's ST2 files (a tokenizer-to-character mapping that
    overshoots): the gold spans, where about ``share`` of the spans that are the last of their
    technique in a meme end up to ``most`` characters past the text, and one span lies wholly
    past it. Only a technique's last span is moved, so no two spans of a technique overlap."""
    rng = random.Random(seed)
    predicted = []
    for record in records:
        labels = [dict(label) for label in record["labels"]]
        last = {}
        for label in labels:
            if label["technique"] not in last or label["start"] > last[label["technique"]]["start"]:
                last[label["technique"]] = label
        for label in last.values():
            if rng.random() < share:
                label["end"] = len(record["text"]) + rng.randint(1, most)
        predicted.append({"id": record["id"], "labels": labels})
    for record in predicted:
        if record["labels"]:
            text = len(next(r["text"] for r in records if r["id"] == record["id"]))
            record["labels"].append({"technique": "Smears", "start": text + 1, "end": text + 9})
            break
    return predicted


@pytest.mark.parametrize("split", ["dev", "test"])
@pytest.mark.parametrize("seed", range(3))
def test_st2_spans_past_the_text_like_a_real_team_are_scored_as_official(split, seed, tmp_path):
    path = gold("%s_set_task2.txt" % split)
    predicted = overshooting(load(path), seed)
    past = sum(1 for r, g in zip(predicted, load(path)) for l in r["labels"] if l["end"] > len(g["text"]))
    assert past >= 15
    result = score_result(t6_st2, path, predicted, tmp_path)
    assert printed(result.scores) == st2_official(path, predicted)
    assert [line.split(";")[0] for line in result.warnings] == [
        "%d spans end past their meme's text" % past,
        "1 span starts at or past the end of its meme's text"]


def test_st2_string_and_float_offsets_are_read_with_int_as_official(tmp_path):
    path = gold("dev_set_task2.txt")
    records = load(path)
    first = next(r for r in records if r["labels"])
    first["labels"][0]["start"] = str(first["labels"][0]["start"])  # official: int("5") -> 5
    first["labels"][0]["end"] = first["labels"][0]["end"] + 0.9  # official: int(7.9) -> 7
    result = score_result(t6_st2, path, records, tmp_path)
    # research note §8: "string start "5" and float end: 1.000000 (coerced with int())"
    assert printed(result.scores) == ["1.000000"] * 3
    assert result.warnings == ['2 offsets are not JSON integers; read with int() as the official scorer '
                               'does ("5" -> 5, 7.9 -> 7); first at record %d (id %r), label 1' % (records.index(first) + 1, first["id"])]
    first["labels"][0]["start"] = "five"  # the official scorer fails with ValueError
    with pytest.raises(SubmissionError) as error:
        score_records(t6_st2, path, records, tmp_path)
    assert "start and end must be integer character offsets (found the string 'five'" in error.value.lines[0]


def test_st2_duplicate_id_last_copy_wins_as_official(tmp_path):
    path = gold("dev_set_task2.txt")
    records = load(path)
    first = next(r for r in records if r["labels"])
    result = score_result(t6_st2, path, records + [{"id": first["id"], "labels": []}], tmp_path)
    # research note §8: "duplicate id whose last copy is empty: 0.988889 (R 0.978022)"
    assert printed(result.scores) == ["0.988889", "1.000000", "0.978022"]
    assert result.warnings[0].startswith("1 id ") and "last copy" in result.warnings[0]  # how many, and the rule


@pytest.mark.parametrize("split", ["dev", "test"])
def test_st2_clause_d_overlapping_predictions_would_inflate_the_score(split, tmp_path):
    """The one clause-(d) refusal of ST2 (refusal policy): predicted spans of one technique that
    overlap. The official sums count every pair, so the gold submitted twice scores F1 1.333333
    (R 2) where the gold itself scores 1; the default refuses it."""
    path = gold("%s_set_task2.txt" % split)
    doubled = _map_spans(load(path), lambda r: r["labels"] * 2)
    inflated = score_records(t6_st2, path, doubled, tmp_path, overlapping_predictions="keep")
    assert printed(inflated) == st2_official(path, doubled) == ["1.333333", "1.000000", "2.000000"]
    assert score_records(t6_st2, path, load(path), tmp_path)["t6_st2_f1"] == 1.0
    with pytest.raises(SubmissionError) as error:
        score_records(t6_st2, path, doubled, tmp_path)
    assert "spans overlap" in error.value.lines[0]


def test_st2_merge_policy_on_training_gold(tmp_path):
    path = gold("training_set_task2.txt")
    scores = score_records(t6_st2, path, load(path), tmp_path, overlapping_predictions="merge")
    # A merged prediction still meets both overlapping gold spans, so precision passes 1 while
    # each gold span is covered exactly once (recall 1).
    assert scores["t6_st2_recall"] == 1.0
    assert "%.6f" % scores["t6_st2_precision"] == "1.003659"


# --- the whole-list reader against the record-by-record reader ------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_TECHNIQUE = st.sampled_from(list(SEMEVAL2021_T6_ST1_ST2[:3]) + ["Smear", 7, None, ["Doubt"]])
_OFFSET = st.sampled_from([0, 1, 3, 5, 9, 30, -1, True, 2.0, "4", None])
_VALID_SPAN = st.builds(lambda t, s, n: {"technique": t, "start": s, "end": s + n},
                        st.sampled_from(SEMEVAL2021_T6_ST1_ST2[:3]), st.integers(0, 8), st.integers(1, 6))
_SPAN = st.one_of(
    _VALID_SPAN, _VALID_SPAN, _VALID_SPAN, _VALID_SPAN,
    st.fixed_dictionaries({"technique": _TECHNIQUE, "start": _OFFSET, "end": _OFFSET}),
    st.sampled_from([{}, {"technique": "Smears"}, [], "x"]),
)
_ID = st.sampled_from(["1", "2", "3", "4", "", 5, None])
_VALID_LABEL_MEME = st.builds(lambda labels: {"id": "1", "labels": labels},
                              st.lists(st.sampled_from(SEMEVAL2021_T6_ST1_ST2[:4]), max_size=3))
_MEME = st.one_of(
    _VALID_LABEL_MEME, _VALID_LABEL_MEME, _VALID_LABEL_MEME,
    st.builds(lambda i, labels, text: {"id": i, "labels": labels, "text": text},
              _ID, st.lists(_SPAN, max_size=4), st.sampled_from(["x" * 12, "y" * 40, 3])),
    st.builds(lambda i, labels: {"id": i, "labels": labels}, _ID,
              st.one_of(st.lists(st.sampled_from(list(SEMEVAL2021_T6_ST1_ST2[:4]) + ["Smear", 1]), max_size=3),
                        st.just("Smears"))),
    st.sampled_from([[], "meme", None]),
)


def _memes(valid):
    """Lists of records, often all valid (then with distinct ids), else anything."""
    return st.one_of(
        st.lists(valid, max_size=6).map(lambda records: [dict(r, id=str(i + 1)) for i, r in enumerate(records)]),
        st.tuples(st.lists(_MEME, max_size=6), st.booleans()).map(lambda drawn: [
            dict(r, id=str(i + 1)) if drawn[1] and isinstance(r, dict) else r for i, r in enumerate(drawn[0])]))


def _both_readers(monkeypatch, read):
    """(result, problem lines) of the reader with its usual 1 MiB blocks, then with 3-character
    blocks (every record and number cut across blocks)."""
    from scorer.readers import files
    from scorer.readers.problems import Problems
    results = []
    for small_blocks in (False, True):
        with monkeypatch.context() as patch:
            if small_blocks:
                patch.setattr(files, "BLOCK_BYTES", 3)
            problems = Problems("f")
            results.append((read(problems), problems.lines))
    return results


@settings(max_examples=300, deadline=None)
@given(_memes(_VALID_LABEL_MEME))
def test_multilabel_reader_is_the_same_whatever_its_block_size(records):
    import tempfile
    from scorer.machinery import meme_multilabel
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as monkeypatch:
        path = Path(folder) / "f.json"
        path.write_text(json.dumps(records, indent=1), encoding="utf-8")
        whole, cut = _both_readers(monkeypatch, lambda problems: meme_multilabel.read_label_file(
            str(path), "f", SEMEVAL2021_T6_ST1_ST2, 1 << 30, problems))
    assert whole == cut
