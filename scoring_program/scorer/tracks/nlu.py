"""Track ``nlu``: AI CUP 2022 explainable NLU, the q'/r' explanation spans of a (q, r) argument pair.

For each scored id i, over its accepted gold answers j (several rows per id in the gold):

    score_i = max_j [ LCS(q'_i, Q'_ij) / (|q'_i| + |Q'_ij| - LCS) + the same for r' ]

on nltk 3.7 ``word_tokenize`` tokens without 1-character punctuation (0/0 counts 0), and
``nlu_score`` = Σ score_i / (2N). ``nlu_q`` and ``nlu_r`` are the means of the two halves of the
chosen answer (the first in file order on a tie). Metric card: ``nlu.md`` beside this file.
"""

from __future__ import annotations

import io
import os
from typing import TYPE_CHECKING, Callable, Collection, Dict, Iterator, List, Optional, Sequence, Tuple

from ..readers.options import Options, other_phase_ids
from ..machinery.per_item import ItemStatistics, ScalarOps, Totals
from ..readers.problems import Problems, ReferenceDataError, SubmissionError, clip, reading_reference
from ..readers.csv_rows import iter_csv
from ..readers.files import byte_chunks, file_contains
from ..readers.records import check_duplicates, check_id_sets, record_limit
from ..readers.result import ItemView, TrackResult

if TYPE_CHECKING:  # annotations only: scoring never imports random (sample and benchmark data do)
    import random

NAME = "nlu"
TITLE = "AI CUP 2022 explainable NLU: q' and r' explanation spans"
FILE_NAME = "aicup2022_nlu.csv"
GOLD_NAMES = (FILE_NAME,)
KEYS = ("nlu_score", "nlu_q", "nlu_r")
LOWER_IS_BETTER = frozenset()
LEADERBOARDS = ((NAME, "nlu_score"),)
TEST_INPUT = "aicup2022_nlu_test.csv"  # optional in ref/: the released test input (id,q,r,s)
# The same file in a phase's public data, named for every phase (the Development phase's input is
# no test set); a public folder of an older kit may still hold it as TEST_INPUT.
PUBLIC_INPUT = "aicup2022_nlu_input.csv"
RELEASED_GOLD = {"train": "Batch_answers - train_data (no-blank).csv"}  # the training layout id,q,r,s,q',r'
HEADER_FIRST_CELL = "id"
# The longest answer in characters, per answer token allowed (nlu_max_answer_tokens): checked
# before anything is tokenized: 20 x 5,000 = 100,000 characters, nine times the longest real q
# (11,874 characters); the slowest answers that pass it are timed in benchmarks/RESULTS.md.
CHARACTERS_PER_TOKEN = 20


class Row:
    """One answer of a file: its line, id, q' and r'."""

    __slots__ = ("line", "identifier", "q", "r")

    def __init__(self, line: int, identifier: str, q: str, r: str) -> None:
        self.line = line
        self.identifier = identifier
        self.q = q
        self.r = r


def strip_wrapping_quotes(text: str) -> str:
    """The real files wrap every text in one pair of literal quotes: ``"text"`` -> ``text``.

    >>> strip_wrapping_quotes('"not to be? No, to be"'), strip_wrapping_quotes('"')
    ('not to be? No, to be', '"')
    """
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        return text[1:-1]
    return text


def read_rows(path: str, name: str, max_bytes: Optional[int]) -> Iterator[Tuple[int, List[str]]]:
    """CSV records without a header row, streamed: RFC 4180, or the backslash-escape variant when
    the file is not RFC 4180 but is that variant (decided by a first pass that keeps nothing)."""
    backslash = file_contains(path, name, max_bytes, b'\\"') and _backslash_variant(path, name, max_bytes)
    first = True
    for line, fields in iter_csv(path, name, max_bytes, backslash_escapes=backslash):
        if first and fields and fields[0].strip().lower() == HEADER_FIRST_CELL:
            first = False
            continue
        first = False
        yield line, fields


def _backslash_variant(path: str, name: str, max_bytes: Optional[int]) -> bool:
    try:
        for _ in iter_csv(path, name, max_bytes):
            pass
        return False
    except SubmissionError as rfc_error:
        widths = set()
        try:
            for _, fields in iter_csv(path, name, max_bytes, backslash_escapes=True):
                widths.add(len(fields))
        except SubmissionError:
            raise rfc_error from None
        if len(widths) > 1:  # not that variant either
            raise rfc_error from None
        return True


# The layouts the common tools write by mistake, told apart by the first records (refusal policy,
# clause a: not this track's format); each with its fix.
_OTHER_DELIMITERS = (
    (";", "semicolons (';'), as Excel writes CSV in some locales",
     "separate the columns with commas (pandas: to_csv(path, sep=\",\", index=False); Excel: save as "
     "\"CSV UTF-8 (Comma delimited)\")"),
    ("\t", "TAB characters (a TSV file)",
     "separate the columns with commas (pandas: to_csv(path, sep=\",\", index=False))"),
)


