"""``@struct``: the small part of ``dataclasses`` this program uses, without its start-up cost.

``dataclasses`` imports ``inspect`` (15 ms), paid on every submission by every compute worker.
Fields are the class annotations in order; a default is the class attribute, or ``factory(f)``
for a fresh mutable default. ``frozen=True`` forbids assignment and makes instances hashable.

>>> @struct
... class Point:
...     x: int
...     y: int = 0
...     tags: list = factory(list)
>>> Point(1), Point(1, 2) == Point(x=1, y=2), replace(Point(1), y=5)
(Point(x=1, y=0, tags=[]), True, Point(x=1, y=5, tags=[]))
"""

from __future__ import annotations


class factory:
    """A default made fresh for each instance (like ``field(default_factory=...)``)."""

    def __init__(self, make) -> None:
        self.make = make


_MISSING = object()


def _make_init(class_name: str, names, defaults):
    """An ``__init__`` written for the fields, as ``dataclasses`` does: a generic one that walks the
    fields at every call cost more than the scoring itself for tracks that make many small structs.
    """
    namespace = {"_MISSING": _MISSING}
    parameters, lines = [], []
    for name in names:
        default = defaults.get(name, _MISSING)
        if default is _MISSING:
            parameters.append(name)
        elif isinstance(default, factory):
            namespace["_make_" + name] = default.make
            parameters.append("%s=_MISSING" % name)
            lines.append("    if %s is _MISSING: %s = _make_%s()" % (name, name, name))
        else:
            namespace["_default_" + name] = default
            parameters.append("%s=_default_%s" % (name, name))
    # __dict__.update also sets the fields of frozen instances (it bypasses __setattr__)
    lines.append("    self.__dict__.update(%s)" % ", ".join("%s=%s" % (name, name) for name in names)
                 if names else "    pass")
    source = "def __init__(self, %s):\n%s\n" % (", ".join(parameters), "\n".join(lines))
    exec(compile(source, "<struct %s>" % class_name, "exec"), namespace)
    return namespace["__init__"]


def struct(cls=None, frozen: bool = False):
    def wrap(cls):
        names = tuple(cls.__dict__.get("__annotations__", {}))
        defaults = {name: cls.__dict__[name] for name in names if name in cls.__dict__}
        for name in defaults:
            delattr(cls, name)

        __init__ = _make_init(cls.__name__, names, defaults)

        def __repr__(self):
            return "%s(%s)" % (cls.__name__, ", ".join("%s=%r" % (n, getattr(self, n)) for n in names))

        def __eq__(self, other):
            if type(other) is not type(self):
                return NotImplemented
            return all(getattr(self, n) == getattr(other, n) for n in names)

        cls.__init__ = __init__
        cls.__repr__ = __repr__
        cls.__eq__ = __eq__
        cls._fields = names
        if frozen:
            def __setattr__(self, name, value):
                raise AttributeError("%s is frozen" % cls.__name__)
            cls.__setattr__ = __setattr__
            cls.__hash__ = lambda self: hash(tuple(getattr(self, n) for n in names))
        else:
            cls.__hash__ = None
        return cls

    return wrap if cls is None else wrap(cls)


def replace(instance, **changes):
    """A copy of ``instance`` with some fields changed (like ``dataclasses.replace``)."""
    values = {name: getattr(instance, name) for name in instance._fields}
    for key in changes:
        if key not in values:
            raise TypeError("%s has no field %r" % (type(instance).__name__, key))
    values.update(changes)
    return type(instance)(**values)
