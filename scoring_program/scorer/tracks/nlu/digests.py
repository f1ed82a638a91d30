"""nlu's canonical predictions (the contract's ``prediction_digests``): each id's q' and r' as the
scorer reads them from the CSV (the reader's quoting and wrapping quotes undone), white space
collapsed: the tokens the score compares are the same for any run of white space."""

from __future__ import annotations

from typing import Dict

from ...machinery.item_digests import digest
from ...readers.options import Options
from ...readers.problems import Problems
from .reading import Row, parse_answers


def prediction_digests(submission_path: str, name: str, options: Options) -> Dict[str, bytes]:
    """Id -> the digest of its (q', r'), each text's white space collapsed."""
    problems = Problems(name)
    found: Dict[str, bytes] = {}

    def add(row: Row) -> None:
        found[row.identifier] = digest((" ".join(row.q.split()), " ".join(row.r.split())))

    parse_answers(submission_path, name, options.max_file_bytes, problems, gold=False, on_row=add)
    problems.raise_if_any()
    return found
