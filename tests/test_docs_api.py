"""docs/api.md's examples run, in order and in one namespace, and print what the page
shows; every name the page imports from ``cfgpatch.kube`` is public."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import cfgpatch.kube

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"
BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def _examples() -> str:
    return "\n".join(BLOCK.findall(DOC.read_text(encoding="utf-8")))


def test_the_page_has_examples_for_every_function_of_the_api():
    text = _examples()
    for name in ("patch", "build", "apply", "diff", "upgrade", "read", "dump", "lint",
                 "server_side_apply", "update"):
        assert re.search(rf"\b{name}\(", text), f"docs/api.md shows no call of {name}"


def test_the_examples_print_what_the_page_shows():
    parser = doctest.DocTestParser()
    test = parser.get_doctest(_examples(), {}, "docs/api.md", str(DOC), 0)
    assert len(test.examples) >= 30
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} example(s) of docs/api.md failed"


def test_every_name_the_page_imports_is_public():
    imported = re.findall(r"from cfgpatch\.kube import \(?([^)\n]*(?:\n\.\.\.[^)\n]*)*)\)?",
                          _examples())
    names = {n.strip(" .") for chunk in imported for n in re.split(r"[,\s]+", chunk)} - {""}
    assert names and names <= set(cfgpatch.kube.__all__), names - set(cfgpatch.kube.__all__)
