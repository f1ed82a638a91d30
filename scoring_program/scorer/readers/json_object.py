"""A file's top-level JSON object (``{"id": value, ...}``, as SQuAD's predictions), streamed: memory
holds a block and a member, never the whole document, and every problem names its key, line and
column."""

from __future__ import annotations

import json
from json.decoder import scanstring
from typing import Any, Iterator, Optional, Tuple

from .files import byte_chunks
from .json_list import MAX_RECORD_CHARS
from .json_text import JsonText, decoded_chunks
from .problems import clip, fail


def iter_json_object(path: str, name: str, max_bytes: Optional[int], max_members: Optional[int] = None,
                     noun: str = "keys", max_record_chars: Optional[int] = MAX_RECORD_CHARS
                     ) -> Iterator[Tuple[str, Any]]:
    """(key, value) for each member of a file's top-level JSON object, in the file's order.

    A key given twice is yielded twice (``json.load`` keeps the last: the caller decides). The
    file is read as ``json_list.iter_json_values`` reads a list (UTF-8, a leading BOM dropped,
    numbers bounded, nesting bounded), each key and each value refused when longer than
    ``max_record_chars``; past ``max_members`` members (more than the phase could use; ``noun``
    names them in the problem line) the file is refused before the rest is built.
    """
    reader = _JsonObject(path, name, max_bytes, max_record_chars)
    reader.open_object()
    yield from reader.members(max_members, noun)
    reader.close()


class _JsonObject(JsonText):
    """Reading one file's top-level JSON object: its ``{``, then key, ``:`` and value per member."""

    closer, container, record = "}", "object", "value"

    def __init__(self, path: str, name: str, max_bytes: Optional[int], max_record_chars: Optional[int]) -> None:
        self.name = name
        self.max_record_chars = max_record_chars
        self.key = ""
        super().__init__(decoded_chunks(byte_chunks(path, name, max_bytes), name))

    def where_record(self, index: int) -> str:
        """``key 'abc' (line L)`` of the value at ``position``, the ``index``-th (0-based)."""
        return "key %s (line %d)" % (clip(self.key), self.line_at(self.position))

    def open_object(self) -> None:
        """Past the ``{`` that opens the object, or a problem naming what the file holds instead."""
        self.skip_whitespace()
        if self.position >= len(self.buffer):
            raise fail(self.name, "", "the file is empty; expected a JSON object")
        first = self.buffer[self.position]
        if first != "{":
            kind = {"[": "a list", '"': "a string"}.get(first, "not an object")
            raise fail(self.name, "top level", "expected a JSON object {\"id\": value, ...}, found %s" % kind)
        self.position += 1
        self.skip_whitespace()

    def members(self, max_members: Optional[int], noun: str) -> Iterator[Tuple[str, Any]]:
        """(key, value) up to and past the object's ``}``."""
        if self.at("}"):
            self.position += 1
            return
        index = 0
        while True:
            if max_members is not None and index >= max_members:
                raise fail(self.name, "top level", "more than %d %s, but this phase has far fewer; give one "
                                                   "key per item of the phase" % (max_members, noun))
            self.key = self.parse_key(index)
            value, end = self.parse_record(index)
            yield self.key, value
            index += 1
            if not self.next_record(end):
                return

    def parse_key(self, index: int) -> str:
        """The key at ``position`` and past the ``:`` after it; refused when longer than
        ``max_record_chars``."""
        limit = self.max_record_chars
        while True:
            if not self.at('"'):
                raise fail(self.name, self.where(self.position),
                           "not valid JSON (Expecting property name enclosed in double quotes)")
            try:
                key, end = scanstring(self.buffer, self.position + 1, True)
                break
            except json.JSONDecodeError as caught:
                # a key cut by the end of the buffer is read again with more text; any other error is final
                cut = caught.msg.startswith("Unterminated string") or caught.pos >= len(self.buffer) - 12
                if self.done or not cut:
                    raise fail(self.name, self.where(caught.pos), "not valid JSON (%s)" % caught.msg) from None
            if limit is not None and len(self.buffer) - self.position > limit:
                raise fail(self.name, "member %d (line %d)" % (index + 1, self.line_at(self.position)),
                           "the key is longer than %d characters (or never closed)" % limit)
            self.more()
        if limit is not None and end - self.position > limit:
            raise fail(self.name, "member %d (line %d)" % (index + 1, self.line_at(self.position)),
                       "the key is longer than %d characters" % limit)
        self.position = end
        self.skip_whitespace()
        if not self.at(":"):
            raise fail(self.name, self.where(self.position), "not valid JSON (Expecting ':' delimiter)")
        self.position += 1
        self.skip_whitespace()
        return key
