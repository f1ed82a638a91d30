"""A file's top-level JSON list of records, streamed: memory holds a block and a record, never the
whole document, and every problem names its record, line and column."""

from __future__ import annotations

from typing import Any, Iterator, Optional, Tuple

from .files import byte_chunks
from .json_text import WHITESPACE, JsonText, decoded_chunks
from .json_values import BOUNDED_DECODER
from .problems import fail

# The most characters one JSON record (an element of the top-level list) may have in a
# submission (clause (c) of the refusal policy: a real record is a few kB).
MAX_RECORD_CHARS = 1 << 20


def iter_json_values(path: str, name: str, max_bytes: Optional[int],
                     max_record_chars: Optional[int] = MAX_RECORD_CHARS) -> Iterator[Tuple[int, Any]]:
    """(0-based index, value) for each element of a file's top-level JSON list, in order.

    The file is decoded a block at a time and each element parsed on its own
    (``raw_decode``), so memory holds one block and one record, never the whole document. A
    record longer than ``max_record_chars`` is refused before it is parsed.

    The steps: ``open_list`` (the ``[``), then ``records`` (one record at a time, each followed by
    ``,`` or the list's ``]``), then ``close`` (nothing but whitespace after the list).
    """
    reader = _JsonList(path, name, max_bytes, max_record_chars)
    reader.open_list()
    yield from reader.records()
    reader.close()


def _json_lines(text: str, position: int) -> bool:
    """Whether ``text`` holds, from ``position``, a JSON object followed by another one on a
    later line (JSON Lines where a JSON list was expected)."""
    try:
        _, end = BOUNDED_DECODER.raw_decode(text, position)
    except (ValueError, RecursionError):
        return False
    after = WHITESPACE.match(text, end).end()
    return "\n" in text[end:after] and text.startswith("{", after)


class _JsonList(JsonText):
    """Reading one file's top-level JSON list: the steps of the format over the file's text."""

    def __init__(self, path: str, name: str, max_bytes: Optional[int], max_record_chars: Optional[int]) -> None:
        self.name = name
        self.max_record_chars = max_record_chars
        super().__init__(decoded_chunks(byte_chunks(path, name, max_bytes), name))

    def where_record(self, index: int) -> str:
        """``record N (line L)`` of the record at ``position``, the ``index``-th (0-based)."""
        return "record %d (line %d)" % (index + 1, self.line_at(self.position))

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

    def records(self) -> Iterator[Tuple[int, Any]]:
        """(index, value) of each record, up to and past the list's ``]``."""
        index = 0
        if self.at("]"):
            self.position += 1
            return
        while True:
            value, end = self.parse_record(index)
            yield index, value
            index += 1
            if not self.next_record(end):
                return
