"""nlu's gold as token numbers: parsed from its own file, each distinct text tokenized once, or
taken from the texts whose tokens are known by their digest (the reference data's token cache,
``token_cache.py``)."""

from __future__ import annotations

from array import array
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ...readers.problems import Problems, ReferenceDataError, reading_reference
from .names import TEST_INPUT
from .reading import Row, parse_answers, read_rows, strip_wrapping_quotes

TOKEN_CACHE = "aicup2022_nlu.tokens.json"  # the gold's token cache, beside the gold in the reference data
# The page's note when the reference data holds a token cache that did not give every gold text's tokens.
CACHE_NOT_USED = ("the reference data's %s was not made for this gold file, nltk version, Punkt model and "
                  "version of the scoring program's tokenizing code (or cannot be read); the gold was tokenized "
                  "instead" % TOKEN_CACHE)

Span = Tuple[int, int]  # (start, end) of a text's tokens in a sequence of token numbers


class KnownTokens:
    """The tokens of texts named by their ``text_key``: ``tokens[start:end]`` of each text's span,
    every token a number of ``vocabulary`` (number -> token); ``texts`` holds the gold's texts and
    those of the released test input, ``inputs`` the latter only."""

    __slots__ = ("vocabulary", "tokens", "texts", "inputs")

    def __init__(self, vocabulary: List[str], tokens: "array[int]", texts: Dict[bytes, Span],
                 inputs: Dict[bytes, Span]) -> None:
        self.vocabulary = vocabulary
        self.tokens = tokens
        self.texts = texts
        self.inputs = inputs


