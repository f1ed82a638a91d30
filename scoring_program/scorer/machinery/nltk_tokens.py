"""The ``nlu`` track's tokens: nltk 3.7 ``word_tokenize`` with the English Punkt model.

The one setting that says where the model is: ``PUNKT_SEARCH_PATH`` (the scoring program's own
``nltk_data/`` first, then the folders of the ``NLTK_DATA`` environment variable). The model is
never downloaded; its sha256 is checked before it is unpickled, and the unpickler accepts only
the classes a Punkt model is made of.

nltk is imported here, on first use, so that scoring the other tracks never loads it, and only
its two tokenizer modules are loaded (see ``import_nltk``). When the scoring program ships nltk
itself (the bundle's ``vendor/`` folder), that copy comes first.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import io
import os
import pickle
import re
import string
import sys
import types
from typing import Callable, Dict, List, Optional

from ..readers.problems import ProgramError


NLTK_VERSION = "3.7"
PROGRAM_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VENDOR_DIR = os.path.join(PROGRAM_DIR, "vendor")
PUNKT_FILE = os.path.join("tokenizers", "punkt", "PY3", "english.pickle")  # what nltk 3.7 loads
PUNKT_SHA256 = "5cad3758596392364e3be9803dbd7ebeda384b68937b488a01365f5551bb942c"
PUNKT_SEARCH_PATH = [os.path.join(PROGRAM_DIR, "nltk_data")] + [
    folder for folder in os.environ.get("NLTK_DATA", "").split(os.pathsep) if folder]

PUNCTUATION = frozenset(string.punctuation)  # !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~: the 1-character tokens dropped


def words_with_content(text: str) -> int:
    r"""How many whitespace-separated pieces of ``text`` hold a character outside
    ``string.punctuation``: a lower bound of its scored tokens, counted without tokenizing.

    nltk 3.7's ``word_tokenize`` never joins two pieces (Punkt's sentences are slices of the text
    split at whitespace or inside a piece; the word tokenizer's substitutions only insert spaces,
    or turn a double quote into two characters, and the one that consumes whitespace, ``\s*$``,
    does so at the sentence's end) and never deletes a non-space character, so each such piece
    gives at least one token holding that character, and only 1-character punctuation tokens are
    dropped. The tests check the bound against nltk on real and random texts.

    >>> words_with_content("It 's a question . -- ?!"), words_with_content("A. " * 3)
    (4, 3)
    """
    return sum(1 for piece in text.split() if piece.strip(string.punctuation))


_ALLOWED_GLOBALS = {
    ("nltk.tokenize.punkt", "PunktSentenceTokenizer"),
    ("nltk.tokenize.punkt", "PunktParameters"),
    ("nltk.tokenize.punkt", "PunktLanguageVars"),
    ("nltk.tokenize.punkt", "PunktToken"),
    ("builtins", "int"),
    ("builtins", "set"),
    ("collections", "defaultdict"),
}


class _PunktUnpickler(pickle.Unpickler):
    """Builds only the classes a Punkt model is made of, taken from the modules given."""

    def __init__(self, data: bytes, punkt_module, sentence_tokenizer_class=None) -> None:
        super().__init__(io.BytesIO(data))
        self._punkt_module = punkt_module
        self._sentence_tokenizer_class = sentence_tokenizer_class

    def find_class(self, module: str, name: str):  # noqa: D401 - pickle API
        if (module, name) not in _ALLOWED_GLOBALS:
            raise pickle.UnpicklingError("the Punkt model refers to %s.%s" % (module, name))
        if name == "PunktSentenceTokenizer" and self._sentence_tokenizer_class is not None:
            return self._sentence_tokenizer_class
        if module == "nltk.tokenize.punkt":  # our copy, without importing nltk by name
            return getattr(self._punkt_module, name)
        return super().find_class(module, name)


def find_punkt() -> str:
    for folder in PUNKT_SEARCH_PATH:
        path = os.path.join(folder, PUNKT_FILE)
        if os.path.isfile(path):
            return path
    raise ProgramError("the English Punkt model %s is in none of: %s"
                       % (PUNKT_FILE, ", ".join(PUNKT_SEARCH_PATH)))


def load_punkt(path: str, punkt_module=None, fast: bool = False):
    """The Punkt model at ``path``; ``fast``: as an instance of ``_fast_punkt_class`` (the same
    sentences)."""
    with open(path, "rb") as handle:
        data = handle.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != PUNKT_SHA256:
        raise ProgramError("%s has sha256 %s, expected %s; refusing to load it"
                           % (path, digest, PUNKT_SHA256))
    punkt_module = punkt_module or import_nltk()[1]
    return _PunktUnpickler(data, punkt_module, _fast_punkt_class(punkt_module) if fast else None).load()


# How far back ``_match_potential_end_contexts`` looks first for the word before a period.
_BEFORE_WINDOW = 256


def _fast_punkt_class(punkt_module):
    """nltk 3.7's ``PunktSentenceTokenizer`` with ``_match_potential_end_contexts`` in linear time.

    nltk's method finds the word before each potential sentence end with
    ``text[:match.start()].rsplit(maxsplit=1)``: a copy of the whole text before it, for every
    period, question or exclamation mark: quadratic in the text's length. Here the same ``rsplit`` runs on the last ``_BEFORE_WINDOW`` characters before the match
    first; when it finds a word there with non-whitespace before it (two parts), the parts are
    those of the whole prefix (rsplit keeps the start of the prefix unchanged in the first part),
    else the whole prefix is split as nltk does. Everything else is nltk's method, unchanged.
    """
    base = punkt_module.PunktSentenceTokenizer

    class FastPunktSentenceTokenizer(base):  # type: ignore[misc, valid-type]
        # nltk's decision for a context (the words around a potential sentence end) depends on the
        # context's text and the model only: each distinct context is decided once (bounded).
        _decisions: Dict[str, bool] = {}

        def text_contains_sentbreak(self, text):
            decisions = self._decisions
            found = decisions.get(text)
            if found is None:
                found = base.text_contains_sentbreak(self, text)
                if len(decisions) >= 20000:
                    decisions.clear()
                decisions[text] = found
            return found

        def tokenize(self, text, realign_boundaries=True):
            """nltk's ``tokenize``; without a potential sentence end (no match of the period
            context expression: nltk's first step finds nothing) it is the text without its
            trailing whitespace, one sentence, or none when that is empty, as nltk's
            ``_slices_from_text`` and ``_realign_boundaries`` make it. Most answers are such."""
            if self._lang_vars.period_context_re().search(text) is None:
                end = len(text.rstrip())
                return [text[:end]] if end else []
            return base.tokenize(self, text, realign_boundaries)

        def _match_potential_end_contexts(self, text):
            before_words = {}
            matches = []
            before_start = 0
            for match in reversed(list(self._lang_vars.period_context_re().finditer(text))):
                # Ignore matches that have already been captured by matches to the right of this match
                if matches and match.end() > before_start:
                    continue
                start = match.start()
                low = start - _BEFORE_WINDOW
                split = text[low:start].rsplit(maxsplit=1) if low > 0 else []
                if len(split) == 2:
                    before_start = low + len(split[0])
                else:
                    split = text[:start].rsplit(maxsplit=1)
                    before_start = len(split[0]) if len(split) == 2 else 0
                before_words[match] = split[-1] if split else ""
                matches.append(match)
            return [(match, before_words[match] + match.group() + match.group("after_tok"))
                    for match in matches[::-1]]

    FastPunktSentenceTokenizer.__name__ = base.__name__
    FastPunktSentenceTokenizer.__qualname__ = base.__qualname__
    return FastPunktSentenceTokenizer


def _unavailable(reason: str) -> ProgramError:
    return ProgramError("nltk %s is needed for the nlu track and cannot be "
                        "imported (%s)" % (NLTK_VERSION, reason))


def import_nltk():
    """(nltk.tokenize.destructive, nltk.tokenize.punkt) of nltk 3.7, vendor/ first when there is one.

    Only these two modules and what they import are loaded: ``nltk/__init__.py`` imports every
    nltk module and, through them, numpy, scipy and scikit-learn when they are installed (as on
    the stock images), time and memory for nothing (benchmarks/RESULTS.md). The two modules are
    nltk's own code, unchanged. Our loading leaves no trace in ``sys.modules``, so a later
    ``import nltk`` gets the whole package as usual.
    """
    if os.path.isdir(VENDOR_DIR) and VENDOR_DIR not in sys.path:
        sys.path.insert(0, VENDOR_DIR)
    if "nltk" in sys.modules:  # already imported whole (a test comparing with nltk itself)
        try:
            import nltk.tokenize.destructive
            import nltk.tokenize.punkt
        except ImportError as error:
            raise _unavailable(str(error)) from None
        _check_version(nltk.__version__)
        return nltk.tokenize.destructive, nltk.tokenize.punkt
    spec = importlib.util.find_spec("nltk")
    if spec is None or not spec.submodule_search_locations:
        raise _unavailable("no module named 'nltk'")
    package_dir = list(spec.submodule_search_locations)[0]
    try:
        with open(os.path.join(package_dir, "VERSION"), encoding="utf-8") as handle:
            version = handle.read().strip()
    except OSError as error:
        raise _unavailable("no VERSION file: %s" % error) from None
    _check_version(version)  # another version's modules are not loaded at all
    before = set(sys.modules)
    for name, folder in (("nltk", package_dir), ("nltk.tokenize", os.path.join(package_dir, "tokenize"))):
        package = types.ModuleType(name)  # the package without its __init__.py
        package.__path__ = [folder]  # type: ignore[attr-defined]
        package.__file__ = os.path.join(folder, "__init__.py")
        package.__version__ = version  # type: ignore[attr-defined]
        sys.modules[name] = package
    try:
        destructive = importlib.import_module("nltk.tokenize.destructive")
        punkt = importlib.import_module("nltk.tokenize.punkt")
    except ImportError as error:
        raise _unavailable(str(error)) from None
    finally:
        for name in set(sys.modules) - before:
            if name == "nltk" or name.startswith("nltk."):
                del sys.modules[name]
    return destructive, punkt


def _check_version(version: str) -> None:
    if version != NLTK_VERSION:
        raise ProgramError("the nlu track needs nltk %s exactly (its tokens "
                           "define the score); found nltk %s" % (NLTK_VERSION, version))


# --- the word tokenizer: nltk 3.7's NLTKWordTokenizer.tokenize, the same output, less work ---------
#
# nltk applies about 32 regular-expression substitutions to every sentence, in a fixed order, and
# most of them change nothing: each needs a character the sentence lacks. ``fast_word_tokenizer``
# applies nltk's own compiled expressions in nltk's order, and skips each one when the text, as it
# is at that step, lacks something that every match of it contains (its "guard"). A skipped
# substitution would have returned the text unchanged, so the tokens are the same; the tests
# check it against nltk itself on the real data and on 300,000 random and adversarial strings.
#
# One expression is replaced, not skipped: PUNCTUATION[0], the final period followed by closing
# quotes or brackets and spaces. Its class of closing characters contains the space, which ``\s*``
# also matches, so nltk's backtracking costs time quadratic in a run of spaces after a period
# (benchmarks/RESULTS.md). ``_final_period`` finds the same (only
# possible) match with string methods in linear time; PUNCTUATION[5] has the same form and goes the
# same way. They rely on ``\s`` in a str pattern being exactly ``str.isspace`` (true for every code
# point of Python 3.7 to 3.12; a test checks all of them).

# What every match of each skipped expression contains. The substitutions only insert spaces,
# except two that bring new characters: "``" for a double quote, " '' " for "''" or a double
# quote. So a character other than those three that is not in the sentence at the start is not in
# it at any step, and one set of the sentence's characters, made once, answers for all of them;
# the others are looked for in the text as it is at that step.
_OPENING_QUOTES = frozenset("«“‘„")  # STARTING_QUOTES[0]: ([«“‘„]|[`]+) (the backquote apart)
_SEPARATED = frozenset(";@#$%&")  # PUNCTUATION[4]
_QUESTION = frozenset("?!")  # PUNCTUATION[6]
_BRACKETS = frozenset("[](){}<>")  # PARENS_BRACKETS
_CLOSING_QUOTES = frozenset("»”’")  # ENDING_QUOTES[0]
_COLONS = frozenset(":,")  # PUNCTUATION[1], PUNCTUATION[2]
# ENDING_QUOTES[3] ([^' ])('[sS]|'[mM]|'[dD]|') and [4] ([^' ])('ll|...|N'T) : the endings before
# the final space (the bare "'" of [3] is "' ", looked for apart).
_SHORT_CLITICS = ("'s ", "'S ", "'m ", "'M ", "'d ", "'D ")
_LONG_CLITICS = ("'ll ", "'LL ", "'re ", "'RE ", "'ve ", "'VE ", "n't ", "N'T ")
# CONTRACTIONS2, case-insensitive as they are (so "İ" and "ı" match "i" here too): every match of
# \b(can)(not)\b ... \b(wan)(na)(?=\s) contains one of these.
_ANY_CONTRACTION2 = re.compile(r"(?i)cannot|d'ye|gimme|gonna|gotta|lemme|more'n|wanna")
# The same test without a case-insensitive search, where the sentence has neither "İ" nor "ı"
# (the only characters outside ASCII that these expressions match, to "i", and that str.lower()
# does not turn into "i"; a test checks every code point).
_CONTRACTIONS2 = ("cannot", "d'ye", "gimme", "gonna", "gotta", "lemme", "more'n", "wanna")
_DOTTED_I = frozenset("\u0130\u0131")

# The closing characters of PUNCTUATION[0] and PUNCTUATION[5] (their third group's classes).
_CLOSING_SPACED = '])}>"\'»”’ '
_CLOSING = '])}>"\''


def _final_period(text: str, closing: str, spaced: bool) -> str:
    r"""``re.sub(r'([^\.])(\.)([<closing>]*)\s*$', r'\1 \2 \3 ' (spaced) or r'\1 \2\3 ', text)``.

    A match runs to the end of the text (``\s*`` takes a final newline before ``$`` can match
    before it), so there is at most one: the period ``d`` such that only closing characters
    follow it up to the trailing whitespace, and ``text[d - 1]`` is not a period. Its third
    group is the longest run of closing characters after the period (greedy; what follows is
    whitespace to the end), and the trailing whitespace is consumed.
    """
    content_end = len(text.rstrip())
    d = len(text[:content_end].rstrip(closing)) - 1
    if d < 1 or text[d] != "." or text[d - 1] == ".":
        return text
    after = text[d + 1:]
    run_end = d + 1 + len(after) - len(after.lstrip(closing))
    return text[:d] + (" . " if spaced else " .") + text[d + 1:run_end] + " "


def fast_word_tokenizer(word_tokenizer_class) -> Callable[[str], List[str]]:
    """``tokenize(sentence)`` = ``word_tokenizer_class().tokenize(sentence)`` (nltk 3.7's
    ``NLTKWordTokenizer``, default arguments), with the class's own expressions in its order."""
    cls = word_tokenizer_class
    (quotes_open, quotes_start, quotes_double, quotes_before, quotes_single) = [
        (regexp.sub, replacement) for regexp, replacement in cls.STARTING_QUOTES]
    punctuation = [(regexp.sub, replacement) for regexp, replacement in cls.PUNCTUATION]
    (_, colon, colon_end, ellipsis, separated, _, question, apostrophe, star) = punctuation
    brackets = (cls.PARENS_BRACKETS[0].sub, cls.PARENS_BRACKETS[1])
    dashes = (cls.DOUBLE_DASHES[0].sub, cls.DOUBLE_DASHES[1])
    (closing, double_single, double, clitic, clitic_long) = [
        (regexp.sub, replacement) for regexp, replacement in cls.ENDING_QUOTES]
    contractions2 = [regexp.sub for regexp in cls.CONTRACTIONS2]
    contractions3 = [regexp.sub for regexp in cls.CONTRACTIONS3]
    _check_expressions(cls)
    any_contraction2, dotted_i = _ANY_CONTRACTION2.search, _DOTTED_I
    opening_quotes, separated_chars, question_marks = _OPENING_QUOTES, _SEPARATED, _QUESTION
    bracket_chars, closing_quotes, colons = _BRACKETS, _CLOSING_QUOTES, _COLONS

    def tokenize(text: str) -> List[str]:
        chars = set(text)  # the characters at the start (see _OPENING_QUOTES)
        # STARTING_QUOTES
        if "`" in text or not opening_quotes.isdisjoint(chars):
            text = quotes_open[0](quotes_open[1], text)
        if text[:1] == '"':
            text = quotes_start[0](quotes_start[1], text)
        if "``" in text:
            text = quotes_double[0](quotes_double[1], text)
        if '"' in text or "''" in text:
            text = quotes_before[0](quotes_before[1], text)
        if "'" in text:
            text = quotes_single[0](quotes_single[1], text)
        # PUNCTUATION
        period_in = "." in chars
        if period_in:
            text = _final_period(text, _CLOSING_SPACED, True)
        if not colons.isdisjoint(chars):
            text = colon[0](colon[1], text)
            text = colon_end[0](colon_end[1], text)
        if period_in and ".." in text:
            text = ellipsis[0](ellipsis[1], text)
        if not separated_chars.isdisjoint(chars):
            text = separated[0](separated[1], text)
        if period_in:
            text = _final_period(text, _CLOSING, False)
        if not question_marks.isdisjoint(chars):
            text = question[0](question[1], text)
        if "' " in text:
            text = apostrophe[0](apostrophe[1], text)
        if "*" in chars:
            text = star[0](star[1], text)
        if not bracket_chars.isdisjoint(chars):
            text = brackets[0](brackets[1], text)
        if "-" in chars and "--" in text:
            text = dashes[0](dashes[1], text)
        text = " " + text + " "
        # ENDING_QUOTES
        if not closing_quotes.isdisjoint(chars):
            text = closing[0](closing[1], text)
        if "''" in text:
            text = double_single[0](double_single[1], text)
        if '"' in text:
            text = double[0](double[1], text)
        if "'" in text:  # (a closing quote or "''" above may have brought the first one)
            if "' " in text or any(ending in text for ending in _SHORT_CLITICS):
                text = clitic[0](clitic[1], text)
            if any(ending in text for ending in _LONG_CLITICS):
                text = clitic_long[0](clitic_long[1], text)
        if (any_contraction2(text) if not dotted_i.isdisjoint(chars)
                else any(word in text.lower() for word in _CONTRACTIONS2)):
            for sub in contractions2:
                text = sub(r" \1 \2 ", text)
        if "'t" in text or "'T" in text:  # (?i) ('t)(is)\b and ('t)(was)\b
            for sub in contractions3:
                text = sub(r" \1 \2 ", text)
        return text.split()

    return tokenize


