"""The worked examples in the docstrings of the scoring program run as tests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import scorer

MODULES = sorted(info.name for info in pkgutil.walk_packages(scorer.__path__, "scorer."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert failures == 0
