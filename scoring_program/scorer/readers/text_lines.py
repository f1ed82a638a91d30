"""A UTF-8 text file as consecutive blocks of whole lines, numbered as Python's universal newlines
number them; memory bounded by a block and the longest line, not by the file."""

from __future__ import annotations

from typing import Iterator, List, Optional, Tuple

from .files import UTF8_BOM, byte_chunks
from .problems import SubmissionError, fail

# The most bytes one line may have in a submission (clause (c) of the refusal policy: a real
# record is a few kB).
MAX_LINE_BYTES = 1 << 20


def newlines_as_lf(text: str) -> str:
    r"""``text`` with each line end as Python's universal newlines read it (``\r\n``, a lone
    ``\r`` or ``\n``) written ``\n``: what the official readers that open files in text mode see.

    >>> newlines_as_lf("a\r\nb\rc\n")
    'a\nb\nc\n'
    """
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _line_ends(data: bytes, end: Optional[int] = None) -> int:
    """How many lines end in ``data[:end]``: LF, CRLF and a lone CR (universal newlines)."""
    end = len(data) if end is None else end
    crs = data.count(b"\r", 0, end)
    return data.count(b"\n", 0, end) + crs - (data.count(b"\r\n", 0, end) if crs else 0)


def _last_line_end(data: bytes) -> int:
    """Where the last whole line of ``data`` ends (0: none); a CR that ends ``data`` may be the
    first half of a CRLF, so the line it ends waits for the next chunk."""
    end = len(data) - 1 if data.endswith(b"\r") else len(data)
    return max(data.rfind(b"\n", 0, end), data.rfind(b"\r", 0, end)) + 1


def decoded_block(name: str, data: bytes, offset: int, line: int, first: bool) -> str:
    """``data`` (bytes of a file from ``offset``, its first line numbered ``line``) as text, a
    leading BOM dropped when it is the file's ``first`` block; a text that is not UTF-8 is a
    problem naming its byte and line in the whole file."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _utf8_problem(name, data, error, offset, line - 1) from None
    if first and text.startswith(UTF8_BOM):
        text = text[1:]
    return text


def _utf8_problem(name: str, data: bytes, error: UnicodeDecodeError, offset: int,
                  lines_before: int) -> SubmissionError:
    line = lines_before + _line_ends(data, error.start) + 1
    return fail(name, "byte %d (line %d)" % (offset + error.start, line),
                "the file is not UTF-8 (%s); save it as UTF-8" % error.reason)


def text_blocks(path: str, name: str, max_bytes: Optional[int], max_line_bytes: Optional[int] = MAX_LINE_BYTES,
                size: Optional[int] = None) -> Iterator[Tuple[int, str]]:
    """(number of its first line, text) for consecutive blocks of whole lines of a UTF-8 file.

    Lines end as Python's universal newlines end them (LF, CRLF or a lone CR, as the official
    scorers that read in text mode see them; ``newlines_as_lf`` turns a block's into LF), and are
    numbered so. Each block ends with its line end (the last one may not); a leading BOM is
    dropped. A line longer than ``max_line_bytes`` is refused when it is met, before it is decoded.
    """
    offset, line, carry, first = 0, 1, b"", True
    pending: List[bytes] = []  # chunks of a line longer than a chunk, joined once it ends
    pending_size = 0
    for chunk in byte_chunks(path, name, max_bytes, size):
        if b"\n" not in chunk and b"\r" not in chunk:
            pending.append(chunk)
            pending_size += len(chunk)
            if max_line_bytes is not None and len(carry) + pending_size > max_line_bytes:
                raise fail(name, "line %d" % line, "the line is longer than %d bytes" % max_line_bytes)
            continue
        if pending:
            data = b"".join([carry] + pending + [chunk])
            pending, pending_size = [], 0
        else:
            data = carry + chunk if carry else chunk
        cut = _last_line_end(data)
        carry = data[cut:]
        if cut:
            yield line, decoded_block(name, data[:cut], offset, line, first)
            offset += cut
            line += _line_ends(data, cut)
            first = False
        if max_line_bytes is not None and len(carry) > max_line_bytes:
            raise fail(name, "line %d" % line, "the line is longer than %d bytes" % max_line_bytes)
    if pending:
        carry = b"".join([carry] + pending)
    if carry:
        yield line, decoded_block(name, carry, offset, line, first)
