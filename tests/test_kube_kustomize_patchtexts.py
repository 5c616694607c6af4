"""kustomize/patchtexts.py (with styles.restyled): a strategic patch's scalar over a
quoted string is its source text (end to end: the corpus tree strategic-source-texts,
recorded with kubectl kustomize)."""

from __future__ import annotations

from cfgpatch.kube.io.kyaml_read import read_document
from cfgpatch.kube.kustomize.patchtexts import (
    Sourced,
    source_texts,
    spelled,
    with_sources,
    without_sources,
)
from cfgpatch.kube.kustomize.styles import Quoted, restyled, styled_value


def _patch(text: str) -> tuple[dict, dict]:
    node = read_document(text)
    value = styled_value(node)
    return value, source_texts(node, value)


def test_only_plain_scalars_written_otherwise_than_their_value_are_noted():
    value, texts = _patch("a: 1e3\nb: 5\nc: '1e3'\nd: True\ne: true\nf: 2024-01-01\n"
                          "g: [0x1F, {h: 0x1F}]\ni: web\nj: 1.5\nk: 1.50\n")
    assert texts == {("a",): "1e3", ("d",): "True", ("f",): "2024-01-01",
                     ("g", 1, "h"): "0x1F", ("k",): "1.50"}


def test_sourced_values_compare_as_their_decoded_values():
    value, texts = _patch("a: 1e3\nb: 0x1F\nc: True\nd: 2024-01-01\n")
    marked = with_sources(value, texts)
    assert all(isinstance(marked[k], Sourced) for k in "abcd")
    assert marked == {"a": 1000.0, "b": 31, "c": True, "d": "2024-01-01T00:00:00Z"}
    assert [marked[k].source for k in "abcd"] == ["1e3", "0x1F", "True", "2024-01-01"]


def test_over_a_quoted_string_the_source_text_goes_on():
    value, texts = _patch("a: 1e3\nb: True\nc: 2024-01-01\n")
    marked = with_sources(value, texts)
    assert [restyled(Quoted("x"), marked[k]) for k in "abc"] == ["1e3", "True", "2024-01-01"]
    assert all(type(restyled(Quoted("x"), marked[k])) is Quoted for k in "abc")


def test_over_a_plain_value_the_decoded_value_goes_on():
    value, texts = _patch("a: 1e3\nb: True\nc: 2024-01-01\n")
    marked = with_sources(value, texts)
    found = [restyled("x", marked[k]) for k in "abc"]
    assert found == [1000.0, True, "2024-01-01T00:00:00Z"]
    assert [type(v) for v in found] == [float, bool, str]


def test_marks_the_merge_carried_along_are_taken_off():
    value, texts = _patch("a: {b: 0x1F}\nc: [{d: True}]\n")
    merged = without_sources(with_sources(value, texts))
    assert merged == {"a": {"b": 31}, "c": [{"d": True}]}
    assert type(merged["a"]["b"]) is int and type(merged["c"][0]["d"]) is bool


def test_a_value_kustomize_already_made_a_string_is_not_marked():
    value, texts = _patch("a: 0x1F\n")
    value["a"] = Quoted("0x1F")
    assert with_sources(value, texts)["a"] == "0x1F"
    assert not isinstance(value["a"], Sourced)
    assert with_sources({"other": 1}, texts) == {"other": 1}


def test_a_resource_notes_list_items_too_with_the_values_they_decode_to():
    node = read_document("a: [0x1F, 7, 1.50]\nb: {c: +12}\n")
    value = styled_value(node)
    texts = source_texts(node, value, in_lists=True)
    assert texts == {("a", 0): "0x1F", ("a", 2): "1.50", ("b", "c"): "+12"}
    assert spelled(value, texts) == {("a", 0): ("0x1F", 31), ("a", 2): ("1.50", 1.5),
                                     ("b", "c"): ("+12", 12)}
    assert spelled(value, texts, in_lists=False) == {("b", "c"): ("+12", 12)}
