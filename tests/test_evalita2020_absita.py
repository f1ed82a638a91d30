"""The absita track: the task page's worked examples, the organiser's SA baselines, edge cases."""

from __future__ import annotations

import json

import pytest

from conftest import assert_clean_failure, run_score, shared_path
from scorer.readers.options import Options
from scorer.readers.problems import SubmissionError
from scorer.tracks import absita

ABSITA = ("data", "ate_absita")
POS, NEG = [1, 0], [0, 1]


def write(path, records):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def score(tmp_path, gold, submission, **options):
    g = write(tmp_path / "gold.ndjson", gold) if isinstance(gold, list) else gold
    s = write(tmp_path / "sub.ndjson", submission)
    return absita.score(str(g), str(s), "evalita2020_absita.ndjson", Options(**options), str(tmp_path))


def test_task_page_ate_example(tmp_path):
    gold = [{"id_sentence": "r1", "aspects": ["costruzione", "mantenere la temperatura"],
             "polarities": [POS, POS], "score": 5}]
    sub = [{"id_sentence": "r1", "aspects": ["costruzione", "temperatura"]}]
    assert score(tmp_path, gold, sub).scores == {"ate_f1": 0.75, "ate_precision": 0.75, "ate_recall": 0.75}


def test_task_page_absa_example(tmp_path):
    gold = [{"id_sentence": "r1", "aspects": ["mantenere la temperatura", "costruzione"],
             "polarities": [POS, POS], "score": 5}]
    sub = [{"id_sentence": "r1", "aspects": ["temperatura", "costruzione", "acquisto"],
            "polarities": [NEG, POS, POS]}]
    scores = score(tmp_path, gold, sub).scores
    assert scores["absa_precision"] == pytest.approx(1 / 3)
    assert scores["absa_recall"] == 0.5
    assert scores["absa_f1"] == pytest.approx(0.4)


def test_partials_are_one_to_one_and_order_independent(tmp_path):
    # gold {"durata della batteria"}, predictions {"durata", "batteria", "della"}: one partial only
    gold = [{"id_sentence": "r1", "aspects": ["durata della batteria"], "polarities": [POS], "score": 4}]
    for aspects in (["durata", "batteria", "della"], ["della", "durata", "batteria"]):
        scores = score(tmp_path, gold, [{"id_sentence": "r1", "aspects": aspects}]).scores
        assert (round(scores["ate_precision"], 4), scores["ate_recall"], scores["ate_f1"]) == (0.1667, 0.5, 0.25)
    # a greedy first choice would pair "batteria" with "batteria durata" and leave "cambio batteria"
    # unmatched; the maximum matching pairs both
    gold = [{"id_sentence": "r1", "aspects": ["batteria durata", "cambio batteria"], "polarities": [POS, NEG],
             "score": 4}]
    scores = score(tmp_path, gold, [{"id_sentence": "r1", "aspects": ["batteria", "durata"]}]).scores
    assert scores == {"ate_f1": 0.5, "ate_precision": 0.5, "ate_recall": 0.5}


def test_normalisation_and_duplicates(tmp_path):
    gold = [{"id_sentence": "r1", "aspects": ["Durata  Batteria", "durata batteria"], "polarities": [POS, POS], "score": 4}]
    sub = [{"id_sentence": "r1", "aspects": ["DURATA batteria"], "polarities": [POS], "score": 4}]
    scores = score(tmp_path, gold, sub).scores
    assert scores["ate_f1"] == scores["absa_f1"] == 1.0 and scores["sa_rmse"] == 0.0


def test_empty_sides(tmp_path):
    gold = [{"id_sentence": "r1", "aspects": [], "polarities": [], "score": 3}]
    assert score(tmp_path, gold, [{"id_sentence": "r1", "aspects": [], "polarities": []}]).scores == {
        "ate_f1": 0.0, "ate_precision": 0.0, "ate_recall": 0.0, "absa_f1": 0.0, "absa_precision": 0.0,
        "absa_recall": 0.0}


@pytest.mark.parametrize("split", ["dev", "training"])
def test_gold_against_itself(tmp_path, split):
    gold = shared_path(*ABSITA, "ate_absita_%s.ndjson" % split)
    records = [json.loads(line) for line in gold.read_text(encoding="utf-8").splitlines()]
    result = score(tmp_path, gold, records)
    assert result.scores == {"ate_f1": 1.0, "ate_precision": 1.0, "ate_recall": 1.0, "absa_f1": 1.0,
                             "absa_precision": 1.0, "absa_recall": 1.0, "sa_rmse": 0.0}


