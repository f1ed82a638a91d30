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


# --- a top-level JSON object (``json_object.iter_json_object``) ----------------------------------------

def _read_object(tmp_path, data: bytes, chunk: int, **options):
    from scorer.readers.json_object import iter_json_object
    path = tmp_path / "f.json"
    path.write_bytes(data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(files, "BLOCK_BYTES", chunk)
        try:
            return list(iter_json_object(str(path), "f.json", None, **options))
        except SubmissionError as error:
            return error.lines


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=6), _VALUE), max_size=8), st.sampled_from([None, 1]), st.booleans(),
       st.sampled_from([1, 3, 7, 64]))
def test_json_object_reader_gives_json_loads_members_in_order(tmp_path_factory, members, indent, bom, chunk):
    """Every member in the file's order, a repeated key each time (``json.load`` keeps the last)."""
    text = "{%s}" % ", ".join("%s: %s" % (json.dumps(key, ensure_ascii=False), json.dumps(value, indent=indent,
                                                                                             ensure_ascii=False))
                              for key, value in members)
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
    read = _read_object(tmp_path_factory.mktemp("o"), data, chunk)
    assert read == [(key, json.loads(json.dumps(value))) for key, value in members]
    assert dict(read) == json.loads(text)


@pytest.mark.parametrize("chunk", [1, 5, 1 << 20])
@pytest.mark.parametrize("text,expected", [
    ('{"q1": "Denver Broncos", "q2": ""}', [("q1", "Denver Broncos"), ("q2", "")]),
    ("{ }", []),
    ('{"a": 1,\r"b": 2}', [("a", 1), ("b", 2)]),  # a lone CR is JSON whitespace
    ("", ["f.json: the file is empty; expected a JSON object"]),
    ('[{"id": 1}]', ['f.json: top level: expected a JSON object {"id": value, ...}, found a list']),
    ('{"a" 1}', ["f.json: line 1, column 6: not valid JSON (Expecting ':' delimiter)"]),
    ('{"a": 1,}', ["f.json: line 1, column 9: not valid JSON (Expecting property name enclosed in double quotes)"]),
    ("{1: 2}", ["f.json: line 1, column 2: not valid JSON (Expecting property name enclosed in double quotes)"]),
    ('{"a": 1', ["f.json: line 1, column 8: not valid JSON (the object is never closed with })"]),
    ('{"a": 1} {}', ["f.json: line 1, column 10: not valid JSON (Extra data)"]),
    ('{"a\x00": 1}', ["f.json: line 1, column 4: not valid JSON (Invalid control character at)"]),  # NUL
    ('{"a": "\x00"}', ["f.json: line 1, column 8: not valid JSON (Invalid control character at)"]),
    ('{"a": 1,\n "b": 12345678901234567890}',
     ["f.json: key 'b' (line 2): an integer of 20 digits; at most 19 are accepted"]),
    ('{"a": NaN}', ["f.json: key 'a' (line 1): NaN is not a JSON number; use finite numbers"]),
    ('{"a": ' + "[" * 100000, ["f.json: key 'a' (line 1): the JSON is nested too deeply"]),
])
def test_json_object_reader_messages(tmp_path, chunk, text, expected):
    assert _read_object(tmp_path, text.encode("utf-8"), chunk) == expected


@pytest.mark.parametrize("chunk", [4, 1 << 20])
def test_json_object_bounds_keys_values_and_members(tmp_path, chunk):
    never_closed = " (or never closed)" if chunk == 4 else ""
    huge_key = '{"a": 1, "%s": 2}' % ("k" * 100)
    assert _read_object(tmp_path, huge_key.encode(), chunk, max_record_chars=50) == [
        "f.json: member 2 (line 1): the key is longer than 50 characters" + never_closed]
    huge_value = '{"a": "%s"}' % ("v" * 100)
    assert _read_object(tmp_path, huge_value.encode(), chunk, max_record_chars=50) == [
        "f.json: key 'a' (line 1): the value is longer than 50 characters" + never_closed]
    many = "{%s}" % ", ".join('"%d": 0' % i for i in range(1000))
    assert _read_object(tmp_path, many.encode(), chunk, max_members=10, noun="question ids") == [
        "f.json: top level: more than 10 question ids, but this phase has far fewer; give one key per item "
        "of the phase"]


# --- lines (``text_lines.iter_lines``): Python's text mode, or sacreBLEU's LF-only reading -------------

@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab\r\n\x00\ufeff\u00e9", max_size=20), st.booleans(), st.booleans(),
       st.sampled_from([1, 2, 5, 1 << 20]))
def test_lines_are_those_of_the_file_opened_in_text_mode(tmp_path_factory, text, universal, keep_bom, chunk):
    """``iter_lines`` gives the lines of ``open(path, encoding=..., newline=...)``, each without its
    end: universal newlines (``newline=None``, a leading BOM dropped: ``utf-8-sig``) or LF only with
    the BOM kept (``newline="\\n"``, ``utf-8``: sacreBLEU's reading), whatever the blocks."""
    from scorer.readers.text_lines import iter_lines
    path = tmp_path_factory.mktemp("l") / "f.txt"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    with open(str(path), encoding="utf-8" if keep_bom else "utf-8-sig", newline=None if universal else "\n") as handle:
        expected = [line[:-1] if line.endswith("\n") else line for line in handle]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(files, "BLOCK_BYTES", chunk)
        read = list(iter_lines(str(path), "f.txt", None, universal_newlines=universal, keep_bom=keep_bom))
    assert [line for _, line in read] == expected
    assert [number for number, _ in read] == list(range(1, len(expected) + 1))


def test_lf_only_lines_keep_a_lone_cr_a_bom_and_nul_and_name_lines_so():
    import tempfile
    from scorer.readers.text_lines import iter_lines
    with tempfile.TemporaryDirectory() as folder:
        path = folder + "/hyp.txt"
        with open(path, "wb") as handle:
            handle.write(b"\xef\xbb\xbfone\rtwo\r\nthree\x00\n\nfour")
        assert list(iter_lines(path, "hyp.txt", None, universal_newlines=False, keep_bom=True)) == [
            (1, "\ufeffone\rtwo\r"), (2, "three\x00"), (3, ""), (4, "four")]
        assert list(iter_lines(path, "hyp.txt", None)) == [
            (1, "one"), (2, "two"), (3, "three\x00"), (4, ""), (5, "four")]
        with open(path, "wb") as handle:
            handle.write(b"a\rb\nc\xff\n")
        with pytest.raises(SubmissionError) as caught:  # the line number counts LF only
            list(iter_lines(path, "hyp.txt", None, universal_newlines=False))
        assert caught.value.lines == ["hyp.txt: byte 5 (line 2): the file is not UTF-8 (invalid start byte); "
                                      "save it as UTF-8"]
        with open(path, "wb") as handle:
            handle.write(b"ok\r" + b"x" * 5000 + b"\n")
        with pytest.raises(SubmissionError) as caught:
            list(iter_lines(path, "hyp.txt", None, max_line_bytes=1000, universal_newlines=False))
        assert caught.value.lines == ["hyp.txt: line 1: the line is longer than 1000 bytes"]


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
