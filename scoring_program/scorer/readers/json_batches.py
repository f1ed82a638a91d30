"""The JSON list reader's fast path: many records parsed by one call of the C scanner.

``json_list`` reads a list one record at a time (``raw_decode``); where the text allows, this
parses the records of up to a batch's length of text as one list instead, which is most of the
speed of ``json.loads``. A batch either parses to exactly what the record-by-record path reads or
is given up (that path then reads the same text), so it never changes what is accepted or refused
(tests/test_fast_paths.py compares both paths). Without it (this module, and the lines of
``json_list`` that name ``batches``), the reader is the plain per-record loop.
"""

from __future__ import annotations

import json
from typing import Any, Iterator, List, Optional, Tuple

from .json_values import BOUNDED_DECODER, MAX_INT_DIGITS, MAX_NUMBER_CHARS, reject_constant
from .json_text import SEPARATOR, WHITESPACE, JsonText

# Without number hooks the C scanner converts numbers itself. It is used for a file only while
# no byte run could be a number the hooks refuse (checked on the raw bytes with one
# bytes.translate): 20 characters in a row of a number's alphabet (every integer of 20 digits and
# every number text of 33 characters has one). Such runs elsewhere (inside strings) only send the
# file to the decoder with the hooks.
_FAST_DECODER = json.JSONDecoder(parse_constant=reject_constant)
_NUMBER_RUNS = bytes(48 if b in b"0123456789.eE+-" else 32 for b in range(256))
_LONG_RUN = b"0" * (MAX_INT_DIGITS + 1)


def _may_hold_long_number(data: bytes) -> bool:
    return _LONG_RUN in data.translate(_NUMBER_RUNS)


class RecordBatches:
    """The batches of one file's list: whether its bytes may hold a long number (``watched``),
    and where the last batch that did not parse was (the records there are read one at a time
    for a batch's length of text before a batch is tried again)."""

    def __init__(self, batch_chars: int) -> None:
        self.batch_chars = batch_chars
        self.long_numbers = False  # whether the batches need the number hooks
        self.slow_until = 0  # (an index in the text's buffer)

    def watched(self, chunks: Iterator[bytes]) -> Iterator[bytes]:
        """``chunks`` as they come, ``long_numbers`` set before a chunk that may hold one (or the
        end of one that the previous chunk began) is passed on."""
        tail = b""
        for chunk in chunks:
            if not self.long_numbers:
                self.long_numbers = _may_hold_long_number(tail + chunk)
                tail = chunk[-MAX_NUMBER_CHARS:]
            yield chunk

    def parse(self, text: JsonText) -> Optional[Tuple[List[Any], int]]:
        """The records from ``text.position`` to the last ``}`` followed by a comma within
        ``batch_chars``, parsed as one list, and where the next record starts; None when that is
        not a valid list (a cut inside a string leaves it unterminated, so a wrong cut never
        parses), when a comma is followed by the list's end (``[{...}, ]``, refused by the
        record-by-record path), or within a batch's length after a batch that did not parse."""
        if text.position < self.slow_until:
            return None
        batch = self._parse(text)
        if batch is None:
            self.slow_until = text.position + self.batch_chars
        return batch

    def _parse(self, text: JsonText) -> Optional[Tuple[List[Any], int]]:
        if len(text.buffer) - text.position < self.batch_chars and not text.done:
            text.more()
        buffer, position = text.buffer, text.position
        cut = buffer.rfind("}", position, min(len(buffer), position + self.batch_chars))
        if cut < 0:
            return None
        match = SEPARATOR.match(buffer, cut + 1)
        if match is not None and match.end() < len(buffer):
            after = match.end()  # the next record
            if buffer[after] == "]":
                return None
        else:  # the last records: ``}`` and the list's end
            after = WHITESPACE.match(buffer, cut + 1).end()
            if not (text.done and after < len(buffer) and buffer[after] == "]"):
                return None
        batch = "[" + buffer[position:cut + 1] + "]"
        scan = BOUNDED_DECODER.scan_once if self.long_numbers else _FAST_DECODER.scan_once
        try:
            values, end = scan(batch, 0)
        except Exception:  # (StopIteration, JSONDecodeError, NumberError, RecursionError)
            return None
        return (values, after) if end == len(batch) else None
