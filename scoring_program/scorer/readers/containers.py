"""Delimited text files, read with line numbers and bounds:

- TSV and other delimited lines: ``iter_rows`` (line number, fields) with the official scorers'
  split semantics (``line.split("\\t")``: empty fields kept; or ``str.split()`` on whitespace, as
  conlleval and most Perl scorers split), the column count checked;
- CoNLL-style token columns: ``iter_token_blocks`` (line number of the first token, rows), a blank
  line ending a sentence, ``-DOCSTART-`` lines ending one too, the tokens of one sentence bounded.

The other containers have their own readers: a JSON list (``json_list.iter_json_values``, or
``records.json_records`` for records keyed by an id), a JSON object of id -> value
(``json_object.iter_json_object``), JSON Lines (``ndjson.iter_ndjson``), CSV (``csv_rows.iter_csv``),
plain lines (``text_lines.iter_lines``: universal newlines, or LF only with the BOM kept, as
sacreBLEU reads). Every reader takes the file's display name (``name``) for its problem
lines, ``max_bytes`` (None: the gold, unbounded) and refuses a line longer than ``max_line_bytes``
before decoding it; a file that is not UTF-8 is refused naming the line and byte
(``text_lines.text_blocks``). Nothing here knows a track.
"""

from __future__ import annotations

from typing import Iterator, List, Optional, Sequence, Tuple

from .problems import Problems, fail
from .text_lines import MAX_LINE_BYTES, iter_lines

# The most tokens one sentence may hold before the file is refused: CoNLL-2003's longest sentence
# has 124 tokens; a submission past this bound is not a sentence file.
MAX_SENTENCE_TOKENS = 10000


def iter_rows(path: str, name: str, max_bytes: Optional[int], columns: Optional[Sequence[str]] = None,
              delimiter: Optional[str] = "\t", problems: Optional[Problems] = None,
              max_line_bytes: Optional[int] = MAX_LINE_BYTES, skip_blank: bool = True,
              header: Optional[Sequence[str]] = None) -> Iterator[Tuple[int, List[str]]]:
    """(line number, fields) for every line of a delimited text file.

    Parameters
    ----------
    path, name : str
        The file and its name in problem lines.
    max_bytes : int or None
        The largest file read (None: no bound, for the gold).
    columns : sequence of str, optional
        The columns' names: a line with another count of fields is a problem (``problems`` given:
        one line naming the line number, the counts and the columns, and the row is skipped; else a
        ``SubmissionError``). None: any count.
    delimiter : str or None
        ``"\\t"`` (default): ``line.split("\\t")``, empty fields kept, as the official Python scorers
        split; None: ``line.split()``, runs of whitespace, as conlleval and most Perl scorers.
    skip_blank : bool
        Leave out lines holding only whitespace (default); False: yield them as ``[]``.
    header : sequence of str, optional
        A first line equal to these fields is a header and is skipped.

    Yields
    ------
    (int, list of str)
    """
    first = True
    for number, line in iter_lines(path, name, max_bytes, max_line_bytes):
        if not line.strip():
            if not skip_blank:
                yield number, []
            continue
        fields = line.split(delimiter) if delimiter is not None else line.split()
        if first and header is not None and [field.strip() for field in fields] == list(header):
            first = False
            continue
        first = False
        if columns is not None and len(fields) != len(columns):
            message = "expected %d %s-separated columns (%s), found %d" % (
                len(columns), "tab" if delimiter == "\t" else "whitespace" if delimiter is None else repr(delimiter),
                ", ".join(columns), len(fields))
            if problems is None:
                raise fail(name, "line %d" % number, message)
            problems.add("line %d" % number, message)
            if problems.saturated:
                return
            continue
        yield number, fields


def iter_token_blocks(path: str, name: str, max_bytes: Optional[int], min_columns: int = 1,
                      delimiter: Optional[str] = None, boundary: str = "-DOCSTART-",
                      max_tokens: int = MAX_SENTENCE_TOKENS, max_line_bytes: Optional[int] = MAX_LINE_BYTES
                      ) -> Iterator[Tuple[int, List[Tuple[int, List[str]]]]]:
    """(line number of its first token, [(line number, columns), ...]) for every sentence of a
    CoNLL-style file: one token a line, its columns split as ``iter_rows`` splits them; a blank line
    ends a sentence, and so does a line whose first column is ``boundary`` (``-DOCSTART-``: the
    line itself is no token). A token line with fewer than ``min_columns`` columns, or a sentence
    of more than ``max_tokens`` tokens, is a ``SubmissionError`` naming the line.
    """
    sentence: List[Tuple[int, List[str]]] = []
    for number, fields in iter_rows(path, name, max_bytes, None, delimiter, None, max_line_bytes, skip_blank=False):
        if not fields or (boundary and fields[0] == boundary):
            if sentence:
                yield sentence[0][0], sentence
                sentence = []
            continue
        if len(fields) < min_columns:
            raise fail(name, "line %d" % number, "expected at least %d columns, found %d" % (min_columns, len(fields)))
        if len(sentence) >= max_tokens:
            raise fail(name, "line %d" % number, "a sentence of more than %d tokens (no blank line between "
                                                 "sentences?)" % max_tokens)
        sentence.append((number, fields))
    if sentence:
        yield sentence[0][0], sentence
