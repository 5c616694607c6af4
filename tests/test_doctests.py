"""The examples in the package's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import cfgpatch


def _module_names() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(cfgpatch.__path__, "cfgpatch."):
        if ".static" not in info.name and info.name != "cfgpatch.__main__":
            names.append(info.name)
    return sorted(names)


MODULES = _module_names()


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True, verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed"


def test_the_examples_are_found():
    finder = doctest.DocTestFinder()
    examples = sum(len(test.examples) for name in MODULES
                   for test in finder.find(importlib.import_module(name)))
    assert examples >= 40
