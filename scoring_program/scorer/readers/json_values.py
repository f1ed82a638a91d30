"""JSON values with bounded numbers: the decoder of every JSON reader, and the problem line of a
value it refuses."""

from __future__ import annotations

import json
from typing import Any

from .problems import SubmissionError, fail

# Numbers are bounded while parsing, whatever the interpreter (Python < 3.11 parses long integers
# in quadratic time): offsets are 64-bit integers, scores short decimals.
MAX_INT_DIGITS = 19
MAX_NUMBER_CHARS = 32


class NumberError(ValueError):
    """A number the readers refuse while parsing (NaN, Infinity, too many digits)."""


def reject_constant(name: str) -> Any:
    """``parse_constant`` of the decoders: NaN and Infinity are no JSON numbers."""
    raise NumberError("%s is not a JSON number; use finite numbers" % name)


def _bounded_int(text: str) -> int:
    if len(text) > MAX_INT_DIGITS and len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise NumberError("an integer of %d digits; at most %d are accepted"
                          % (len(text.lstrip("-")), MAX_INT_DIGITS))
    return int(text)


def _bounded_float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise NumberError("a number written with %d characters; at most %d are accepted"
                          % (len(text), MAX_NUMBER_CHARS))
    return float(text)


# One decoder for every call (json.loads(text, ...) would build one per record). The hooks bound
# numbers before Python converts them.
BOUNDED_DECODER = json.JSONDecoder(parse_constant=reject_constant, parse_int=_bounded_int,
                                   parse_float=_bounded_float)


def json_problem(name: str, where: str, error: Exception) -> SubmissionError:
    """The problem line of a value the decoder refused with ``error``."""
    if isinstance(error, NumberError):
        return fail(name, where, str(error))
    if isinstance(error, RecursionError):
        return fail(name, where, "the JSON is nested too deeply")
    return fail(name, where, "not valid JSON (%s)" % getattr(error, "msg", error))