def layout_problem(text: str) -> Optional[str]:
    """Why the file is not ``id,q',r'`` CSV, when its first records show one of the usual
    mistakes (another delimiter; pandas' index column), else None.

    >>> layout_problem(',id,q,r\\n0,1,"a","b"\\n')[:62]
    "an index column before id,q',r': the first column is empty in "
    """
    import csv

    head = text[:1 << 16]
    head = head[:head.rfind("\n") + 1] or head  # whole lines only

    def widths(delimiter: str) -> List[int]:
        reader = csv.reader(io.StringIO(head, newline=""), delimiter=delimiter)
        try:
            return [len(fields) for fields, _ in zip(reader, range(20)) if any(f.strip() for f in fields)]
        except csv.Error:
            return []

    comma = widths(",")
    if comma and all(width == 3 for width in comma):
        return None
    if comma and all(width == 4 for width in comma):
        reader = csv.reader(io.StringIO(head, newline=""))
        first = [fields[0].strip() for fields, _ in zip(reader, range(20)) if fields]
        header = first[0].lower() in ("", "unnamed: 0") if first else False
        numbers = [cell for cell in first[1:] if cell]
        if header or (numbers and all(cell.isdigit() for cell in numbers)):
            return ("an index column before id,q',r': the first column is %s; write the file without it "
                    "(pandas: to_csv(path, index=False))"
                    % ("empty in the header" if header else "a row number"))
    for delimiter, found, fix in _OTHER_DELIMITERS:
        other = widths(delimiter)
        if other and all(width in (3, 4) for width in other) and len(set(other)) == 1:
            return "the columns are separated by %s; %s" % (found, fix)
    return None


def _head(path: str, name: str, max_bytes: Optional[int]) -> str:
    """The first 64 KiB of the file as text (for ``layout_problem``; the reader reports bad UTF-8)."""
    data = next(byte_chunks(path, name, max_bytes, 1 << 16), b"")
    text = data.decode("utf-8", "replace")
    return text[1:] if text.startswith("\ufeff") else text


def gold_layout_problem(text: str) -> Optional[str]:
    """Why a file given as gold is no gold, from its first record ('' or None when it may be):
    the test input (``id,q,r,s``: the questions and the stance, no answers) or a prediction (the
    submission's header ``id,q,r``). The gold is ``id,q',r'`` (no header, or ``id,q',r'``) or the
    training layout ``id,q,r,s,q',r'``.

    >>> gold_layout_problem('id,q,r,s\\n1,"a","b",AGREE\\n')[:43]
    'it holds 4 columns, the test input id,q,r,s'
    >>> gold_layout_problem('id,q,r\\n1,"a","b"\\n')[:45]
    'its header is id,q,r, a prediction file (the '
    """
    import csv
    head = text[:1 << 16]
    head = head[:head.rfind("\n") + 1] or head
    try:
        rows = [fields for fields, _ in zip(csv.reader(io.StringIO(head, newline="")), range(3)) if fields]
    except csv.Error:
        return None
    if not rows:
        return None
    header = [field.strip().lower() for field in rows[0]]
    if header == ["id", "q", "r"]:
        return ("its header is id,q,r, a prediction file (the submission format), not gold: the gold's answers "
                "are q',r' (no header, or id,q',r')")
    body = rows[1:] if header and header[0] == HEADER_FIRST_CELL else rows
    if header == ["id", "q", "r", "s"] or (body and len(body[0]) in (4, 5)):
        return ("it holds %d columns, the test input id,q,r,s (the questions and the stance, without the "
                "answers), not gold: the gold is id,q',r' or the training layout id,q,r,s,q',r'"
                % (len(body[0]) if body else len(header)))
    return None


def is_public_input(folder: str) -> bool:
    """Whether ``folder`` holds the nlu public input as its gold (the test input, id,q,r,s, named
    as the gold), which a gold never is."""
    path = os.path.join(folder, FILE_NAME)
    if not os.path.isfile(path):
        return False
    with open(path, "rb") as handle:
        text = handle.read(1 << 16).decode("utf-8", "replace").lstrip("\ufeff")
    return bool(gold_layout_problem(text)) and "test input" in gold_layout_problem(text)


