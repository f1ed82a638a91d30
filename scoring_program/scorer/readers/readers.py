"""Turning files into Python values, or into one clear problem line.

Every reader here takes the *display name* of the file (what the participant called it) so that
messages read ``semeval2021_t6_st1.json: line 3, column 14: ...``. Nothing here knows about tracks.
"""

from __future__ import annotations

import io
import json
import os
import re
import stat
from itertools import chain
from typing import Any, Iterator, List, Optional, Tuple

from .problems import SubmissionError, fail

UTF8_BOM = "\ufeff"


def read_gold_text(path: str, name: str) -> str:
    """A reference-data file (no size limit) decoded as UTF-8, a leading BOM dropped, or a
    SubmissionError saying why not (the caller turns it into a reference-data problem).

    Read through os.open/os.read, not ``open()`` (a gold folder holds a file per article).
    Submissions are read by the bounded, streaming readers below.
    """
    descriptor, size = _open_regular(path, name, None)
    try:
        chunks: List[bytes] = []
        while True:  # usually two calls: the whole file, then the end of it
            chunk = os.read(descriptor, size + 1 if not chunks else 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(descriptor)
    data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise fail(name, "byte %d (line %d)" % (error.start, line),
                   "the file is not UTF-8 (%s); save it as UTF-8" % error.reason) from None
    if text.startswith(UTF8_BOM):
        text = text[1:]
    return text


def _human(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return ("%d %s" % (n, unit)) if unit == "bytes" else ("%.1f %s" % (n, unit))
        n = n / 1024.0
    return str(n)


def _csv_message(error: Exception) -> str:
    text = str(error)
    if "EOF" in text or "unexpected end of data" in text:
        return "a quoted field is never closed (unterminated \" quote)"
    if "expected after" in text:
        return "a quote closes a field but is not followed by a comma; quotes inside a " \
               "quoted field must be doubled (\"\")"
    if "field larger than field limit" in text:
        return "a field is longer than the CSV field limit"
    if "new-line character seen in unquoted field" in text:
        return "a line break inside an unquoted field"
    return "not valid CSV (%s)" % text


def record_where(index: int, record: Any, id_field: str = "id") -> str:
    """``record 5 (id '34')`` for the 0-based ``index`` of a JSON list element."""
    if isinstance(record, dict):
        value = record.get(id_field)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and len(str(value)) <= 40:
            return "record %d (%s %r)" % (index + 1, id_field, value)
    return "record %d" % (index + 1)


# --- Streaming readers: memory bounded by a block, not by the file ---------------------------------

# The most characters one JSON record (an element of the top-level list) or one line may have in a
# submission (clause (c) of the refusal policy: a real record is a few kB).
MAX_RECORD_CHARS = 1 << 20
MAX_LINE_BYTES = 1 << 20
MAX_CSV_LINE_BYTES = 4 << 20  # (a CSV line holds up to three fields of csv's 131,072-character limit)
# Numbers are bounded while parsing, whatever the interpreter (Python < 3.11 parses long integers
# in quadratic time): offsets are 64-bit integers, scores short decimals.
MAX_INT_DIGITS = 19
MAX_NUMBER_CHARS = 32
_CHUNK = 1 << 20


class NumberError(ValueError):
    """A number the readers refuse while parsing (NaN, Infinity, too many digits)."""


def _reject_constant(name: str) -> Any:
    raise NumberError("%s is not a JSON number; use finite numbers" % name)


def _bounded_int(text: str) -> int:
    if len(text) > MAX_INT_DIGITS and len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise NumberError("an integer of %d digits; at most %d are accepted"
                          % (len(text.lstrip("-")), MAX_INT_DIGITS))
    return int(text)


def _bounded_float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise NumberError("a number written with %d characters; at most %d are accepted"
                          % (len(text), MAX_NUMBER_CHARS))
    return float(text)


# One decoder for every call: json.loads(text, ...) builds a new one each time, which is most of
# the cost of a short JSON Lines record. The hooks bound numbers before Python converts them.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_int=_bounded_int,
                            parse_float=_bounded_float)
# Without number hooks the C scanner converts numbers itself, several times faster. It is used
# for a file only while no byte run could be a number the hooks refuse (checked on the raw bytes
# with one bytes.translate, about a millisecond a megabyte): 20 characters in a row of a number's
# alphabet (every integer of 20 digits and every number text of 33 characters has one). Such
# runs elsewhere (inside strings) only send the file to the slower decoder.
_FAST_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
_NUMBER_RUNS = bytes(48 if b in b"0123456789.eE+-" else 32 for b in range(256))
_LONG_RUN = b"0" * (MAX_INT_DIGITS + 1)


def _may_hold_long_number(data: bytes) -> bool:
    return _LONG_RUN in data.translate(_NUMBER_RUNS)


_WHITESPACE = re.compile(r"[ \t\n\r]*")
_SEPARATOR = re.compile(r"[ \t\n\r]*,[ \t\n\r]*")


def _open_regular(path: str, name: str, max_bytes: Optional[int]) -> Tuple[int, int]:
    """(descriptor, size) of a regular file no larger than ``max_bytes``; never blocks on a FIFO."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise fail(name, "", "cannot be read (%s)" % (error.strerror or "error")) from None
    info = os.fstat(descriptor)
    if not stat.S_ISREG(info.st_mode):
        os.close(descriptor)
        raise fail(name, "", "not a regular file; only regular files are read")
    if max_bytes is not None and info.st_size > max_bytes:
        os.close(descriptor)
        raise fail(name, "", "the file has %d bytes; the limit is %d bytes%s"
                   % (info.st_size, max_bytes, " (%s)" % _human(max_bytes) if max_bytes >= 1024 else ""))
    return descriptor, info.st_size


def byte_chunks(path: str, name: str, max_bytes: Optional[int], size: Optional[int] = None) -> Iterator[bytes]:
    """The file's bytes, ``size`` at a time; refused past ``max_bytes`` (even if it grows)."""
    size = size or _CHUNK
    descriptor, _ = _open_regular(path, name, max_bytes)
    total = 0
    try:
        while True:
            chunk = os.read(descriptor, size)
            if not chunk:
                return
            total += len(chunk)
            if max_bytes is not None and total > max_bytes:
                raise fail(name, "", "the file is larger than the limit of %d bytes" % max_bytes)
            yield chunk
    finally:
        os.close(descriptor)


def _utf8_problem(name: str, data: bytes, error: UnicodeDecodeError, offset: int, lines_before: int):
    line = lines_before + _line_ends(data, error.start) + 1
    return fail(name, "byte %d (line %d)" % (offset + error.start, line),
                "the file is not UTF-8 (%s); save it as UTF-8" % error.reason)


def newlines_as_lf(text: str) -> str:
    r"""``text`` with each line end as Python's universal newlines read it (``\r\n``, a lone
    ``\r`` or ``\n``) written ``\n``: what the official readers that open files in text mode see.

    >>> newlines_as_lf("a\r\nb\rc\n")
    'a\nb\nc\n'
    """
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _line_ends(data: bytes, end: Optional[int] = None) -> int:
    """How many lines end in ``data[:end]``: LF, CRLF and a lone CR (universal newlines)."""
    end = len(data) if end is None else end
    crs = data.count(b"\r", 0, end)
    return data.count(b"\n", 0, end) + crs - (data.count(b"\r\n", 0, end) if crs else 0)


def _last_line_end(data: bytes) -> int:
    """Where the last whole line of ``data`` ends (0: none); a CR that ends ``data`` may be the
    first half of a CRLF, so the line it ends waits for the next chunk."""
    end = len(data) - 1 if data.endswith(b"\r") else len(data)
    return max(data.rfind(b"\n", 0, end), data.rfind(b"\r", 0, end)) + 1


def text_blocks(path: str, name: str, max_bytes: Optional[int], max_line_bytes: Optional[int] = MAX_LINE_BYTES,
                size: Optional[int] = None) -> Iterator[Tuple[int, str]]:
    """(number of its first line, text) for consecutive blocks of whole lines of a UTF-8 file.

    Lines end as Python's universal newlines end them (LF, CRLF or a lone CR, as the official
    scorers that read in text mode see them; ``newlines_as_lf`` turns a block's into LF), and are
    numbered so. Each block ends with its line end (the last one may not); a leading BOM is
    dropped. A line longer than ``max_line_bytes`` is refused when it is met, before it is decoded.
    """
    offset, line, carry, first = 0, 1, b"", True
    pending: List[bytes] = []  # chunks of a line longer than a chunk, joined once it ends
    pending_size = 0
    for chunk in byte_chunks(path, name, max_bytes, size):
        if b"\n" not in chunk and b"\r" not in chunk:
            pending.append(chunk)
            pending_size += len(chunk)
            if max_line_bytes is not None and len(carry) + pending_size > max_line_bytes:
                raise fail(name, "line %d" % line, "the line is longer than %d bytes" % max_line_bytes)
            continue
        if pending:
            data = b"".join([carry] + pending + [chunk])
            pending, pending_size = [], 0
        else:
            data = carry + chunk if carry else chunk
        cut = _last_line_end(data)
        carry = data[cut:]
        if cut:
            yield from _decoded(name, data[:cut], offset, line, first)
            offset += cut
            line += _line_ends(data, cut)
            first = False
        if max_line_bytes is not None and len(carry) > max_line_bytes:
            raise fail(name, "line %d" % line, "the line is longer than %d bytes" % max_line_bytes)
    if pending:
        carry = b"".join([carry] + pending)
    if carry:
        yield from _decoded(name, carry, offset, line, first)


def _decoded(name: str, data: bytes, offset: int, line: int, first: bool) -> Iterator[Tuple[int, str]]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _utf8_problem(name, data, error, offset, line - 1) from None
    if first and text.startswith(UTF8_BOM):
        text = text[1:]
    yield line, text


def _json_problem(name: str, where: str, error: Exception) -> SubmissionError:
    if isinstance(error, NumberError):
        return fail(name, where, str(error))
    if isinstance(error, RecursionError):
        return fail(name, where, "the JSON is nested too deeply")
    return fail(name, where, "not valid JSON (%s)" % getattr(error, "msg", error))


def _json_lines(text: str, position: int) -> bool:
    """Whether ``text`` holds, from ``position``, a JSON object followed by another one on a
    later line (JSON Lines where a JSON list was expected)."""
    try:
        _, end = _DECODER.raw_decode(text, position)
    except (ValueError, RecursionError):
        return False
    after = _WHITESPACE.match(text, end).end()
    return "\n" in text[end:after] and text.startswith("{", after)


def iter_json_list(path: str, name: str, max_bytes: Optional[int],
                   max_record_chars: Optional[int] = MAX_RECORD_CHARS) -> Iterator[Tuple[int, Any]]:
    """(0-based index, value) for each element of a file's top-level JSON list (see
    ``iter_json_batches``)."""
    for first, values in iter_json_batches(path, name, max_bytes, max_record_chars):
        yield from enumerate(values, first)


def iter_json_batches(path: str, name: str, max_bytes: Optional[int],
                      max_record_chars: Optional[int] = MAX_RECORD_CHARS) -> Iterator[Tuple[int, List[Any]]]:
    """(0-based index of the first, values) for consecutive elements of a file's top-level JSON
    list, in order: a batch of up to ``max_record_chars`` characters of records at a time.

    The file is decoded a block at a time and each element parsed on its own
    (``raw_decode``), so memory holds one block and one record, never the whole document. A
    record longer than ``max_record_chars`` is refused before it is parsed.

    The steps: ``open_list`` (the ``[``), then ``records`` (a batch of records by one call of
    the C scanner where that parses, else one record at a time, each followed by ``,`` or the
    list's ``]``), then ``close`` (nothing but whitespace after the list).
    """
    reader = _JsonList(path, name, max_bytes, max_record_chars)
    reader.open_list()
    yield from reader.records()
    reader.close()


class _JsonList:
    """Reading one file's top-level JSON list: the text in memory (``buffer``, about a block from
    where reading is, ``position``), how lines are counted in it, and the steps of the format."""

    def __init__(self, path: str, name: str, max_bytes: Optional[int], max_record_chars: Optional[int]) -> None:
        self.name = name
        self.max_record_chars = max_record_chars
        self.batch_chars = max_record_chars or MAX_RECORD_CHARS
        self.long_numbers = [False]  # whether the batches need the number hooks
        self.chunks = _decoded_chunks(path, name, max_bytes, self.long_numbers)
        self.buffer = ""
        self.position = 0
        self.done = False  # every chunk of the file is in the buffer
        self.line = 1  # the line number at ``counted`` (an index in the buffer)
        self.counted = 0
        self.column_base = 0  # characters of the buffer's first line that were dropped before it

    # --- the buffer ------------------------------------------------------------------------------

    def drop_read(self) -> None:
        """Forget the text before ``position`` (keeping the buffer at about one block)."""
        self.line_at(self.position)
        newline = self.buffer.rfind("\n", 0, self.position)
        self.column_base = self.column_base + self.position if newline < 0 else self.position - newline - 1
        self.buffer, self.position, self.counted = self.buffer[self.position:], 0, 0

    def more(self) -> bool:
        """Append at least a block (or as much as the buffer holds after ``position``: a long
        record is then re-parsed O(log) times); whether any text came."""
        if self.done:
            return False
        want = max(_CHUNK, len(self.buffer) - self.position)
        self.drop_read()
        pieces = [self.buffer]
        got = 0
        for piece in self.chunks:
            pieces.append(piece)
            got += len(piece)
            if got >= want:
                break
        else:
            self.done = True
        self.buffer = "".join(pieces)
        return got > 0

    def line_at(self, index: int) -> int:
        self.line += self.buffer.count("\n", self.counted, index)
        self.counted = index
        return self.line

    def where(self, index: int) -> str:
        """``line L, column C`` of the buffer's ``index``."""
        index = min(index, len(self.buffer))
        newline = self.buffer.rfind("\n", 0, index)
        column = index - newline if newline >= 0 else self.column_base + index + 1
        return "line %d, column %d" % (self.line_at(index), column)

    def where_record(self, index: int) -> str:
        """``record N (line L)`` of the record at ``position``, the ``index``-th (0-based)."""
        return "record %d (line %d)" % (index + 1, self.line_at(self.position))

    def skip_whitespace(self) -> None:
        while True:
            self.position = _WHITESPACE.match(self.buffer, self.position).end()
            if self.position < len(self.buffer) or not self.more():
                return

    def at(self, character: str) -> bool:
        return self.position < len(self.buffer) and self.buffer[self.position] == character

    # --- the steps -------------------------------------------------------------------------------

    def open_list(self) -> None:
        """Past the ``[`` that opens the list and the whitespace after it, or a problem naming
        what the file holds instead (JSON Lines gets the recipe for a list)."""
        self.skip_whitespace()
        if self.position >= len(self.buffer):
            raise fail(self.name, "", "the file is empty; expected a JSON list")
        first = self.buffer[self.position]
        if first != "[":
            if first == "{" and _json_lines(self.buffer, self.position):
                raise fail(self.name, "top level",
                           "the file is JSON Lines (one object per line); expected one JSON list "
                           "of the records, [{...}, {...}] (Python: json.dump(records, file); "
                           "pandas: to_json(path, orient=\"records\"))")
            kind = {"{": "an object", '"': "a string"}.get(first, "not a list")
            raise fail(self.name, "top level", "expected a JSON list of records, found %s" % kind)
        self.position += 1
        self.skip_whitespace()

    def records(self) -> Iterator[Tuple[int, List[Any]]]:
        """(index of the first, values) up to and past the list's ``]``: batches while they parse;
        after a batch that does not, records one at a time for a batch's length of text."""
        index = 0
        if self.at("]"):
            self.position += 1
            return
        slow_until = 0  # (an index in the buffer)
        while True:
            if self.position >= slow_until:
                batch = self.parse_batch()
                if batch is None:
                    slow_until = self.position + self.batch_chars
                else:
                    values, self.position = batch
                    yield index, values
                    index += len(values)
                    if self.position > _CHUNK:
                        self.drop_read()
                    self.skip_whitespace()
                    if self.at("]"):
                        self.position += 1
                        return
                    continue
            value, end = self.parse_record(index)
            yield index, [value]
            index += 1
            if not self.next_record(end):
                return

    def parse_batch(self) -> Optional[Tuple[List[Any], int]]:
        """The records from ``position`` to the last ``}`` followed by a comma within
        ``batch_chars``, parsed as one list by one call of the C scanner (most of the speed of
        ``json.loads``), and where the next record starts; None when that is not a valid list
        (a cut inside a string leaves it unterminated, so a wrong cut never parses) or a comma
        is followed by the list's end (``[{...}, ]``, refused by the record-by-record path).

        tests/test_fast_paths.py: batches accept and refuse what the record-by-record path does."""
        if len(self.buffer) - self.position < self.batch_chars and not self.done:
            self.more()
        buffer, position = self.buffer, self.position
        cut = buffer.rfind("}", position, min(len(buffer), position + self.batch_chars))
        if cut < 0:
            return None
        match = _SEPARATOR.match(buffer, cut + 1)
        if match is not None and match.end() < len(buffer):
            after = match.end()  # the next record
            if buffer[after] == "]":
                return None
        else:  # the last records: ``}`` and the list's end
            after = _WHITESPACE.match(buffer, cut + 1).end()
            if not (self.done and after < len(buffer) and buffer[after] == "]"):
                return None
        text = "[" + buffer[position:cut + 1] + "]"
        scan = _DECODER.scan_once if self.long_numbers[0] else _FAST_DECODER.scan_once
        try:
            values, end = scan(text, 0)
        except Exception:  # (StopIteration, JSONDecodeError, NumberError, RecursionError)
            return None
        return (values, after) if end == len(text) else None

    def parse_record(self, index: int) -> Tuple[Any, int]:
        """The record at ``position`` (the ``index``-th) and where it ends: parsed in the buffer
        when it is whole there, else as the text comes (``parse_slowly``); refused when longer
        than ``max_record_chars``."""
        limit = self.max_record_chars
        try:
            value, end = _DECODER.scan_once(self.buffer, self.position)
            complete = self.ended(end)
        except Exception:  # (StopIteration, JSONDecodeError, NumberError, RecursionError)
            complete = False
        if not complete or (limit is not None and end - self.position > limit):
            value, end = self.parse_slowly(index)
        if limit is not None and end - self.position > limit:
            raise fail(self.name, self.where_record(index), "the record is longer than %d characters" % limit)
        return value, end

    def ended(self, end: int) -> bool:
        """Whether a value parsed up to ``end`` is whole: a comma or the list's end follows (a
        number cut by the block's end, ``1.`` of ``1.5``, parses as a shorter one), or enough
        text follows for a problem there to be reported as one."""
        after = _WHITESPACE.match(self.buffer, end).end()
        return after < len(self.buffer) and (self.buffer[after] in ",]" or len(self.buffer) - end > 64)

    def parse_slowly(self, index: int) -> Tuple[Any, int]:
        """The record at ``position``, reading more text while it may be incomplete."""
        limit = self.max_record_chars
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buffer, self.position)
                if self.done or self.ended(end):
                    return value, end
            except json.JSONDecodeError as caught:
                if self.done:
                    raise fail(self.name, self.where(caught.pos), "not valid JSON (%s)" % caught.msg) from None
            except (NumberError, RecursionError) as caught:
                raise _json_problem(self.name, self.where_record(index), caught) from None
            if limit is not None and len(self.buffer) - self.position > limit:
                raise fail(self.name, self.where_record(index),
                           "the record is longer than %d characters (or never closed)" % limit)
            self.more()

    def next_record(self, end: int) -> bool:
        """Past the ``,`` after a record that ends at ``end`` (True), or past the list's ``]``
        (False), or a problem."""
        match = _SEPARATOR.match(self.buffer, end)
        if match is not None and match.end() < len(self.buffer):
            self.position = match.end()
            if self.position > _CHUNK:
                self.drop_read()
            return True
        self.position = end
        self.skip_whitespace()
        if self.position >= len(self.buffer):
            raise fail(self.name, self.where(self.position), "not valid JSON (the list is never closed with ])")
        if self.buffer[self.position] == "]":
            self.position += 1
            return False
        if self.buffer[self.position] != ",":
            raise fail(self.name, self.where(self.position), "not valid JSON (Expecting ',' delimiter)")
        self.position += 1
        if self.position > _CHUNK:
            self.drop_read()
        self.skip_whitespace()
        return True

    def close(self) -> None:
        """Nothing but whitespace after the list."""
        self.skip_whitespace()
        if self.position < len(self.buffer):
            raise fail(self.name, self.where(self.position), "not valid JSON (Extra data)")


