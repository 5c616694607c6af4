"""JSON Patch: shape checks, the six operations, all-or-nothing, no shared structure."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import CfgPatchError
from cfgpatch.jsonpatch import apply_patch, check_operation, parse_patch
from cfgpatch.jsonvalue import canonical, equal


def fails(doc, patch):
    with pytest.raises(CfgPatchError) as info:
        apply_patch(doc, patch)
    return info.value.wire()


# -- rule 2: shape ----------------------------------------------------------


@pytest.mark.parametrize(
    "op",
    [
        "add",
        None,
        [],
        {},
        {"op": "frob", "path": "/a"},
        {"op": 1, "path": "/a"},
        {"op": "ADD", "path": "/a", "value": 1},
        {"op": "add", "value": 1},
        {"op": "add", "path": 1, "value": 1},
        {"op": "add", "path": "/a"},
        {"op": "replace", "path": "/a"},
        {"op": "test", "path": "/a"},
        {"op": "move", "path": "/a"},
        {"op": "copy", "path": "/a", "from": 3},
        {"op": "add", "path": "no-slash"},  # shape (missing value) before the pointer
    ],
)
def test_malformed_operations(op):
    assert fails({"a": 1}, [op]) == "invalid operation at op 0"


def test_extra_members_are_ignored_and_null_is_a_value():
    assert apply_patch({}, [{"op": "add", "path": "/a", "value": None, "x": 1}]) == {"a": None}


def test_path_is_checked_before_from_and_both_before_the_document():
    assert fails({}, [{"op": "move", "path": "bad", "from": "also-bad"}]) == "invalid pointer at op 0"
    assert fails({}, [{"op": "move", "path": "/x", "from": "bad"}]) == "invalid pointer at op 0"
    assert fails({}, [{"op": "remove", "path": "/a~2"}]) == "invalid pointer at op 0"


def test_operations_are_checked_in_sequence():
    patch = [{"op": "remove", "path": "/missing"}, {"op": "nonsense"}]
    assert fails({}, patch) == "path not found at op 0"
    patch = [{"op": "add", "path": "/a", "value": 1}, {"op": "nonsense"}]
    assert fails({}, patch) == "invalid operation at op 1"


def test_patch_must_be_a_list():
    with pytest.raises(CfgPatchError) as info:
        parse_patch('{"op":"add"}')
    assert info.value.wire() == "invalid patch"
    with pytest.raises(CfgPatchError) as info:
        parse_patch("[")
    assert info.value.wire() == "invalid json"


# -- add ----------------------------------------------------------------------


def test_add_inserts_before_the_index():  # incident symptom 2
    assert apply_patch({"r": ["a", "b"]}, [{"op": "add", "path": "/r/1", "value": "x"}]) == {
        "r": ["a", "x", "b"]
    }


@pytest.mark.parametrize(
    "path,result",
    [("/r/2", ["a", "b", "x"]), ("/r/-", ["a", "b", "x"]), ("/r/0", ["x", "a", "b"])],
)
def test_add_at_ends(path, result):
    assert apply_patch({"r": ["a", "b"]}, [{"op": "add", "path": path, "value": "x"}])["r"] == result


@pytest.mark.parametrize(
    "path,code",
    [
        ("/r/3", "path not found"),
        ("/r/-1", "invalid index"),  # incident symptom 6
        ("/r/01", "invalid index"),
        ("/r/+1", "invalid index"),
        ("/r/1.0", "invalid index"),
        ("/r/ 1", "invalid index"),
        ("/r/-/x", "invalid index"),  # - only as the final token
        ("/missing/x", "path not found"),
        ("/s/x", "path not found"),  # scalar parent
    ],
)
def test_add_errors(path, code):
    assert fails({"r": ["a", "b"], "s": 1}, [{"op": "add", "path": path, "value": 0}]) == (
        f"{code} at op 0"
    )


def test_add_sets_or_overwrites_keys_and_replaces_the_root():
    assert apply_patch({"a": 1}, [{"op": "add", "path": "/a", "value": 2}]) == {"a": 2}
    assert apply_patch({"a": 1}, [{"op": "add", "path": "", "value": [1]}]) == [1]
    assert apply_patch({}, [{"op": "add", "path": "/-", "value": 1}]) == {"-": 1}


# -- remove / replace -----------------------------------------------------------


def test_remove_shifts_left_and_cannot_remove_root():
    assert apply_patch([1, 2, 3], [{"op": "remove", "path": "/0"}]) == [2, 3]
    assert fails([1], [{"op": "remove", "path": ""}]) == "cannot remove root at op 0"
    assert fails([1], [{"op": "remove", "path": "/1"}]) == "path not found at op 0"
    assert fails([1], [{"op": "remove", "path": "/-"}]) == "invalid index at op 0"
    assert fails({}, [{"op": "remove", "path": "/a"}]) == "path not found at op 0"


def test_replace_needs_an_existing_target():
    assert apply_patch({"a": 1}, [{"op": "replace", "path": "/a", "value": [2]}]) == {"a": [2]}
    assert apply_patch({"a": 1}, [{"op": "replace", "path": "", "value": 3}]) == 3
    assert fails({}, [{"op": "replace", "path": "/a", "value": 1}]) == "path not found at op 0"
    assert fails([1], [{"op": "replace", "path": "/1", "value": 1}]) == "path not found at op 0"
    assert fails([1], [{"op": "replace", "path": "/-", "value": 1}]) == "invalid index at op 0"


# -- move / copy ----------------------------------------------------------------


def test_move_into_own_child_is_invalid():  # incident symptom 4
    assert fails({"a": {"x": 1}}, [{"op": "move", "from": "/a", "path": "/a/old"}]) == (
        "invalid move at op 0"
    )
    assert fails({"a": 1}, [{"op": "move", "from": "", "path": "/a"}]) == "invalid move at op 0"


def test_move_checks_in_order():
    # from must exist first, even when the paths would also be an invalid move
    assert fails({}, [{"op": "move", "from": "/a", "path": "/a/b"}]) == "path not found at op 0"
    # /a is not a proper prefix of /ab
    assert apply_patch({"a": 1}, [{"op": "move", "from": "/a", "path": "/ab"}]) == {"ab": 1}


def test_move_to_itself_does_nothing_and_move_evaluates_after_removal():
    assert apply_patch({"a": 1}, [{"op": "move", "from": "/a", "path": "/a"}]) == {"a": 1}
    assert apply_patch([1, 2, 3], [{"op": "move", "from": "/0", "path": "/2"}]) == [2, 3, 1]
    assert fails([1, 2], [{"op": "move", "from": "/0", "path": "/2"}]) == "path not found at op 0"
    assert apply_patch({"a": {"b": 1}}, [{"op": "move", "from": "/a/b", "path": "/a"}]) == {"a": 1}


def test_copy_is_independent():
    doc = apply_patch(
        {"a": {"x": [1]}},
        [
            {"op": "copy", "from": "/a", "path": "/b"},
            {"op": "add", "path": "/b/x/-", "value": 2},
        ],
    )
    assert doc == {"a": {"x": [1]}, "b": {"x": [1, 2]}}
    assert fails({}, [{"op": "copy", "from": "/a", "path": "/b"}]) == "path not found at op 0"


def test_copy_bombs_hit_a_limit_instead_of_memory():
    patch = [{"op": "copy", "from": "", "path": "/-"}] * 60  # doubles the size each time
    assert fails([1], patch).startswith("limit exceeded at op")


# -- test -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "actual,expected,passes",
    [
        (True, 1, False),  # incident symptom 5
        (1, 1.0, False),
        (1, True, False),
        (0, False, False),
        (None, False, False),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}, True),
        ([1, 2], [2, 1], False),
        ("1", 1, False),
        (1.5, 1.5, True),
    ],
)
def test_test_is_exact(actual, expected, passes):
    patch = [{"op": "test", "path": "/v", "value": expected}]
    if passes:
        apply_patch({"v": actual}, patch)
    else:
        assert fails({"v": actual}, patch) == "test failed at op 0"


def test_test_needs_an_existing_target():
    assert fails({}, [{"op": "test", "path": "/v", "value": None}]) == "path not found at op 0"
    assert fails([1], [{"op": "test", "path": "/-", "value": 1}]) == "invalid index at op 0"


# -- all-or-nothing and sharing --------------------------------------------------------


def test_failure_changes_nothing():  # incident symptom 1
    doc = {"r": ["a"], "m": {"k": 1}}
    before = copy.deepcopy(doc)
    patch = [
        {"op": "add", "path": "/r/0", "value": "x"},
        {"op": "replace", "path": "/m/k", "value": 2},
        {"op": "remove", "path": "/nope"},
    ]
    assert fails(doc, patch) == "path not found at op 2"
    assert doc == before


def test_values_written_are_independent_of_the_patch():
    value = {"deep": [1]}
    patch = [
        {"op": "add", "path": "/a", "value": value},
        {"op": "add", "path": "/b", "value": value},
        {"op": "add", "path": "/a/deep/-", "value": 2},
    ]
    result = apply_patch({}, patch)
    assert result == {"a": {"deep": [1, 2]}, "b": {"deep": [1]}}
    assert value == {"deep": [1]}


def test_shared_result_does_not_touch_the_input():
    doc = {"keep": {"big": list(range(5))}, "edit": {"x": [1]}}
    result = apply_patch(doc, [{"op": "add", "path": "/edit/x/-", "value": 2}], share_unchanged=True)
    assert result["keep"] is doc["keep"]
    assert doc["edit"] == {"x": [1]} and result["edit"] == {"x": [1, 2]}


def test_many_operations_and_deep_documents():
    patch = [{"op": "add", "path": "/l/-", "value": i} for i in range(100_000)]
    assert len(apply_patch({"l": []}, patch, share_unchanged=True)["l"]) == 100_000
    deep: dict = {}
    node = deep
    for _ in range(200):
        node["a"] = {}
        node = node["a"]
    value: list = [1]
    for _ in range(60):
        value = [value]
    too_deep = [{"op": "add", "path": "/a" * 200 + "/x", "value": value}]
    assert fails(deep, too_deep).startswith("limit exceeded at op 0")


def test_check_operation_decodes_pointers():
    op = check_operation({"op": "move", "from": "/a~1b", "path": "/c~0"})
    assert (op.from_, op.path) == (["a/b"], ["c~"])


# -- properties ---------------------------------------------------------------------------

keys = st.sampled_from(["a", "b", "c", "~1", "a/b"])
values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([1.0, 0.5]) | st.text(max_size=2),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(keys, c, max_size=3),
    max_leaves=12,
)
pointers = st.lists(keys | st.sampled_from(["0", "1", "-", "01"]), max_size=3).map(
    lambda ts: "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in ts)
)
operations = st.fixed_dictionaries(
    {"op": st.sampled_from(["add", "remove", "replace", "move", "copy", "test"]), "path": pointers},
    optional={"value": values, "from": pointers},
)


@settings(max_examples=400, deadline=None)
@given(values, st.lists(operations, max_size=6))
def test_apply_never_mutates_inputs_and_fails_cleanly(doc, patch):
    doc_text, patch_text = canonical(doc), canonical(patch)
    try:
        result = apply_patch(doc, patch, share_unchanged=True)
    except CfgPatchError as error:
        assert error.op_index is not None and 0 <= error.op_index < len(patch)
    else:
        canonical(result)
    assert canonical(doc) == doc_text and canonical(patch) == patch_text


@settings(max_examples=200, deadline=None)
@given(values, st.lists(operations, max_size=6))
def test_shared_and_unshared_results_agree(doc, patch):
    try:
        shared = apply_patch(doc, patch, share_unchanged=True)
    except CfgPatchError as error:
        with pytest.raises(CfgPatchError) as again:
            apply_patch(doc, patch)
        assert again.value.wire() == error.wire()
    else:
        assert equal(apply_patch(doc, patch), shared)


# -- copy: measured before it writes, shared when the caller shares ------------

_values = st.recursive(st.integers(0, 3), lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from("abc"), inner, max_size=3)),
    max_leaves=10)
_pointers = st.lists(st.sampled_from(["a", "b", "c", "0", "1", "-"]), max_size=4).map(
    lambda tokens: "".join("/" + t for t in tokens))
_operations = st.one_of(
    st.builds(lambda o, p, v: {"op": o, "path": p, "value": v},
              st.sampled_from(["add", "replace"]), _pointers, _values),
    st.builds(lambda o, p: {"op": o, "path": p}, st.just("remove"), _pointers),
    st.builds(lambda o, f, p: {"op": o, "from": f, "path": p},
              st.sampled_from(["copy", "move", "copy"]), _pointers, _pointers))


@settings(max_examples=1500, deadline=None)
@given(st.dictionaries(st.sampled_from("abc"), _values, max_size=3),
       st.lists(_operations, min_size=1, max_size=8))
def test_shared_copies_give_the_unshared_result_and_leave_the_input_alone(doc, patch):
    before = canonical(doc)
    try:
        plain = apply_patch(doc, patch)
    except CfgPatchError as error:
        with pytest.raises(CfgPatchError) as shared_error:
            apply_patch(doc, patch, share_unchanged=True)
        assert shared_error.value.wire() == error.wire()
        return
    shared = apply_patch(doc, patch, share_unchanged=True)
    assert canonical(shared) == canonical(plain)
    assert canonical(doc) == before


def test_doubling_copies_are_refused_by_the_budget_before_they_grow():
    import tracemalloc

    patch = [{"op": "copy", "from": "/a", "path": "/a/-"} for _ in range(60)]
    tracemalloc.start()
    with pytest.raises(CfgPatchError) as info:
        apply_patch({"a": ["x" * 100]}, patch, share_unchanged=True, copy_budget=4 << 20)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert info.value.wire() == "limit exceeded at op 15"  # 2**15 * 103 bytes > 4 MiB
    assert "at most 4194304" in info.value.message
    assert peak < 2 << 20
    # Without a byte budget the node count still stops it, as quickly.
    with pytest.raises(CfgPatchError) as nodes:
        apply_patch({"a": ["x" * 100]}, patch, share_unchanged=True)
    assert nodes.value.wire() == "limit exceeded at op 21"


def test_the_copy_budget_counts_canonical_bytes():
    doc = {"s": "abcdefgh", "o": {"k": [1, 2.5, True, None]}}
    # '"abcdefgh"' is 10 bytes; '{"k":[1,2.5,true,null]}' is 23 bytes.
    assert apply_patch(doc, [{"op": "copy", "from": "/s", "path": "/t"},
                             {"op": "copy", "from": "/o", "path": "/p"}], copy_budget=33)
    with pytest.raises(CfgPatchError, match="limit exceeded at op 1"):
        apply_patch(doc, [{"op": "copy", "from": "/s", "path": "/t"},
                          {"op": "copy", "from": "/o", "path": "/p"}], copy_budget=32)


@pytest.mark.parametrize("op", [
    {"op": "remove", "path": "/a/" + "1" * 5000},
    {"op": "test", "path": "/a/" + "1" * 5000, "value": 1},
    {"op": "copy", "from": "/a/" + "9" * 4301, "path": "/b"},
    {"op": "copy", "from": "/a/0", "path": "/a/" + "1" * 5000},
    {"op": "move", "from": "/a/" + "1" * 5000, "path": "/b"},
    {"op": "replace", "path": "/a/" + "1" * 5000, "value": 1},
])
def test_an_index_of_thousands_of_digits_is_out_of_range(op):
    assert fails({"a": [1, 2]}, [op]) == "path not found at op 0"


def test_a_subtree_in_many_places_is_measured_once():
    shared = 0
    for _ in range(6):
        shared = [shared] * 40  # 40**6 values written out, 7 objects in memory
    with pytest.raises(CfgPatchError) as info:
        apply_patch({"a": shared}, [{"op": "copy", "from": "/a", "path": "/b"}],
                    share_unchanged=True, trusted=True)
    assert "more than 5000000 values" in info.value.message