def parse_answers(path: str, name: str, max_bytes: Optional[int], problems: Problems, gold: bool,
                  keep: Optional[Collection[str]] = None, max_rows: Optional[int] = None,
                  on_row: Optional[Callable[[Row], None]] = None) -> Tuple[List[Row], int]:
    """Rows ``id,q',r'`` (or, for gold, the training layout ``id,q,r,s,q',r'[,...]``), and how
    many rows were left out because their id is not in ``keep`` (when given). Reading stops
    after ``max_rows`` rows or many problems. With ``on_row``, each row goes to it as it is read
    instead of into the list (which stays empty)."""
    problem = (gold_layout_problem if gold else layout_problem)(_head(path, name, max_bytes))
    if problem:
        problems.add("line 1", problem)
        return [], 0
    answers: List[Row] = []
    left_out = 0
    width = q_column = r_column = 0
    count = -1
    for count, (line, fields) in enumerate(read_rows(path, name, max_bytes)):
        if problems.entries and problems.saturated:
            break
        if max_rows is not None and count >= max_rows:
            problems.add("line %d" % line, "more than %d rows, but this phase has far fewer ids" % max_rows)
            break
        if not count:
            width = len(fields)
            q_column, r_column = (4, 5) if gold and width >= 6 else (1, 2)
        expected_width = width if gold else 3
        if len(fields) != expected_width or (not gold and len(fields) != 3):
            problems.add("line %d" % line, "expected 3 comma-separated columns id,q',r' (quote a text "
                                           "that contains a comma); found %d" % len(fields))
            continue
        identifier = fields[0].strip()
        if not identifier:
            problems.add("line %d" % line, "the id is empty")
            continue
        if keep is not None and identifier not in keep:
            left_out += 1
            continue
        row = Row(line, identifier, strip_wrapping_quotes(fields[q_column]), strip_wrapping_quotes(fields[r_column]))
        if on_row is None:
            answers.append(row)
        else:
            on_row(row)
    if count < 0:
        problems.add("", "no rows; expected lines id,q',r'")
    return answers, left_out


def read_test_ids(path: str) -> List[str]:
    """The ids of the released test input (id,q,r,s), in file order."""
    problems = Problems(TEST_INPUT)
    identifiers: List[str] = []
    for line, fields in read_rows(path, TEST_INPUT, None):
        if len(fields) < 3:
            problems.add("line %d" % line, "expected the columns id,q,r,s")
            continue
        identifiers.append(fields[0].strip())
    problems.raise_as_reference_error()
    return identifiers


class GoldTokens:
    """A phase's gold, tokenized once: the ids in file order; the accepted answers (rows) of the
    id numbered k are rows ``first_row[k]`` to ``first_row[k + 1] - 1``; row j's q' is
    ``tokens[spans[4j]:spans[4j + 1]]`` and its r' ``tokens[spans[4j + 2]:spans[4j + 3]]``, each
    token a number of ``vocabulary`` (token -> number). Arrays of 32-bit numbers: 4 bytes a token,
    where lists of strings cost 8 and the former bit masks of every gold text about 60; and the
    gold's texts are never all held at once (``read`` keeps the ids, ``tokenize`` reads the file
    again, one row at a time: at 10 times the real gold the texts alone would be 30 MB)."""

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
# Our code that makes the tokens from the gold file (paths under scorer/): its CSV reader, this
# module (the gold's parsing, the quotes, GoldTokens) and the tokenizer. Hashed as the program
# holds them (the build copies them byte for byte), so a cache built by any other version of them
# is stale; nothing to bump by hand. (nltk's own code is fixed by its version: import_nltk
# refuses any other.)
TOKEN_CODE = (os.path.join("readers", "files.py"), os.path.join("readers", "text_lines.py"),
              os.path.join("readers", "csv_rows.py"), os.path.join("tracks", "nlu.py"),
              os.path.join("machinery", "nltk_tokens.py"))


def _code_sha256() -> str:
    import hashlib
    scorer_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    digest = hashlib.sha256()
    for part in TOKEN_CODE:
        with open(os.path.join(scorer_dir, part), "rb") as handle:
            data = handle.read()
        digest.update(b"%d:" % len(data) + data)
    return digest.hexdigest()


def _cache_identity(gold_sha256: str) -> Dict[str, object]:
    from ..machinery.nltk_tokens import NLTK_VERSION, PUNKT_SHA256
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
    from ..machinery.nltk_tokens import shared_tokenizer
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


def ratio(common: int, predicted: int, gold: int) -> float:
    union = predicted + gold - common
    return common / union if union else 0.0


