"""Turning files into Python values, or into one clear problem line.

Every reader here takes the *display name* of the file (what the participant called it) so that
messages read ``semeval2021_t6_st1.json: line 3, column 14: ...``. Nothing here knows about tracks.
"""

from __future__ import annotations

import io
import json
import os
from typing import Any, Iterator, List, Optional, Tuple

from .problems import fail

UTF8_BOM = "\ufeff"


def read_text(path: str, name: str, max_bytes: Optional[int]) -> str:
    """The file decoded as UTF-8 (a leading BOM dropped), or a SubmissionError saying why not.

    ``max_bytes`` None: no size limit (reference data).
    """
    data = _read_bytes(path, name, max_bytes)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise fail(name, "byte %d (line %d)" % (error.start, line),
                   "the file is not UTF-8 (%s); save it as UTF-8" % error.reason) from None
    if text.startswith(UTF8_BOM):
        text = text[1:]
    return text


def _read_bytes(path: str, name: str, max_bytes: Optional[int]) -> bytes:
    """The file's bytes through os.open/os.read: half the cost of ``open()`` for a small file,
    which counts in a gold folder of thousands of them. Reads one byte past ``max_bytes`` to
    catch a file that grew after its size was checked."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        size = os.fstat(descriptor).st_size
        if max_bytes is not None and size > max_bytes:
            raise fail(name, "", "the file has %d bytes; the limit is %d bytes%s"
                       % (size, max_bytes, " (%s)" % _human(max_bytes) if max_bytes >= 1024 else ""))
        chunks: List[bytes] = []
        total = 0
        while True:  # usually two calls: the whole file, then the end of it
            request = size + 1 - total if total <= size else 1 << 20
            if max_bytes is not None:
                request = min(request, max_bytes + 1 - total)
            chunk = os.read(descriptor, request) if request > 0 else b""
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    finally:
        os.close(descriptor)
    data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    if max_bytes is not None and len(data) > max_bytes:
        raise fail(name, "", "the file is larger than the limit of %d bytes" % max_bytes)
    return data


def _human(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return ("%d %s" % (n, unit)) if unit == "bytes" else ("%.1f %s" % (n, unit))
        n = n / 1024.0
    return str(n)


def _reject_constant(name: str) -> Any:
    raise ValueError("NaN/Infinity:%s" % name)


# One decoder for every call: json.loads(text, parse_constant=...) builds a new one each time,
# which is most of the cost of a short JSON Lines record.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def _decode(text: str) -> Any:
    if text.startswith(UTF8_BOM):  # json.loads's own message for it
        return json.loads(text, parse_constant=_reject_constant)
    return _DECODER.decode(text)


def load_json(text: str, name: str) -> Any:
    """Parse JSON strictly: NaN and Infinity are not JSON, and neither is an empty file."""
    if not text.strip():
        raise fail(name, "", "the file is empty; expected a JSON list")
    try:
        return _decode(text)
    except json.JSONDecodeError as error:
        raise fail(name, "line %d, column %d" % (error.lineno, error.colno),
                   "not valid JSON (%s)" % error.msg) from None
    except RecursionError:
        raise fail(name, "", "the JSON is nested too deeply") from None
    except ValueError as error:
        message = str(error)
        if message.startswith("NaN/Infinity:"):
            raise fail(name, "", "%s is not a JSON number; use finite numbers"
                       % message.split(":", 1)[1]) from None
        # Python >= 3.11 refuses integers of more than 4300 digits.
        raise fail(name, "", "a number in the file is too long to be an offset or score") from None


def nonblank_lines(text: str) -> Iterator[Tuple[int, str]]:
    """(1-based line number, line without its end) for every line that is not blank.

    LF and CRLF both end a line; blank lines (for example trailing ones) are skipped.
    """
    for number, line in enumerate(text.split("\n"), start=1):
        if line.endswith("\r"):
            line = line[:-1]
        if line.strip():
            yield number, line


def line_blocks(text: str, size: int = 1 << 20) -> Iterator[Tuple[int, str]]:
    """(number of its first line, block) for consecutive blocks of whole lines of ``text``.

    Blocks hold about ``size`` characters and are cut at LF characters, which belong to neither
    block: ``block.split("\\n")`` gives exactly the lines ``text.split("\\n")`` has there. A reader
    can then work a block at a time, at the speed of whole-string operations, without holding
    every line at once (``io.StringIO`` would also copy the text, 4 bytes a character).

    >>> list(line_blocks("a\\nb\\r\\n\\nc", size=2))
    [(1, 'a\\nb\\r'), (3, '\\nc')]
    """
    start, length, first_line = 0, len(text), 1
    while True:
        end = text.find("\n", start + size) if start + size < length else -1
        if end < 0:
            yield first_line, text[start:]
            return
        yield first_line, text[start:end]
        first_line += text.count("\n", start, end) + 1
        start = end + 1


def load_ndjson(text: str, name: str) -> List[Tuple[int, Any]]:
    """(line number, value) for every non-blank line of a JSON-Lines file."""
    if not text.strip():
        raise fail(name, "", "the file is empty; expected one JSON object per line")
    records = []
    for number, line in nonblank_lines(text):
        try:
            value = _decode(line)
        except json.JSONDecodeError as error:
            raise fail(name, "line %d, column %d" % (number, error.colno),
                       "not valid JSON (%s); expected one JSON object per line" % error.msg) from None
        except RecursionError:
            raise fail(name, "line %d" % number, "the JSON is nested too deeply") from None
        except ValueError as error:
            message = str(error)
            if message.startswith("NaN/Infinity:"):
                raise fail(name, "line %d" % number, "%s is not a JSON number; use finite numbers"
                           % message.split(":", 1)[1]) from None
            raise fail(name, "line %d" % number, "a number is too long") from None
        records.append((number, value))
    return records


def parse_csv(text: str, name: str, backslash_escapes: bool = False) -> List[Tuple[int, List[str]]]:
    """(line number where the record starts, fields) for every non-blank CSV record.

    RFC 4180 quoting (``""`` inside a quoted field) strictly; with ``backslash_escapes`` a quote
    inside a quoted field is written ``\\"`` instead (the variant of the AI CUP 2022 task text).
    """
    import csv  # here: only the nlu track reads CSV

    if backslash_escapes:
        dialect = dict(doublequote=False, escapechar="\\", strict=True)
    else:
        dialect = dict(doublequote=True, strict=True)
    reader = csv.reader(io.StringIO(text, newline=""), **dialect)
    rows = []
    start_line = 1
    try:
        for fields in reader:
            if fields and any(field.strip() for field in fields):
                rows.append((start_line, fields))
            start_line = reader.line_num + 1
    except csv.Error as error:
        raise fail(name, "line %d" % (reader.line_num or start_line), _csv_message(error)) from None
    return rows


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

