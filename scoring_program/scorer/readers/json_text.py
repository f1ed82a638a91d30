"""The text of a JSON file as its list and object readers see it: decoded a block at a time, held
in a buffer of about a block from the reading position, every place in it named by line and column;
and its top-level container's values read one after the other, each bounded."""

from __future__ import annotations

import json
import re
from typing import Any, Iterator, Optional, Tuple

from . import files
from .json_values import BOUNDED_DECODER, NumberError, json_problem
from .problems import fail
from .text_lines import decoded_block

WHITESPACE = re.compile(r"[ \t\n\r]*")
SEPARATOR = re.compile(r"[ \t\n\r]*,[ \t\n\r]*")


def decoded_chunks(chunks: Iterator[bytes], name: str) -> Iterator[str]:
    """The text of a file's ``chunks``, a block at a time (UTF-8, strictly; a leading BOM dropped).

    Blocks are cut before the last character that starts in them, so none is split; an error
    names its byte and line in the whole file.
    """
    offset, lines, carry, first = 0, 0, b"", True
    for chunk in chunks:
        data = carry + chunk if carry else chunk
        cut = _complete_prefix(data)
        carry = data[cut:]
        yield decoded_block(name, data[:cut], offset, lines + 1, first)
        offset += cut
        lines += data.count(b"\n", 0, cut)
        first = first and not cut
    if carry:
        yield decoded_block(name, carry, offset, lines + 1, first)


def _complete_prefix(data: bytes) -> int:
    """The length of ``data`` without a multi-byte UTF-8 character that the next chunk completes."""
    start = len(data) - 1
    while start > 0 and len(data) - start < 4 and 0x80 <= data[start] < 0xC0:
        start -= 1  # continuation bytes
    lead = data[start] if data else 0
    if lead >= 0xC0 and len(data) - start < (2 if lead < 0xE0 else 3 if lead < 0xF0 else 4):
        return start
    return len(data)


class JsonText:
    """The text in memory (``buffer``, about a block from where reading is, ``position``) and how
    lines are counted in it; the values of the top-level container (a list: ``closer`` ``]``; an
    object: ``}``), each ``record`` at most ``max_record_chars`` characters, named by the
    subclass's ``where_record``."""

    closer, container, record = "]", "list", "record"
    name: str
    max_record_chars: Optional[int]

    def __init__(self, chunks: Iterator[str]) -> None:
        self.chunks = chunks
        self.buffer = ""
        self.position = 0
        self.done = False  # every chunk of the file is in the buffer
        self.line = 1  # the line number at ``counted`` (an index in the buffer)
        self.counted = 0
        self.column_base = 0  # characters of the buffer's first line that were dropped before it

    def drop_read(self) -> None:
        """Forget the text before ``position`` (keeping the buffer at about one block)."""
        self.line_at(self.position)
        newline = self.buffer.rfind("\n", 0, self.position)
        self.column_base = self.column_base + self.position if newline < 0 else self.position - newline - 1
        self.buffer, self.position, self.counted = self.buffer[self.position:], 0, 0

    def drop_read_past_a_block(self) -> None:
        """``drop_read`` once ``position`` is more than a block into the buffer."""
        if self.position > files.BLOCK_BYTES:
            self.drop_read()

    def more(self) -> bool:
        """Append at least a block (or as much as the buffer holds after ``position``: a long
        record is then re-parsed O(log) times); whether any text came."""
        if self.done:
            return False
        want = max(files.BLOCK_BYTES, len(self.buffer) - self.position)
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

    def skip_whitespace(self) -> None:
        while True:
            self.position = WHITESPACE.match(self.buffer, self.position).end()
            if self.position < len(self.buffer) or not self.more():
                return

    def at(self, character: str) -> bool:
        return self.position < len(self.buffer) and self.buffer[self.position] == character

    def where_record(self, index: int) -> str:
        raise NotImplementedError

    def parse_record(self, index: int) -> Tuple[Any, int]:
        """The record at ``position`` (the ``index``-th) and where it ends: parsed in the buffer
        when it is whole there, else as the text comes (``parse_slowly``); refused when longer
        than ``max_record_chars``."""
        limit = self.max_record_chars
        try:
            value, end = BOUNDED_DECODER.scan_once(self.buffer, self.position)
            complete = self.ended(end)
        except Exception:  # (StopIteration, JSONDecodeError, NumberError, RecursionError)
            complete = False
        if not complete or (limit is not None and end - self.position > limit):
            value, end = self.parse_slowly(index)
        if limit is not None and end - self.position > limit:
            raise fail(self.name, self.where_record(index), "the %s is longer than %d characters" % (self.record, limit))
        return value, end

    def ended(self, end: int) -> bool:
        """Whether a value parsed up to ``end`` is whole: a comma or the container's end follows (a
        number cut by the block's end, ``1.`` of ``1.5``, parses as a shorter one), or enough
        text follows for a problem there to be reported as one."""
        after = WHITESPACE.match(self.buffer, end).end()
        return after < len(self.buffer) and (self.buffer[after] in "," + self.closer or len(self.buffer) - end > 64)

    def parse_slowly(self, index: int) -> Tuple[Any, int]:
        """The record at ``position``, reading more text while it may be incomplete."""
        limit = self.max_record_chars
        while True:
            try:
                value, end = BOUNDED_DECODER.raw_decode(self.buffer, self.position)
                if self.done or self.ended(end):
                    return value, end
            except json.JSONDecodeError as caught:
                if self.done:
                    raise fail(self.name, self.where(caught.pos), "not valid JSON (%s)" % caught.msg) from None
            except (NumberError, RecursionError) as caught:
                raise json_problem(self.name, self.where_record(index), caught) from None
            if limit is not None and len(self.buffer) - self.position > limit:
                raise fail(self.name, self.where_record(index),
                           "the %s is longer than %d characters (or never closed)" % (self.record, limit))
            self.more()

    def next_record(self, end: int) -> bool:
        """Past the ``,`` after a record that ends at ``end`` (True), or past the container's end
        (``closer``: False), or a problem."""
        match = SEPARATOR.match(self.buffer, end)
        if match is not None and match.end() < len(self.buffer):
            self.position = match.end()
            self.drop_read_past_a_block()
            return True
        self.position = end
        self.skip_whitespace()
        if self.position >= len(self.buffer):
            raise fail(self.name, self.where(self.position),
                       "not valid JSON (the %s is never closed with %s)" % (self.container, self.closer))
        if self.buffer[self.position] == self.closer:
            self.position += 1
            return False
        if self.buffer[self.position] != ",":
            raise fail(self.name, self.where(self.position), "not valid JSON (Expecting ',' delimiter)")
        self.position += 1
        self.drop_read_past_a_block()
        self.skip_whitespace()
        return True

    def close(self) -> None:
        """Nothing but whitespace after the list or object."""
        self.skip_whitespace()
        if self.position < len(self.buffer):
            raise fail(self.name, self.where(self.position), "not valid JSON (Extra data)")