# The expressions (pattern, flags) the guards and _final_period were written for: another
# tokenizer class (another nltk) is refused rather than tokenized differently.
_EXPECTED_PATTERNS = (
    "([«“‘„]|[`]+)", '^\\"', "(``)", "([ \\(\\[{<])(\\\"|\\'{2})", "(?i)(\\')(?!re|ve|ll|m|t|s|d|n)(\\w)\\b",
    "([^\\.])(\\.)([\\]\\)}>\"\\'»”’ ]*)\\s*$", "([:,])([^\\d])", "([:,])$", "\\.{2,}", "[;@#$%&]",
    "([^\\.])(\\.)([\\]\\)}>\"\\']*)\\s*$", "[?!]", "([^'])' ", "[*]",
    "[\\]\\[\\(\\)\\{\\}\\<\\>]", "--",
    "([»”’])", "''", '"', "([^' ])('[sS]|'[mM]|'[dD]|') ", "([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ",
    "(?i)\\b(can)(?#X)(not)\\b", "(?i)\\b(d)(?#X)('ye)\\b", "(?i)\\b(gim)(?#X)(me)\\b", "(?i)\\b(gon)(?#X)(na)\\b",
    "(?i)\\b(got)(?#X)(ta)\\b", "(?i)\\b(lem)(?#X)(me)\\b", "(?i)\\b(more)(?#X)('n)\\b",
    "(?i)\\b(wan)(?#X)(na)(?=\\s)", "(?i) ('t)(?#X)(is)\\b", "(?i) ('t)(?#X)(was)\\b",
)


