"""Tests for cfgpatch.web.inputs: reading with reuse gives what yamlio gives from scratch.

Each check reads a first text, then an edited one through the same ``InputReader``,
and compares with ``kube.io.reader.load_object`` / ``load_patch`` on the edited text
alone: the same object (exact on number kinds), the same notes, or the same error.
"""

from __future__ import annotations

import json
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cfgpatch.errors import CfgPatchError
from cfgpatch.kube.io import reader as kube_reader
from cfgpatch.web.inputs import InputReader
from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_page import deployment_yaml  # noqa: E402

EXAMPLES = json.loads((ROOT / "web" / "src" / "examples.json").read_text())
OBJECTS = [e["object"] for e in EXAMPLES] + [deployment_yaml(60)]
TRICKY = "ab09 :#'\"[]{},-&*!|>%@`?~.\t\\<yes"


def outcome(read, *args):
    try:
        value, notes = read(*args)
    except CfgPatchError as exc:
        return ("error", exc.to_dict())
    return ("ok", repr(value), notes)  # repr: exact on number kinds and key order


def assert_same_as_yamlio(reader: InputReader, text: str) -> None:
    assert outcome(reader.object, text) == outcome(kube_reader.load_object, text)


def edit_line(text: str, line: int, column: int, tail: str) -> str:
    lines = text.split("\n")
    line %= len(lines)
    lines[line] = lines[line][: column % (len(lines[line]) + 1)] + tail
    return "\n".join(lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(OBJECTS), st.lists(st.tuples(st.integers(0, 400), st.integers(0, 60),
       st.text(TRICKY, max_size=12)), min_size=1, max_size=4))
def test_any_line_edits_read_as_from_scratch(start, edits):
    reader = InputReader()
    assert_same_as_yamlio(reader, start)
    text = start
    for line, column, tail in edits:
        text = edit_line(text, line, column, tail)
        assert_same_as_yamlio(reader, text)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 400), st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._/ -]{0,10}[a-z0-9]",
                                          fullmatch=True))
def test_value_edits_take_the_fast_path_and_match(line, value):
    start = deployment_yaml(60)
    lines = start.split("\n")
    candidates = [i for i, t in enumerate(lines) if t.rstrip().endswith(tuple("0123456789"))
                  and ": " in t and "{" not in t]
    index = candidates[line % len(candidates)]
    key, _, _ = lines[index].partition(": ")
    lines[index] = f"{key}: {value}"
    reader = InputReader()
    reader.object(start)
    text = "\n".join(lines)
    assert_same_as_yamlio(reader, text)
    if outcome(kube_reader.load_object, text)[0] == "ok":  # a failing text is read from scratch
        assert reader.last_object_read == ("same" if text == start else "scalar edit")


def test_typing_a_value_reuses_the_nodes_and_notes_follow():
    start = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: x\n"
    reader = InputReader()
    reader.object(start)
    assert reader.last_object_read == "yaml"
    for typed in ("y", "ye", "yes", "yes2", "010", "0x1F", "1e3", "null", "~"):
        text = start.replace("a: x", f"a: {typed}")
        assert_same_as_yamlio(reader, text)
        assert reader.last_object_read == "scalar edit", typed
    # a structural edit (a new line) is read from scratch
    assert_same_as_yamlio(reader, start + "  b: c\n")
    assert reader.last_object_read == "yaml"


@pytest.mark.parametrize("typed", ["x: y", "x #c", "'q'", "[a]", "{a: b}", "-", "&a x", "a\tb",
                                   "x ", "", "*a", "!!str 1", "| x", "a,b"])
def test_edits_that_may_change_the_structure_are_read_from_scratch(typed):
    start = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: x\n"
    reader = InputReader()
    reader.object(start)
    assert_same_as_yamlio(reader, start.replace("a: x", f"a: {typed}"))
    assert reader.last_object_read != "scalar edit"


def test_an_alias_follows_its_edited_anchor():
    start = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\nbase: &b\n  k: v\n" \
            "data:\n  <<: *b\n  j: w\n"
    reader = InputReader()
    reader.object(start)
    text = start.replace("k: v", "k: changed")
    assert_same_as_yamlio(reader, text)
    assert reader.last_object_read == "scalar edit"
    assert reader.object(text)[0]["data"]["k"] == "changed"


def test_callers_get_independent_copies():
    reader = InputReader()
    first, _ = reader.object(EXAMPLES[0]["object"])
    first["kind"] = "Changed"
    again, _ = reader.object(EXAMPLES[0]["object"])
    assert reader.last_object_read == "same"
    assert again["kind"] != "Changed"
    patch, _ = reader.patch("a: {b: 1}", "merge")
    patch["a"]["b"] = 2
    assert reader.patch("a: {b: 1}", "merge")[0] == {"a": {"b": 1}}


@pytest.mark.parametrize("text", ["a: {b: 1}", "{\"a\": 1}", "[{\"op\": \"add\"}]", "a: [",
                                  "{\"a\": 1e999}", "", "x: yes", "- {op: remove, path: /a}",
                                  "{\"a\": 99999999999999999999}"])
def test_patches_read_as_yamlio_reads_them_for_every_type(text):
    reader = InputReader()
    for _ in range(2):  # the second round comes from what was remembered
        for patch_type in ("strategic", "merge", "json"):
            assert outcome(reader.patch, text, patch_type) == \
                outcome(kube_reader.load_patch, text, patch_type)
