"""JSON Merge Patch (RFC 7386): the RFC's appendix examples and the round trip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.jsonvalue import canonical, equal
from cfgpatch.mergepatch import apply_merge_patch, create_merge_patch

# Appendix A of RFC 7386 (facts: target, patch, result).
RFC_CASES = [
    ({"a": "b"}, {"a": "c"}, {"a": "c"}),
    ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
    ({"a": "b"}, {"a": None}, {}),
    ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
    ({"a": ["b"]}, {"a": "c"}, {"a": "c"}),
    ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
    ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
    ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
    (["a", "b"], ["c", "d"], ["c", "d"]),
    ({"a": "b"}, ["c"], ["c"]),
    ({"a": "foo"}, None, None),
    ({"a": "foo"}, "bar", "bar"),
    ({"e": None}, {"a": 1}, {"e": None, "a": 1}),
    ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
    ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}),
]


@pytest.mark.parametrize("target,patch,result", RFC_CASES)
def test_rfc_examples(target, patch, result):
    before = canonical(target)
    assert apply_merge_patch(target, patch) == result
    assert canonical(target) == before


def test_arrays_are_kept_verbatim_including_nulls():
    assert apply_merge_patch({}, {"a": [None, {"b": None}]}) == {"a": [None, {"b": None}]}


def test_result_shares_nothing_with_the_patch():
    patch = {"a": {"l": [1]}}
    result = apply_merge_patch({}, patch)
    result["a"]["l"].append(2)
    assert patch == {"a": {"l": [1]}}


values = st.recursive(
    st.booleans() | st.integers(-2, 2) | st.text(max_size=2),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.sampled_from("abc"), c, max_size=3),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(values, values)
def test_create_then_apply_round_trips_without_nulls(source, target):
    assert equal(apply_merge_patch(source, create_merge_patch(source, target)), target)


@pytest.mark.parametrize("target,patch,result", RFC_CASES)
def test_rfc_examples_sharing_unchanged_subtrees(target, patch, result):
    before = canonical(target), canonical(patch)
    assert apply_merge_patch(target, patch, share_unchanged=True) == result
    assert (canonical(target), canonical(patch)) == before


with_nulls = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2) | st.text(max_size=2),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.sampled_from("abc"), c, max_size=3),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(with_nulls, with_nulls)
def test_sharing_gives_the_same_result_and_changes_no_input(target, patch):
    before = canonical(target), canonical(patch)
    shared = apply_merge_patch(target, patch, share_unchanged=True)
    assert canonical(shared) == canonical(apply_merge_patch(target, patch))
    assert (canonical(target), canonical(patch)) == before


def test_sharing_copies_only_the_objects_on_the_patch_paths():
    untouched, changed = {"big": [1, 2, 3]}, {"k": 1, "keep": [4]}
    target = {"u": untouched, "c": changed, "d": changed}  # one object in two places
    result = apply_merge_patch(target, {"c": {"k": 2}}, share_unchanged=True)
    assert result["u"] is untouched and result["d"] is changed
    assert result["c"] is not changed and result["c"]["keep"] is changed["keep"]
    assert result == {"u": untouched, "c": {"k": 2, "keep": [4]}, "d": {"k": 1, "keep": [4]}}
