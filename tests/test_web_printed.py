"""Tests for cfgpatch.web.printed: results as kubectl prints them, line by line.

Held to ``kube.io.writer.dump`` (kubectl's printer, checked against kubectl elsewhere)
on generated objects, in both formats; each line's pointers must exist in the object.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

from cfgpatch.errors import KubeError
from cfgpatch.kube.io import reader, writer
from cfgpatch.pointer import parse_pointer, resolve
from cfgpatch.web.printed import printed_lines, printed_text
from conftest import ROOT
from test_kube_io_yamlprint import OBJECTS

EXAMPLES = json.loads((ROOT / "web" / "src" / "examples.json").read_text())


def _check(obj: dict, fmt: str) -> None:
    try:
        expected = writer.dump(obj, fmt)
    except KubeError as exc:
        with pytest.raises(KubeError) as raised:
            printed_lines(obj, fmt)
        assert raised.value.message == exc.message
        return
    lines = printed_lines(obj, fmt)
    assert printed_text(lines) == expected
    for _, pointers in lines:
        for pointer in pointers:
            resolve(obj, parse_pointer(pointer))  # raises if the line names a place that is not there


@settings(max_examples=300, deadline=None)
@given(OBJECTS)
def test_both_formats_print_what_kubectl_prints(obj):
    for fmt in ("yaml", "json"):
        _check(obj, fmt)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_examples(example):
    obj, _ = reader.load_object(example["object"])
    for fmt in ("yaml", "json"):
        _check(obj, fmt)


def test_json_lines_know_their_pointers():
    lines = printed_lines({"kind": "K", "a": [{"b": 1}]}, "json")
    assert lines == [("{", ("",)), ('    "a": [', ("/a",)), ("        {", ("/a/0",)),
                     ('            "b": 1', ("/a/0/b",)), ("        }", ("/a/0",)),
                     ("    ],", ("/a",)), ('    "kind": "K"', ("/kind",)), ("}", ("",))]


def test_managed_fields_are_left_out_as_kubectl_does():
    obj = {"kind": "K", "metadata": {"name": "x", "managedFields": [{"manager": "m"}]}}
    for fmt in ("yaml", "json"):
        text = printed_text(printed_lines(obj, fmt))
        assert "managedFields" not in text and text == writer.dump(obj, fmt)


def test_complex_keys_fall_back_to_the_writer():
    obj = {"kind": "K", "data": {"k" * 130: "v", "a\nb": "w"}}
    lines = printed_lines(obj, "yaml")
    assert printed_text(lines) == writer.dump(obj, "yaml")


def test_too_deep_is_the_engines_error():
    deep: dict = {"kind": "K"}
    node = deep
    for _ in range(5000):
        node["x"] = {}
        node = node["x"]
    for fmt in ("yaml", "json"):
        with pytest.raises(KubeError) as raised:
            printed_lines(deep, fmt)
        assert raised.value.code == "nesting too deep"