def _check_expressions(cls) -> None:
    patterns = tuple(regexp.pattern for regexp, _ in cls.STARTING_QUOTES + cls.PUNCTUATION) + (
        cls.PARENS_BRACKETS[0].pattern, cls.DOUBLE_DASHES[0].pattern) + tuple(
        regexp.pattern for regexp, _ in cls.ENDING_QUOTES) + tuple(
        regexp.pattern for regexp in cls.CONTRACTIONS2 + cls.CONTRACTIONS3)
    replacements = [replacement for _, replacement in cls.PUNCTUATION]
    if patterns != _EXPECTED_PATTERNS or replacements[0] != r"\1 \2 \3 " or replacements[5] != r"\1 \2\3 ":
        raise ProgramError("nltk's word tokenizer is not the one of nltk %s: its expressions differ" % NLTK_VERSION)


class Tokenizer:
    """``tokens(text)`` = nltk 3.7 ``word_tokenize(text)`` minus 1-character punctuation tokens.

    Sentences come from nltk's own Punkt (``PunktSentenceTokenizer.tokenize``, with one exact
    change of speed: ``_match_potential_end_contexts``, see ``_fast_punkt_class``); words from
    ``fast_word_tokenizer``. Each distinct sentence is word-tokenized once per process (a bounded
    cache): the accepted answers of an id overlap, and submissions repeat sentences of the input.
    """

    SENTENCE_CACHE_ENTRIES = 4096

    def __init__(self, punkt_path: Optional[str] = None) -> None:
        destructive, punkt = import_nltk()
        self._sentences: Callable[[str], List[str]] = load_punkt(punkt_path or find_punkt(), punkt,
                                                                 fast=True).tokenize
        self._words: Callable[[str], List[str]] = fast_word_tokenizer(destructive.NLTKWordTokenizer)
        self._scored: Dict[str, List[str]] = {}  # sentence -> its scored tokens

    def word_tokenize(self, text: str) -> List[str]:
        """What ``nltk.word_tokenize(text)`` returns in nltk 3.7 (language english, Punkt)."""
        return [token for sentence in self._sentences(text) for token in self._words(sentence)]

    def tokens(self, text: str) -> List[str]:
        """The scored tokens: ``word_tokenize(text)`` without 1-character punctuation tokens."""
        scored = self._scored
        tokens: List[str] = []
        for sentence in self._sentences(text):
            found = scored.get(sentence)
            if found is None:
                found = [token for token in self._words(sentence) if token not in PUNCTUATION]
                if len(scored) >= self.SENTENCE_CACHE_ENTRIES:
                    scored.clear()
                scored[sentence] = found
            tokens.extend(found)
        return tokens


_SHARED: List[Tokenizer] = []


def shared_tokenizer() -> Tokenizer:
    """One tokenizer per process (loading nltk and the model is slow: once is enough)."""
    if not _SHARED:
        _SHARED.append(Tokenizer())
    return _SHARED[0]
