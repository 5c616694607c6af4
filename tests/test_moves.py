"""cfgpatch.moves: Part 3a's move post-pass, including the blocked-pair rule."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cfgpatch import moves
from cfgpatch.diffing import diff
from cfgpatch.jsonpatch import apply_patch
from cfgpatch.jsonvalue import canonical
from cfgpatch.moves import place_moves
from cfgpatch.text_cache import TextCache
from reference_diff import detect_moves, diff_without_moves, reference_diff

X, Y, Z, W, N = {"x": 1}, {"y": 1}, {"z": 1}, {"w": [1]}, {"n": 1}


def test_rotation_is_one_move():
    assert diff([X, Y, Z], [Y, Z, X]) == [{"op": "move", "from": "/0", "path": "/2"}]


def test_an_insert_between_blocks_the_pair():
    assert diff([X, Y, Z], [Y, N, Z, X]) == [
        {"op": "remove", "path": "/0"},
        {"op": "add", "path": "/1", "value": N},
        {"op": "add", "path": "/3", "value": X},
    ]


def test_scalars_and_empty_containers_are_never_moved():
    for value in (1, {}, []):
        assert diff({"a": value}, {"b": value}) == [
            {"op": "remove", "path": "/a"}, {"op": "add", "path": "/b", "value": value}]
    assert diff({"a": [0]}, {"b": [0]}) == [{"op": "move", "from": "/a", "path": "/b"}]


def test_number_kind_prevents_a_move():
    assert canonical(diff({"a": {"v": 1}}, {"b": {"v": 1.0}})) == \
        '[{"op":"remove","path":"/a"},{"op":"add","path":"/b","value":{"v":1.0}}]'
    assert diff({"a": {"v": 1}}, {"b": {"v": 1}}) == [{"op": "move", "from": "/a", "path": "/b"}]


def test_move_between_arrays_and_objects():
    a = {"l": [X, Y], "m": {}}
    b = {"l": [Y], "m": {"k": X}}
    got = diff(a, b)
    assert got == [{"op": "move", "from": "/l/0", "path": "/m/k"}]
    assert apply_patch(a, got) == b


def test_only_the_last_removal_of_an_array_can_pair():
    # Both X and Y leave /l for /m; the removal of X is followed by the removal
    # of Y (inside /l), so only Y pairs first; then X may pair too.
    a = {"l": [X, Y, N], "m": []}
    b = {"l": [N], "m": [X, Y]}
    got = diff(a, b)
    assert got == reference_diff(a, b)
    assert got == [{"op": "move", "from": "/l/0", "path": "/m/0"},
                   {"op": "move", "from": "/l/0", "path": "/m/1"}]
    assert canonical(apply_patch(a, got)) == canonical(b)


def test_a_move_from_the_array_blocks_earlier_removals_behind_it():
    a = {"l": [X, Y, N], "m": [], "n": []}
    b = {"l": [N], "m": [Y], "n": [X]}
    got = diff(a, b)
    assert got == reference_diff(a, b)
    assert canonical(apply_patch(a, got)) == canonical(b)


def test_containment_is_by_pointer_text():
    # The contract defines "inside that array" as "starts with its pointer and is
    # longer": the replace at /lx starts with /l, so it blocks the pair.
    a = {"l": [X, N], "lx": 0}
    b = {"l": [N], "lx": 1, "z": X}
    got = diff(a, b)
    assert got == [
        {"op": "remove", "path": "/l/0"},
        {"op": "replace", "path": "/lx", "value": 1},
        {"op": "add", "path": "/z", "value": X},
    ]
    assert got == reference_diff(a, b)


def test_removals_and_moves_block_by_pointer_text_too():
    # A later removal under /lx sits between /l/0 and the add: blocked.
    a = {"l": [X, N], "lx": [Y, N]}
    b = {"l": [N], "lx": [N], "z": X}
    assert diff(a, b) == reference_diff(a, b)
    # ... while a key that does not start with /l does not block.
    a = {"l": [X, N], "m": [Y, N]}
    b = {"l": [N], "m": [N], "z": X, "zz": Y}
    assert diff(a, b) == reference_diff(a, b) == [
        {"op": "move", "from": "/l/0", "path": "/z"}, {"op": "move", "from": "/m/0", "path": "/zz"}]


def test_a_removal_outside_arrays_is_never_blocked():
    a = {"a": X, "l": [1, 2, 3]}
    b = {"l": [9, 1, 3, 4], "z": X}
    got = diff(a, b)
    assert got == reference_diff(a, b)
    assert got[-1] == {"op": "move", "from": "/a", "path": "/z"}


def test_place_moves_directly():
    removals = [("/a", X, None), ("/l/0", Y, "/l")]
    changes = [("add", "/l/1", N, "/l"), ("add", "/b", Y, None), ("add", "/c", X, None)]
    cache = TextCache()
    got = place_moves(removals, changes, cache.text)
    # /l/0 is blocked by the add at /l/1; /a pairs with the add of X.
    assert got == [
        {"op": "remove", "path": "/l/0"},
        {"op": "add", "path": "/l/1", "value": N},
        {"op": "add", "path": "/b", "value": Y},
        {"op": "move", "from": "/a", "path": "/c"},
    ]


POOL = [X, Y, Z, W, {"x": 1.0}, [X], 1]


#: ``moves._SCAN_PER_TEXT`` values that make the pass look at the pools first (0)
#: or at the groups' first touches first (huge), whatever the sizes.
ORDERS = pytest.mark.parametrize("scan_per_text", [0, 10**9],
                                 ids=["pools-first", "touches-first"])


@ORDERS
@settings(max_examples=400, deadline=None)
@given(
    st.dictionaries(st.sampled_from(["l", "lx", "m", "n"]),
                    st.lists(st.sampled_from(POOL), max_size=6), max_size=4),
    st.dictionaries(st.sampled_from(["l", "lx", "m", "n"]),
                    st.lists(st.sampled_from(POOL), max_size=6), max_size=4),
)
# /n's removal may reach the add into /lx, after /l's first touch and before /n's
@example({"l": [X], "lx": [], "m": [], "n": [Y, X, {"x": 1.0}]},
         {"lx": [X, Y], "l": [], "n": [X, X, X]})
def test_fast_pass_equals_the_literal_rescan(scan_per_text, a, b):
    ops, removed = diff_without_moves(a, b)
    expected = detect_moves(a, ops, removed)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(moves, "_SCAN_PER_TEXT", scan_per_text)
        assert canonical(diff(a, b)) == canonical(expected)
        assert canonical(apply_patch(a, diff(a, b))) == canonical(b)


_SHAPES = st.recursive(
    st.sampled_from(POOL),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["l", "lx", "m"]), inner, max_size=3),
    max_leaves=10,
)


@ORDERS
@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["l", "lx", "m", "n"]), _SHAPES, max_size=4),
       st.dictionaries(st.sampled_from(["l", "lx", "m", "n"]), _SHAPES, max_size=4))
def test_fast_pass_equals_the_literal_rescan_in_nested_documents(scan_per_text, a, b):
    """Arrays inside objects inside arrays, removals outside every array, adds after a
    group's first touch: the pass skips the adds no removal can reach, with the same
    result as the literal rescan, whichever it looks at first."""
    ops, removed = diff_without_moves(a, b)
    expected = detect_moves(a, ops, removed)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(moves, "_SCAN_PER_TEXT", scan_per_text)
        assert canonical(diff(a, b)) == canonical(expected)
