"""The local error analysis of nlu and absita (score.py --items DIR writes DIR/error_analysis.html),
on small cases computed by hand: the numbers of each item, its tokens or terms marked by how they
matched, the worst items first; and the sample submission's page shows items of every track."""

from __future__ import annotations

import html
import json
import re

import pytest

from conftest import ROOT, run_score
from scorer.machinery.lcs import lcs_alignment
from scorer.tracks import nlu
from scorer.tracks.registry import TRACKS


def marked_boxes(part: str):
    """(side label, its marked tokens as ``class:text``) of each marked text box in ``part``."""
    boxes = re.findall(r'<div class="marked"><span class="side">(.*?)</span><div class="text-box">(.*?)</div></div>',
                       part)
    return [(side, " ".join("%s:%s" % mark for mark in re.findall(r'<mark class="(\w)"[^>]*>(.*?)</mark>', box)))
            for side, box in boxes]


def test_lcs_alignment_marks_one_longest_common_subsequence():
    a, b = "to be or not to be".split(), "not to be No to be".split()
    in_a, in_b = lcs_alignment(a, b)
    assert sum(in_a) == sum(in_b) == 4
    assert [t for t, k in zip(a, in_a) if k] == [t for t, k in zip(b, in_b) if k] == ["to", "be", "to", "be"]
    assert lcs_alignment([], ["x"]) == ([], [False])


def test_nlu_error_analysis_by_hand(tmp_path):
    # id 1, answer 1: q' LCS(a b c d, a x c) = 2 -> 2 / (3 + 4 - 2) = 0.4; r' identical: 1.
    #        answer 2: q' LCS(a b, a x c) = 1 -> 1 / 4 = 0.25; r' 0. The best is answer 1: score 0.7.
    # id 2: a perfect answer (error 0: not listed). id 3: nothing in common (score 0, error 1).
    gold = '1,"a b c d","x y"\n1,"a b","z"\n2,"p q","r s"\n3,"k","l"\n'
    predicted = 'id,q,r\n1,"a x c","x y"\n2,"p q","r s"\n3,"m","n"\n'
    run = run_score(tmp_path, {"aicup2022_nlu.csv": gold}, {"aicup2022_nlu.csv": predicted}, items=True)
    assert run.returncode == 0, run.stderr
    text = (run.items / "error_analysis.html").read_text(encoding="utf-8")
    section = text.split('<h2 id="nlu">', 1)[1]
    assert html.escape(nlu.ITEM_ERROR) in section  # the track's own measure of an item's error
    assert re.findall(r"<h3>item (.*?): error (.*?)</h3>", section) == [("&#x27;3&#x27;", "1"), ("&#x27;1&#x27;", "0.3")]
    one = section.split("<h3>item &#x27;1&#x27;: error 0.3</h3>\n", 1)[1].split("<h3>", 1)[0]
    facts = html.unescape(re.search(r'<p class="facts">(.*?)</p>', one).group(1))
    assert re.findall(r"[0-9.]+", facts) == ["0.7000", "0.4000", "1.0000", "1", "2"]  # score, q', r', answer 1 of 2
    # each side's tokens, marked by the one LCS alignment: b both, g gold only, p predicted only
    assert marked_boxes(one) == [
        ("q&#x27; gold", "b:a g:b b:c g:d"), ("q&#x27; predicted", "b:a p:x b:c"),
        ("r&#x27; gold", "b:x b:y"), ("r&#x27; predicted", "b:x b:y")]
    assert "a x c" not in (run.output / "detailed_results.html").read_text(encoding="utf-8")


