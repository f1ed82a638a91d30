"""nlu's known texts (``GoldTokens.known_tokens``): a submitted text equal to a gold text of its id,
or to a text of the test input (the build's token cache), takes those tokens instead of being
tokenized. The oracle: the same submission scored with no text known (every text tokenized).

On the real data: the three prize-winning files against the real 1,598-id gold, and the released
raw baseline (every answer the whole q and r) against the released test input, with a gold made
from it (the test set's gold is not public).
"""

from __future__ import annotations

import csv
import shutil

from conftest import ROOT, shared_path
from scorer.run.in_process import score_in_process
from scorer.machinery.nltk_tokens import shared_tokenizer
from scorer.readers.problems import Problems
from scorer.tracks import nlu
from scorer.tracks.nlu import tokens as nlu_tokens
from scorer.tracks.nlu.token_cache import gold_tokens
from scorer.tracks.nlu.reading import parse_answers, strip_wrapping_quotes

PROGRAM_DIR = str(ROOT / "scoring_program")
NLU = ("data", "aidea_nlu")


def _score(ref, res, monkeypatch, known: bool):
    with monkeypatch.context() as patch:
        if not known:
            patch.setattr(nlu_tokens.GoldTokens, "known_tokens", lambda self, number, text: None)
        results, refused, problems = score_in_process(str(ref), str(res), PROGRAM_DIR)
    assert not refused and not problems, (refused, problems)
    result = results["nlu"]
    return result.scores, result.statistics.rows, result.notes


def _with_cache(ref):
    for name, data in nlu.reference_data_extras(str(ref)).items():
        (ref / name).write_bytes(data)


def test_prize_winning_files_score_the_same_with_the_gold_texts_known(tmp_path, monkeypatch):
    data = shared_path(*NLU)
    ref = tmp_path / "ref"
    ref.mkdir()
    shutil.copyfile(str(data / "train_answers_subset_1598ids.csv"), str(ref / nlu.FILE_NAME))
    files = sorted((data / "subset_predictions").glob("*.csv"))
    assert len(files) == 3
    for cached in (False, True):
        if cached:
            _with_cache(ref)
        for path in files:
            res = tmp_path / ("res-%s-%s" % (cached, path.stem[:5]))
            res.mkdir()
            shutil.copyfile(str(path), str(res / nlu.FILE_NAME))
            plain = _score(ref, res, monkeypatch, known=False)
            known = _score(ref, res, monkeypatch, known=True)
            assert known == plain, path.name
            assert not known[2][1:], known[2]  # no note: the cache was used when there


def test_the_raw_baseline_scores_the_same_with_the_test_input_known(tmp_path, monkeypatch):
    data = shared_path(*NLU)
    ref = tmp_path / "ref"
    ref.mkdir()
    shutil.copyfile(str(data / "test_data_no_label.csv"), str(ref / nlu.TEST_INPUT))
    with open(str(data / "test_data_no_label.csv"), encoding="utf-8-sig", newline="") as handle:
        rows = [row for row in csv.reader(handle) if row][1:]
    with open(str(ref / nlu.FILE_NAME), "w", encoding="utf-8", newline="") as handle:  # a gold of every third id
        writer = csv.writer(handle)
        for row in rows[::3]:
            q, r = row[1].split(), row[2].split()
            writer.writerow([row[0], " ".join(q[:len(q) // 2 + 1]), " ".join(r[len(r) // 3:])])
            writer.writerow([row[0], row[1], " ".join(r[:3])])
    res = tmp_path / "res"
    res.mkdir()
    shutil.copyfile(str(data / "example_submission_raw_baseline.csv"), str(res / nlu.FILE_NAME))
    _with_cache(ref)
    plain = _score(ref, res, monkeypatch, known=False)
    known = _score(ref, res, monkeypatch, known=True)
    assert known == plain


def test_known_tokens_are_the_tokenizers(tmp_path):
    """Every gold text and test input text: its known tokens are the tokenizer's, as numbers."""
    data = shared_path(*NLU)
    shutil.copyfile(str(data / "test_data_no_label.csv"), str(tmp_path / nlu.TEST_INPUT))
    shutil.copyfile(str(data / "train_answers_subset_1598ids.csv"), str(tmp_path / nlu.FILE_NAME))
    _with_cache(tmp_path)
    gold = gold_tokens(str(tmp_path / nlu.FILE_NAME), nlu.FILE_NAME)
    tokens = shared_tokenizer().tokens
    gold.tokenize(tokens)
    assert gold.tokens and not gold.note  # the reference data's cache, used
    number_of = {identifier: number for number, identifier in enumerate(gold.ids)}
    gold_rows = parse_answers(str(tmp_path / nlu.FILE_NAME), nlu.FILE_NAME, None, Problems(nlu.FILE_NAME), gold=True)[0]
    assert len(gold_rows) == gold.rows
    for row in gold_rows:
        for text in (row.q, row.r):
            found = gold.known_tokens(number_of[row.identifier], text)
            assert found is not None
            assert list(found) == [gold.vocabulary[token] for token in tokens(text)]
    with open(str(data / "test_data_no_label.csv"), encoding="utf-8-sig", newline="") as handle:
        rows = [row for row in csv.reader(handle) if row][1:]
    for row in rows:
        for text in (strip_wrapping_quotes(row[1]), strip_wrapping_quotes(row[2])):
            found = gold.known_tokens(None, text)
            assert found is not None
            assert list(found) == [gold.vocabulary[token] for token in tokens(text)]
    assert gold.known_tokens(None, "a text in no file") is None