def score(gold_path: str, submission_path: str, name: str, options: Options,
          reference_dir: str) -> TrackResult:
    gold = gold_tokens(gold_path, name)
    gold_ids = gold.ids

    test_path = os.path.join(reference_dir, TEST_INPUT)
    with reading_reference():
        test_ids = read_test_ids(test_path) if os.path.isfile(test_path) else None
    if test_ids is not None and not set(test_ids).issuperset(gold_ids):
        known = set(test_ids)
        absent = [identifier for identifier in gold_ids if identifier not in known]
        raise ReferenceDataError(["reference data %s: some gold ids are not in %s" % (name, TEST_INPUT)],
                                 ["reference data %s: %d gold ids are not in %s: %s%s" % (
                                     name, len(absent), TEST_INPUT, ", ".join(absent[:10]),
                                     " (the first ten)" if len(absent) > 10 else "")])

    problems = Problems(name)
    scored_ids = set(gold_ids)
    # Without the test input, rows of other ids are ignored as they are read (not kept).
    submitted, ignored = parse_answers(submission_path, name, options.max_file_bytes, problems, gold=False,
                                       keep=scored_ids if test_ids is None else None,
                                       max_rows=None if test_ids is None else record_limit(len(test_ids)))
    check_duplicates((row.identifier for row in submitted), problems, lambda i: "line %d" % submitted[i].line)
    problems.raise_if_any()
    warnings: List[str] = []
    if test_ids is not None:
        check_id_sets(test_ids, [row.identifier for row in submitted], problems, "input ids",
                      other_phases=other_phase_ids(reference_dir, name))
    else:
        check_id_sets(gold_ids, [row.identifier for row in submitted], problems, "ids",
                      other_phases=other_phase_ids(reference_dir, name))
        if ignored:
            warnings.append("%d ids are not scored in this phase and were ignored" % ignored)  # (rows: not kept, so an id given twice counts twice)
    # Resource bounds (refusal policy, clause c), the same on every row, whether or not its id is
    # scored and whether or not the test input is in ref/: the test input mixes scored ids with
    # unscored ones, and no refusal, its order or its cost may tell them apart. First characters,
    # then the words with content (a lower bound of the tokens), before anything is tokenized;
    # then every row is tokenized (in file order) and its tokens counted, and the scored ones are
    # scored. A long answer within the caps is scored as given: it can only lower its own
    # LCS/union ratio.
    from ..machinery.nltk_tokens import words_with_content  # (the tokenizer's module: loaded when nlu is scored)
    max_characters = CHARACTERS_PER_TOKEN * options.nlu_max_answer_tokens
    # The word bound is counted only where it can trip: it counts some of the text's
    # whitespace-separated pieces, and a text of at most 2 x max tokens characters has at most max
    # tokens pieces (a piece and the whitespace after it take two characters).
    max_untripped = 2 * options.nlu_max_answer_tokens
    for row in submitted:
        for field, text in (("q'", row.q), ("r'", row.r)):
            if len(text) <= max_untripped:
                continue
            if len(text) > max_characters:
                problems.add("line %d (id %s), %s" % (row.line, clip(row.identifier), field),
                             "the answer has %d characters; at most %d are accepted"
                             % (len(text), max_characters))
                continue
            if len(text.split()) <= options.nlu_max_answer_tokens:
                continue
            words = words_with_content(text)
            if words > options.nlu_max_answer_tokens:
                problems.add("line %d (id %s), %s" % (row.line, clip(row.identifier), field),
                             "the answer has at least %d tokens (%d words that are not only "
                             "punctuation); at most %d are accepted"
                             % (words, words, options.nlu_max_answer_tokens))
    problems.raise_if_any()

    by_id = {row.identifier: row for row in submitted}
    # Imported here: listing the tracks (scorer/tracks/registry.py) must not load the tokenizer's modules.
    from ..machinery.lcs import lcs_with_masks, token_masks
    from ..machinery.nltk_tokens import shared_tokenizer
    tokenizer = shared_tokenizer()
    gold.tokenize(tokenizer.tokens)
    remember_tokenized(gold)
    gold_sequence, gold_spans, vocabulary, first_row = gold.tokens, gold.spans, gold.vocabulary, gold.first_row
    number_of = {identifier: number for number, identifier in enumerate(gold_ids)}

    best_of: Dict[int, Tuple[float, float, float, int]] = {}  # gold number -> (q + r, q, r, gold tokens)
    known_tokens, get_number = gold.known_tokens, vocabulary.get

    def token_numbers(number: Optional[int], text: str):
        """The text's tokens as the gold's token numbers (-1: a token the gold never has, unless
        the test input has it): a gold text of the id or a test input text takes its known
        tokens, any other is tokenized (the same numbers either way)."""
        known = known_tokens(number, text)
        if known is not None:
            return known
        return [get_number(token, -1) for token in tokenizer.tokens(text)]

    for answer in submitted:
        # An answer's tokens live only while it is checked and scored: memory holds one answer's
        # tokens, not the file's (a token costs far more than its characters).
        number = number_of.get(answer.identifier)
        q_tokens, r_tokens = token_numbers(number, answer.q), token_numbers(number, answer.r)
        for field, answer_tokens in (("q'", q_tokens), ("r'", r_tokens)):
            if len(answer_tokens) > options.nlu_max_answer_tokens:
                problems.add("line %d (id %s), %s" % (answer.line, clip(answer.identifier), field),
                             "the answer has %d tokens; at most %d are accepted"
                             % (len(answer_tokens), options.nlu_max_answer_tokens))
        if problems:
            if problems.saturated:
                break
            continue
        # The answer's bit masks, over the gold's token numbers (a token the gold never has
        # matches nothing), compared with each accepted answer: LCS is symmetric.
        q_masks = token_masks(q_tokens)
        r_masks = token_masks(r_tokens)
        if number is None:  # an unscored id of the test input
            continue
        best: Optional[Tuple[float, float, float, int]] = None
        for row in range(first_row[number], first_row[number + 1]):
            gold_q = gold_sequence[gold_spans[4 * row]:gold_spans[4 * row + 1]]
            gold_r = gold_sequence[gold_spans[4 * row + 2]:gold_spans[4 * row + 3]]
            q_part = ratio(lcs_with_masks(q_masks, gold_q), len(q_tokens), len(gold_q))
            r_part = ratio(lcs_with_masks(r_masks, gold_r), len(r_tokens), len(gold_r))
            if best is None or q_part + r_part > best[0]:
                best = (q_part + r_part, q_part, r_part, len(gold_q) + len(gold_r))
        assert best is not None
        best_of[number] = best
    problems.raise_if_any()
    total = q_total = r_total = 0.0
    rows: List[Tuple[float, float, float, int]] = []  # per id, gold order: the statistics' rows
    lengths: List[int] = []
    for number in range(len(gold_ids)):
        best = best_of[number]
        total += best[0]
        q_total += best[1]
        r_total += best[2]
        rows.append((best[0], best[1], best[2], 1))
        lengths.append(best[3])  # the chosen answer's tokens: its length group (GROUP_TABLES)
    n = len(gold_ids)
    # The headline: the aggregate of the totals of every id's row (q + r, q, r, 1), summed above in
    # id order as ``per_item.column_totals`` sums them for a resample
    totals = {"q_plus_r": total, "q": q_total, "r": r_total, "ids": n}
    scores = aggregate(ItemStatistics(NAME, [], [], [], (), KEYS), totals)
    return TrackResult(
        track=NAME,
        title=TITLE,
        scores=scores,
        details={"scored ids": n, "gold answers": gold.rows, "submitted rows": len(submitted)},
        notes=["Tokens: nltk 3.7 word_tokenize (English Punkt), 1-character punctuation removed; "
               "each text's one pair of wrapping quotes removed first."] + ([gold.note] if gold.note else []),
        warnings=warnings,
        statistics=lambda: id_statistics(gold_ids, rows, lengths, tuple(scores)),
        item_noun="id",
        item_view=_item_view(gold_path, name, by_id, tokenizer, test_path if test_ids is not None else None),
    )