def _decoded_chunks(path: str, name: str, max_bytes: Optional[int],
                    long_numbers: Optional[List[bool]] = None) -> Iterator[str]:
    """The file's text, a block at a time (UTF-8, strictly; a leading BOM dropped).

    Blocks are cut before the last character that starts in them, so none is split; an error
    names its byte and line in the whole file.
    """
    offset, lines, carry, first, tail = 0, 0, b"", True, b""
    for chunk in byte_chunks(path, name, max_bytes):
        if long_numbers is not None and not long_numbers[0]:  # (set before this text is parsed)
            long_numbers[0] = _may_hold_long_number(tail + chunk)
            tail = chunk[-MAX_NUMBER_CHARS:]
        data = carry + chunk if carry else chunk
        cut = _complete_prefix(data)
        carry = data[cut:]
        for line, text in _decoded(name, data[:cut], offset, lines + 1, first):
            yield text
        offset += cut
        lines += data.count(b"\n", 0, cut)
        first = first and not cut
    if carry:
        for line, text in _decoded(name, carry, offset, lines + 1, first):
            yield text


def _complete_prefix(data: bytes) -> int:
    """The length of ``data`` without a multi-byte UTF-8 character that the next chunk completes."""
    start = len(data) - 1
    while start > 0 and len(data) - start < 4 and 0x80 <= data[start] < 0xC0:
        start -= 1  # continuation bytes
    lead = data[start] if data else 0
    if lead >= 0xC0 and len(data) - start < (2 if lead < 0xE0 else 3 if lead < 0xF0 else 4):
        return start
    return len(data)


