"""Every command of the repository ends quietly when its output is a closed pipe (``tool --help |
head -1``): no message, no traceback, exit status 1, whether the write that finds the pipe closed
is a ``print`` in the middle of the run or the flush of the last buffered lines at exit.

The standard recipe (Python's documentation, "Note on SIGPIPE"): catch ``BrokenPipeError``, point
the stream at ``os.devnull`` (so that the interpreter's own flush at shutdown finds nothing to
complain about) and exit. One difference: the commands catch ``OSError`` or ``Exception`` to turn
their own faults into one line (and ``argparse`` ignores ``OSError`` while it prints ``--help``), so
a broken pipe raised as ``BrokenPipeError`` would become such a line, or an ``internal error``. The
streams are therefore watched while the command runs, and a broken pipe is raised as
``ClosedPipe``, which no ``except Exception`` catches; ``finally`` blocks still run.
Standard library only: the scoring program, the starting kit and the organisers' tools share it.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable


class ClosedPipe(BaseException):
    """The reader of stdout or stderr went away: the command stops, quietly."""


class _Watched:
    """A text stream whose writes and flushes raise ``ClosedPipe`` instead of ``BrokenPipeError``."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def _guard(self, call: Callable, *args: Any) -> Any:
        try:
            return call(*args)
        except BrokenPipeError:
            raise ClosedPipe() from None

    def write(self, text: str) -> int:
        return self._guard(self._stream.write, text)

    def writelines(self, lines: Any) -> None:
        self._guard(self._stream.writelines, lines)

    def flush(self) -> None:
        self._guard(self._stream.flush)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def exit_status(main: Callable[..., Any], *args: Any) -> Any:
    """``main(*args)``'s exit status (what ``sys.exit`` takes), or 1 when stdout or stderr turned
    out to be a closed pipe, with nothing printed."""
    streams = (sys.stdout, sys.stderr)
    sys.stdout, sys.stderr = (_Watched(stream) if stream is not None else None for stream in streams)
    try:
        try:
            return main(*args)
        finally:
            for stream in (sys.stdout, sys.stderr):  # the buffered lines, while a closed pipe is still caught
                if stream is not None:
                    stream.flush()
    except ClosedPipe:
        # both: with ``2>&1`` they are the same pipe, and the interpreter flushes both at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        for stream in streams:
            try:
                os.dup2(devnull, stream.fileno())
            except (AttributeError, ValueError, OSError):  # no file behind it (None, a capture in tests)
                pass
        os.close(devnull)
        return 1
    finally:
        sys.stdout, sys.stderr = streams
