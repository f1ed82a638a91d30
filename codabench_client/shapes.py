"""What the site answers, checked for the shape the client reads: an object, a list of objects,
an id, a string, a nesting depth; anything else is one line naming where it was."""

from __future__ import annotations

from ranking.names import shown

from .errors import CodabenchError


def _kind(value) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number")


def record(value, what: str) -> dict:
    """``value`` when it is a JSON object; one CodabenchError line naming ``what`` otherwise."""
    if not isinstance(value, dict):
        raise CodabenchError("%s: the site gave %s where an object was expected" % (what, _kind(value)))
    return value


def records(value, what: str) -> list:
    """``value`` when it is a list of JSON objects (None: empty); one line naming the item otherwise."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise CodabenchError("%s: the site gave %s where a list was expected" % (what, _kind(value)))
    return [record(item, "%s, item %d" % (what, number)) for number, item in enumerate(value, start=1)]


def identifier(value, what: str) -> int:
    """An id the site gave (a number, or its digits): one line naming ``what`` otherwise."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 63:
        return value
    if isinstance(value, str) and value.isdigit() and value.isascii() and len(value) < 19:
        return int(value)
    raise CodabenchError("%s: the site gave %s as an id" % (what, shown(repr(value), 40)))


def text(value, what: str) -> str:
    """A string the site gave; one line naming ``what`` otherwise."""
    if not isinstance(value, str):
        raise CodabenchError("%s: the site gave %s where a string was expected" % (what, _kind(value)))
    return value


def depth_within(value, limit: int) -> bool:
    """Whether no list or object in ``value`` is nested deeper than ``limit`` (no recursion)."""
    stack = [(value, 1)] if isinstance(value, (dict, list)) else []
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return True