def iter_ndjson(path: str, name: str, max_bytes: Optional[int],
                max_line_bytes: Optional[int] = MAX_LINE_BYTES) -> Iterator[Tuple[int, Any]]:
    """(line number, value) for every non-blank line of a JSON-Lines file, read a block at a time."""
    empty = True
    for first_line, block in text_blocks(path, name, max_bytes, max_line_bytes):
        for number, line in enumerate(newlines_as_lf(block).split("\n"), start=first_line):
            if not line.strip():
                continue
            empty = False
            try:
                value = _DECODER.decode(line)
            except json.JSONDecodeError as error:
                raise fail(name, "line %d, column %d" % (number, error.colno),
                           "not valid JSON (%s); expected one JSON object per line" % error.msg) from None
            except (NumberError, RecursionError) as error:
                raise _json_problem(name, "line %d" % number, error) from None
            yield number, value
    if empty:
        raise fail(name, "", "the file is empty; expected one JSON object per line")


def iter_csv(path: str, name: str, max_bytes: Optional[int], backslash_escapes: bool = False
             ) -> Iterator[Tuple[int, List[str]]]:
    """(line number where the record starts, fields) for every non-blank CSV record, streamed.

    RFC 4180 quoting (``""`` inside a quoted field) strictly; with ``backslash_escapes`` a quote
    inside a quoted field is written ``\\"`` instead (the variant of the AI CUP 2022 task text).
    """
    import csv  # here: only the nlu track reads CSV

    if backslash_escapes:
        dialect = dict(doublequote=False, escapechar="\\", strict=True)
    else:
        dialect = dict(doublequote=True, strict=True)
    lines = chain.from_iterable(io.StringIO(block, newline="")
                                for _, block in text_blocks(path, name, max_bytes, MAX_CSV_LINE_BYTES))
    reader = csv.reader(lines, **dialect)
    start_line = 1
    try:
        for fields in reader:
            if fields and any(field.strip() for field in fields):
                yield start_line, fields
            start_line = reader.line_num + 1
    except csv.Error as error:
        raise fail(name, "line %d" % (reader.line_num or start_line), _csv_message(error)) from None


def file_contains(path: str, name: str, max_bytes: Optional[int], needle: bytes) -> bool:
    """Whether the file's bytes contain ``needle`` (read a block at a time)."""
    tail = b""
    for chunk in byte_chunks(path, name, max_bytes):
        if needle in tail + chunk[:len(needle)] or needle in chunk:
            return True
        tail = chunk[-len(needle):]
    return False
