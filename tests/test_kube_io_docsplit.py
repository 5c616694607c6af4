"""Tests for cfgpatch.kube.io.docsplit: kubectl's cutting of a YAML file at ``---`` lines.

The rules were measured with kubectl 1.27, 1.32 and 1.33; the recorded cases that pin
them end to end are the ``separator-*`` and ``directive-*`` lines of
``tests/data/kube/object-text/cases.jsonl``.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cfgpatch.kube.io import docsplit


@pytest.mark.parametrize(("text", "pieces"), [
    ("a: 1\n", ["a: 1\n"]),
    ("a: 1\n---\nb: 2\n", ["a: 1\n", "b: 2\n"]),
    ("---\na: 1\n", ["---\na: 1\n"]),                      # nothing before: kept
    ("---\n---\na: 1\n", ["---\n", "a: 1\n"]),             # the second one cuts
    ("---\n\n---\na: 1\n", ["---\n\n", "a: 1\n"]),
    ("\n---\n%YAML 1.1\n---\na: 1\n", ["\n", "%YAML 1.1\n", "a: 1\n"]),
    ("%YAML 1.1\n--- # c\na: 1\n", ["%YAML 1.1\n", "a: 1\n"]),
    ("a: 1\n---\t \nb: 2", ["a: 1\n", "b: 2\n"]),         # Go's white space trimmed
    ("a: |\r\n  x\r\n---\r\nb: 2\r", ["a: |\n  x\n", "b: 2\r\n"]),  # \r\n read as \n
    ("a: |\n  x", ["a: |\n  x\n"]),                        # the last line ends too
    ("a: 1\n---# c\n", ["a: 1\n"]),
    ("a: 1\n   ---\n", ["a: 1\n   ---\n"]),                 # only at column 0
    ("a: '\n---\n'\n", ["a: '\n", "'\n"]),                  # even inside a quoted string
    ("a: 1\r---\rb: 2\n", ["a: 1\r---\rb: 2\n"]),           # lines end at \n only
    ("a: 1\u2028---", ["a: 1\u2028---\n"]),
    ("a: 1\u2028---\n", ["a: 1\u2028---\n"]),
    ("", []),
])
def test_pieces(text: str, pieces: list[str]) -> None:
    assert docsplit.split(text) == pieces


@pytest.mark.parametrize(("line", "rest"), [
    ("---x", "x"), ("--- x", "x"), ("----", "-"), ("--- {a: b}", "{a: b}"),
    ("---\tapiVersion: v1 ", "apiVersion: v1"), ("--- x # c", "x # c"),
])
def test_a_separator_followed_by_anything_but_a_comment_is_refused(line: str, rest: str) -> None:
    for text in (line + "\na: 1\n", "a: 1\n" + line + "\n", "---\n" + line):
        with pytest.raises(docsplit.SeparatorError) as info:
            docsplit.split(text)
        assert info.value.problem.rest == rest
        assert str(info.value) == f"invalid Yaml document separator: {rest}"


@given(st.lists(st.sampled_from(["a: 1", "---", "--- # c", "", "  ---", "b: [", "#"]),
                max_size=8))
def test_pieces_keep_every_other_line_in_order(lines: list[str]) -> None:
    text = "\n".join(lines)
    pieces = docsplit.split(text)
    assert all(pieces) and len(pieces) <= text.count("---") + 1
    assert _others("".join(pieces)) == _others(docsplit.as_read(text))


def _others(text: str) -> list[str]:
    """The lines of ``text`` (ends kept) that do not start with ``---``."""
    return [ln for ln in text.splitlines(keepends=True) if not ln.startswith("---")]
