"""nlu's gold as token numbers, tokenized once: in this process (for every submission scored
against the same gold) and, by the build, in the phase's reference data (``TOKEN_CACHE``, checked
against the gold file, the tokenizer and this code before it is used)."""

from __future__ import annotations

import os
from typing import Dict, List, Optional, Tuple

from ...readers.problems import Problems, ReferenceDataError, reading_reference
from ...readers.files import byte_chunks
from .names import FILE_NAME, TEST_INPUT
from .reading import Row, parse_answers, read_rows, strip_wrapping_quotes


class GoldTokens:
    """A phase's gold, tokenized once: the ids in file order; the accepted answers (rows) of the
    id numbered k are rows ``first_row[k]`` to ``first_row[k + 1] - 1``; row j's q' is
    ``tokens[spans[4j]:spans[4j + 1]]`` and its r' ``tokens[spans[4j + 2]:spans[4j + 3]]``, each
    token a number of ``vocabulary`` (token -> number), in arrays of 32-bit numbers. The gold's
    texts are never all held at once: ``read`` keeps the ids, ``tokenize`` reads the file again,
    one row at a time."""

    __slots__ = ("ids", "first_row", "spans", "tokens", "vocabulary", "rows", "note", "sha256", "_source",
                 "digests", "inputs")

    def __init__(self) -> None:
        from array import array
        self.ids: List[str] = []
        self.first_row = array("i", [0])
        self.spans = array("i")
        self.tokens = array("i")
        self.vocabulary: Dict[str, int] = {}
        self.rows = 0
        self.note = ""  # why the reference data's token cache was not used, when it was there
        self.sha256 = ""  # of the gold file it was read from (gold_tokens): this process's cache key
        self._source: Optional[Tuple[str, str, object]] = None  # (path, name, row -> its place) until tokenized
        # text_key of row j's q' and r': digests[32j:32j + 16] and digests[32j + 16:32j + 32] (a
        # submitted text equal to a gold text of its id takes that text's tokens: known_tokens)
        self.digests = b""
        # text_key -> (start, end) in ``tokens`` of each text of the released test input (q and r
        # of every id: public), from the build's token cache only; a raw baseline's answers are these
        self.inputs: Dict[bytes, Tuple[int, int]] = {}

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
    def read(cls, path: str, name: str) -> "GoldTokens":
        """The ids and the rows' places from the gold file (its texts are read by ``tokenize``)."""
        from array import array
        identifiers: List[str] = []
        problems = Problems(name)
        with reading_reference():
            parse_answers(path, name, None, problems, gold=True, on_row=lambda row: identifiers.append(row.identifier))
        problems.raise_as_reference_error()
        order: Dict[str, List[int]] = {}
        for index, identifier in enumerate(identifiers):
            order.setdefault(identifier, []).append(index)
        gold = cls()
        gold.ids = list(order)
        gold.rows = len(identifiers)
        places = array("i", [0]) * len(identifiers)  # a row of the file -> its place, grouped by id
        place = 0
        for indices in order.values():
            for index in indices:
                places[index] = place
                place += 1
            gold.first_row.append(place)
        gold._source = (path, name, places)
        return gold

    def tokenize(self, tokens_of) -> None:
        """Tokenizes the rows, reading the file again (once: after a submission's checks, so a
        refused file costs no tokens)."""
        from array import array
        if self._source is None:
            return
        path, name, places = self._source
        vocabulary, sequence = self.vocabulary, self.tokens
        spans = array("i", [0]) * (4 * self.rows)
        digests = bytearray(32 * self.rows)
        number_of = vocabulary.get
        recent: Dict[str, Tuple[int, int]] = {}  # the texts of the id being read: repeated ones are tokenized once
        state = {"row": 0, "id": None}

        def add(row: Row) -> None:
            index = state["row"]
            state["row"] = index + 1
            if index >= len(places):
                return
            if row.identifier != state["id"]:
                recent.clear()
                state["id"] = row.identifier
            at = 4 * places[index]  # type: ignore[index]
            digests[8 * at:8 * at + 32] = text_key(row.q) + text_key(row.r)
            for offset, text in ((0, row.q), (2, row.r)):
                span = recent.get(text)
                if span is None:
                    tokens = tokens_of(text)
                    numbers = list(map(number_of, tokens))
                    if None in numbers:  # tokens not seen before get the next numbers
                        numbers = [vocabulary.setdefault(token, len(vocabulary)) for token in tokens]
                    start = len(sequence)
                    sequence.extend(numbers)
                    span = recent[text] = (start, len(sequence))
                spans[at + offset], spans[at + offset + 1] = span

        problems = Problems(name)
        with reading_reference():
            parse_answers(path, name, None, problems, gold=True, on_row=add)
        problems.raise_as_reference_error()
        if state["row"] != self.rows:
            raise ReferenceDataError(["reference data %s: the gold file changed while it was read" % name])
        self.spans = spans
        self.digests = bytes(digests)
        self._source = None

    def add_inputs(self, path: str, tokens_of) -> None:
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