def test_organiser_sa_baselines_on_training(tmp_path):
    gold = shared_path(*ABSITA, "ate_absita_training.ndjson")
    records = [json.loads(line) for line in gold.read_text(encoding="utf-8").splitlines()]
    mean = sum(r["score"] for r in records) / len(records)
    constant = score(tmp_path, gold, [{"id_sentence": r["id_sentence"], "score": 5} for r in records])
    average = score(tmp_path, gold, [{"id_sentence": r["id_sentence"], "score": mean} for r in records])
    assert constant.scores == {"sa_rmse": pytest.approx(1.16458, abs=5e-6)}
    assert average.scores == {"sa_rmse": pytest.approx(1.03338, abs=5e-6)}


def test_dev_reference_values(tmp_path):
    gold = shared_path(*ABSITA, "ate_absita_dev.ndjson")
    records = [json.loads(line) for line in gold.read_text(encoding="utf-8").splitlines()]
    constant = score(tmp_path, gold, [{"id_sentence": r["id_sentence"], "score": 5} for r in records])
    assert "%.5f" % constant.scores["sa_rmse"] == "1.11289"


GOLD = [{"id_sentence": "a", "aspects": ["x"], "polarities": [POS], "score": 5},
        {"id_sentence": "b", "aspects": [], "polarities": [], "score": 1}]


@pytest.mark.parametrize("submission,fragment", [
    ([{"id_sentence": "a", "aspects": ["x"]}], "missing: 'b'"),
    ([{"id_sentence": "a", "aspects": ["x"]}, {"id_sentence": "b", "aspects": []}, {"id_sentence": "c", "aspects": []}],
     "not in this phase: 'c'"),
    ([{"id_sentence": "a", "aspects": ["x"]}, {"id_sentence": "a", "aspects": []}], "duplicate id 'a'"),
    ([{"id_sentence": "a", "aspects": ["x"], "polarities": [[1, 0], [0, 1]]}, {"id_sentence": "b", "aspects": []}],
     "2 polarities for 1 aspects"),
    ([{"id_sentence": "a", "aspects": ["x"], "polarities": [[2, 0]]}, {"id_sentence": "b", "aspects": []}],
     "polarity 1 must be a pair of 0/1 integers"),
    ([{"id_sentence": "a", "aspects": ["x"], "score": "5"}, {"id_sentence": "b", "aspects": [], "score": 1}],
     "field 'score' must be a finite number"),
    ([{"id_sentence": "a", "aspects": ["x"]}, {"id_sentence": "b"}], "field 'aspects' is missing here"),
    ([{"id_sentence": "a", "aspects": "x"}, {"id_sentence": "b", "aspects": []}], "must be a list of non-empty strings"),
])
def test_broken_submissions(tmp_path, submission, fragment):
    with pytest.raises(SubmissionError) as error:
        score(tmp_path, GOLD, submission)
    assert any(fragment in line for line in error.value.lines), error.value.lines


def test_polarities_written_as_floats_or_booleans_are_read_as_0_1(tmp_path):
    submitted = [{"id_sentence": "a", "aspects": ["x"], "polarities": [[1.0, 0.0]]},
                 {"id_sentence": "b", "aspects": ["y", "z"], "polarities": [[True, False], [0, 1]]}]
    result = score(tmp_path, GOLD, submitted)
    as_integers = score(tmp_path, GOLD, [dict(submitted[0], polarities=[[1, 0]]),
                                         dict(submitted[1], polarities=[[1, 0], [0, 1]])])
    assert result.scores == as_integers.scores and result.scores["absa_recall"] == 1.0
    assert result.warnings == ["2 polarities are written with 0.0/1.0 or false/true instead of the integers "
                               "0/1; read as 0/1; first at line 1 (id_sentence 'a')"]


def test_only_some_tasks(tmp_path):
    only_terms = score(tmp_path, GOLD, [{"id_sentence": "a", "aspects": ["x"]}, {"id_sentence": "b", "aspects": []}])
    assert set(only_terms.scores) == {"ate_f1", "ate_precision", "ate_recall"}
    only_sa = score(tmp_path, GOLD, [{"id_sentence": "a", "score": 4.5}, {"id_sentence": "b", "score": 1}])
    assert only_sa.scores == {"sa_rmse": pytest.approx((0.25 / 2) ** 0.5)}


def test_end_to_end(tmp_path):
    gold = "".join(json.dumps(r) + "\n" for r in GOLD)
    run = run_score(tmp_path, {"evalita2020_absita.ndjson": gold}, {"evalita2020_absita.ndjson": gold})
    assert run.returncode == 0, run.stderr
    assert run.scores["sa_rmse"] == 0.0 and run.scores["ate_f1"] == 1.0
    run = run_score(tmp_path, {"evalita2020_absita.ndjson": gold}, {"evalita2020_absita.ndjson": '{"id_sentence": "a", "score": NaN}\n'})
    assert_clean_failure(run, "evalita2020_absita.ndjson: line 1: NaN is not a JSON number")
