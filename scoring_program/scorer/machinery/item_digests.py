"""What a submitted file predicts, item by item, as short digests of a canonical form: the
contract's ``prediction_digests`` (``scorer/tracks/contract.py``), which the organisers' copy
detection compares across teams (``ranking/copies.py``).

A track's canonical form is what its scorer reads of an item and nothing else: the reader's own
values (so key order, white space, extra fields, a BOM and line endings are gone), the record's
place in the file dropped, and what the scorer takes as a set sorted. Two files with the same
digest for an item predict the same for it, as far as the scores can tell.
"""

from __future__ import annotations

import hashlib
from typing import Any, Dict, Iterable, List, Mapping, Tuple

from ..readers.files import byte_chunks
from ..readers.options import Options
from .spans import Span

DIGEST_BYTES = 8  # a chance collision between two predictions of one item: 2**-64


def digest(canonical: Any) -> bytes:
    """The digest of one item's canonical prediction: a value made of str, int, float, None and
    tuples, in an order that means nothing to the scorer already sorted."""
    return hashlib.blake2b(repr(canonical).encode("utf-8"), digest_size=DIGEST_BYTES).digest()


def span_digests(documents: Iterable[Tuple[str, Mapping[str, List[Span]]]]) -> Dict[str, bytes]:
    """Document id -> the digest of its spans, ``(technique, start, end)`` sorted (the span
    metrics sum over all pairs: the order of a document's spans means nothing), for the spans as
    the scorer scores them (after its overlap policy: ``span_problems.predictions_under_policy``)."""
    return {document: digest(tuple(sorted((technique, start, end) for technique, spans in by_technique.items()
                                          for start, end in spans)))
            for document, by_technique in documents}


def file_digest(submission_path: str, file_name: str, options: Options) -> Dict[str, bytes]:
    """The contract's default: the whole file as one item (id ``""``), by its bytes."""
    whole = hashlib.blake2b(digest_size=DIGEST_BYTES)
    for chunk in byte_chunks(submission_path, file_name, options.max_file_bytes):
        whole.update(chunk)
    return {"": whole.digest()}
