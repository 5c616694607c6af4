"""cfgpatch.rebase: three-way merge (Part 3b rule 3), conflicts, rebase, stale-base apply."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch import run
from cfgpatch.diffing import diff
from cfgpatch.errors import CfgPatchError, MergeConflict
from cfgpatch.jsonpatch import apply_patch
from cfgpatch.jsonvalue import MAX_DEPTH, canonical
from cfgpatch.rebasing import MISSING, conflict_values, merge, rebase


def conflict_pointer(base, mine, head) -> str:
    with pytest.raises(MergeConflict) as caught:
        merge(base, mine, head)
    return str(caught.value)


def test_each_rule_in_order():
    assert merge(1, 1, 2) == 2  # (i) mine unchanged -> head
    assert merge(1, 2, 1) == 2  # (ii) head unchanged -> mine
    assert merge(1, 2, 2) == 2  # (iii) same change on both sides
    assert merge({"a": 1, "b": 1}, {"a": 2, "b": 1}, {"a": 1, "b": 3}) == {"a": 2, "b": 3}  # (iv)
    assert conflict_pointer(1, 2, 3) == "conflict at (root)"  # (v)


def test_missing_is_a_value():
    assert merge({"a": 1}, {}, {"a": 1}) == {}
    assert merge({}, {"a": 1}, {}) == {"a": 1}
    assert merge({}, {"a": 1}, {"a": 1}) == {"a": 1}
    assert merge({"a": 1}, {}, {}) == {}
    assert conflict_pointer({"a": 1}, {}, {"a": 2}) == "conflict at /a"
    assert conflict_pointer({}, {"a": 1}, {"a": 2}) == "conflict at /a"


def test_number_kind_is_a_change():
    assert conflict_pointer({"a": 1}, {"a": 1.0}, {"a": True}) == "conflict at /a"
    assert merge({"a": 1}, {"a": 1.0}, {"a": 1}) == {"a": 1.0}


def test_arrays_are_atomic():
    assert conflict_pointer({"l": [1, 2]}, {"l": [1, 2, 3]}, {"l": [0, 1, 2]}) == "conflict at /l"
    assert conflict_pointer({"l": [1]}, {}, {"l": [2]}) == "conflict at /l"
    assert merge({"l": [1]}, {"l": [1, 2]}, {"l": [1, 2]}) == {"l": [1, 2]}


def test_first_conflict_in_sorted_order_with_escaping():
    base = {"b": 1, "a/x": {"~": 1}, "c": 1}
    mine = {"b": 2, "a/x": {"~": 2}, "c": 2}
    head = {"b": 3, "a/x": {"~": 3}, "c": 3}
    assert conflict_pointer(base, mine, head) == "conflict at /a~1x/~0"


def test_conflict_error_carries_the_pointer_and_values():
    with pytest.raises(MergeConflict) as caught:
        merge({"a": {"b": 1}}, {"a": {"b": 2}}, {"a": {"b": 3}})
    assert caught.value.pointer == "/a/b"
    assert "base 1" in caught.value.message and "head 3" in caught.value.message
    shown = conflict_values({"a": {"b": 1}}, {"a": {}}, {"a": {"b": 3}}, "/a/b")
    assert shown == {"base": "1", "mine": "(missing)", "head": "3"}
    assert repr(MISSING) == "MISSING"


def test_merge_does_not_modify_its_inputs():
    base, mine, head = {"a": {"x": 1}}, {"a": {"x": 1, "y": 2}}, {"a": {"x": 1}, "b": 1}
    texts = [canonical(v) for v in (base, mine, head)]
    assert merge(base, mine, head) == {"a": {"x": 1, "y": 2}, "b": 1}
    assert [canonical(v) for v in (base, mine, head)] == texts


def test_deep_merge_at_max_depth():
    def nested(leaf):
        value = leaf
        for _ in range(MAX_DEPTH - 1):
            value = {"k": value}
        return value

    assert merge(nested({"a": 1}), nested({"a": 2}), nested({"a": 1})) == nested({"a": 2})
    with pytest.raises(MergeConflict) as caught:
        merge(nested({"a": 1}), nested({"a": 2}), nested({"a": 3}))
    assert caught.value.pointer == "/k" * (MAX_DEPTH - 1) + "/a"


def test_rebase_replays_on_the_base_and_diffs_against_the_head():
    base = {"a": 1, "b": {"x": 1}, "l": [1]}
    head = {"a": 1, "b": {"x": 2}, "l": [1]}
    patch = [{"op": "replace", "path": "/a", "value": 5}, {"op": "add", "path": "/c", "value": {}}]
    assert rebase(base, head, patch) == patch


def test_rebase_is_empty_when_the_head_already_has_it():
    base, head = {"a": 1}, {"a": 2}
    assert rebase(base, head, [{"op": "replace", "path": "/a", "value": 2}]) == []


def test_rebase_reports_replay_failures_against_the_base():
    with pytest.raises(CfgPatchError) as caught:
        rebase({"a": 1}, {"a": 1, "b": 1}, [{"op": "test", "path": "/a", "value": 1},
                                          {"op": "remove", "path": "/b"}])
    assert str(caught.value) == "path not found at op 1"


def test_rebase_output_contains_moves():
    base = {"db": {"host": "h"}, "x": 1}
    head = {"db": {"host": "h"}, "x": 2}
    patch = [{"op": "move", "from": "/db", "path": "/database"}]
    assert rebase(base, head, patch) == [{"op": "move", "from": "/db", "path": "/database"}]


SMALL = st.recursive(
    st.sampled_from([0, 1, 1.0, True, None, "a"]),
    lambda inner: st.dictionaries(st.sampled_from("abc"), inner, max_size=3)
    | st.lists(inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(SMALL, SMALL)
def test_merge_identities(base, other):
    assert canonical(merge(base, other, base)) == canonical(other)
    assert canonical(merge(base, base, other)) == canonical(other)
    assert canonical(merge(base, other, other)) == canonical(other)


@settings(max_examples=300, deadline=None)
@given(SMALL, SMALL)
def test_rebase_onto_the_same_version_is_the_normalized_patch(base, target):
    patch = diff(base, target)
    rebased = rebase(base, base, patch)
    assert rebased == diff(base, target)
    assert canonical(apply_patch(base, rebased)) == canonical(target)


# -- through run(): Part 3b lookups and effects ------------------------------------


def test_run_lookup_order_and_no_change_on_conflict():
    out = run([
        ["put", "cfg", '{"a":1}'],
        ["apply", "cfg", '[{"op":"replace","path":"/a","value":2}]'],
        ["rebase", "nope", "[]", 1],
        ["rebase", "cfg", "[]", 3],
        ["rebase", "cfg", "[]", 0],
        ["rebase", "cfg", "not json", 1],
        ["rebase", "cfg", "{}", 1],
        ["rebase", "cfg", '[{"op":"replace","path":"/a","value":3}]', 1],
        ["apply", "cfg", '[{"op":"replace","path":"/a","value":3}]', 1],
        ["get", "cfg"],
        ["rebase", "cfg", '[{"op":"replace","path":"/a","value":3}]', 2],
        ["rebase", "cfg", "[]", True],
        ["rebase", "cfg", "[]"],
    ])
    assert out == [
        1, 2,
        "error: unknown document",
        "error: unknown version",
        "error: unknown version",
        "error: invalid json",
        "error: invalid patch",
        "error: conflict at /a",
        "error: conflict at /a",
        '{"a":2}',
        '[{"op":"replace","path":"/a","value":3}]',
        "error: invalid arguments",
        "error: invalid arguments",
    ]


def test_run_stale_apply_commits_one_version_and_root_conflicts():
    out = run([
        ["put", "l", "[1]"],
        ["apply", "l", '[{"op":"add","path":"/0","value":0}]'],
        ["apply", "l", '[{"op":"add","path":"/-","value":2}]', 1],
        ["put", "s", '{"a":{"b":1}}'],
        ["apply", "s", '[{"op":"add","path":"/a/c","value":2}]'],
        ["apply", "s", '[{"op":"add","path":"/d","value":[1]}]', 1],
        ["get", "s"],
        ["get", "s", 2],
    ])
    assert out == [1, 2, "error: conflict at (root)", 1, 2, 3,
                   '{"a":{"b":1,"c":2},"d":[1]}', '{"a":{"b":1,"c":2}}']
