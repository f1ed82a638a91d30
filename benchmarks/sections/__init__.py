"""The sections of ``benchmarks/RESULTS.md``, one module each, in the order the file shows them.

A section is a module of this package with

- ``NAME``: its name in ``--only-NAME`` and ``--keep NAME``;
- ``HEADER``: the ``## ...`` line its text starts with;
- ``ALONE``: whether it may run alone (``--only-NAME`` replaces its text in the file);
- ``collect(args, folder)``: its measurements (``folder``: a scratch folder, removed after the run);
- ``markdown(result, results, args)``: its text, from its result (``results``: every section's, by name);

and, optionally, ``add_arguments(parser)`` (its options), ``targets(result, args)`` (its lines of the
Targets section), ``kept(text, args)`` (its result read back from its text, for ``--keep``) and
``BY_DEFAULT = False`` (a whole run keeps its text as it is in ``--out``: it runs only alone).
A new section is a module here and its name in ``NAMES``.
"""

from __future__ import annotations

import importlib

NAMES = ("platform_runs", "targets", "memory", "startup", "development", "rescoring", "nlu_real", "resampling",
         "copy_detection")


def load():
    """The section modules, in ``NAMES`` order."""
    return [importlib.import_module("." + name, __name__) for name in NAMES]