class GoldTokens:
    """A phase's gold, tokenized once: the ids in file order; the accepted answers (rows) of the
    id numbered k are rows ``first_row[k]`` to ``first_row[k + 1] - 1``; row j's q' is
    ``tokens[spans[4j]:spans[4j + 1]]`` and its r' ``tokens[spans[4j + 2]:spans[4j + 3]]``, each
    token a number of ``vocabulary`` (token -> number), in arrays of 32-bit numbers. The gold's
    texts are never all held at once: ``read`` keeps the ids and the texts' digests (and the
    tokens, when every text's are known), ``tokenize`` reads the file again, one row at a time."""

    __slots__ = ("ids", "first_row", "spans", "tokens", "vocabulary", "rows", "note", "key", "known", "_source",
                 "digests", "inputs")

    def __init__(self) -> None:
        self.ids: List[str] = []
        self.first_row = array("i", [0])
        self.spans = array("i")
        self.tokens = array("i")
        self.vocabulary: Dict[str, int] = {}
        self.rows = 0
        self.note = ""  # why the reference data's token cache was not used, when it was there
        self.key = ""  # what this process keeps it by (token_cache.gold_tokens)
        self.known: Optional[KnownTokens] = None  # texts whose tokens need no tokenizing
        self._source: Optional[Tuple[str, str, Sequence[int]]] = None  # (path, name, row -> place) until tokenized
        # text_key of row j's q' and r': digests[32j:32j + 16] and digests[32j + 16:32j + 32] (a
        # submitted text equal to a gold text of its id takes that text's tokens: known_tokens)
        self.digests = b""
        # text_key -> span in ``tokens`` of each text of the released test input (q and r of
        # every id: public), from the token cache only; a raw baseline's answers are these
        self.inputs: Dict[bytes, Span] = {}

    @property
    def tokenized(self) -> bool:
        return self._source is None

    def known_tokens(self, number: Optional[int], text: str):
        """The token numbers of ``text`` when it is a text whose tokens are known: a gold text of
        the id numbered ``number`` (None: an id without gold) or a text of the test input; else
        None. The same tokens ``tokenize`` would give (a text's tokens depend on the text only)."""
        key = text_key(text)
        if number is not None:
            digests = self.digests
            for row in range(self.first_row[number], self.first_row[number + 1]):
                for half in (0, 1):
                    at = 32 * row + 16 * half
                    if digests[at:at + 16] == key:
                        return self.tokens[self.spans[4 * row + 2 * half]:self.spans[4 * row + 2 * half + 1]]
        span = self.inputs.get(key)
        return None if span is None else self.tokens[span[0]:span[1]]

    @classmethod
    def read(cls, path: str, name: str, known: Optional[KnownTokens] = None) -> "GoldTokens":
        """The ids, the rows' places and their texts' digests from the gold file, and the texts'
        tokens when ``known`` holds every one of them (else ``tokenize`` gives them)."""
        identifiers: List[str] = []
        keys = bytearray()  # the texts' digests in file order

        def add(row: Row) -> None:
            identifiers.append(row.identifier)
            keys.extend(text_key(row.q) + text_key(row.r))

        problems = Problems(name)
        with reading_reference():
            parse_answers(path, name, None, problems, gold=True, on_row=add)
        problems.raise_as_reference_error()
        order: Dict[str, List[int]] = {}
        for index, identifier in enumerate(identifiers):
            order.setdefault(identifier, []).append(index)
        gold = cls()
        gold.ids = list(order)
        gold.rows = len(identifiers)
        places = array("i", [0]) * len(identifiers)  # a row of the file -> its place, grouped by id
        digests = bytearray(32 * len(identifiers))
        place = 0
        for indices in order.values():
            for index in indices:
                places[index] = place
                digests[32 * place:32 * place + 32] = keys[32 * index:32 * index + 32]
                place += 1
            gold.first_row.append(place)
        gold.digests = bytes(digests)
        gold._source = (path, name, places)
        if known is not None:
            gold.vocabulary = {token: number for number, token in enumerate(known.vocabulary)}
            gold.tokens, gold.inputs = known.tokens, known.inputs
            if gold._spans_from(known.texts):
                gold._source = None
            else:
                gold.known = known  # (kept until ``tokenize``: the texts it lacks)
        return gold

    def tokenize(self, tokens_of: Callable[[str], List[str]]) -> None:
        """Gives every row its tokens (once: after a submission's checks, so a refused file costs
        no tokens): the gold's texts are tokenized, each distinct text once, reading the file
        again, but for those whose tokens are ``known`` (when a text of a gold the cache was made
        for is not there, the note says so)."""
        if self._source is None:
            return
        path, name, places = self._source
        spans_of: Dict[bytes, Span] = {} if self.known is None else self.known.texts
        self._tokenize_file(path, name, places, spans_of, tokens_of)
        self._spans_from(spans_of)
        if self.known is not None:
            self.note = CACHE_NOT_USED
        self._source = None
        self.known = None

    def _spans_from(self, spans_of: Dict[bytes, Span]) -> bool:
        """Each row's ``spans`` from ``spans_of`` (text_key -> span), when it has every text."""
        digests = self.digests
        spans = array("i")
        for at in range(0, len(digests), 16):
            span = spans_of.get(digests[at:at + 16])
            if span is None:
                return False
            spans.extend(span)
        self.spans = spans
        return True

    def _tokenize_file(self, path: str, name: str, places: Sequence[int], spans_of: Dict[bytes, Span],
                       tokens_of: Callable[[str], List[str]]) -> None:
        """Tokenizes the texts of the gold file that ``spans_of`` does not hold, each once, into it."""
        vocabulary, sequence, digests = self.vocabulary, self.tokens, self.digests
        number_of = vocabulary.get
        state = {"row": 0, "changed": False}

        def add(row: Row) -> None:
            index = state["row"]
            state["row"] = index + 1
            if index >= len(places) or state["changed"]:
                return
            at = 32 * places[index]
            for half, text in ((0, row.q), (16, row.r)):
                key = text_key(text)
                if key != digests[at + half:at + half + 16]:  # another text than the first reading's
                    state["changed"] = True
                    return
                if key in spans_of:
                    continue
                tokens = tokens_of(text)
                numbers = list(map(number_of, tokens))
                if None in numbers:  # tokens not seen before get the next numbers
                    numbers = [vocabulary.setdefault(token, len(vocabulary)) for token in tokens]
                start = len(sequence)
                sequence.extend(numbers)
                spans_of[key] = (start, len(sequence))

        problems = Problems(name)
        with reading_reference():
            parse_answers(path, name, None, problems, gold=True, on_row=add)
        problems.raise_as_reference_error()
        if state["row"] != self.rows or state["changed"]:
            raise ReferenceDataError(["reference data %s: the gold file changed while it was read" % name])

    def add_inputs(self, path: str, tokens_of: Callable[[str], List[str]]) -> None:
        """Tokenizes the q and r texts of the test input at ``path`` into ``inputs`` (the build's
        token cache), each distinct text once; their new tokens get the next numbers."""
        vocabulary, sequence = self.vocabulary, self.tokens
        with reading_reference():
            for _, fields in read_rows(path, TEST_INPUT, None):
                for text in (strip_wrapping_quotes(field) for field in fields[1:3]):
                    key = text_key(text)
                    if key in self.inputs:
                        continue
                    start = len(sequence)
                    sequence.extend(vocabulary.setdefault(token, len(vocabulary)) for token in tokens_of(text))
                    self.inputs[key] = (start, len(sequence))

    def gold_texts(self) -> Dict[bytes, Span]:
        """Each distinct gold text's ``text_key`` -> its span in ``tokens``, in the order of the rows."""
        texts: Dict[bytes, Span] = {}
        for at in range(0, 4 * self.rows, 2):
            texts.setdefault(self.digests[8 * at:8 * at + 16], (self.spans[at], self.spans[at + 1]))
        return texts


def text_key(text: str) -> bytes:
    """What identifies a text for the reuse of its tokens: 16 bytes of its BLAKE2b digest.

    >>> len(text_key("It is.")), text_key("It is.") == text_key("It is"), text_key("") == text_key("")
    (16, False, True)
    """
    import hashlib
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