# --- the local error analysis (score.py --items only) ---------------------------------------------

ITEM_ERROR = "1 − the id's score, (q' ratio + r' ratio) / 2 of its best gold answer"
MAX_ALIGNED_CELLS = 4_000_000  # |gold| x |predicted| tokens aligned by the plain LCS program per text


def item_error(totals: Totals) -> float:
    """The error analysis's error of one id (the totals of its one row): 1 − its nlu_score."""
    return 1 - aggregate(ItemStatistics(NAME, [], [], [], (), KEYS), totals)["nlu_score"]


def _item_view(gold_path: str, name: str, by_id: Dict[str, Row], tokenizer,
               test_path: Optional[str]) -> Callable[[str], ItemView]:
    """Per id: the arguments q and r (from the test input, when it is in ref/) with the chosen gold
    explanation and the predicted one marked where they occur in them; then q' and r', gold and
    predicted, their tokens marked by one LCS alignment (in both, gold only, predicted only). The
    gold's texts are read again, once, on the first view (scoring keeps their token numbers)."""
    from ..machinery.lcs import lcs_alignment, lcs_length
    from ..readers.result import marked_text
    arguments: Dict[str, Tuple[str, str]] = {}
    gold: Dict[str, List[Row]] = {}

    def answers(identifier: str) -> List[Row]:
        if not gold:
            for row in parse_answers(gold_path, name, None, Problems(name), gold=True)[0]:
                gold.setdefault(row.identifier, []).append(row)
        return gold[identifier]

    def argument(identifier: str) -> Optional[Tuple[str, str]]:
        if test_path is None:
            return None
        if not arguments:  # the test input, read again once (scoring keeps its ids only)
            for _, fields in read_rows(test_path, TEST_INPUT, None):
                if len(fields) >= 3:
                    arguments[fields[0].strip()] = (strip_wrapping_quotes(fields[1]), strip_wrapping_quotes(fields[2]))
        return arguments.get(identifier)

    def view(identifier: str) -> ItemView:
        answer = by_id[identifier]
        predicted = {"q'": tokenizer.tokens(answer.q), "r'": tokenizer.tokens(answer.r)}
        best = None
        for j, row in enumerate(answers(identifier)):
            parts = []
            for field, text in (("q'", row.q), ("r'", row.r)):
                tokens = tokenizer.tokens(text)
                parts.append((tokens, ratio(lcs_length(tokens, predicted[field]), len(predicted[field]), len(tokens))))
            if best is None or parts[0][1] + parts[1][1] > best[0]:
                best = (parts[0][1] + parts[1][1], j, parts)
        assert best is not None
        total, chosen, parts = best
        marked = []
        texts = argument(identifier)
        if texts is not None:
            chosen_row = answers(identifier)[chosen]
            for field, text, gold_answer, answer_text in (("q", texts[0], chosen_row.q, answer.q),
                                                          ("r", texts[1], chosen_row.r, answer.r)):
                spans = [[(found, found + len(piece))] if piece and found >= 0 else []
                         for piece, found in ((p, text.find(p)) for p in (gold_answer.strip(), answer_text.strip()))]
                marked.append(("%s (the argument; explanations marked where they occur in it)" % field,
                               marked_text(text, spans[0], spans[1])))
        for (field, answer_tokens), (gold_tokens, _) in zip(predicted.items(), parts):
            if len(gold_tokens) * len(answer_tokens) <= MAX_ALIGNED_CELLS:
                in_gold, in_answer = lcs_alignment(gold_tokens, answer_tokens)
            else:  # (a 5,000-token answer: shown without its alignment)
                in_gold, in_answer = [False] * len(gold_tokens), [False] * len(answer_tokens)
            marked.append(("%s gold" % field, _marked_tokens(gold_tokens, in_gold, "g", "gold only")))
            marked.append(("%s predicted" % field, _marked_tokens(answer_tokens, in_answer, "p", "predicted only")))
        facts = [("score", "%.4f" % (total / 2)), ("q'", "%.4f" % parts[0][1]), ("r'", "%.4f" % parts[1][1]),
                 ("gold answer", "%d of %d (the best)" % (chosen + 1, len(answers(identifier))))]
        return ItemView(None, [], [], marked=marked, facts=facts)
    return view


