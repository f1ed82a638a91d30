"""Per-item statistics and resampling (the track modules, scorer/outputs/resampling.py, ranking's statistics).

- Over all items, each once, the aggregate of the per-item statistics equals each track's headline
  scores bit for bit (floats, the scoring program's way) and to 1e-12 (numpy arrays, the results
  tool's way): on the repository's sample data and on the real gold.
- Every track (its ``result.statistics`` and ``aggregate``, through the registry): bootstrap
  resamples of a real submission against gold and submission files rebuilt from the drawn items and
  scored by the naive oracles of ``oracles.py`` (to 1e-12; integer statistics exactly).
- Independent checks: a bootstrap CI against re-scoring materialised resampled files with the
  track's own scorer; the paired-bootstrap p-value and approximate randomization against plain
  loops over the definition; the nearest-rank positions and the tie rule by hand.
"""

from __future__ import annotations

import json
import random
import sys
from fractions import Fraction

import numpy as np
import pytest

from baselines import write_submission
from scorer.machinery.meme_multilabel import random_labels
from scorer.tracks.absita.public_side import frequent_aspects
from scorer.machinery.article_public import sentence_spans
from scorer.tracks.t6_st2 import random_spans
from conftest import ROOT, shared_path
from oracles import naive_span_scores, naive_st2_scores, sklearn_0232_micro_macro
from scorer.readers.options import Options
from scorer.machinery.per_item import ItemStatistics, column_totals
from scorer.outputs.resampling import (aggregate, bootstrap_intervals, interval_positions, nearest_rank,
                                       resample_indices)
from scorer.run.in_process import score_in_process
from scorer.machinery.techniques import SEMEVAL2021_T6_ST1_ST2, SEMEVAL2021_T6_ST3
from scorer.tracks import absita, flc, nlu, t6_st1, t6_st2, t6_st3

sys.path.insert(0, str(ROOT))
from ranking import statistics as ranking  # noqa: E402
from ranking.entries import Entry  # noqa: E402
from ranking.scoring import Scored  # noqa: E402
from scorer.tracks.registry import BY_NAME, TRACKS  # noqa: E402
from scorer.outputs.resampling import LEADERBOARDS  # noqa: E402

DEV = ROOT / "reference_data" / "dev"
PROGRAM_DIR = str(ROOT / "scoring_program")


def totals_over(statistics, indices):
    """The plain definition of a resample's totals: each column summed over the drawn items, in draw order."""
    totals = dict.fromkeys(statistics.columns, 0)
    for index in indices:
        for column, value in zip(statistics.columns, statistics.rows[index]):
            totals[column] += value
    return totals


def array_aggregate(statistics, counts=None):
    """rank_submissions' numpy path: counts (resamples × items) @ statistics, aggregated on arrays."""
    matrix = np.array(statistics.rows, dtype=np.float64).reshape(len(statistics.items), len(statistics.columns))
    counts = np.ones((1, len(statistics.items))) if counts is None else counts
    totals = counts @ matrix
    return aggregate(statistics, {c: totals[:, j] for j, c in enumerate(statistics.columns)},
                     ranking.ArrayOps)


def flc_baseline_spans(articles, seed):
    """flc's baseline rows on these texts: a third of the sentences, their techniques drawn with the
    training frequencies (as ``flc.write_baseline`` writes them)."""
    return sentence_spans(articles, seed, lambda rng: rng.choices(flc.TECHNIQUES, weights=flc.TRAINING_FREQUENCIES)[0])


def assert_headline(result):
    statistics = result.statistics
    scores = aggregate(statistics, column_totals(statistics))
    assert scores == result.scores  # bit for bit, every key, nothing more
    on_arrays = array_aggregate(statistics)
    for key, value in result.scores.items():
        assert abs(float(on_arrays[key][0]) - value) <= 1e-12, key
    return statistics


