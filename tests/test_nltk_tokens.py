"""The nlu track's faster tokenizer against nltk 3.7 itself (the oracle): every text of the real
data, 30,000 seeded random and adversarial strings, and the pieces each step relies on.

The number of random strings is ``NLU_TOKENIZER_STRINGS`` (default 30,000 in the suite: the
300,000 it ran before took a quarter of the suite's CPU under load); a bigger run is opt-in, e.g.
``NLU_TOKENIZER_STRINGS=3000000 .venv/bin/python -m pytest -q tests/test_nltk_tokens.py -k random``.
"""

from __future__ import annotations

import csv
import os
import random
import re
import string
import sys

import pytest

from conftest import nltk_data_dir, shared_path
from scorer.machinery.nltk_tokens import PUNCTUATION, Tokenizer, _final_period, find_punkt, load_punkt, words_with_content
from scorer.tracks import nlu
from scorer.tracks.nlu.reading import strip_wrapping_quotes

NLU = ("data", "aidea_nlu")
RANDOM_STRINGS = int(os.environ.get("NLU_TOKENIZER_STRINGS", "30000"))


@pytest.fixture(scope="module")
def nltk_oracle():
    """nltk 3.7's ``word_tokenize`` with the shared Punkt model (the whole package, as a user has it)."""
    import nltk
    data = nltk_data_dir()
    if data is None:
        shared_path("nltk_data")
    nltk.data.path[:0] = [str(data)]
    assert nltk.__version__ == "3.7"
    return nltk.word_tokenize


@pytest.fixture(scope="module")
def tokenizer(nltk_oracle):
    return Tokenizer()


def scored(tokens):
    return [token for token in tokens if not (len(token) == 1 and token in string.punctuation)]


def real_texts():
    """Every q, r, q' and r' text of the real files (test input, gold, predictions, submission)."""
    folder = shared_path(*NLU)
    paths = [folder / "test_data_no_label.csv", folder / "train_answers_subset_1598ids.csv",
             folder / "example_submission_raw_baseline.csv"] + sorted((folder / "subset_predictions").iterdir())
    texts = {}
    for path in paths:
        with open(path, encoding="utf-8", newline="") as handle:
            for row in csv.reader(handle):
                for field in row[1:3]:
                    texts[strip_wrapping_quotes(field)] = None
                    texts[field] = None  # with its quotes too: more quote cases
    return list(texts)


def test_every_real_text_gives_nltks_tokens(tokenizer, nltk_oracle):
    texts = real_texts()
    assert len(texts) > 40000
    differences = [text for text in texts if tokenizer.word_tokenize(text) != nltk_oracle(text)]
    assert differences == []
    for text in texts[:5000]:  # the scored tokens: the same filter, and the (cached) second call
        assert tokenizer.tokens(text) == scored(nltk_oracle(text)) == tokenizer.tokens(text)


# --- random and adversarial strings ---------------------------------------------------------------

FRAGMENTS = (
    # quotes of every kind, brackets, the punctuation the expressions treat
    '"', "''", "``", "`", "'", "«", "»", "“", "”", "‘", "’", "„", "(", ")", "[", "]", "{", "}", "<", ">",
    ".", "..", "...", "…", ",", ":", ";", "@", "#", "$", "%", "&", "?", "!", "*", "-", "--", "---", "/", "\\",
    "—", "–",
    # contractions and clitics (case-insensitive in nltk: "İ" and "ı" match "i" there)
    "can", "not", "cannot", "CanNot", "n't", "N'T", "'s", "'S", "'m", "'d", "'ll", "'re", "'ve", "'LL", "d'ye",
    "gimme", "gİmme", "gımme", "gonna", "gotta", "lemme", "more'n", "wanna", "WANNA", "'t", "'tis", "'twas",
    "'T", "is", "was", "whaddya", "don't", "it's", "I'm", "'Cuz", "'em", "o'clock", "rock'n'roll",
    # abbreviations, initials, numbers, URLs, HTML, mojibake
    "Mr.", "Mrs.", "Dr.", "U.S.", "e.g.", "i.e.", "etc.", "O.J.", "sp.", "No.", "vs.", "a.m.", "p.m.", "A.", "B.",
    "3.88", "1,000", "10:30", "1990–2000", "$3", "5%", "http://example.com/a.b?c=d&e=f", "www.x.org.",
    "<br>", "&amp;", "Â", "Â£", "â€™", "😀", "ß", "ǅ", "ﬁ",
    # words
    "the", "The", "a", "I", "He", "she", "They", "said", "yes", "no", "god", "evolution", "Smith", "x", "Y",
    "studies", "inferior", "question", "9", "42",
)
SPACES = (" ", " ", " ", " ", "", "", "  ", "\t", "\n", "\r\n", "\xa0", "\u2028", "\x1c", "\u3000", " \n ")