def _marked_tokens(tokens: List[str], aligned: List[bool], alone: str, alone_title: str) -> List[Tuple[str, str, str]]:
    """Tokens as pieces separated by spaces: "b" where the alignment pairs them, else ``alone``."""
    pieces: List[Tuple[str, str, str]] = []
    for position, (token, paired) in enumerate(zip(tokens, aligned)):
        if position:
            pieces.append(("", " ", ""))
        pieces.append(("b", token, "in both") if paired else (alone, token, alone_title))
    return pieces


# --- per-item statistics: what the organisers' confidence intervals and significance stand on -----

# Per id (gold order): q' + r' of the best gold answer (as the score adds them), q', r' and 1.
COLUMNS = ["q_plus_r", "q", "r", "ids"]
SCORE_BINS = tuple("%.1f-%.1f" % (b / 10, (b + 1) / 10) for b in range(10))
LENGTH_BINS = ("1-10", "11-20", "21-40", "41+")
# The detailed results' tables by group (phase setting "full"): (title, dimension, its groups,
# (label, column) counts shown, the keys of ``aggregate`` over each group's totals, a note). Each
# group's statistics are the item's columns restricted to it: ``<column>|<dimension>:<group>``.
GROUP_TABLES = (
    ("Spread of the ids' scores", "score", SCORE_BINS, (("ids", "ids"),), ("nlu_score",),
     "Each id's score, (q' ratio + r' ratio) / 2 of its best gold answer, in tenths (the last includes 1.0)."),
    ("By the length of the gold answer", "length", LENGTH_BINS, (("ids", "ids"),), ("nlu_score", "nlu_q", "nlu_r"),
     "Tokens of the chosen gold answer, q' and r' together (as scored: 1-character punctuation removed)."),
)
GROUP_COLUMNS = ["%s|%s:%s" % (column, dimension, group) for _, dimension, groups, _, _, _ in GROUP_TABLES
                 for group in groups for column in COLUMNS]


def _groups(score: float, gold_tokens: int) -> Tuple[str, str]:
    """The score and length groups of an id."""
    length = next((bin_ for bin_, top in zip(LENGTH_BINS, (10, 20, 40)) if gold_tokens <= top), LENGTH_BINS[-1])
    return SCORE_BINS[min(int(score * 10), 9)], length