def text_key(text: str) -> bytes:
    """What identifies a text for the reuse of its tokens: 16 bytes of its BLAKE2b digest.

    >>> len(text_key("It is.")), text_key("It is.") == text_key("It is"), text_key("") == text_key("")
    (16, False, True)
    """
    import hashlib
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


# The gold tokenized in this process, by the sha256 of the gold file: scoring many submissions in
# one process (rank_submissions.py and each of its --jobs workers, score_locally.py) tokenizes the
# gold once. One gold is kept (a phase's); another replaces it. Only a tokenized gold is kept: an
# untokenized one still needs its file (the path of the call that read it), which may be gone or
# hold another gold by the next call.
_GOLD_CACHE: Dict[str, GoldTokens] = {}

# The gold's tokens as the build writes them beside the gold in the reference data (never read
# from anywhere else): plain JSON, the arrays as base64 of little-endian 32-bit integers. Valid
# for one gold file (sha256), nltk version, Punkt model and version of our own code that turns
# the gold file into tokens (TOKEN_CODE's sha256); otherwise the gold is tokenized and the
# result says so in a note. Loading it is much cheaper than tokenizing the gold (benchmarks/RESULTS.md).
TOKEN_CACHE = "aicup2022_nlu.tokens.json"
TOKEN_CACHE_FORMAT = 2  # 2: the gold texts' digests and the test input's tokens
# Our code that makes the tokens from the gold file (paths under scorer/): its CSV reader, the
# gold's layout check and parsing (the quotes), this module (GoldTokens) and the tokenizer. Hashed
# as the program holds them (the build copies them byte for byte), so a cache built by any other
# version of them is stale; nothing to bump by hand. (nltk's own code is fixed by its version:
# import_nltk refuses any other.)
TOKEN_CODE = (os.path.join("readers", "files.py"), os.path.join("readers", "text_lines.py"),
              os.path.join("readers", "csv_rows.py"), os.path.join("tracks", "nlu", "layout.py"),
              os.path.join("tracks", "nlu", "reading.py"), os.path.join("tracks", "nlu", "tokens.py"),
              os.path.join("machinery", "nltk_tokens.py"))


def _code_sha256() -> str:
    import hashlib
    scorer_dir = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

    digest = hashlib.sha256()
    for part in TOKEN_CODE:
        with open(os.path.join(scorer_dir, part), "rb") as handle:
            data = handle.read()
        digest.update(b"%d:" % len(data) + data)
    return digest.hexdigest()


def _cache_identity(gold_sha256: str) -> Dict[str, object]:
    from ...machinery.nltk_tokens import NLTK_VERSION, PUNKT_SHA256
    return {"format": TOKEN_CACHE_FORMAT, "gold_sha256": gold_sha256, "nltk": NLTK_VERSION,
            "punkt_sha256": PUNKT_SHA256, "code_sha256": _code_sha256()}


def _int32_text(values) -> str:
    import base64
    import sys
    from array import array
    data = array("i", values)
    if sys.byteorder == "big":
        data.byteswap()
    return base64.b64encode(data.tobytes()).decode("ascii")


def _int32_array(text: str):
    import base64
    import sys
    from array import array
    data = array("i")
    data.frombytes(base64.b64decode(text.encode("ascii"), validate=True))
    if sys.byteorder == "big":
        data.byteswap()
    return data