def test_absita_error_analysis_by_hand(tmp_path):
    gold = [
        {"id_sentence": "r1", "sentence": "La batteria dura poco ma lo schermo è ottimo.",
         "aspects": ["batteria", "schermo"], "aspects_position": [[3, 11], [28, 35]],
         "polarities": [[0, 1], [1, 0]], "score": 3},
        {"id_sentence": "r2", "sentence": "Spedizione veloce.", "aspects": ["spedizione"],
         "aspects_position": [[0, 10]], "polarities": [[1, 0]], "score": 5},
        {"id_sentence": "r3", "sentence": "Il prezzo è giusto.", "aspects": ["prezzo"],
         "aspects_position": [[3, 9]], "polarities": [[1, 0]], "score": 2},
    ]
    predicted = [
        {"id_sentence": "r1", "aspects": ["La batteria", "prezzo"], "polarities": [[0, 1], [1, 0]], "score": 4},
        {"id_sentence": "r2", "aspects": ["Spedizione"], "polarities": [[1, 0]], "score": 5},
        {"id_sentence": "r3", "aspects": ["prezzo"], "polarities": [[0, 1]], "score": 2},
    ]
    run = run_score(tmp_path, {"evalita2020_absita.ndjson": "".join(json.dumps(r) + "\n" for r in gold)},
                    {"evalita2020_absita.ndjson": "".join(json.dumps(r) + "\n" for r in predicted)}, items=True)
    assert run.returncode == 0, run.stderr
    text = (run.items / "error_analysis.html").read_text(encoding="utf-8")
    section = text.split('<h2 id="absita">', 1)[1]
    # r1: ATE 2 + 2 − 2·(0 exact + 0.5·1 partial) = 3; ABSA the same pairs (same polarity) = 3; |4 − 3| = 1.
    # r3: ATE exact: 0; ABSA: the polarities differ, no match: 1 + 1 = 2; score 0. r2: perfect, not listed.
    assert re.findall(r"<h3>item (.*?): error (.*?)</h3>", section) == [("&#x27;r1&#x27;", "7"), ("&#x27;r3&#x27;", "2")]
    r1 = section.split("<h3>item &#x27;r1&#x27;: error 7</h3>\n", 1)[1]
    r1 = r1.split("<h3>", 1)[0]
    facts = html.unescape(re.search(r'<p class="facts">(.*?)</p>', r1).group(1))
    assert re.findall(r"[0-9]+", facts) == ["3", "4"]  # the gold and the predicted score
    # the review with its terms marked by how they matched (each mark's title: gold and predicted terms, match)
    marks = re.findall(r'<mark class="(\w)" title="([^"]*)">(.*?)</mark>', r1)
    assert marks == [("h", "predicted: La batteria (partial)", "La "),
                     ("h", "gold: batteria (partial); predicted: La batteria (partial)", "batteria"),
                     ("g", "gold: schermo (missed)", "schermo")]
    rows = [re.findall(r'<td class="text">(.*?)</td>', row) for row in re.findall(r"<tr><td.*?</tr>", r1)]
    assert rows == [["gold", "batteria", "negative", "partial", "partial"],  # side, term, polarity, ATE, ABSA
                    ["gold", "schermo", "positive", "missed", "missed"],
                    ["predicted", "La batteria", "negative", "partial", "partial"],
                    ["predicted", "prezzo", "positive", "false", "false"]]
    r3 = section.split("<h3>item &#x27;r3&#x27;: error 2</h3>\n", 1)[1]
    assert ('<mark class="b" title="gold: prezzo (exact); predicted: prezzo (exact)">prezzo</mark>' in r3
            and '<td class="text">gold</td><td class="text">prezzo</td><td class="text">positive</td>'
                '<td class="text">exact</td><td class="text">missed</td>' in r3)
    assert "batteria" not in (run.output / "detailed_results.html").read_text(encoding="utf-8")


@pytest.mark.registry
def test_the_sample_submission_shows_the_items_of_every_track_or_says_why_not(tmp_path):
    """``score.py --items`` on the baselines of every track: each track's worst items, or the note
    naming the declaration it lacks (``item_view``, ``item_error``: both optional)."""
    from bundle.public_data import derive_public_data
    from baselines import write_submission
    from test_track_contract import assert_shows_its_items_or_says_why_not
    reference = ROOT / "reference_data" / "dev"
    derive_public_data(str(reference), str(tmp_path / "public"))
    write_submission(str(tmp_path / "public"), str(tmp_path / "files"))
    run = run_score(tmp_path, {path.name: path for path in reference.iterdir()},
                    {path.name: path for path in (tmp_path / "files").iterdir()}, items=True)
    assert run.returncode == 0, run.stderr
    text = (run.items / "error_analysis.html").read_text(encoding="utf-8")
    for track in TRACKS:
        assert_shows_its_items_or_says_why_not(text, track)


def test_nlu_error_analysis_shows_the_arguments_with_the_explanations_in_them(tmp_path):
    # With the test input in ref/, q and r come first, the chosen gold explanation and the
    # prediction marked where they occur: gold "b c" at 2-5, predicted "c d" at 4-7.
    test_input = 'id,q,r,s\n1,"a b c d e","x y z",AGREE\n'
    run = run_score(tmp_path, {"aicup2022_nlu.csv": '1,"b c","y"\n', "aicup2022_nlu_test.csv": test_input},
                    {"aicup2022_nlu.csv": 'id,q,r\n1,"c d","q w"\n'}, items=True)
    assert run.returncode == 0, run.stderr
    text = (run.items / "error_analysis.html").read_text(encoding="utf-8")
    boxes = dict((side.split(" ", 1)[0], box) for side, box in re.findall(
        r'<span class="side">(.*?)</span><div class="text-box">(.*?)</div>', text))
    assert re.sub(r' title="[^"]*"', "", boxes["q"]) == (
        'a <mark class="g">b </mark><mark class="b">c</mark><mark class="p"> d</mark> e')  # where each occurs in q
    assert re.sub(r' title="[^"]*"', "", boxes["r"]) == 'x <mark class="g">y</mark> z'  # "q w" is not in r
