"""The local error analysis of nlu and absita (score.py --items DIR writes DIR/error_analysis.html),
on small cases computed by hand: exact highlighted HTML, the worst items first; and the sample
submission's page shows items of every track."""

from __future__ import annotations

import json
import re

import pytest

from conftest import ROOT, run_score
from scorer.machinery.lcs import lcs_alignment
from scorer.tracks.registry import TRACKS


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
    assert ("<p class=\"note\">Error of an item: 1 − the id&#x27;s score, (q&#x27; ratio + r&#x27; ratio) / 2 of "
            "its best gold answer.</p>") in section
    assert re.findall(r"<h3>item (.*?): error (.*?)</h3>", section) == [("&#x27;3&#x27;", "1"), ("&#x27;1&#x27;", "0.3")]
    one = section.split("<h3>item &#x27;1&#x27;: error 0.3</h3>\n", 1)[1]
    assert one.startswith(
        '<p class="facts">score: 0.7000; q&#x27;: 0.4000; r&#x27;: 1.0000; gold answer: 1 of 2 (the best)</p>\n'
        '<div class="marked"><span class="side">q&#x27; gold</span><div class="text-box">'
        '<mark class="b" title="in both">a</mark> <mark class="g" title="gold only">b</mark> '
        '<mark class="b" title="in both">c</mark> <mark class="g" title="gold only">d</mark></div></div>\n'
        '<div class="marked"><span class="side">q&#x27; predicted</span><div class="text-box">'
        '<mark class="b" title="in both">a</mark> <mark class="p" title="predicted only">x</mark> '
        '<mark class="b" title="in both">c</mark></div></div>\n'
        '<div class="marked"><span class="side">r&#x27; gold</span><div class="text-box">'
        '<mark class="b" title="in both">x</mark> <mark class="b" title="in both">y</mark></div></div>\n'
        '<div class="marked"><span class="side">r&#x27; predicted</span><div class="text-box">'
        '<mark class="b" title="in both">x</mark> <mark class="b" title="in both">y</mark></div></div>\n')
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
    assert r1.startswith(
        '<p class="facts">score (gold / predicted): 3 / 4</p>\n'
        '<div class="marked"><span class="side">review</span><div class="text-box">'
        '<mark class="h" title="predicted: La batteria (partial)">La </mark>'
        '<mark class="h" title="gold: batteria (partial); predicted: La batteria (partial)">batteria</mark>'
        ' dura poco ma lo <mark class="g" title="gold: schermo (missed)">schermo</mark> è ottimo.</div></div>\n'
        '<div class="scroll"><table><tr><th class="text">side</th><th class="text">term</th>'
        '<th class="text">polarity</th><th class="text">ATE match</th><th class="text">ABSA match</th></tr>\n'
        '<tr><td class="text">gold</td><td class="text">batteria</td><td class="text">negative</td>'
        '<td class="text">partial</td><td class="text">partial</td></tr>\n'
        '<tr><td class="text">gold</td><td class="text">schermo</td><td class="text">positive</td>'
        '<td class="text">missed</td><td class="text">missed</td></tr>\n'
        '<tr><td class="text">predicted</td><td class="text">La batteria</td><td class="text">negative</td>'
        '<td class="text">partial</td><td class="text">partial</td></tr>\n'
        '<tr><td class="text">predicted</td><td class="text">prezzo</td><td class="text">positive</td>'
        '<td class="text">false</td><td class="text">false</td></tr>\n</table></div>\n')
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
    assert ('<div class="marked"><span class="side">q (the argument; explanations marked where they occur in it)'
            '</span><div class="text-box">a <mark class="g" title="gold">b </mark><mark class="b" title="gold and '
            'predicted">c</mark><mark class="p" title="predicted"> d</mark> e</div></div>') in text
    assert ('<span class="side">r (the argument; explanations marked where they occur in it)</span><div '
            'class="text-box">x <mark class="g" title="gold">y</mark> z</div>') in text  # "q w" is not in r
