"""The streaming readers against the whole-file parsers they replace (json.loads, splitlines).

Block sizes are made tiny here so that every record, number, multi-byte character, BOM and
line end is cut across blocks somewhere.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from scorer.readers import files
from scorer.readers.files import byte_chunks, read_gold_text
from scorer.readers.json_list import iter_json_values
from scorer.readers.problems import SubmissionError
from scorer.readers.text_lines import newlines_as_lf, text_blocks

_SCALAR = st.one_of(st.integers(-10 ** 19 + 1, 10 ** 19 - 1), st.floats(allow_nan=False, allow_infinity=False),
                    st.text(max_size=12), st.booleans(), st.none())
_VALUE = st.recursive(_SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(st.text(max_size=5), inner, max_size=4)),
                      max_leaves=12)


def _read(tmp_path, data: bytes, chunk: int, **options):
    path = tmp_path / "f.json"
    path.write_bytes(data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(files, "BLOCK_BYTES", chunk)
        try:
            return [value for _, value in iter_json_values(str(path), "f.json", None, **options)]
        except SubmissionError as error:
            return error.lines


@settings(max_examples=200, deadline=None)
@given(st.lists(_VALUE, max_size=8), st.sampled_from([None, 1, 2]), st.booleans(), st.sampled_from([1, 3, 7, 64]))
def test_json_list_reader_equals_json_loads(tmp_path_factory, records, indent, bom, chunk):
    text = json.dumps(records, indent=indent, ensure_ascii=False)
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
    assert _read(tmp_path_factory.mktemp("r"), data, chunk) == json.loads(text)


@pytest.mark.parametrize("chunk", [1, 5, 1 << 20])
@pytest.mark.parametrize("text,expected", [
    ("[1, 23, 456]", [1, 23, 456]),
    ("[ ]", []),
    ('[{"id": "12345678901234567890123"}, 3]', [{"id": "12345678901234567890123"}, 3]),  # long digits in a string
    ("[-9223372036854775807, 1e5, -0.5]", [-9223372036854775807, 1e5, -0.5]),
    ("", ["f.json: the file is empty; expected a JSON list"]),
    ('{"id": 1}', ["f.json: top level: expected a JSON list of records, found an object"]),
    ("[1, 2", ["f.json: line 1, column 6: not valid JSON (the list is never closed with ])"]),
    ("[1, 2] [3]", ["f.json: line 1, column 8: not valid JSON (Extra data)"]),
    ("[1,]", ["f.json: line 1, column 4: not valid JSON (Expecting value)"]),
    ('[{"a": 1}\n{"b": 2}]', ["f.json: line 2, column 1: not valid JSON (Expecting ',' delimiter)"]),
    ("[1,\n 12345678901234567890]", ["f.json: record 2 (line 2): an integer of 20 digits; at most 19 are accepted"]),
    ("[-12345678901234567890]", ["f.json: record 1 (line 1): an integer of 20 digits; at most 19 are accepted"]),
    ("[1.00000000000000000000000000000001]",
     ["f.json: record 1 (line 1): a number written with 34 characters; at most 32 are accepted"]),
    ("[1, NaN]", ["f.json: record 2 (line 1): NaN is not a JSON number; use finite numbers"]),
    ("[-Infinity]", ["f.json: record 1 (line 1): -Infinity is not a JSON number; use finite numbers"]),
    ("[" * 100000, ["f.json: record 1 (line 1): the JSON is nested too deeply"]),
])
def test_json_list_reader_messages(tmp_path, chunk, text, expected):
    assert _read(tmp_path, text.encode("utf-8"), chunk) == expected


@pytest.mark.parametrize("chunk", [1, 2, 1 << 20])
def test_utf8_errors_name_the_byte_and_line(tmp_path, chunk):
    assert _read(tmp_path, b'[1, "\xff"]', chunk) == [
        "f.json: byte 5 (line 1): the file is not UTF-8 (invalid start byte); save it as UTF-8"]
    assert _read(tmp_path, b'[1,\n "\xc3"]', chunk) == [
        "f.json: byte 6 (line 2): the file is not UTF-8 (invalid continuation byte); save it as UTF-8"]


@pytest.mark.parametrize("chunk", [4, 1 << 20])
def test_a_record_over_the_bound_is_refused_before_it_is_parsed(tmp_path, chunk):
    text = '[{"a": 1}, {"b": "%s"}]' % ("x" * 100)
    assert _read(tmp_path, text.encode(), chunk, max_record_chars=50) == [
        "f.json: record 2 (line 1): the record is longer than 50 characters%s"
        % (" (or never closed)" if chunk == 4 else "")]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="ab\r\u00e9\U0001F600 ", max_size=6), max_size=8), st.sampled_from([1, 3, 8]))
def test_text_blocks_are_the_file_cut_at_line_ends(tmp_path_factory, lines, chunk):
    text = "\n".join(lines)
    path = tmp_path_factory.mktemp("b") / "f.tsv"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    blocks = list(text_blocks(str(path), "f.tsv", None, size=chunk))
    assert "".join(block for _, block in blocks) == text
    read = ""
    for number, (first_line, block) in enumerate(blocks):
        # lines end as Python's universal newlines end them: LF, CRLF or a lone CR
        assert first_line == newlines_as_lf(read).count("\n") + 1
        assert block.endswith(("\n", "\r")) or number == len(blocks) - 1
        assert not (block.endswith("\r") and number + 1 < len(blocks) and blocks[number + 1][1].startswith("\n"))
        read += block


def test_a_line_over_the_bound_is_refused_when_met(tmp_path):
    path = tmp_path / "f.tsv"
    path.write_bytes(b"ok\n" + b"x" * 5000 + b"\n")
    with pytest.raises(SubmissionError) as caught:
        list(text_blocks(str(path), "f.tsv", None, max_line_bytes=1000, size=64))
    assert caught.value.lines == ["f.tsv: line 2: the line is longer than 1000 bytes"]


def test_only_regular_files_are_opened(tmp_path):
    import os
    fifo = tmp_path / "pipe"
    os.mkfifo(str(fifo))
    with pytest.raises(SubmissionError) as caught:  # returns at once: never blocks on the pipe
        list(byte_chunks(str(fifo), "pipe", None))
    assert caught.value.lines == ["pipe: not a regular file; only regular files are read"]


def test_json_lines_where_a_list_is_expected_is_named(tmp_path):
    path = tmp_path / "semeval2021_t6_st1.json"
    path.write_text('{"id": "1", "labels": []}\n{"id": "2", "labels": ["Smears"]}\n', encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        list(iter_json_values(str(path), path.name, None))
    assert error.value.lines == ["semeval2021_t6_st1.json: top level: the file is JSON Lines (one object per "
                                 "line); expected one JSON list of the records, [{...}, {...}] (Python: "
                                 "json.dump(records, file); pandas: to_json(path, orient=\"records\"))"]
    path.write_text('{"id": "1", "labels": []}\n', encoding="utf-8")  # one object: not JSON Lines
    with pytest.raises(SubmissionError) as error:
        list(iter_json_values(str(path), path.name, None))
    assert error.value.lines == ["semeval2021_t6_st1.json: top level: expected a JSON list of records, "
                                 "found an object"]


@pytest.mark.parametrize("seed", range(20))
def test_gold_text_reader_equals_open_and_decode(tmp_path, seed):
    """``read_gold_text`` reads what ``open().read()`` and a strict UTF-8 decode read, and refuses
    what that decode refuses."""
    rng = random.Random(seed)
    data = (b"\xef\xbb\xbf" if rng.random() < 0.3 else b"") + bytes(
        rng.choice(b"ab\t\n\r0\xc3\xa9\xff\xe2\x82\xac") for _ in range(rng.choice([0, 5, 100, 70000])))
    path = tmp_path / "article1.txt"
    path.write_bytes(data)
    with open(str(path), "rb") as handle:
        whole = handle.read()
    try:
        expected: Any = whole.decode("utf-8")
        expected = expected[1:] if expected.startswith("\ufeff") else expected
    except UnicodeDecodeError:
        expected = SubmissionError
    try:
        read: Any = read_gold_text(str(path), "article1.txt")
    except SubmissionError:
        read = SubmissionError
    assert read == expected
