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


def struct(cls=None, frozen: bool = False):
    def wrap(cls):
        names = tuple(cls.__dict__.get("__annotations__", {}))
        defaults = {name: cls.__dict__[name] for name in names if name in cls.__dict__}
        for name in defaults:
            delattr(cls, name)

        def __init__(self, *args, **kwargs):
            if not kwargs and len(args) == len(names):  # every field given in order: the hot path
                self.__dict__.update(zip(names, args))
                return
            if len(args) > len(names):
                raise TypeError("%s takes %d arguments" % (cls.__name__, len(names)))
            values = dict(zip(names, args))
            for key, value in kwargs.items():
                if key not in names or key in values:
                    raise TypeError("%s: unexpected or repeated argument %r" % (cls.__name__, key))
                values[key] = value
            for name in names:
                if name not in values:
                    if name not in defaults:
                        raise TypeError("%s: missing argument %r" % (cls.__name__, name))
                    default = defaults[name]
                    values[name] = default.make() if isinstance(default, factory) else default
            self.__dict__.update((name, values[name]) for name in names)  # (also when frozen)

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
