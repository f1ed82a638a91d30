"""The detailed results' intervals and per-track tables: every ranking score's 95% bootstrap
interval on the Development page equals score_locally.py's; the Test page ("scores")
shows none of them."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT, nltk_data_dir, run_score
from scorer.tracks.registry import TRACKS

REFERENCE = ROOT / "reference_data" / "dev"


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """The sample submission (the baselines on the Development public data) as files and a zip."""
    from bundle.public_data import derive_public_data
    from baselines import write_submission
    folder = tmp_path_factory.mktemp("sample")
    derive_public_data(str(REFERENCE), str(folder / "public"))
    write_submission(str(folder / "public"), str(folder / "files"))
    files = {path.name: path for path in sorted((folder / "files").iterdir())}
    with zipfile.ZipFile(folder / "submission.zip", "w") as archive:
        for name, path in files.items():
            archive.write(path, name)
    return files, folder / "submission.zip"


def page_intervals(html: str):
    return {key: (value, float(low), float(high)) for key, value, low, high in re.findall(
        r'<tr><td class="key">([a-z0-9_]+)</td><td>([0-9.]+)</td><td data-v="([^"]+)">[0-9.]+</td>'
        r'<td data-v="([^"]+)">[0-9.]+</td></tr>', html)}


def development_reference():
    """The Development phase's reference data as the build writes it: the gold and the phase's settings."""
    reference = {path.name: path for path in REFERENCE.iterdir()}
    reference["scoring_config.json"] = ROOT / "phase_settings" / "dev.json"
    return reference


def test_the_development_page_shows_the_intervals_score_locally_prints(sample, tmp_path):
    files, archive = sample
    run = run_score(tmp_path, development_reference(), files)
    assert run.returncode == 0, run.stderr
    html = (run.output / "detailed_results.html").read_text(encoding="utf-8")
    shown = page_intervals(html)
    ranked = [key for track in TRACKS for _, key in track.leaderboards]
    assert sorted(shown) == sorted(ranked)
    assert html.count("Signature: <code>ci95|bootstrap:1000|seed:0</code>") == len(TRACKS)
    env = dict(__import__("os").environ)
    if nltk_data_dir() is not None:
        env.setdefault("NLTK_DATA", str(nltk_data_dir()))
    local = subprocess.run([sys.executable, str(ROOT / "starting_kit" / "score_locally.py"), str(archive), "--ref",
                            str(REFERENCE), "--out", str(tmp_path / "out")], capture_output=True, text=True, env=env)
    # (the gold without the phase's settings: score_locally.py draws its intervals itself)
    assert local.returncode == 0, local.stderr
    printed = {key: (value, low, high) for key, value, low, high in re.findall(
        r"^([a-z0-9_]+): ([0-9.]+), 95% confidence interval \[([0-9.]+), ([0-9.]+)\] \(1000 resamples", local.stdout,
        re.M)}
    assert sorted(printed) == sorted(ranked)
    for key, (value, low, high) in shown.items():
        assert printed[key] == (value, "%.6f" % low, "%.6f" % high), key
        assert low <= float(value) <= high or key == "sa_rmse", key


def test_the_test_page_shows_none_of_the_new_tables(sample, tmp_path):
    files, _ = sample
    reference = development_reference()
    reference["scoring_config.json"] = ROOT / "phase_settings" / "test.json"
    run = run_score(tmp_path, reference, files)
    assert run.returncode == 0, run.stderr
    html = (run.output / "detailed_results.html").read_text(encoding="utf-8")
    assert "interval" not in html and "<h3>" not in html
    assert page_intervals(html) == {}


# --- the tables by group: hand-computed cases, and each group against the file cut to that group ----

def _table(result, title):
    from scorer.outputs.groups import group_tables
    found = [table for table in group_tables(result) if table[0] == title]
    assert len(found) == 1, [table[0] for table in group_tables(result)]
    _, _, labels, keys, rows, _ = found[0]
    return {group: dict(zip(labels + keys, counts + scores)) for group, counts, scores in rows}


def _absita(tmp_path, gold, predicted, name="run"):
    from scorer.readers.options import Options
    from scorer.tracks import absita
    folder = tmp_path / name
    folder.mkdir()
    for side, rows in (("gold", gold), ("predicted", predicted)):
        (folder / side).write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return absita.score(str(folder / "gold"), str(folder / "predicted"), absita.FILE_NAME, Options(), str(folder))


def test_absita_tables_by_hand(tmp_path):
    gold = [{"id_sentence": "a", "aspects": ["batteria", "durata della batteria", "prezzo"],
             "polarities": [[0, 1], [1, 0], [1, 0]], "score": 2},
            {"id_sentence": "b", "aspects": ["schermo"], "polarities": [[0, 0]], "score": 5}]
    predicted = [{"id_sentence": "a", "aspects": ["batteria", "durata", "qualità prezzo"],
                  "polarities": [[0, 1], [1, 0], [0, 1]], "score": 2.6},
                 {"id_sentence": "b", "aspects": ["schermo", "custodia"], "polarities": [[0, 0], [1, 1]], "score": 4.4}]
    result = _absita(tmp_path, gold, predicted)
    # ATE: "batteria" exact (1 word); "durata" partial with "durata della batteria" (3+ words: the
    # predicted term counts there); "qualità prezzo" partial with "prezzo" (1 word); "schermo" exact
    # (1); "custodia" unmatched (its own length, 1).
    length = _table(result, "ATE by aspect length")
    assert {group: (row["gold terms"], row["predicted terms"], row["exact"], row["partial"])
            for group, row in length.items()} == {"1": (3, 4, 2, 1), "2": (0, 0, 0, 0), "3+": (1, 1, 0, 1)}
    assert (length["1"]["ate_precision"], length["1"]["ate_recall"]) == (2.5 / 4, 2.5 / 3)
    assert (length["3+"]["ate_precision"], length["3+"]["ate_recall"], length["3+"]["ate_f1"]) == (0.5, 0.5, 0.5)
    assert length["2"]["ate_f1"] is None  # no term of 2 words on either side: no score
    # ABSA: (batteria, neg) exact; (durata, pos) partial with (durata della batteria, pos); (qualità
    # prezzo, neg) and (prezzo, pos): other polarities, no match; (schermo, neutral) exact;
    # (custodia, mixed) unmatched.
    polarity = _table(result, "ABSA per polarity")
    assert {group: (row["gold pairs"], row["predicted pairs"], row["exact"], row["partial"])
            for group, row in polarity.items()} == {"positive": (2, 1, 0, 1), "negative": (1, 2, 1, 0),
                                                    "neutral": (1, 1, 1, 0), "mixed": (0, 1, 0, 0)}
    assert (polarity["positive"]["absa_precision"], polarity["positive"]["absa_recall"]) == (0.5, 0.25)
    # SA: gold 2, predicted 2.6 -> 3; gold 5, predicted 4.4 -> 4.
    sa = _table(result, "SA: gold score against the rounded predicted score")
    assert sa["2"]["predicted 3"] == 1 and sa["5"]["predicted 4"] == 1 and sa["2"]["reviews"] == 1
    assert sum(row["predicted %d" % k] for row in sa.values() for k in range(1, 6)) == 2
    assert sa["2"]["sa_rmse"] == abs(2.6 - 2) and sa["5"]["sa_rmse"] == abs(4.4 - 5) and sa["1"]["sa_rmse"] is None


def test_absita_tables_equal_the_files_cut_to_each_group(tmp_path):
    """ABSA of one polarity is the ABSA of the files keeping only that polarity's pairs (a match
    joins pairs of one polarity); SA of one gold score is the SA of those reviews alone."""
    gold = [json.loads(line) for line in (REFERENCE / "evalita2020_absita.ndjson").read_text(encoding="utf-8").splitlines()]
    rng = __import__("random").Random(3)
    predicted = []
    for review in gold:
        aspects = [a if rng.random() < 0.7 else a.split()[-1] for a in review["aspects"] if rng.random() < 0.8]
        aspects += ["prezzo"] if rng.random() < 0.3 and "prezzo" not in aspects else []
        predicted.append({"id_sentence": review["id_sentence"], "aspects": aspects,
                          "polarities": [rng.choice([[1, 0], [0, 1], [0, 0], [1, 1]]) for _ in aspects],
                          "score": round(rng.uniform(1, 5), 2)})
    result = _absita(tmp_path, gold, predicted)
    polarity = _table(result, "ABSA per polarity")
    names = {"positive": [1, 0], "negative": [0, 1], "neutral": [0, 0], "mixed": [1, 1]}
    for group, pair in names.items():
        def keep(review):
            kept = [(a, p) for a, p in zip(review["aspects"], review["polarities"]) if p == pair]
            return dict(review, aspects=[a for a, _ in kept], polarities=[p for _, p in kept])
        cut = _absita(tmp_path, [keep(r) for r in gold], [keep(r) for r in predicted], "polarity-" + group)
        for key in ("absa_precision", "absa_recall", "absa_f1"):
            assert polarity[group][key] == cut.scores[key], (group, key)
    sa = _table(result, "SA: gold score against the rounded predicted score")
    for score in range(1, 6):
        ids = {r["id_sentence"] for r in gold if r["score"] == score}
        if not ids:
            assert sa[str(score)]["sa_rmse"] is None
            continue
        cut = _absita(tmp_path, [r for r in gold if r["id_sentence"] in ids],
                      [r for r in predicted if r["id_sentence"] in ids], "score-%d" % score)
        assert sa[str(score)]["sa_rmse"] == cut.scores["sa_rmse"], score
    # every group's counts add up to the file's
    length = _table(result, "ATE by aspect length")
    assert sum(row["exact"] for row in length.values()) == result.details["ATE exact matches"]
    assert sum(row["partial"] for row in length.values()) == result.details["ATE partial matches"]
    assert sum(row["predicted terms"] for row in length.values()) == result.details["ATE predicted terms"]


def test_nlu_tables_by_hand_and_against_the_ids_of_each_group(tmp_path):
    from scorer.readers.options import Options
    from scorer.tracks import nlu
    gold = '1,"a b c d","x y"\n1,"a b","z"\n2,"p q","r s"\n3,"k","l"\n4,"%s","w"\n' % " ".join("t%d" % k for k in range(25))
    predicted = 'id,q,r\n1,"a x c","x y"\n2,"p q","r s"\n3,"m","n"\n4,"t0 t1","w"\n'
    (tmp_path / "gold.csv").write_text(gold)
    (tmp_path / "predicted.csv").write_text(predicted)
    result = nlu.score(str(tmp_path / "gold.csv"), str(tmp_path / "predicted.csv"), nlu.FILE_NAME, Options(),
                       str(tmp_path))
    # scores: id 1 0.7 (q' 0.4, r' 1; gold answer of 4 + 2 tokens), id 2 1.0 (4 tokens), id 3 0.0
    # (2 tokens), id 4 (2/25 + 1) / 2 = 0.54 (26 tokens)
    spread = _table(result, "Spread of the ids' scores")
    assert {group: row["ids"] for group, row in spread.items() if row["ids"]} == \
        {"0.0-0.1": 1, "0.5-0.6": 1, "0.7-0.8": 1, "0.9-1.0": 1}
    assert spread["0.9-1.0"]["nlu_score"] == 1.0 and spread["0.1-0.2"]["nlu_score"] is None
    length = _table(result, "By the length of the gold answer")
    assert {group: row["ids"] for group, row in length.items()} == {"1-10": 3, "11-20": 0, "21-40": 1, "41+": 0}
    assert length["1-10"]["nlu_score"] == (1.4 + 2.0 + 0.0) / 6 and length["21-40"]["nlu_q"] == 2 / 25
    # each group's scores are the scores of its ids alone
    lines = gold.splitlines(keepends=True)
    answers = predicted.splitlines(keepends=True)
    cut_gold = "".join(line for line in lines if line.split(",")[0] in ("1", "2", "3"))
    cut_answers = answers[0] + "".join(line for line in answers[1:] if line.split(",")[0] in ("1", "2", "3"))
    (tmp_path / "gold.csv").write_text(cut_gold)
    (tmp_path / "predicted.csv").write_text(cut_answers)
    cut = nlu.score(str(tmp_path / "gold.csv"), str(tmp_path / "predicted.csv"), nlu.FILE_NAME, Options(),
                    str(tmp_path))
    assert [length["1-10"][key] for key in ("nlu_score", "nlu_q", "nlu_r")] == \
        [cut.scores[key] for key in ("nlu_score", "nlu_q", "nlu_r")]


def test_the_development_page_shows_the_tables(sample, tmp_path):
    files, _ = sample
    run = run_score(tmp_path, development_reference(), files)
    html = (run.output / "detailed_results.html").read_text(encoding="utf-8")
    for anchor in ("absita-polarity", "absita-length", "absita-gold", "nlu-score", "nlu-length"):
        assert 'id="%s"' % anchor in html, anchor
