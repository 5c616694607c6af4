"""cfgpatch.guards: the tests of a rebased patch judged against the head as well."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import CfgPatchError, MergeConflict, TestFailed
from cfgpatch.guards import _HeadJudge, _lookup, replay_with_head_tests
from cfgpatch.jsonpatch import apply_patch
from cfgpatch.rebasing import MISSING, merge


def check(path, value):
    return {"op": "test", "path": path, "value": value}


def replace(path, value):
    return {"op": "replace", "path": path, "value": value}


def test_a_guard_on_what_the_head_changed_fails():
    with pytest.raises(TestFailed) as caught:
        replay_with_head_tests({"c": 0}, {"c": 1}, [check("/c", 0), replace("/c", 1)])
    assert caught.value.wire() == "test failed at op 0" and caught.value.pointer == "/c"
    assert "at the head" in caught.value.message and "1" in caught.value.message


def test_guards_on_untouched_paths_and_on_the_patchs_own_work_pass():
    base, head = {"a": 1, "b": {"x": 1}}, {"a": 1, "b": {"x": 1, "y": 2}}
    mine = replay_with_head_tests(base, head, [
        check("/a", 1), {"op": "add", "path": "/n", "value": [1]}, check("/n", [1]),
        check("/b/x", 1), replace("/a", 2)])
    assert mine == {"a": 2, "b": {"x": 1}, "n": [1]}


def test_a_test_of_a_whole_object_sees_what_the_head_added_inside_it():
    base, head = {"o": {"x": 1}}, {"o": {"x": 1, "y": 2}}
    patch = [{"op": "add", "path": "/o/z", "value": 3}, check("/o", {"x": 1, "z": 3})]
    with pytest.raises(TestFailed) as caught:  # merged /o is {"x":1,"y":2,"z":3}
        replay_with_head_tests(base, head, patch)
    assert '{"x":1,"y":2,"z":3} at the head' in caught.value.message
    replay_with_head_tests(base, base, patch)  # the head did not move: as on base


def test_a_missing_path_at_the_head_fails_and_base_failures_come_first():
    with pytest.raises(TestFailed):
        replay_with_head_tests({"a": 1}, {}, [check("/a", 1)])
    with pytest.raises(CfgPatchError) as caught:  # fails on base at op 1: Part 1's report
        replay_with_head_tests({"a": 1}, {"a": 2}, [replace("/a", 5), check("/zz", 1)])
    assert caught.value.wire() == "path not found at op 1"


def test_arrays_are_atomic_as_in_the_merge():
    base, head = {"l": [1, 2]}, {"l": [1, 2, 3]}
    with pytest.raises(MergeConflict) as caught:
        replay_with_head_tests(base, head, [replace("/l/0", 9), check("/l/0", 9)])
    assert caught.value.pointer == "/l" and caught.value.op_index == 1
    replay_with_head_tests(base, head, [check("/l/1", 2)])  # untouched: the head's array
    with pytest.raises(TestFailed):
        replay_with_head_tests(base, {"l": [0, 1, 2]}, [check("/l/1", 2)])


values = st.recursive(st.one_of(st.integers(0, 2), st.none()),
                      lambda inner: st.one_of(st.lists(inner, max_size=2),
                                              st.dictionaries(st.sampled_from("ab"), inner,
                                                              max_size=2)), max_leaves=6)
docs = st.dictionaries(st.sampled_from("abc"), values, max_size=3)
paths = st.lists(st.sampled_from(["a", "b", "c", "0", "1"]), max_size=3)


@settings(max_examples=400, deadline=None)
@given(docs, docs, docs, paths)
def test_value_at_agrees_with_the_whole_merge(base, mine, head, tokens):
    try:
        merged = merge(base, mine, head)
    except MergeConflict:
        return
    expected = _lookup(merged, tokens)
    actual = _HeadJudge(base, head).value_at(tokens, mine)
    assert actual is expected if expected is MISSING else actual == expected


@settings(max_examples=200, deadline=None)
@given(docs, docs)
def test_without_a_head_change_it_is_the_plain_replay(base, other):
    patch = [check("/" + k, v) for k, v in sorted(other.items()) if base.get(k, MISSING) == v]
    assert replay_with_head_tests(base, base, patch) == apply_patch(base, patch)
