"""The error hierarchy: wire forms, descriptions, JSON form."""

from __future__ import annotations

from cfgpatch.errors import ALL_CODES, CfgPatchError, MergeConflict, PatchFailed


def test_wire_forms():
    error = PatchFailed("no key", code="path not found")
    assert str(error) == "path not found"
    error.at_op(2, {"op": "remove", "path": "/x"})
    assert str(error) == "path not found at op 2"
    assert MergeConflict(pointer="/b/x").wire() == "conflict at /b/x"
    assert MergeConflict(pointer="").wire() == "conflict at (root)"


def test_describe_names_the_operation_and_hint():
    error = PatchFailed('no key "x" in /spec', code="path not found", hint="try /a~1b")
    error.at_op(0, {"op": "move", "from": "/a", "path": "/b"})
    assert error.describe() == 'op 0 (move /a -> /b): path not found: no key "x" in /spec; try /a~1b'


def test_to_dict_and_hierarchy():
    error = PatchFailed("m", code="path not found", pointer="/a", token="a").at_op(1, None)
    assert error.to_dict() == {
        "code": "path not found",
        "message": "m",
        "op_index": 1,
        "pointer": "/a",
        "token": "a",
    }
    assert isinstance(error, CfgPatchError)
    assert len(set(ALL_CODES)) == len(ALL_CODES)
