"""Tests for cfgpatch.web.locate: where an input error is, in plain words, and places
by pointer in YAML and JSON texts."""

from __future__ import annotations

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube.io import reader
from cfgpatch.web.locate import input_error, place


def _error(text: str, what: str = "object") -> dict:
    load = reader.load_object if what == "object" else reader.load_patch
    with pytest.raises(KubeError) as raised:
        load(text)
    return input_error(text, raised.value)


@pytest.mark.parametrize(("text", "line", "column", "words"), [
    ("kind: [unclosed", 1, 16, "'[' list that is not closed"),
    ("a: b: c", 1, 5, "': ' where no key can start"),
    ("a:\n\tb: 1", 2, 1, "tab character"),
    ("a: 1\nb c\nd: 2", 2, 1, "neither 'key: value' nor '- item'"),
    ("kind: K\nmetadata:\n  labels:\n    app: web\n   tier: x\n", 5, 4, "indentation"),
    ("a: *x", 1, 4, "alias"),
    ("a: 'x", 1, 6, "quote is not closed"),
    ('{"a": 1,}', 1, 9, "trailing comma"),
    ('{"kind": "K"\n "a": 1}', 2, 2, "',' or '}' is missing"),
    ('{"a":', 1, 6, "ends early"),
])
def test_the_problem_is_placed_where_the_text_goes_wrong(text, line, column, words):
    for what in ("object", "patch"):
        error = _error(text, what)
        assert (error["line"], error["column"]) == (line, column), (what, error)
        assert error["plain"].startswith(f"Line {line}, column {column}: ")
        assert words in error["plain"]
        assert error["kubectl"].startswith("error: ")


def test_kubectls_line_number_is_reconciled():
    error = _error("kind: K\nmetadata:\n  labels:\n    app: web\n   tier: x\n")
    assert "yaml: line 4:" in error["kubectl"]
    assert error["note"] == ("kubectl says line 4, go-yaml's count for this kind of problem; "
                             "the text goes wrong on line 5.")
    assert "note" not in _error("a:\n\tb: 1")  # kubectl's line is right there
    assert _error('{"a": 1,}')["note"] == ("kubectl gives the byte offset 9, counted to just "
                                          "after the character at line 1, column 9.")


def test_an_error_without_a_place_keeps_kubectls_words():
    error = _error("apiVersion: v1\nmetadata: {}\n")
    assert "line" not in error and error["kubectl"].startswith("error: ")
    assert error["plain"]


def test_places_by_pointer():
    assert place("a:\n  b:\n  - x\n  - {op: test}\n", "/a/b/1") == {
        "line": 4, "column": 5, "end_line": 4, "end_column": 15}
    assert place('[{"op": "add"},\n {"op": "test"}]', "/1")["line"] == 2
    assert place("a: 1\n", "/b") is None
    assert place("a: [", "/a") is None


def test_an_unclosed_quote_is_reported_at_the_quote():
    from cfgpatch.errors import CfgPatchError
    from cfgpatch.kube.io import reader
    from cfgpatch.web.locate import input_error

    for text, line, column in (
        ('metadata:\n  labels:\n    a: "x\n    b: y\n    c: z\nspec:\n  replicas: 2\n', 3, 8),
        ("metadata:\n  labels:\n    a: 'x\n    b: y\n", 3, 8),
        ('data:\n  a: "x\n  b: "y"\n  c: z\n', 2, 6),
        ('- "abc\n- b\n', 1, 3),
    ):
        try:
            reader.load_patch(text, "merge")
        except CfgPatchError as exc:
            found = input_error(text, exc)
        else:
            raise AssertionError(text)
        assert (found["line"], found["column"]) == (line, column), text
        assert "quote is not closed on its line" in found["plain"]


def test_closed_and_escaped_quotes_are_not_blamed():
    from cfgpatch.web.locate import unclosed_quote

    assert unclosed_quote('a: "x \\" y"\nb: \'it\'\'s\'\nc: [\n', 3) is None
    assert unclosed_quote("a: 'x\n", 1) == (1, 4)


@pytest.mark.parametrize("text", [
    "kind: [unclosed", "a: b: c", "a:\n\tb: 1", "a: 1\nb c\nd: 2", "a: *x", "a: 'x",
    "kind: K\nmetadata:\n  labels:\n    app: web\n   tier: x\n", "a: 1\nb: \"\\uD83D\"\n",
    "a: \"\\uD83D\"\n", "a:\n  - b\n  c: d\n", "x: \x01\n", '{"a": 1,}', '{"a":',
    '{"kind": "K"\n "a": 1}', "{\"a\": 1} x",
])
def test_the_line_and_offset_kubectl_names_come_from_the_records(text):
    """The problem records give the line (``yaml: line N:``) and the byte offset
    (``json: offset N``) that kubectl's words hold."""
    import re

    from cfgpatch.web import locate

    for load in (reader.load_object, reader.load_patch):
        with pytest.raises(KubeError) as raised:
            load(text)
        records = list(locate._records(raised.value))
        said = re.search(r"\byaml: line (\d+):", raised.value.message)
        assert locate._said_line(records) == (int(said.group(1)) if said else 0)
        offset = re.search(r"json: offset (\d+)", raised.value.message)
        assert locate._json_offset(records) == (int(offset.group(1)) if offset else None)
