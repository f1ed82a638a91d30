"""nlu's CSV files read as rows: the answers ``id,q',r'`` of a submission or a gold (streamed, RFC
4180 or its backslash-escape variant), and the ids of the released test input."""

from __future__ import annotations

from typing import Callable, Collection, Iterator, List, Optional, Tuple

from ...readers.problems import Problems, SubmissionError
from ...readers.csv_rows import iter_csv
from ...readers.files import file_contains
from .layout import HEADER_FIRST_CELL, file_head, gold_layout_problem, layout_problem
from .names import TEST_INPUT


class Row:
    """One answer of a file: its line, id, q' and r'."""

    __slots__ = ("line", "identifier", "q", "r")

    def __init__(self, line: int, identifier: str, q: str, r: str) -> None:
        self.line = line
        self.identifier = identifier
        self.q = q
        self.r = r


def strip_wrapping_quotes(text: str) -> str:
    """The real files wrap every text in one pair of literal quotes: ``"text"`` -> ``text``.

    >>> strip_wrapping_quotes('"not to be? No, to be"'), strip_wrapping_quotes('"')
    ('not to be? No, to be', '"')
    """
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        return text[1:-1]
    return text


def read_rows(path: str, name: str, max_bytes: Optional[int]) -> Iterator[Tuple[int, List[str]]]:
    """CSV records without a header row, streamed: RFC 4180, or the backslash-escape variant when
    the file is not RFC 4180 but is that variant (decided by a first pass that keeps nothing)."""
    backslash = file_contains(path, name, max_bytes, b'\\"') and _backslash_variant(path, name, max_bytes)
    first = True
    for line, fields in iter_csv(path, name, max_bytes, backslash_escapes=backslash):
        if first and fields and fields[0].strip().lower() == HEADER_FIRST_CELL:
            first = False
            continue
        first = False
        yield line, fields


def _backslash_variant(path: str, name: str, max_bytes: Optional[int]) -> bool:
    try:
        for _ in iter_csv(path, name, max_bytes):
            pass
        return False
    except SubmissionError as rfc_error:
        widths = set()
        try:
            for _, fields in iter_csv(path, name, max_bytes, backslash_escapes=True):
                widths.add(len(fields))
        except SubmissionError:
            raise rfc_error from None
        if len(widths) > 1:  # not that variant either
            raise rfc_error from None
        return True


def parse_answers(path: str, name: str, max_bytes: Optional[int], problems: Problems, gold: bool,
                  keep: Optional[Collection[str]] = None, max_rows: Optional[int] = None,
                  on_row: Optional[Callable[[Row], None]] = None) -> Tuple[List[Row], int]:
    """Rows ``id,q',r'`` (or, for gold, the training layout ``id,q,r,s,q',r'[,...]``), and how
    many rows were left out because their id is not in ``keep`` (when given). Reading stops
    after ``max_rows`` rows or many problems. With ``on_row``, each row goes to it as it is read
    instead of into the list (which stays empty)."""
    problem = (gold_layout_problem if gold else layout_problem)(file_head(path, name, max_bytes))
    if problem:
        problems.add("line 1", problem)
        return [], 0
    answers: List[Row] = []
    left_out = 0
    width = q_column = r_column = 0
    count = -1
    for count, (line, fields) in enumerate(read_rows(path, name, max_bytes)):
        if problems.entries and problems.saturated:
            break
        if max_rows is not None and count >= max_rows:
            problems.add("line %d" % line, "more than %d rows, but this phase has far fewer ids" % max_rows)
            break
        if not count:
            width = len(fields)
            q_column, r_column = (4, 5) if gold and width >= 6 else (1, 2)
        expected_width = width if gold else 3
        if len(fields) != expected_width or (not gold and len(fields) != 3):
            problems.add("line %d" % line, "expected 3 comma-separated columns id,q',r' (quote a text "
                                           "that contains a comma); found %d" % len(fields))
            continue
        identifier = fields[0].strip()
        if not identifier:
            problems.add("line %d" % line, "the id is empty")
            continue
        if keep is not None and identifier not in keep:
            left_out += 1
            continue
        row = Row(line, identifier, strip_wrapping_quotes(fields[q_column]), strip_wrapping_quotes(fields[r_column]))
        if on_row is None:
            answers.append(row)
        else:
            on_row(row)
    if count < 0:
        problems.add("", "no rows; expected lines id,q',r'")
    return answers, left_out


def read_test_ids(path: str) -> List[str]:
    """The ids of the released test input (id,q,r,s), in file order."""
    problems = Problems(TEST_INPUT)
    identifiers: List[str] = []
    for line, fields in read_rows(path, TEST_INPUT, None):
        if len(fields) < 3:
            problems.add("line %d" % line, "expected the columns id,q,r,s")
            continue
        identifiers.append(fields[0].strip())
    problems.raise_as_reference_error()
    return identifiers