def _file_sha256(path: str, name: str) -> str:
    import hashlib
    digest = hashlib.sha256()
    with reading_reference():
        for chunk in byte_chunks(path, name, None, 1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def reference_data_extras(gold_dir: str) -> Dict[str, bytes]:
    """``TOKEN_CACHE`` for the gold in ``gold_dir`` (the build adds it to the phase's reference
    data; none without an nlu gold). Deterministic: the same gold gives the same bytes."""
    import json
    gold_path = os.path.join(gold_dir, FILE_NAME)
    if not os.path.isfile(gold_path):
        return {}
    from ...machinery.nltk_tokens import shared_tokenizer
    key = _file_sha256(gold_path, FILE_NAME)
    gold = GoldTokens.read(gold_path, FILE_NAME)
    gold.tokenize(shared_tokenizer().tokens)
    test_path = os.path.join(gold_dir, TEST_INPUT)
    if os.path.isfile(test_path):  # (keyed by each text's digest: valid for that text, whatever file it is in)
        gold.add_inputs(test_path, shared_tokenizer().tokens)
    import base64
    inputs = sorted(gold.inputs.items(), key=lambda item: item[1])
    document = dict(_cache_identity(key), ids=gold.ids, rows=gold.rows,
                    vocabulary=sorted(gold.vocabulary, key=gold.vocabulary.__getitem__),
                    first_row=_int32_text(gold.first_row), spans=_int32_text(gold.spans),
                    tokens=_int32_text(gold.tokens), digests=base64.b64encode(gold.digests).decode("ascii"),
                    input_digests=base64.b64encode(b"".join(k for k, _ in inputs)).decode("ascii"),
                    input_spans=_int32_text([bound for _, span in inputs for bound in span]))
    text = json.dumps(document, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"
    return {TOKEN_CACHE: text.encode("utf-8")}


def _cached_gold(gold_path: str, key: str) -> Tuple[Optional[GoldTokens], str]:
    """The gold's tokens from ``TOKEN_CACHE`` beside the gold file, and a note when that file is
    there but cannot be used."""
    import json
    path = os.path.join(os.path.dirname(gold_path), TOKEN_CACHE)
    if not os.path.isfile(path):
        return None, ""
    stale = ("the reference data's %s was not made for this gold file, nltk version, Punkt model and "
             "version of the scoring program's tokenizing code (or cannot be read); the gold was tokenized instead" % TOKEN_CACHE)
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
        if not isinstance(document, dict) or any(document.get(name) != value
                                                 for name, value in _cache_identity(key).items()):
            return None, stale
        gold = GoldTokens()
        gold.ids = [str(identifier) for identifier in document["ids"]]
        gold.rows = int(document["rows"])
        gold.first_row = _int32_array(document["first_row"])
        gold.spans = _int32_array(document["spans"])
        gold.tokens = _int32_array(document["tokens"])
        gold.vocabulary = {str(token): number for number, token in enumerate(document["vocabulary"])}
        import base64
        gold.digests = base64.b64decode(document["digests"].encode("ascii"), validate=True)
        input_digests = base64.b64decode(document["input_digests"].encode("ascii"), validate=True)
        input_spans = _int32_array(document["input_spans"])
        gold.inputs = {input_digests[16 * k:16 * k + 16]: (input_spans[2 * k], input_spans[2 * k + 1])
                       for k in range(len(input_spans) // 2)}
        consistent = (len(gold.first_row) == len(gold.ids) + 1 and gold.first_row[0] == 0
                      and gold.first_row[-1] == gold.rows and len(gold.spans) == 4 * gold.rows
                      and all(0 <= value <= len(gold.tokens) for value in gold.spans)
                      and len(gold.digests) == 32 * gold.rows
                      and len(input_digests) == 8 * len(input_spans) == 16 * len(gold.inputs)
                      and all(0 <= value <= len(gold.tokens) for value in input_spans)
                      and (not gold.tokens or 0 <= min(gold.tokens) <= max(gold.tokens) < len(gold.vocabulary)))
        if not consistent:
            return None, stale
        return gold, ""
    except (OSError, ValueError, KeyError, TypeError):
        return None, stale


def gold_tokens(gold_path: str, name: str) -> GoldTokens:
    """The gold at ``gold_path``, parsed (and tokenized once its ``tokenize`` has run): from this
    process's cache when the file's content (sha256) is that of a gold an earlier submission
    had tokenized (``remember_tokenized``), else from the reference data's
    ``TOKEN_CACHE`` when it was made for this gold, else from the file (its ``note`` says why,
    when the reference data has a token cache that cannot be used)."""
    key = _file_sha256(gold_path, name)
    found = _GOLD_CACHE.get(key)
    if found is not None:
        return found
    found, note = _cached_gold(gold_path, key)
    if found is None:
        found = GoldTokens.read(gold_path, name)
        found.note = note
    found.sha256 = key
    return found


def remember_tokenized(gold: GoldTokens) -> None:
    """Keeps ``gold`` for the next ``gold_tokens`` call on the same content, once tokenized."""
    if gold._source is None and gold.sha256:
        _GOLD_CACHE.clear()
        _GOLD_CACHE[gold.sha256] = gold

