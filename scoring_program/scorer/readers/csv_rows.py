"""A CSV file's records, streamed a block of lines at a time, RFC 4180 quoting read strictly."""

from __future__ import annotations

import io
from itertools import chain
from typing import Iterator, List, Optional, Tuple

from .problems import fail
from .text_lines import text_blocks

MAX_CSV_LINE_BYTES = 4 << 20  # (a CSV line holds up to three fields of csv's 131,072-character limit)


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
