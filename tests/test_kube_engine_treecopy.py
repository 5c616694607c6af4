"""The engines' copy of the object is ``copy.deepcopy``'s."""

from __future__ import annotations

import copy

from hypothesis import given, settings

from cfgpatch.kube.engine.treecopy import deep_copy
from test_kube_io_flowjson import VALUES


@settings(max_examples=200, deadline=None)
@given(VALUES)
def test_tree_copy_is_deepcopy(value):
    copied = deep_copy(value)
    assert repr(copied) == repr(copy.deepcopy(value))


def test_shared_and_other_containers_are_copied_as_deepcopy_copies_them():
    shared = {"x": [1]}
    twice = deep_copy({"a": shared, "b": shared, "c": (1, [2])})
    assert twice["a"] is twice["b"] and twice["a"] is not shared
