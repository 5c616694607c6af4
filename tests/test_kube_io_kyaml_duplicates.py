"""kube/io/kyaml_duplicates.py: keys written twice, as kustomize reads them (first one
wins) and refuses them (go-yaml's messages, lines of kustomize's re-encoding).  The
expectations were measured with kubectl kustomize 1.32; the corpus tree duplicate-keys
replays them end to end."""

from __future__ import annotations

from cfgpatch.kube.io.kyaml_duplicates import (
    drop_duplicates,
    duplicate_keys,
    duplicate_pairs,
    encoded_lines,
    scan_keys,
)
from cfgpatch.kube.io.kyaml_read import read_document, read_documents
from cfgpatch.kube.io.kyaml_scalars import node_value


def test_same_text_is_the_same_key_whatever_the_style():
    doc = read_document('a: 1\n"a": 2\n1: x\n"1": y\nb: 3\n')
    assert duplicate_keys(doc) == ((2, "a", 1), (4, "1", 3))


def test_a_key_three_times_is_reported_for_every_earlier_one():
    doc = read_document("t: a\nt: b\nt: c\n")
    assert duplicate_keys(doc) == ((2, "t", 1), (3, "t", 1), (3, "t", 2))


def test_a_mapping_with_a_repeated_key_is_not_looked_into():
    doc = read_document("m:\n  a: 1\n  a: 2\n  inner: {k: 1, k: 2}\nl:\n- {x: 1, x: 2}\n")
    assert [later.line for _, later in duplicate_pairs(doc)] == [3, 6]


def test_an_alias_is_checked_where_it_is_used_too():
    doc = read_document("a: &a {k: 1, k: 2}\nb: *a\n")
    assert len(duplicate_pairs(doc)) == 2
    cyclic = read_document("a: &a\n  b: *a\n")
    assert duplicate_pairs(cyclic) == []


def test_the_first_key_is_the_one_read():
    doc = drop_duplicates(read_document("a: 1\nb: {x: 1, x: 2}\na: 2\n"))
    assert node_value(doc) == {"a": 1, "b": {"x": 1}}
    assert duplicate_pairs(doc) == []


def _lines(text: str, index: int = 0):
    node = read_documents(text)[index]
    return encoded_lines(text, node)


def test_lines_count_from_the_document_and_drop_blank_lines():
    text = "a: 1\n---\n\n\nb: 1\n\nc: 1\n"
    line = _lines(text, 1)
    assert (line(5), line(7)) == (1, 2)


def test_comments_count_and_a_blank_line_after_a_comment_too():
    text = "---\n# head\n\nb: 1\n# inner\nc: 1\n"
    line = _lines(text)
    assert (line(4), line(6)) == (3, 5)


def test_a_comment_on_the_first_separator_is_a_line_of_the_document():
    assert _lines("--- # note\nb: 1\nc: 1\n")(3) == 3
    assert _lines("# x\n--- # note\nb: 1\nc: 1\n")(4) == 2


def test_flow_collections_and_plain_scalars_over_several_lines_take_one():
    text = "a: [1,\n  2]\nb: {x: 1,\n  y: 2}\nc: one\n  two\nd: 1\n"
    assert _lines(text)(7) == 4


def test_literal_blocks_keep_their_lines_blank_ones_too():
    text = "a: |\n  x\n\n  y\n\n\nb: 1\n"
    assert _lines(text)(7) == 5


def test_scan_keys_finds_merge_keys_and_repeated_keys_in_one_pass():
    assert scan_keys(read_document("a: {b: [{c: 1, c: 2}]}\n")) == (False, True)
    assert scan_keys(read_document("a: {b: [{<<: {c: 1}}]}\n")) == (True, False)
    assert scan_keys(read_document("a: &a {b: *a}\n")) == (False, False)  # cyclic: ends