@pytest.fixture(scope="module")
def dev_submissions(tmp_path_factory):
    """The sample gold's public inputs -> baselines of every track, several seeds; and the gold."""
    from bundle.public_data import derive_public_data

    base = tmp_path_factory.mktemp("dev")
    derive_public_data(str(DEV), str(base / "public"))
    folders = []
    for seed in (1, 2):
        write_submission(str(base / "public"), str(base / ("random%d" % seed)), seed=seed)
        folders.append(base / ("random%d" % seed))
    write_submission(str(base / "public"), str(base / "majority"), multilabel="majority")
    folders.append(base / "majority")
    return folders


@pytest.mark.registry
def test_every_track_module_has_an_aggregate_and_its_leaderboards():
    from scorer.tracks.registry import TRACKS

    boards = {(track, key) for _, track, key, _ in LEADERBOARDS}
    for track in TRACKS:
        assert callable(track.aggregate), track.name
        assert track.leaderboards[0] == (track.name, track.keys[0])  # the board named after the track
        assert (track.name, track.keys[0]) in boards
        assert {key for _, key in track.leaderboards} <= set(track.keys)
    assert [(name, key, higher) for name, _, key, higher in LEADERBOARDS if name.startswith("absita")] == \
        [("absita", "ate_f1", True), ("absita_absa", "absa_f1", True), ("absita_sa", "sa_rmse", False)]
    assert len({name for name, _, _, _ in LEADERBOARDS}) == len(LEADERBOARDS) == \
        sum(len(track.leaderboards) for track in TRACKS)


def test_aggregate_equals_headline_on_the_sample_data(dev_submissions):
    seen = set()
    for folder in dev_submissions:
        results, refused, problems = score_in_process(str(DEV), str(folder), PROGRAM_DIR)
        assert not refused and not problems
        for result in results.values():
            statistics = assert_headline(result)
            seen.add(result.track)
            assert len(statistics.items) == len(set(statistics.items))
    assert seen == {track.name for track in TRACKS}


def test_span_items_include_documents_without_any_span(dev_submissions):
    results, _, _ = score_in_process(str(DEV), str(dev_submissions[0]), PROGRAM_DIR)
    statistics = results["t6_st2"].statistics
    gold_ids = [record["id"] for record in json.loads((DEV / "semeval2021_t6_st2.json").read_text("utf-8"))]
    assert statistics.items == gold_ids
    assert any(not any(row) for row in statistics.rows)  # an item with nothing on either side


def _score_json(module, gold_path, records, tmp_path, **options):
    path = tmp_path / "submission.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    return module.score(str(gold_path), str(path), "submission.json", Options(**options), str(tmp_path))


