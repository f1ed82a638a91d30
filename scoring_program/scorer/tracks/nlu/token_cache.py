"""nlu's gold tokens kept between runs: the token cache the build writes beside the gold in the
reference data (``TOKEN_CACHE``), and the gold tokenized in this process for the next submission.

The cache holds the tokens of texts named by their digest (``tokens.text_key``): the gold is always
parsed from its own file, and each of its texts takes its tokens from the cache only when the
cache holds that text, so the cache can never give a text another text's tokens. Its file is one
JSON object, ``{"sha256": S, "cache": C}`` with C the object of ``FIELDS``, written in that order
so that S is the sha256 of C's bytes as they stand in the file. It is used only when that digest
matches (a changed token is a damaged cache), when it was made for this gold file
(sha256), nltk version, Punkt model and version of the code that turns a text into tokens, and
when every field has its type, length and range; otherwise it is not used at all, the gold is
tokenized and the page says so (``tokens.CACHE_NOT_USED``). The build's cache saves the tokenizing
of every gold and test input text on each platform run (benchmarks/RESULTS.md).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import sys
from array import array
from typing import Dict, Optional, Tuple

from ...readers.files import byte_chunks
from ...readers.problems import reading_reference
from .names import FILE_NAME, TEST_INPUT
from .tokens import CACHE_NOT_USED, TOKEN_CACHE, GoldTokens, KnownTokens, Span

TOKEN_CACHE_FORMAT = 3  # 3: texts by their digest
# The code that turns a text into its tokens and the cache's meaning (paths under scorer/), hashed
# as the program holds them, so a cache built by any other version of them is not used; nothing to
# bump by hand. (nltk's own code is fixed by its version: import_nltk refuses any other.)
TOKEN_CODE = (os.path.join("machinery", "nltk_tokens.py"), os.path.join("tracks", "nlu", "tokens.py"),
              os.path.join("tracks", "nlu", "token_cache.py"))
_HEAD, _MIDDLE, _TAIL = b'{"sha256":"', b'","cache":', b"}\n"  # the file: _HEAD S _MIDDLE C _TAIL
FIELDS = ("format", "nltk", "punkt_sha256", "code_sha256", "gold_sha256", "vocabulary", "tokens", "gold_texts",
          "gold_spans", "input_texts", "input_spans")

# The gold tokenized in this process, by the sha256 of the gold file and of the token cache beside
# it: scoring many submissions in one process (rank_submissions.py and each of its --jobs workers,
# score_locally.py) tokenizes the gold once. One gold is kept (a phase's); another replaces it. Only
# a tokenized gold is kept: an untokenized one still needs its file, which may be gone or hold
# another gold by the next call.
_GOLD_CACHE: Dict[str, GoldTokens] = {}


def _code_sha256() -> str:
    scorer_dir = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    digest = hashlib.sha256()
    for part in TOKEN_CODE:
        with open(os.path.join(scorer_dir, part), "rb") as handle:
            data = handle.read()
        digest.update(b"%d:" % len(data) + data)
    return digest.hexdigest()


def _identity(gold_sha256: str) -> Dict[str, object]:
    from ...machinery.nltk_tokens import NLTK_VERSION, PUNKT_SHA256
    return {"format": TOKEN_CACHE_FORMAT, "nltk": NLTK_VERSION, "punkt_sha256": PUNKT_SHA256,
            "code_sha256": _code_sha256(), "gold_sha256": gold_sha256}


def _int32_text(values) -> str:
    data = array("i", values)
    if sys.byteorder == "big":
        data.byteswap()
    return base64.b64encode(data.tobytes()).decode("ascii")


def _bytes(text: object) -> Optional[bytes]:
    if not isinstance(text, str):
        return None
    try:
        return binascii.a2b_base64(text)
    except ValueError:  # (not ASCII, not base64)
        return None


def _int32_array(text: object, below: Optional[int] = None) -> Optional["array[int]"]:
    """The 32-bit integers of ``text`` (base64), or None unless each is in [0, ``below``) when given."""
    data = _bytes(text)
    del text  # (a large field's text is freed here: _known_tokens passes its only other reference)
    if data is None or len(data) % 4:
        return None
    values = array("i")
    values.frombytes(data)
    del data
    if sys.byteorder == "big":
        values.byteswap()
    # (read as unsigned, a negative number is one of 2**31 or more)
    if below is not None and values and max(memoryview(values).cast("B").cast("I")) >= below:
        return None
    return values


def _file_sha256(path: str, name: str) -> str:
    digest = hashlib.sha256()
    with reading_reference():
        for chunk in byte_chunks(path, name, None, 1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def reference_data_extras(gold_dir: str) -> Dict[str, bytes]:
    """``TOKEN_CACHE`` for the gold in ``gold_dir`` and the test input beside it (the build adds it
    to the phase's reference data; none without an nlu gold). The same gold gives the same bytes."""
    gold_path = os.path.join(gold_dir, FILE_NAME)
    if not os.path.isfile(gold_path):
        return {}
    from ...machinery.nltk_tokens import shared_tokenizer
    tokens_of = shared_tokenizer().tokens
    gold = GoldTokens.read(gold_path, FILE_NAME)
    gold.tokenize(tokens_of)
    test_path = os.path.join(gold_dir, TEST_INPUT)
    if os.path.isfile(test_path):
        gold.add_inputs(test_path, tokens_of)
    document: Dict[str, object] = dict(_identity(_file_sha256(gold_path, FILE_NAME)),
                                       vocabulary=sorted(gold.vocabulary, key=gold.vocabulary.__getitem__),
                                       tokens=_int32_text(gold.tokens))
    for kind, texts in (("gold", gold.gold_texts()), ("input", gold.inputs)):
        document[kind + "_texts"] = base64.b64encode(b"".join(texts)).decode("ascii")
        document[kind + "_spans"] = _int32_text([bound for span in texts.values() for bound in span])
    body = json.dumps(document, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")
    digest = hashlib.sha256(body).hexdigest().encode("ascii")
    return {TOKEN_CACHE: _HEAD + digest + _MIDDLE + body + _TAIL}


def _texts(digests_text: object, spans_text: object, size: int) -> Optional[Dict[bytes, Span]]:
    """text_key -> span of each text of a field pair, or None unless every span is one of ``size`` tokens."""
    digests, spans = _bytes(digests_text), _int32_array(spans_text)
    if digests is None or spans is None or len(digests) != 8 * len(spans):  # (16 bytes and 2 numbers a text)
        return None
    texts = {digests[8 * k:8 * k + 16]: (spans[k], spans[k + 1]) for k in range(0, len(spans), 2)}
    if len(texts) != len(spans) // 2 or not all(0 <= start <= end <= size for start, end in texts.values()):
        return None
    return texts


def _known_tokens(document: object, gold_sha256: str) -> Optional[KnownTokens]:
    """The cache's texts, or None unless it was made for this gold and code and every field is whole."""
    if not isinstance(document, dict) or sorted(document) != sorted(FIELDS):
        return None
    if any(document[name] != value for name, value in _identity(gold_sha256).items()):
        return None
    vocabulary = document["vocabulary"]
    if not isinstance(vocabulary, list) or not all(isinstance(token, str) for token in vocabulary) \
            or len(set(vocabulary)) != len(vocabulary):
        return None
    tokens = _int32_array(document.pop("tokens"), below=len(vocabulary))  # (its text freed once decoded)
    if tokens is None:
        return None
    texts = _texts(document["gold_texts"], document["gold_spans"], len(tokens))
    inputs = _texts(document["input_texts"], document["input_spans"], len(tokens))
    if texts is None or inputs is None:
        return None
    texts.update(inputs)  # (a text in both has the same tokens at either span)
    return KnownTokens(vocabulary, tokens, texts, inputs)


def _read_cache(path: str) -> Tuple[Optional[str], str]:
    """The text of the cache's ``C`` when ``S`` is its sha256 ('' when not; None without a cache
    file), and the sha256 of the whole file."""
    if not os.path.isfile(path):
        return None, ""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return "", "unreadable"
    start, end = len(_HEAD) + 64 + len(_MIDDLE), len(data) - len(_TAIL)
    body = memoryview(data)[start:max(start, end)]
    whole = (data.startswith(_HEAD) and data[len(_HEAD) + 64:start] == _MIDDLE and data.endswith(_TAIL)
             and data[len(_HEAD):len(_HEAD) + 64] == hashlib.sha256(body).hexdigest().encode("ascii"))
    try:
        text = str(body, "utf-8") if whole else ""
    except ValueError:  # (not UTF-8)
        text = ""
    return text, hashlib.sha256(data).hexdigest()


def _document(body: str) -> object:
    """The cache's fields as JSON, or None."""
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        return None


def gold_tokens(gold_path: str, name: str) -> GoldTokens:
    """The gold at ``gold_path``, parsed (and tokenized once its ``tokenize`` has run): this
    process's, when an earlier submission had tokenized the same gold beside the same token cache
    (``remember_tokenized``), else read from the file with the texts of the reference data's
    ``TOKEN_CACHE`` known when it was made for this gold (else its ``note`` says why not)."""
    gold_sha256 = _file_sha256(gold_path, name)
    body, cache_sha256 = _read_cache(os.path.join(os.path.dirname(gold_path), TOKEN_CACHE))
    key = gold_sha256 + ":" + cache_sha256
    found = _GOLD_CACHE.get(key)
    if found is not None:
        return found
    document = _document(body) if body else None
    del body  # (a large cache: its text is not held while its fields are decoded)
    known = _known_tokens(document, gold_sha256)
    del document
    found = GoldTokens.read(gold_path, name, known)
    found.key = key
    if cache_sha256 and known is None:
        found.note = CACHE_NOT_USED
    return found


def remember_tokenized(gold: GoldTokens) -> None:
    """Keeps ``gold`` for the next ``gold_tokens`` call on the same files, once tokenized."""
    if gold.tokenized and gold.key:
        _GOLD_CACHE.clear()
        _GOLD_CACHE[gold.key] = gold
