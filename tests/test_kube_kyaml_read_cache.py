"""kube/io/kyaml_read.cached_reads: each (text, file) is composed once inside the block,
and every caller gets its own copy (lint builds many overlays over the same bases)."""

from __future__ import annotations

import pytest

from cfgpatch.kube.io import kyaml_read
from cfgpatch.kube.io.kyaml import KyamlError, Node
from cfgpatch.kube.io.kyaml_read import cached_reads, read_documents
from cfgpatch.records import fields

TEXT = """\
base: &b {image: web:1, ports: [80, 443]}
copy: *b
list:
  - 'quoted'
  - |
    literal
---
kind: Second
"""


def _shape(node: Node) -> tuple:
    return (node.kind, node.tag, node.value, node.style, node.line, node.column, node.file,
            tuple(_shape(c) for c in node.content))


def test_the_copier_knows_every_field_of_a_node():
    # _copy lists Node's fields one by one: a new field must be added there too
    assert [f.name for f in fields(Node)] == ["kind", "tag", "value", "content", "style",
                                              "line", "column", "file"]


def test_a_cached_read_equals_a_fresh_one_and_is_parsed_once(monkeypatch):
    fresh = read_documents(TEXT, "a.yaml")
    parsed = []
    real = kyaml_read._read_documents
    monkeypatch.setattr(kyaml_read, "_read_documents",
                        lambda text, file: parsed.append(file) or real(text, file))
    with cached_reads():
        first = read_documents(TEXT, "a.yaml")
        second = read_documents(TEXT, "a.yaml")
        other = read_documents(TEXT, "b.yaml")  # another file: positions name it
    assert parsed == ["a.yaml", "b.yaml"]
    assert [_shape(n) for n in first] == [_shape(n) for n in second] == \
        [_shape(n) for n in fresh]
    assert other[0].file == "b.yaml"
    read_documents(TEXT, "a.yaml")  # outside the block: read again
    assert parsed == ["a.yaml", "b.yaml", "a.yaml"]


def test_each_caller_gets_its_own_nodes_with_aliases_shared_inside():
    with cached_reads():
        first = read_documents(TEXT, "a.yaml")
        first[0].get("base").get("image").value = "changed"
        first[0].content.append(Node("scalar", value="extra"))
        second = read_documents(TEXT, "a.yaml")
    assert second[0].get("base").get("image").value == "web:1"
    assert len(second[0].content) == 6
    assert second[0].get("base") is second[0].get("copy")  # the alias, as read_documents
    assert first[0].get("base") is first[0].get("copy")
    assert second[0].get("base") is not first[0].get("base")


def test_errors_are_raised_every_time_and_nested_blocks_share_the_cache(monkeypatch):
    with cached_reads():
        for _ in range(2):
            with pytest.raises(KyamlError):
                read_documents("a: [1\n", "bad.yaml")
        read_documents(TEXT, "a.yaml")
        parsed = []
        real = kyaml_read._read_documents
        monkeypatch.setattr(kyaml_read, "_read_documents",
                            lambda text, file: parsed.append(file) or real(text, file))
        with cached_reads():
            read_documents(TEXT, "a.yaml")
        read_documents(TEXT, "a.yaml")
    assert parsed == []
