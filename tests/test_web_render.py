"""Tests for cfgpatch.web.render: marks on printed lines, finding lines, before/after,
and differing paths."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.jsonvalue import equal
from cfgpatch.kube import patch
from cfgpatch.pointer import parse_pointer
from cfgpatch.web.printed import printed_lines
from cfgpatch.web.render import before_after, differing_paths, finding_line, marked_lines

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


DEPLOYMENT = {
    "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
    "spec": {"replicas": 2, "template": {"spec": {"containers": [
        {"name": "app", "image": "a:1"}, {"name": "side", "image": "s:1"}]}}},
}


def test_marks_follow_the_changes_and_the_findings():
    body = {"spec": {"replicas": 3, "template": {"spec": {"containers": [
        {"name": "new", "image": "n:1"}]}}}}
    outcome = patch(DEPLOYMENT, body, "strategic")
    lines = printed_lines(outcome.object, "yaml")
    marked = {text.strip(): mark for text, mark, _ in
              marked_lines(lines, outcome.changes, outcome.findings, [])}
    assert marked["replicas: 3"] == "~"
    assert marked["- image: n:1"] == "~" and marked["name: new"] == "~"  # inserted: all of it
    assert marked["name: app"] == ""  # the kept element's lines are not changed
    assert marked["containers:"] == "~"  # the list: its elements moved


def test_differs_marks_whole_subtrees():
    lines = printed_lines({"kind": "K", "a": {"b": [1, 2]}, "c": 1}, "json")
    flags = {text.strip(): differs for text, _, differs in marked_lines(lines, [], [], ["/a/b"])}
    assert flags['"b": ['] == 1 and flags["1,"] == 1 and flags['"c": 1,'] == 0


def test_a_finding_is_about_its_line_or_the_deepest_line_holding_it():
    lines = printed_lines({"kind": "K", "metadata": {"annotations": {"x": "1"}}}, "yaml")
    texts = [text for text, _ in lines]
    assert texts[finding_line(lines, "/metadata/annotations/x")] == "    x: \"1\""
    assert texts[finding_line(lines, "/metadata/annotations/kubernetes.io/y")] == \
        "  annotations:"
    assert finding_line(lines, "/nothing/here") is None  # the root has no YAML line


def test_before_after_keeps_every_line_once():
    before = printed_lines(DEPLOYMENT, "yaml")
    after = printed_lines(patch(DEPLOYMENT, {"spec": {"replicas": 5}}, "merge").object, "yaml")
    view = before_after(before, after)
    assert [text for sign, text in view if sign != "+"] == [text for text, _ in before]
    assert [text for sign, text in view if sign != "-"] == [text for text, _ in after]
    assert ["-", "  replicas: 2"] in view and ["+", "  replicas: 5"] in view


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
