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
