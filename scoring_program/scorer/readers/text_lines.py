"""A UTF-8 text file as consecutive blocks of whole lines (``text_blocks``) or as its lines
(``iter_lines``), numbered as Python's universal newlines number them or, as an option, split at LF
only; memory bounded by a block and the longest line, not by the file."""

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


def _line_ends(data: bytes, end: Optional[int] = None, universal: bool = True) -> int:
    """How many lines end in ``data[:end]``: LF, CRLF and a lone CR (universal newlines), or LF only."""
    end = len(data) if end is None else end
    if not universal:
        return data.count(b"\n", 0, end)
    crs = data.count(b"\r", 0, end)
    return data.count(b"\n", 0, end) + crs - (data.count(b"\r\n", 0, end) if crs else 0)


def _last_line_end(data: bytes, universal: bool = True) -> int:
    """Where the last whole line of ``data`` ends (0: none); a CR that ends ``data`` may be the
    first half of a CRLF, so the line it ends waits for the next chunk."""
    if not universal:
        return data.rfind(b"\n") + 1
    end = len(data) - 1 if data.endswith(b"\r") else len(data)
    return max(data.rfind(b"\n", 0, end), data.rfind(b"\r", 0, end)) + 1


def decoded_block(name: str, data: bytes, offset: int, line: int, first: bool, universal: bool = True) -> str:
    """``data`` (bytes of a file from ``offset``, its first line numbered ``line``) as text, a
    leading BOM dropped when it is the file's ``first`` block; a text that is not UTF-8 is a
    problem naming its byte and line (lines counted as ``universal`` says) in the whole file."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _utf8_problem(name, data, error, offset, line - 1, universal) from None
    if first and text.startswith(UTF8_BOM):
        text = text[1:]
    return text


def _utf8_problem(name: str, data: bytes, error: UnicodeDecodeError, offset: int,
                  lines_before: int, universal: bool = True) -> SubmissionError:
    line = lines_before + _line_ends(data, error.start, universal) + 1
    return fail(name, "byte %d (line %d)" % (offset + error.start, line),
                "the file is not UTF-8 (%s); save it as UTF-8" % error.reason)


def text_blocks(path: str, name: str, max_bytes: Optional[int], max_line_bytes: Optional[int] = MAX_LINE_BYTES,
                size: Optional[int] = None, universal_newlines: bool = True,
                keep_bom: bool = False) -> Iterator[Tuple[int, str]]:
    """(number of its first line, text) for consecutive blocks of whole lines of a UTF-8 file.

    Lines end as Python's universal newlines end them (LF, CRLF or a lone CR, as the official
    scorers that read in text mode see them; ``newlines_as_lf`` turns a block's into LF), and are
    numbered so; with ``universal_newlines=False``, at LF only (``open(path, newline="\\n")``: a
    CR is a character of its line). Each block ends with its line end (the last one may not); a
    leading BOM is dropped, unless ``keep_bom`` (``encoding="utf-8"`` rather than ``"utf-8-sig"``:
    the first line starts with U+FEFF). A line longer than ``max_line_bytes`` is refused when it is
    met, before it is decoded.
    """
    universal = universal_newlines
    offset, line, carry, first = 0, 1, b"", not keep_bom
    pending: List[bytes] = []  # chunks of a line longer than a chunk, joined once it ends
    pending_size = 0
    for chunk in byte_chunks(path, name, max_bytes, size):
        if b"\n" not in chunk and (not universal or b"\r" not in chunk):
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
        cut = _last_line_end(data, universal)
        carry = data[cut:]
        if cut:
            yield line, decoded_block(name, data[:cut], offset, line, first, universal)
            offset += cut
            line += _line_ends(data, cut, universal)
            first = False
        if max_line_bytes is not None and len(carry) > max_line_bytes:
            raise fail(name, "line %d" % line, "the line is longer than %d bytes" % max_line_bytes)
    if pending:
        carry = b"".join([carry] + pending)
    if carry:
        yield line, decoded_block(name, carry, offset, line, first, universal)


def iter_lines(path: str, name: str, max_bytes: Optional[int], max_line_bytes: Optional[int] = MAX_LINE_BYTES,
               universal_newlines: bool = True, keep_bom: bool = False) -> Iterator[Tuple[int, str]]:
    """(line number, line without its end) for every line of a UTF-8 file, blank lines included,
    streamed (``text_blocks``, whose ``universal_newlines`` and ``keep_bom`` it takes).

    The lines are those of iterating over the file opened in text mode, each without its end:
    ``"a\\nb"`` and ``"a\\nb\\n"`` hold the same two lines, an empty file none. With
    ``universal_newlines=False`` and ``keep_bom`` they are sacreBLEU's (``open(path,
    encoding="utf-8", newline="\\n")``): a lone CR stays inside its line, a CR before the LF at its
    end, a BOM at the start of the first. A line longer than ``max_line_bytes`` is refused.
    """
    for first_line, block in text_blocks(path, name, max_bytes, max_line_bytes, None, universal_newlines, keep_bom):
        lines = (newlines_as_lf(block) if universal_newlines else block).split("\n")
        if lines and lines[-1] == "":  # the block's last line end
            lines.pop()
        for number, line in enumerate(lines, start=first_line):
            # (text_blocks bounds a line that crosses its blocks; a shorter bound is checked here)
            if max_line_bytes is not None and len(line) * 4 > max_line_bytes and \
                    len(line.encode("utf-8", "surrogatepass")) > max_line_bytes:
                raise fail(name, "line %d" % number, "the line is longer than %d bytes" % max_line_bytes)
            yield number, line
