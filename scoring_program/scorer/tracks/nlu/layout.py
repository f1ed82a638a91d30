"""The layouts of nlu's CSV files, told apart by their first records: a submission is ``id,q',r'``;
a gold is ``id,q',r'`` or the training layout ``id,q,r,s,q',r'``. The usual mistakes (another
delimiter, pandas' index column, the test input or a prediction given as gold) are named with
their fix before a row is read."""

from __future__ import annotations

import io
from typing import List, Optional

from ...readers.files import byte_chunks

HEADER_FIRST_CELL = "id"

# The layouts the common tools write by mistake, told apart by the first records (refusal policy,
# clause a: not this track's format); each with its fix.
_OTHER_DELIMITERS = (
    (";", "semicolons (';'), as Excel writes CSV in some locales",
     "separate the columns with commas (pandas: to_csv(path, sep=\",\", index=False); Excel: save as "
     "\"CSV UTF-8 (Comma delimited)\")"),
    ("\t", "TAB characters (a TSV file)",
     "separate the columns with commas (pandas: to_csv(path, sep=\",\", index=False))"),
)


def layout_problem(text: str) -> Optional[str]:
    """Why the file is not ``id,q',r'`` CSV, when its first records show one of the usual
    mistakes (another delimiter; pandas' index column), else None.

    >>> layout_problem(',id,q,r\\n0,1,"a","b"\\n')[:62]
    "an index column before id,q',r': the first column is empty in "
    """
    import csv

    head = text[:1 << 16]
    head = head[:head.rfind("\n") + 1] or head  # whole lines only

    def widths(delimiter: str) -> List[int]:
        reader = csv.reader(io.StringIO(head, newline=""), delimiter=delimiter)
        try:
            return [len(fields) for fields, _ in zip(reader, range(20)) if any(f.strip() for f in fields)]
        except csv.Error:
            return []

    comma = widths(",")
    if comma and all(width == 3 for width in comma):
        return None
    if comma and all(width == 4 for width in comma):
        reader = csv.reader(io.StringIO(head, newline=""))
        first = [fields[0].strip() for fields, _ in zip(reader, range(20)) if fields]
        header = first[0].lower() in ("", "unnamed: 0") if first else False
        numbers = [cell for cell in first[1:] if cell]
        if header or (numbers and all(cell.isdigit() for cell in numbers)):
            return ("an index column before id,q',r': the first column is %s; write the file without it "
                    "(pandas: to_csv(path, index=False))"
                    % ("empty in the header" if header else "a row number"))
    for delimiter, found, fix in _OTHER_DELIMITERS:
        other = widths(delimiter)
        if other and all(width in (3, 4) for width in other) and len(set(other)) == 1:
            return "the columns are separated by %s; %s" % (found, fix)
    return None


def file_head(path: str, name: str, max_bytes: Optional[int]) -> str:
    """The first 64 KiB of the file as text (for ``layout_problem``; the reader reports bad UTF-8)."""
    data = next(byte_chunks(path, name, max_bytes, 1 << 16), b"")
    text = data.decode("utf-8", "replace")
    return text[1:] if text.startswith("\ufeff") else text


def gold_layout_problem(text: str) -> Optional[str]:
    """Why a file given as gold is no gold, from its first record ('' or None when it may be):
    the test input (``id,q,r,s``: the questions and the stance, no answers) or a prediction (the
    submission's header ``id,q,r``). The gold is ``id,q',r'`` (no header, or ``id,q',r'``) or the
    training layout ``id,q,r,s,q',r'``.

    >>> gold_layout_problem('id,q,r,s\\n1,"a","b",AGREE\\n')[:43]
    'it holds 4 columns, the test input id,q,r,s'
    >>> gold_layout_problem('id,q,r\\n1,"a","b"\\n')[:45]
    'its header is id,q,r, a prediction file (the '
    """
    import csv
    head = text[:1 << 16]
    head = head[:head.rfind("\n") + 1] or head
    try:
        rows = [fields for fields, _ in zip(csv.reader(io.StringIO(head, newline="")), range(3)) if fields]
    except csv.Error:
        return None
    if not rows:
        return None
    header = [field.strip().lower() for field in rows[0]]
    if header == ["id", "q", "r"]:
        return ("its header is id,q,r, a prediction file (the submission format), not gold: the gold's answers "
                "are q',r' (no header, or id,q',r')")
    body = rows[1:] if header and header[0] == HEADER_FIRST_CELL else rows
    if header == ["id", "q", "r", "s"] or (body and len(body[0]) in (4, 5)):
        return ("it holds %d columns, the test input id,q,r,s (the questions and the stance, without the "
                "answers), not gold: the gold is id,q',r' or the training layout id,q,r,s,q',r'"
                % (len(body[0]) if body else len(header)))
    return None

