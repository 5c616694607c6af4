"""Tests for cfgpatch.web.render: pointer-carrying JSON lines and differing paths."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.jsonvalue import equal
from cfgpatch.pointer import parse_pointer
from cfgpatch.web.render import differing_paths, render_lines

scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=6) | st.floats(
    allow_nan=False, allow_infinity=False, width=32
)
values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(alphabet="ab/~é", max_size=3), children, max_size=4),
    max_leaves=20,
)


def _resolve(value, pointer):
    for token in parse_pointer(pointer):
        value = value[int(token)] if isinstance(value, list) else value[token]
    return value


@settings(max_examples=200, deadline=None)
@given(values)
def test_lines_are_indented_json_and_pointers_resolve(value):
    lines = render_lines(value)
    text = "\n".join(line for line, _ in lines)
    assert text == json.dumps(value, indent=2, ensure_ascii=False)
    for _, pointer in lines:
        _resolve(value, pointer)  # raises if the pointer is wrong


def test_lines_name_their_values():
    lines = render_lines({"spec": {"ports": [{"port": 53}], "a/b": []}})
    assert ['        "port": 53', "/spec/ports/0/port"] in lines
    assert ['    "a/b": []', "/spec/a~1b"] in lines


@settings(max_examples=200, deadline=None)
@given(values, values)
def test_differing_paths_are_exactly_the_differences(a, b):
    paths = differing_paths(a, b)
    assert (paths == []) == equal(a, b)
    assert len(set(paths)) == len(paths)
    for pointer in paths:
        try:
            left = _resolve(a, pointer)
        except (KeyError, IndexError, TypeError):
            continue  # present on one side only
        try:
            right = _resolve(b, pointer)
        except (KeyError, IndexError, TypeError):
            continue
        assert not equal(left, right)


def test_differing_paths_examples():
    assert differing_paths({"a": [1, 2]}, {"a": [1, 2, 3]}) == ["/a"]
    assert differing_paths({"a": 1}, {"a": 1.0}) == ["/a"]
    assert differing_paths([{"x": 1}, 2], [{"x": 2}, 2]) == ["/0/x"]
    assert differing_paths({"k/1": 1}, {}) == ["/k~11"]