def test_aggregate_equals_headline_on_the_real_gold(tmp_path):
    t6 = ("data", "semeval2021_task6")
    for name, module, classes in (("test_set_task1.txt", t6_st1, SEMEVAL2021_T6_ST1_ST2),
                                  ("dev_set_task1.txt", t6_st1, SEMEVAL2021_T6_ST1_ST2)):
        gold = shared_path(*t6, name)
        records = json.loads(gold.read_text(encoding="utf-8"))
        for seed in (1, 2):
            assert_headline(_score_json(module, gold, random_labels(records, classes, seed), tmp_path))
    gold3 = shared_path(*t6, "task3", "dev_set_task3_labeled.txt")
    records = json.loads(gold3.read_text(encoding="utf-8"))
    assert_headline(_score_json(t6_st3, gold3, random_labels(records, SEMEVAL2021_T6_ST3, 3), tmp_path))
    gold2 = shared_path(*t6, "test_set_task2.txt")
    records = json.loads(gold2.read_text(encoding="utf-8"))
    assert_headline(_score_json(t6_st2, gold2, random_spans(records, SEMEVAL2021_T6_ST1_ST2, 4, False), tmp_path))
    # keep: overlapping predictions counted again, recall above 1 possible
    assert_headline(_score_json(t6_st2, gold2, random_spans(records, SEMEVAL2021_T6_ST1_ST2, 5, True), tmp_path,
                                overlapping_predictions="keep"))

    folder = shared_path("data", "nlp4if2019_flc", "train-labels-FLC")
    # The labels folder has no texts: the random baseline's sentences from a stand-in text per article
    # (spans past the real text are scored as given, with a warning).
    articles = {path.name[len("article"):].split(".")[0]: "x. " * 3000 for path in sorted(folder.glob("*.labels"))}
    submission = tmp_path / flc.FILE_NAME
    submission.write_text("".join("%s\t%s\t%d\t%d\n" % row for row in flc_baseline_spans(articles, 6)),
                          encoding="utf-8")
    for options in (Options(), Options(flc_ignore_techniques=True)):
        assert_headline(flc.score(str(folder), str(submission), flc.FILE_NAME, options, str(folder.parent)))

    reviews_path = shared_path("data", "ate_absita", "ate_absita_dev.ndjson")
    reviews = [json.loads(line) for line in reviews_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    submission = tmp_path / "absita.ndjson"
    submission.write_text("".join(json.dumps(row) + "\n" for row in frequent_aspects(reviews)), encoding="utf-8")
    assert_headline(absita.score(str(reviews_path), str(submission), "absita.ndjson", Options(), str(tmp_path)))
    only_scores = [{"id_sentence": row["id_sentence"], "score": 4} for row in reviews]
    submission.write_text("".join(json.dumps(row) + "\n" for row in only_scores), encoding="utf-8")
    result = absita.score(str(reviews_path), str(submission), "absita.ndjson", Options(), str(tmp_path))
    assert set(assert_headline(result).keys) == {"sa_rmse"}


# --- the resamples --------------------------------------------------------------------------------------

def test_resample_indices_are_pinned():
    """The draws must never change (score_locally and the organisers' tables must agree across
    Python versions and releases): random.Random(seed).choices."""
    assert resample_indices(10, 2, 0) == [[8, 7, 4, 2, 5, 4, 7, 3, 4, 5], [9, 5, 2, 7, 6, 2, 9, 9, 8, 9]]
    assert resample_indices(5, 3, 7) == resample_indices(5, 3, 7)


def test_nearest_rank_positions_by_hand():
    # 1,000 values: the 2.5th percentile is the 25th smallest (position 24), the 97.5th the 975th
    assert interval_positions(1000) == (24, 974)
    assert interval_positions(200) == (4, 194)  # ceil(5) = 5th, ceil(195) = 195th
    assert interval_positions(10) == (0, 9)  # ceil(0.25) = 1st, ceil(9.75) = 10th
    assert nearest_rank(1, Fraction(1, 2)) == 0


def test_ranks_ties_share_the_smallest_rank():
    assert list(ranking.ranks_of(np.array([0.5, 0.7, 0.7, 0.1]), True)) == [3, 1, 1, 4]
    assert list(ranking.ranks_of(np.array([0.5, 0.7, 0.7, 0.1]), False)) == [2, 3, 3, 1]
    both = ranking.ranks_of(np.array([[0.5, 0.2], [0.7, 0.2], [0.7, 0.9]]), True)
    assert both.tolist() == [[3, 2], [1, 2], [1, 1]]


def _materialised_f1(gold_records, predicted, indices, tmp_path):
    """The micro-F1 of one resample, by writing the drawn memes as new files and scoring them
    with the track's own scorer (the copies renamed so that every id stays unique)."""
    gold = [dict(gold_records[i], id="%s#%d" % (gold_records[i]["id"], k)) for k, i in enumerate(indices)]
    submission = [dict(predicted[i], id="%s#%d" % (predicted[i]["id"], k)) for k, i in enumerate(indices)]
    gold_path = tmp_path / "gold.json"
    gold_path.write_text(json.dumps(gold), encoding="utf-8")
    return _score_json(t6_st1, gold_path, submission, tmp_path).scores["t6_st1_f1_micro"]


def test_bootstrap_ci_against_rescoring_materialised_resamples(tmp_path):
    gold_records = json.loads((DEV / "semeval2021_t6_st1.json").read_text(encoding="utf-8"))
    predicted = random_labels(gold_records, SEMEVAL2021_T6_ST1_ST2, 11)
    for record, gold in zip(predicted, gold_records):  # some right answers, so that F1 varies
        if _stable_number(record["id"]) % 3 == 0:
            record["labels"] = list(gold["labels"])
    result = _score_json(t6_st1, DEV / "semeval2021_t6_st1.json", predicted, tmp_path)
    statistics = result.statistics
    resamples = resample_indices(len(statistics.items), 200, 5)
    by_hand = sorted(_materialised_f1(gold_records, predicted, indices, tmp_path) for indices in resamples)
    expected = (by_hand[4], by_hand[194])  # nearest rank: the 5th and the 195th of 200
    assert bootstrap_intervals(statistics, ["t6_st1_f1_micro"], 200, 5) == (200, {"t6_st1_f1_micro": expected})
    counts = ranking.resample_counts(len(statistics.items), 200, 5)
    matrix = np.array(statistics.rows, dtype=np.float64)
    on_arrays = np.sort(ranking.resampled_score_matrix([(statistics, matrix)], counts, "t6_st1_f1_micro")[0])
    assert np.allclose(on_arrays, by_hand, rtol=0, atol=1e-12)
    board = ranking.build_board("t6_st1", "t6_st1", "t6_st1_f1_micro", True, [_scored("a", result, "t6_st1")], 200, 5,
                                "bootstrap")
    assert np.allclose(board.ci[0], expected, rtol=0, atol=1e-12)
    assert expected[0] <= result.scores["t6_st1_f1_micro"] <= expected[1]


def _stable_number(text: str) -> int:
    """A number from a text, the same in every run (``hash`` of a str is salted per process)."""
    return sum(ord(ch) * (i + 1) for i, ch in enumerate(text))


def _scored(name, result, track):
    """One submission as the organisers' tool holds it after scoring (``ranking.scoring.Scored``)."""
    statistics = result.statistics
    matrix = np.array(statistics.rows, dtype=np.float64).reshape(len(statistics.items), len(statistics.columns))
    return Scored(Entry(name, name, "", name=name), {track: dict(result.scores)}, {track: (statistics, matrix)})


def _nlu_statistics(per_item):
    rows = [(q + r, q, r, 1) for q, r in per_item]
    return ItemStatistics("nlu", [str(i) for i in range(len(rows))], ["q_plus_r", "q", "r", "ids"], rows,
                          (), ("nlu_score", "nlu_q", "nlu_r"))


def test_paired_bootstrap_pvalue_against_the_definition_by_hand():
    rng = random.Random(3)
    a = _nlu_statistics([(rng.random(), rng.random()) for _ in range(30)])
    b = _nlu_statistics([(rng.random() * 0.9, rng.random() * 0.8) for _ in range(30)])
    c = _nlu_statistics(list(zip([row[1] for row in a.rows], [row[2] for row in a.rows])))  # a's twin
    systems = [a, b, c]
    resamples = resample_indices(30, 300, 9)
    point = [aggregate(s, column_totals(s))["nlu_score"] for s in systems]
    star = [[aggregate(s, totals_over(s, indices))["nlu_score"] for indices in resamples] for s in systems]
    entered = [Scored(Entry(name, name, "", name=name), {"nlu": {"nlu_score": value}},
                              {"nlu": (s, np.array(s.rows, dtype=float))})
               for name, s, value in zip("abc", systems, point)]
    board = ranking.build_board("nlu", "nlu", "nlu_score", True, entered, 300, 9, "bootstrap")
    row = {scored.entry.name: r for r, scored in enumerate(board.rows)}
    pvalues = np.array([[board.pvalues[row[x], row[y]] for y in "abc"] for x in "abc"])
    for i in range(3):
        for j in range(3):
            deltas = [x - y for x, y in zip(star[i], star[j])]
            mean = sum(deltas) / len(deltas)
            observed = abs(point[i] - point[j])
            hits = sum(1 for d in deltas if abs(d - mean) >= observed)
            assert pvalues[i, j] == pytest.approx((1 + hits) / 301, abs=1e-12), (i, j)
    assert pvalues[0, 2] == pvalues[2, 0] == 1.0  # identical systems
    assert pvalues[0, 1] == pvalues[1, 0]


def test_approximate_randomization_against_a_plain_loop():
    rng = random.Random(4)
    a = _nlu_statistics([(rng.random(), rng.random()) for _ in range(25)])
    b = _nlu_statistics([(rng.random() * 0.7, rng.random()) for _ in range(25)])
    score = lambda s, rows: aggregate(s, column_totals(ItemStatistics("nlu", s.items, s.columns, rows,
                                                                      (), s.keys)))["nlu_score"]
    observed = score(a, a.rows) - score(b, b.rows)
    draws = random.Random(13)
    hits = 0
    for _ in range(200):
        swap = [draws.random() < 0.5 for _ in range(25)]
        rows_a = [rb if s else ra for ra, rb, s in zip(a.rows, b.rows, swap)]
        rows_b = [ra if s else rb for ra, rb, s in zip(a.rows, b.rows, swap)]
        hits += abs(score(a, rows_a) - score(b, rows_b)) >= abs(observed)
    pair = (a, np.array(a.rows, dtype=float)), (b, np.array(b.rows, dtype=float))
    assert ranking.approximate_randomization_pvalue(*pair, "nlu_score", observed, 200, 13) == \
        (1 + hits) / 201
    twin = (a, np.array(a.rows, dtype=float))
    assert ranking.approximate_randomization_pvalue(twin, twin, "nlu_score", 0.0, 50, 1) == 1.0


def test_pooled_techniques_give_the_same_resampled_scores(dev_submissions):
    """rank_submissions pools the techniques before resampling a micro or span score: the same
    numbers as the standard-library aggregate over the same resamples."""
    results, _, _ = score_in_process(str(DEV), str(dev_submissions[0]), PROGRAM_DIR)
    for track, key in (("t6_st1", "t6_st1_f1_micro"), ("t6_st2", "t6_st2_f1"), ("flc", "flc_f1"),
                       ("t6_st3", "t6_st3_f1_macro")):
        statistics = results[track].statistics
        indices = resample_indices(len(statistics.items), 100, 2)
        expected = [aggregate(statistics, totals_over(statistics, draw))[key] for draw in indices]
        counts = ranking.resample_counts(len(statistics.items), 100, 2)
        matrix = np.array(statistics.rows, dtype=np.float64)
        pooled = ranking.pool_labels(statistics, matrix, key)[0]
        assert (len(pooled.columns) < len(statistics.columns)) == (not key.endswith("_macro"))
        found = ranking.resampled_score_matrix([(statistics, matrix)], counts, key)[0]
        assert np.allclose(found, expected, rtol=0, atol=1e-12), track


# --- acceptance: every track's resamples against rebuilt files scored by a naive oracle -----------------
#
# For each track: score a real (gold, submission) pair, take its per-item statistics, draw bootstrap
# resamples, and for each resample write a gold file and a submission file holding the drawn items (an
# item drawn k times appears k times, under the ids <id>#<position>, with all of its rows), score those
# files with the tests' naive oracle, and compare with the module's aggregate of the resample's column
# totals (to 1e-12: the oracles add in another order; integers exactly).

RESAMPLES = 3


def _close(found, expected, label):
    assert set(found) == set(expected), label
    for key, value in expected.items():
        assert abs(found[key] - value) <= 1e-12, (label, key, found[key], value)


def _resampled(result, seed):
    """(statistics, [(indices, the aggregate of their column totals)]) of a scored submission."""
    statistics = result.statistics
    assert aggregate(statistics, column_totals(statistics)) == result.scores
    draws = resample_indices(len(statistics.items), RESAMPLES, seed)
    return statistics, [(indices, aggregate(statistics, totals_over(statistics, indices))) for indices in draws]


def _drawn(records, items, indices):
    """The records of the drawn items, in draw order, each renamed ``<id>#<position>``."""
    by_id = {record["id"]: record for record in records}
    return [dict(by_id[items[i]], id="%s#%d" % (items[i], k)) for k, i in enumerate(indices)]


def _json_round_trip(path, records):
    path.write_text(json.dumps(records), encoding="utf-8")
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("module,gold_parts,classes", [
    (t6_st1, ("test_set_task1.txt",), SEMEVAL2021_T6_ST1_ST2),
    (t6_st3, ("task3", "dev_set_task3_labeled.txt"), SEMEVAL2021_T6_ST3)])
def test_multilabel_resamples_equal_the_oracle_on_rebuilt_files(module, gold_parts, classes, tmp_path):
    gold_path = shared_path("data", "semeval2021_task6", *gold_parts)
    gold_records = json.loads(gold_path.read_text(encoding="utf-8"))
    predicted = random_labels(gold_records, classes, 21)
    for record, gold in zip(predicted, gold_records):  # some right answers, so that F1 varies
        if _stable_number(record["id"]) % 3 == 0:
            record["labels"] = list(gold["labels"])
    statistics, draws = _resampled(_score_json(module, gold_path, predicted, tmp_path), 31)
    for indices, found in draws:
        gold = _json_round_trip(tmp_path / "gold.json", _drawn(gold_records, statistics.items, indices))
        submission = _json_round_trip(tmp_path / "sub.json", _drawn(predicted, statistics.items, indices))
        assert [r["id"] for r in gold] == [r["id"] for r in submission]
        micro, macro = sklearn_0232_micro_macro([r["labels"] for r in gold], [r["labels"] for r in submission],
                                                classes)
        _close(found, {module.NAME + "_f1_micro": micro, module.NAME + "_f1_macro": macro}, module.NAME)


def test_t6_st2_resamples_equal_the_oracle_on_rebuilt_files(tmp_path):
    gold_path = shared_path("data", "semeval2021_task6", "test_set_task2.txt")
    gold_records = json.loads(gold_path.read_text(encoding="utf-8"))
    predicted = random_spans(gold_records, SEMEVAL2021_T6_ST1_ST2, 22, as_published=False)
    statistics, draws = _resampled(_score_json(t6_st2, gold_path, predicted, tmp_path), 32)
    assert any(found["t6_st2_f1"] > 0 for _, found in draws)
    for indices, found in draws:
        gold = _json_round_trip(tmp_path / "gold.json", _drawn(gold_records, statistics.items, indices))
        submission = _json_round_trip(tmp_path / "sub.json", _drawn(predicted, statistics.items, indices))
        precision, recall, f1 = naive_st2_scores(gold, submission)
        _close(found, {"t6_st2_f1": f1, "t6_st2_precision": precision, "t6_st2_recall": recall}, "t6_st2")


def _read_flc_tsv(path):
    """documents -> [(technique, start, end)] of a TSV (a line holding only an id declares a document)."""
    documents = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        spans = documents.setdefault(fields[0], [])
        if len(fields) == 4:
            spans.append((fields[1], int(fields[2]), int(fields[3])))
    return documents


def _write_flc_tsv(path, documents, items, indices):
    lines = []
    for k, i in enumerate(indices):
        name = "%s#%d" % (items[i], k)
        lines.append(name + "\n")
        lines.extend("%s\t%s\t%d\t%d\n" % (name, technique, start, end) for technique, start, end in documents[items[i]])
    path.write_text("".join(lines), encoding="utf-8")


def test_flc_resamples_equal_the_oracle_on_rebuilt_files(tmp_path):
    folder = shared_path("data", "nlp4if2019_flc", "train-labels-FLC")
    gold = {}
    for path in sorted(folder.glob("*.labels")):
        article = path.name[len("article"):].split(".")[0]
        gold[article] = [(fields[1], int(fields[2]), int(fields[3])) for fields in
                         (line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line.strip())]
    # The folder has no texts: the random baseline's sentences from a stand-in text per article
    stand_in = ("word " * 9 + "end. ") * 100
    rows = flc_baseline_spans({article: stand_in for article in gold}, 23)
    predicted = {article: [] for article in gold}
    for article, technique, start, end in rows:
        predicted[article].append((technique, start, end))
    submission = tmp_path / flc.FILE_NAME
    submission.write_text("".join("%s\t%s\t%d\t%d\n" % row for row in rows), encoding="utf-8")
    result = flc.score(str(folder), str(submission), flc.FILE_NAME, Options(), str(folder.parent))
    statistics, draws = _resampled(result, 33)
    assert statistics.items == list(gold)
    for indices, found in draws:
        _write_flc_tsv(tmp_path / "gold.tsv", gold, statistics.items, indices)
        _write_flc_tsv(tmp_path / "sub.tsv", predicted, statistics.items, indices)
        precision, recall, f1 = naive_span_scores(_read_flc_tsv(tmp_path / "gold.tsv"),
                                                  _read_flc_tsv(tmp_path / "sub.tsv"))
        assert found["flc_f1"] > 0
        _close(found, {"flc_f1": f1, "flc_precision": precision, "flc_recall": recall}, "flc")


def test_nlu_resamples_equal_the_oracle_on_rebuilt_files(tmp_path, monkeypatch):
    import csv
    import string

    import nltk
    from conftest import nltk_data_dir
    from oracles import naive_nlu_scores

    data = nltk_data_dir()
    if data is not None:
        monkeypatch.setenv("NLTK_DATA", str(data))
        monkeypatch.setattr(nltk.data, "path", [str(data)] + list(nltk.data.path))
    nlu_data = ("data", "aidea_nlu")
    with open(shared_path(*nlu_data, "train_answers_subset_1598ids.csv"), encoding="utf-8", newline="") as handle:
        all_rows = list(csv.reader(handle))
    kept = list(dict.fromkeys(row[0] for row in all_rows))[:120]  # the first 120 ids: the naive LCS is slow
    gold_rows = [row for row in all_rows if row[0] in set(kept)]
    predictions = next(p for p in shared_path(*nlu_data, "subset_predictions").iterdir() if p.name.startswith("wclu"))
    with open(predictions, encoding="utf-8", newline="") as handle:
        submitted = {row[0]: row for row in csv.reader(handle) if row and row[0] in set(kept)}
    gold_path, submission = tmp_path / "gold.csv", tmp_path / nlu.FILE_NAME
    with open(gold_path, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(gold_rows)
    with open(submission, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([["id", "q", "r"]] + [submitted[i] for i in kept])
    result = nlu.score(str(gold_path), str(submission), nlu.FILE_NAME, Options(), str(tmp_path))
    statistics, draws = _resampled(result, 34)
    assert statistics.items == kept

    cache = {}

    def tokens(text):  # the task's rule: nltk 3.7 word_tokenize, 1-character punctuation dropped
        if text not in cache:
            bare = text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text
            cache[text] = [t for t in nltk.word_tokenize(bare) if not (len(t) == 1 and t in string.punctuation)]
        return cache[text]

    by_id = {}
    for row in gold_rows:
        by_id.setdefault(row[0], []).append(row)
    for indices, found in draws:
        rebuilt_gold, rebuilt_submission = tmp_path / "resample_gold.csv", tmp_path / "resample_sub.csv"
        with open(rebuilt_gold, "w", encoding="utf-8", newline="") as handle:
            csv.writer(handle).writerows(["%s#%d" % (kept[i], k)] + row[1:3]
                                         for k, i in enumerate(indices) for row in by_id[kept[i]])
        with open(rebuilt_submission, "w", encoding="utf-8", newline="") as handle:
            csv.writer(handle).writerows(["%s#%d" % (kept[i], k)] + submitted[kept[i]][1:3]
                                         for k, i in enumerate(indices))
        with open(rebuilt_gold, encoding="utf-8", newline="") as handle:
            gold_read = [tuple(row[:3]) for row in csv.reader(handle)]
        with open(rebuilt_submission, encoding="utf-8", newline="") as handle:
            submitted_read = {row[0]: (row[1], row[2]) for row in csv.reader(handle)}
        score, q, r = naive_nlu_scores(gold_read, submitted_read, tokens)
        _close(found, {"nlu_score": score, "nlu_q": q, "nlu_r": r}, "nlu")


def _ndjson(path, records):
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("fields", [("aspects", "polarities", "score"), ("aspects",), ("score",)])
def test_absita_resamples_equal_the_oracle_on_rebuilt_files(fields, tmp_path):
    from oracles import naive_absita_scores

    reviews_path = shared_path("data", "ate_absita", "ate_absita_dev.ndjson")
    reviews = [json.loads(line) for line in reviews_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    predicted = frequent_aspects(reviews)
    for record, gold in zip(predicted, reviews):  # some gold terms, some scores off by one or two
        number = _stable_number(record["id_sentence"])
        if number % 3 == 0:
            record["aspects"] = list(gold["aspects"]) + record["aspects"]
            record["polarities"] = list(gold["polarities"]) + record["polarities"]
        record["score"] = gold["score"] + (number % 5) - 2
    predicted = [{key: value for key, value in record.items() if key in fields or key == "id_sentence"}
                 for record in predicted]
    submission = tmp_path / "absita.ndjson"
    _ndjson(submission, predicted)
    result = absita.score(str(reviews_path), str(submission), "absita.ndjson", Options(), str(tmp_path))
    statistics, draws = _resampled(result, 35)
    gold_by_id = {review["id_sentence"]: review for review in reviews}
    predicted_by_id = {record["id_sentence"]: record for record in predicted}
    for indices, found in draws:
        drawn = [statistics.items[i] for i in indices]
        gold = _ndjson(tmp_path / "gold.ndjson", [dict(gold_by_id[item], id_sentence="%s#%d" % (item, k))
                                                  for k, item in enumerate(drawn)])
        submission_read = _ndjson(tmp_path / "sub.ndjson", [dict(predicted_by_id[item], id_sentence="%s#%d" % (item, k))
                                                            for k, item in enumerate(drawn)])
        expected, counts = naive_absita_scores(gold, submission_read)
        _close(found, expected, "absita")
        totals = totals_over(statistics, indices)
        for task, task_counts in counts.items():  # the integer statistics, exactly
            assert tuple(totals[task + "_" + f] for f in ("exact", "partial", "predicted", "gold")) == task_counts
        assert totals["reviews"] == len(drawn)


def _toy_track(tmp_path):
    """The toy track of tests/test_adding_a_track.py, loaded as a module of scorer.tracks, through
    the contract's view; and a submission of it scored against its sample gold."""
    import importlib.util
    from scorer.tracks.contract import Track

    spec = importlib.util.spec_from_file_location("scorer.tracks.toy", str(ROOT / "tests" / "toy_track" / "toy.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    track = Track(module)
    gold, public, res = tmp_path / "toy_gold", tmp_path / "toy_public", tmp_path / "toy_res"
    for folder in (gold, public, res):
        folder.mkdir()
    track.write_sample_gold(str(gold), "dev", 3)
    track.write_public_input(str(gold), str(public), track.filename)
    track.write_baseline(str(public), str(res), track.filename, 5)
    return track, track.score(str(gold / track.filename), str(res / track.filename), track.filename, Options(),
                              str(gold))


def test_every_aggregate_computes_on_arrays_as_on_numbers(dev_submissions, tmp_path):
    """The contract's rule (scorer/tracks/contract.py, ``aggregate``): only ``ops``' operations, so that
    numpy arrays of resamples pass through as plain numbers do. Every module's aggregate, the toy's
    included, on 30 resamples: plain totals with ScalarOps and array totals with ArrayOps agree."""
    results = [(track, result) for track, result in
               ((BY_NAME[name], result) for name, result in
                score_in_process(str(DEV), str(dev_submissions[0]), PROGRAM_DIR)[0].items())]
    results.append(_toy_track(tmp_path))
    assert sorted(track.name for track, _ in results) == sorted([t.name for t in TRACKS] + ["toy"])
    for track, result in results:
        statistics = result.statistics
        resamples = resample_indices(len(statistics.items), 30, 7)
        counts = np.zeros((len(resamples), len(statistics.items)))
        for r, indices in enumerate(resamples):
            counts[r] = np.bincount(indices, minlength=len(statistics.items))
        matrix = np.array(statistics.rows, dtype=np.float64).reshape(len(statistics.items), -1)
        array_totals = counts @ matrix
        on_arrays = track.aggregate(statistics, {c: array_totals[:, j] for j, c in enumerate(statistics.columns)},
                                    ranking.ArrayOps)
        assert set(on_arrays) == set(result.scores), track.name
        for r, indices in enumerate(resamples):
            on_numbers = track.aggregate(statistics, totals_over(statistics, indices))
            for key, value in on_numbers.items():
                assert isinstance(value, float), (track.name, key)
                assert abs(float(on_arrays[key][r]) - value) <= 1e-12, (track.name, key, r)
