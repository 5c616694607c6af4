"""lint/yamlpos.py: lines and columns of YAML nodes, and of text embedded in a scalar."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cfgpatch.lint.yamlpos import (
    Span,
    documents,
    embedded,
    resource_documents,
    tree_values,
    values,
)

TEXT = """\
kind: Deployment   # a comment
metadata:
  name: "web # not a comment"
  labels: {app: web}
spec:
  items:
    - a
    - 'it''s'
"""


def test_spans_of_members_start_at_the_key_and_end_at_the_value():
    tree = documents(TEXT)[0]
    assert tree.find(["kind"]) == (Span(1, 1, 1, 17), 1)
    assert tree.find(["metadata", "name"]) == (Span(3, 3, 3, 30), 2)
    assert tree.find(["spec", "items", 1]) == (Span(8, 7, 8, 14), 3)


def test_a_collection_s_span_is_its_first_line_without_the_comment():
    tree = documents("spec:   # why\n  a: 1\n")[0]
    assert tree.find(["spec"]) == (Span(1, 1, 1, 6), 1)


def test_find_stops_at_the_deepest_node_it_reaches():
    tree = documents(TEXT)[0]
    span, depth = tree.find(["metadata", "labels", "missing", "deeper"])
    assert depth == 2 and span.line == 4


def test_documents_values_and_errors():
    assert values("a: 1\n---\n---\nb: yes\n") == [{"a": 1}, {"b": "yes"}]  # go-yaml v3
    assert [t.node.line for t, _ in tree_values("a: 1\n---\nb: 2\n")] == [1, 3]
    with pytest.raises(ValueError, match="line 2"):
        documents("a: [1\nb: 2\n")


def test_a_literal_block_maps_back_to_the_file():
    text = "patches:\n  - patch: |-\n      - op: add\n        path: /a\n"
    tree = documents(text)[0]
    mapper = embedded(tree, tree.node_at(["patches", 0, "patch"]))
    inner = documents(tree_values(text)[0][1]["patches"][0]["patch"])[0]
    span, _ = inner.find([0, "path"])
    assert mapper(span) == Span(4, 9, 4, 17)
    assert text.splitlines()[3][8:16] == "path: /a"


def test_a_folded_or_escaped_scalar_maps_everything_to_its_first_line():
    text = 'p: "a: 1\\nb: 2"\n'
    tree = documents(text)[0]
    mapper = embedded(tree, tree.node_at(["p"]))
    assert mapper(Span(2, 1, 2, 3)) == Span(1, 4, 1, 16)


_KEYS = st.text(alphabet="abcxyz", min_size=1, max_size=6)


@given(st.lists(_KEYS, min_size=1, max_size=5, unique=True), st.integers(2, 8),
       st.sampled_from(["|", "|-", "|+", "|2"]))
def test_every_key_of_an_embedded_patch_maps_to_its_text_in_the_file(keys, indent, style):
    step = 2 if style == "|2" else indent
    body = "".join(f"{' ' * (step + 2 * i)}{key}:\n" for i, key in enumerate(keys[:-1]))
    body += f"{' ' * (step + 2 * (len(keys) - 1))}{keys[-1]}: 1\n"
    text = f"entry:\n  patch: {style}\n" + "\n".join("  " + line if line else line
                                                     for line in body.split("\n"))
    tree = documents(text)[0]
    inner_text = values(text)[0]["entry"]["patch"]
    inner = documents(inner_text)[0]
    mapper = embedded(tree, tree.node_at(["entry", "patch"]))
    lines = text.splitlines()
    for depth in range(1, len(keys) + 1):
        span, found = inner.find(keys[:depth])
        assert found == depth
        where = mapper(span)
        assert lines[where.line - 1][where.column - 1:].startswith(keys[depth - 1] + ":")


def test_resource_documents_read_as_kustomize_does():
    [(value, repeated)] = resource_documents("a: &a {x: 1}\nb: {<<: *a, y: 2}\nc: 1\nc: 2\n")
    assert value == {"a": {"x": 1}, "b": {"x": 1, "y": 2}, "c": 1}
    assert repeated == ("map[string]interface {}(nil): yaml: unmarshal errors:\n"
                        '  line 4: mapping key "c" already defined at line 3')
    with pytest.raises(ValueError, match="duplicate merge key"):
        resource_documents("m: {<<: {a: 1}, <<: {b: 2}}\n")