def random_text(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.75:  # fragments joined by mostly single spaces, sometimes none, sometimes others
        parts = []
        for _ in range(rng.randint(0, 14)):
            parts.append(rng.choice(FRAGMENTS))
            parts.append(rng.choice(SPACES))
        return "".join(parts)
    if kind < 0.9:  # characters drawn from a small alphabet of the hard cases
        alphabet = rng.choice(("'. \"`", ".!? a", "'st n ", ".)]\"' \n»’", ":,0 a", "-- -'", "a.A.", "(['\"``'' )"))
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
    if kind < 0.97:  # any printable-ish code points
        return "".join(chr(rng.choice((rng.randint(32, 126), rng.randint(0xa0, 0x2fff), rng.randint(0, 0x10ffff))))
                       for _ in range(rng.randint(0, 12)))
    # long runs: of spaces after a period, of sentence ends, of quotes
    run = rng.choice(("Mr.", "a.", "x!", "''", "``", ". ", "! ", "a. ", "'", '"', " ", "..", "--"))
    return rng.choice(("", "The ", "a ")) + run * rng.randint(1, 300) + rng.choice((" ", "", " y", ". Z", "\n"))


def test_random_and_adversarial_strings_give_nltks_tokens(tokenizer, nltk_oracle):
    """``RANDOM_STRINGS`` seeded strings (300,000 by default): the same tokens as nltk, and the
    answer bound of the track (pieces holding a non-punctuation character) never above the
    scored tokens' count."""
    rng = random.Random(20221123)
    differences, over = [], []
    for _ in range(RANDOM_STRINGS):
        text = random_text(rng)
        expected = nltk_oracle(text)
        if tokenizer.word_tokenize(text) != expected:
            differences.append(text)
        if words_with_content(text) > len(scored(expected)):
            over.append(text)
    assert differences == [] and over == []


# --- the pieces: the period expression, \s, Punkt's word-before window, the answer bound ---------

def test_final_period_equals_nltks_expression():
    from nltk.tokenize.destructive import NLTKWordTokenizer
    spaced, plain = NLTKWordTokenizer.PUNCTUATION[0], NLTKWordTokenizer.PUNCTUATION[5]
    rng = random.Random(7)
    alphabet = ".a ])}>\"'»”’\n\t\xa0"
    for _ in range(100000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        assert _final_period(text, '])}>"\'»”’ ', True) == spaced[0].sub(spaced[1], text), repr(text)
        assert _final_period(text, '])}>"\'', False) == plain[0].sub(plain[1], text), repr(text)


def test_backslash_s_is_str_isspace_on_every_code_point():
    """``_final_period`` and the answer bound use ``str.rstrip``/``str.split`` where nltk's
    expressions use ``\\s``: the same characters on this Python (checked on every one)."""
    space = re.compile(r"\s")
    assert [c for c in range(sys.maxunicode + 1) if bool(space.match(chr(c))) != chr(c).isspace()] == []


def test_punkt_sentences_equal_nltks_punkt_on_long_words_and_many_ends(nltk_oracle):
    """The window of Punkt's word-before search (256 characters) and its fallback, and the path
    without a potential sentence end."""
    original, fast = load_punkt(find_punkt()), load_punkt(find_punkt(), fast=True)
    assert type(fast) is not type(original)
    rng = random.Random(11)
    words = ("a" * 300, "b" * 255, "c" * 257, "Mr.", "x.", "Y!", "?", "z", "Hello", "world.", ")", "\"", "'")
    for _ in range(3000):
        text = "".join(rng.choice(words) + rng.choice((" ", "  ", "\n", "", " " * 300)) for _ in range(rng.randint(0, 20)))
        assert fast.tokenize(text) == original.tokenize(text), repr(text)


def test_the_answer_bound_on_real_texts(tokenizer):
    for text in real_texts():
        assert words_with_content(text) <= len(tokenizer.tokens(text))


def test_hostile_answers_are_refused_before_tokenizing(tmp_path, monkeypatch):
    """``'A. ' * 33000`` (99,000 characters, under the character cap) for ten ids: nltk takes
    1.8 s per answer; the bound refuses them without tokenizing."""
    import scorer.machinery.nltk_tokens
    from scorer.readers.options import Options
    from scorer.readers.problems import SubmissionError
    monkeypatch.setattr(scorer.machinery.nltk_tokens, "shared_tokenizer", lambda: pytest.fail("tokenized"))
    (tmp_path / "gold.csv").write_text("".join('%d,"a b","c d"\n' % i for i in range(10)), encoding="utf-8")
    (tmp_path / "sub.csv").write_text("".join('%d,"%s","c"\n' % (i, "A. " * 33000) for i in range(10)),
                                      encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        nlu.score(str(tmp_path / "gold.csv"), str(tmp_path / "sub.csv"), nlu.FILE_NAME, Options(), str(tmp_path))
    assert len(error.value.lines) == 10
    assert "q': the answer has at least 33000 tokens (33000 words that are not only punctuation); at most " \
           "5000 are accepted" in error.value.lines[0]


def test_punctuation_set_is_string_punctuation():
    assert PUNCTUATION == frozenset(string.punctuation)


def test_lower_finds_every_case_insensitive_contraction_but_for_dotted_i():
    """The word tokenizer looks for CONTRACTIONS2's words in ``text.lower()`` unless the text
    has "İ" or "ı": for every other code point ``lower()`` is one character, and it is the ASCII
    letter that the case-insensitive expressions match it to."""
    letters = set("cannotdyegimmegonnagottalemmemorenwanna")
    wrong = []
    for code in range(sys.maxunicode + 1):
        character = chr(code)
        if character in "\u0130\u0131":
            continue
        lower = character.lower()
        if len(lower) != 1 or any(re.fullmatch("(?i)" + letter, character) and lower != letter for letter in letters):
            wrong.append(hex(code))
    assert wrong == []
