"""A JSON Lines file (one JSON value a line), streamed a block of lines at a time."""

from __future__ import annotations

import json
from typing import Any, Iterator, Optional, Tuple

from .json_values import BOUNDED_DECODER, NumberError, json_problem
from .problems import fail
from .text_lines import MAX_LINE_BYTES, newlines_as_lf, text_blocks


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
                value = BOUNDED_DECODER.decode(line)
            except json.JSONDecodeError as error:
                raise fail(name, "line %d, column %d" % (number, error.colno),
                           "not valid JSON (%s); expected one JSON object per line" % error.msg) from None
            except (NumberError, RecursionError) as error:
                raise json_problem(name, "line %d" % number, error) from None
            yield number, value
    if empty:
        raise fail(name, "", "the file is empty; expected one JSON object per line")