def id_statistics(ids: Sequence[str], rows: Sequence[Tuple[float, float, float, int]], lengths: Sequence[int],
                  keys: Sequence[str]) -> ItemStatistics:
    """Per id (gold order): q' + r' of the best gold answer (as the score adds them), q', r' and 1;
    then the same in the columns of its score and length groups (``GROUP_TABLES``), 0 elsewhere."""
    position = {name: k for k, name in enumerate(GROUP_COLUMNS)}
    zeros = [0.0, 0.0, 0.0, 0] * (len(GROUP_COLUMNS) // 4)
    grouped_rows = []
    for values, length in zip(rows, lengths):
        grouped = list(zeros)
        for dimension, group in zip(("score", "length"), _groups(values[0] / 2, length)):
            for column, value in zip(COLUMNS, values):
                grouped[position["%s|%s:%s" % (column, dimension, group)]] = value
        grouped_rows.append(tuple(values) + tuple(grouped))
    return ItemStatistics(NAME, list(ids), list(COLUMNS) + GROUP_COLUMNS, grouped_rows, (), tuple(keys))


def aggregate(statistics: ItemStatistics, totals: Totals, ops=ScalarOps, key: Optional[str] = None
              ) -> Dict[str, float]:
    """``nlu_score`` = Σ (q' + r') / 2N, ``nlu_q`` and ``nlu_r`` the means of the halves."""
    n = totals["ids"]
    return {"nlu_score": ops.divide(totals["q_plus_r"], 2 * n, 0.0), "nlu_q": ops.divide(totals["q"], n, 0.0),
            "nlu_r": ops.divide(totals["r"], n, 0.0)}


# --- the public side (bundle build, starting kit): the inputs without the answers ---------------

def write_public_input(gold_dir: str, public_dir: str, filename: str) -> List[str]:
    """The released test input (id,q,r,s), as it is in the reference data, named ``PUBLIC_INPUT``."""
    import shutil
    source = os.path.join(gold_dir, TEST_INPUT)
    if not os.path.isfile(source):
        return []
    os.makedirs(public_dir, exist_ok=True)
    shutil.copyfile(source, os.path.join(public_dir, PUBLIC_INPUT))
    return [PUBLIC_INPUT]


def reference_data_problem(folder: str) -> str:
    """What the build says when a phase's reference data lacks the test input ("" when it is there):
    the nlu track's public input is the released test input (id,q,r,s); without it beside the gold
    there is no public nlu input, so no sample submission, baseline or kit check for nlu."""
    if os.path.isfile(os.path.join(folder, FILE_NAME)) and not os.path.isfile(os.path.join(folder, TEST_INPUT)):
        return ("%s has %s but not %s: add the task's released test input (id,q,r,s) there; the public "
                "data, the sample submission and the starting kit's format check of nlu files are made "
                "from it" % (folder, FILE_NAME, TEST_INPUT))
    return ""


def _test_rows(public_dir: str) -> Optional[List[List[str]]]:
    import csv
    path = os.path.join(public_dir, PUBLIC_INPUT)
    if not os.path.isfile(path):
        path = os.path.join(public_dir, TEST_INPUT)
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return [row for row in csv.reader(handle) if row]


def public_ids(public_dir: str, filename: str) -> Optional[List[str]]:
    rows = _test_rows(public_dir)
    return None if rows is None else [row[0].strip() for row in rows[1:] if row[0].strip()]


def write_stand_in_gold(public_dir: str, gold_dir: str, filename: str) -> List[str]:
    """The test input, and a gold with one placeholder answer per id."""
    import csv
    rows = _test_rows(public_dir)
    if rows is None:
        return []
    os.makedirs(gold_dir, exist_ok=True)
    with open(os.path.join(gold_dir, TEST_INPUT), "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    with open(os.path.join(gold_dir, filename), "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows((row[0], "x", "x") for row in rows[1:])
    return [filename]


def write_baseline(public_dir: str, out_dir: str, filename: str, seed: int = 42, variant: str = "random") -> List[str]:
    """The organisers' raw baseline: the whole q and r as the explanation."""
    import csv
    from ..machinery.public_input import write_text
    rows = _test_rows(public_dir)
    if rows is None:
        return []
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(("id", "q", "r"))
    writer.writerows((row[0], row[1], row[2]) for row in rows[1:])
    write_text(os.path.join(out_dir, filename), buffer.getvalue())
    return [filename]


# --- sample gold and benchmark inputs (tools/make_sample_data.py, benchmarks/run.py) -------------


# (topic, q, r) of the sample items: already tokenized, as in the task's data.
SAMPLE_TOPICS = (
    ("evolution", "Evolution explains the diversity of life , and fossils show gradual change over time .",
     "If evolution were true , why do we still see monkeys today ? That makes no sense to me ."),
    ("guns", "Gun ownership is a right , and responsible citizens should not be punished for crimes of others .",
     "Rights come with duties . Background checks do n't punish anyone , they just keep weapons from criminals ."),
    ("death penalty", "The death penalty deters murder because people fear losing their own lives .",
     "Studies show no clear deterrent effect , and innocent people have been executed by mistake ."),
    ("abortion", "A fetus is a human life from conception , so ending it is wrong .",
     "Personhood is a legal question , and women must decide about their own bodies ."),
    ("climate", "The climate has always changed naturally , so humans are not to blame .",
     "Natural change happens over millennia ; today 's warming took only a century and matches emissions ."),
    ("god", "The universe needs a first cause , and that cause is what we call God .",
     "Even if there were a first cause , nothing tells us it is a personal god who cares about us ."),
)
SAMPLE_ITEMS = 30  # scored ids per split; a third as many unscored ids join the test input


def write_sample_gold(folder: str, split: str, seed: int) -> List[str]:
    """The sample gold of ``split``: several accepted answers (sometimes repeated) per id, and the
    test input (``TEST_INPUT``: id,q,r,s), which also holds unscored ids, shuffled in."""
    import csv
    from ..machinery.public_input import write_text
    from ..machinery.sample_text import first_id, sample_rng
    rng = sample_rng(seed, NAME, split)
    base = first_id(split) * 10
    inputs, gold = [], []
    for n in range(SAMPLE_ITEMS):
        identifier = str(base + 3 * n)
        _, q, r = SAMPLE_TOPICS[n % len(SAMPLE_TOPICS)]
        inputs.append((identifier, q, r, "AGREE" if n % 4 == 0 else "DISAGREE"))
        q_words, r_words = q.split(), r.split()
        for _ in range(rng.randint(1, 4)):
            qa = rng.randint(0, len(q_words) // 2)
            ra = rng.randint(0, len(r_words) // 2)
            gold.append((identifier, " ".join(q_words[qa:qa + rng.randint(3, len(q_words) - qa)]),
                         " ".join(r_words[ra:ra + rng.randint(3, len(r_words) - ra)])))
    for n in range(SAMPLE_ITEMS // 3):  # unscored items mixed into the released test input
        _, q, r = SAMPLE_TOPICS[(n + 2) % len(SAMPLE_TOPICS)]
        inputs.append((str(base + 3 * SAMPLE_ITEMS + 2 * n + 1), q, r, "DISAGREE"))
    rng.shuffle(inputs)
    for name, rows in ((TEST_INPUT, [("id", "q", "r", "s")] + [(i, '"%s"' % q, '"%s"' % r, s)
                                                                for i, q, r, s in inputs]),
                       (FILE_NAME, [(i, '"%s"' % q, '"%s"' % r) for i, q, r in gold])):
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows(rows)
        write_text(os.path.join(folder, name), buffer.getvalue())
    return [TEST_INPUT, FILE_NAME]


BENCHMARK = {"scales": (1, 10), "oracle": "lcs", "slow": True}


def write_benchmark_input(input_dir: str, scale: int, rng: random.Random) -> None:
    """Gold and the test input (id,q,r,s) in ``ref/``, as a built phase holds them, and a
    submission in ``res/``; ×1 = the real test set: 2,016 ids, ~4.8 accepted answers each; 3%
    adversarial 2,000-token answers (the whole q and r, as a raw baseline answers)."""
    import csv
    from ..machinery.sample_text import sentence
    gold_rows, answers, inputs = [], [], []
    for i in range(2016 * scale):
        long_item = rng.random() < 0.03
        q = " ".join(sentence(rng, rng.randint(8, 25)) for _ in range(rng.randint(1, 8) if not long_item else 120))
        r = " ".join(sentence(rng, rng.randint(8, 25)) for _ in range(rng.randint(1, 8) if not long_item else 120))
        inputs.append((str(i), '"%s"' % q, '"%s"' % r, "AGREE" if i % 2 else "DISAGREE"))
        q_words, r_words = q.split(), r.split()
        for _ in range(max(1, int(rng.gauss(4.8, 2)))):
            qa = rng.randrange(len(q_words))
            ra = rng.randrange(len(r_words))
            gold_rows.append((str(i), '"%s"' % " ".join(q_words[qa:qa + rng.randint(3, 30)]),
                              '"%s"' % " ".join(r_words[ra:ra + rng.randint(3, 30)])))
        if long_item:  # the adversarial answer: the whole (2,000-token) text
            answers.append((str(i), '"%s"' % q, '"%s"' % r))
        else:
            qa, ra = rng.randrange(len(q_words)), rng.randrange(len(r_words))
            answers.append((str(i), '"%s"' % " ".join(q_words[qa:qa + rng.randint(3, 40)]),
                            '"%s"' % " ".join(r_words[ra:ra + rng.randint(3, 40)])))
    for side, rows, header, file_name in (("ref", gold_rows, None, FILE_NAME),
                                          ("ref", inputs, ("id", "q", "r", "s"), TEST_INPUT),
                                          ("res", answers, ("id", "q", "r"), FILE_NAME)):
        with open(os.path.join(input_dir, side, file_name), "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            if header:
                writer.writerow(header)
            writer.writerows(rows)
