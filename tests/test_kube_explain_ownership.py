"""The server-side apply explanation (``kube/explain/ownership.py``)."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.kube.explain.ownership import (
    conflict_lines,
    dropped_lines,
    label,
    owner_lines,
    value_at,
)
from cfgpatch.kube.ssa import fieldpath as fp
from cfgpatch.kube.ssa import server_side_apply
from cfgpatch.kube.ssa.managed import entries_of

KEYS = st.sets(st.sampled_from("abcdef"), max_size=6)


def configmap(keys):
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "c", "namespace": "default"},
            "data": {k: "v" for k in sorted(keys)}}


@settings(max_examples=60, deadline=None)
@given(KEYS, KEYS, KEYS)
def test_removed_fields_are_gone_and_kept_fields_stay(first, other, again):
    """A applies ``first``, B applies ``other`` (equal values: shared), A applies
    ``again``: every field the explanation says removed is gone, every kept one stays,
    and both lists name exactly the keys A stopped sending."""
    live = server_side_apply(None, configmap(first), manager="a").object
    live = server_side_apply(live, configmap(other), manager="b").object
    done = server_side_apply(live, configmap(again), manager="a")
    lines = dropped_lines("a", entries_of(live), done.managed_fields, done.changes.removed)
    data = done.object.get("data") or {}
    named = set()
    for line in lines:
        verb, path = line.split(" ", 1)[0], line.split(" ", 2)[1].rstrip(":")
        if path == ".data":  # the whole map went
            assert verb == "removed" and not data
            named |= first - again
            continue
        key = path.removeprefix(".data.")
        named.add(key)
        assert (key in data) == (verb == "kept")
        assert (verb == "kept") == (key in other)
    assert named == first - again


def test_owner_lines_mark_changed_owners():
    live = server_side_apply(None, configmap({"a"}), manager="x").object
    done = server_side_apply(live, configmap({"a"}), manager="y")
    lines = owner_lines(entries_of(live), done.managed_fields)
    assert lines == ["* .data.a: x (Apply) -> y (Apply), x (Apply)"]  # managedFields order


def test_value_at_follows_keys_and_indexes():
    obj = {"spec": {"containers": [{"name": "a", "ports": [{"containerPort": 80}]}],
                    "tags": ["x"]}}
    path = (fp.field("spec"), fp.field("containers"), fp.key([("name", "a")]),
            fp.field("ports"), fp.index(0), fp.field("containerPort"))
    assert value_at(obj, path) == (True, 80)
    assert value_at(obj, (fp.field("spec"), fp.field("tags"), fp.value("x"))) == (True, "x")
    assert value_at(obj, (fp.field("spec"), fp.field("nope")))[0] is False


def test_conflict_lines_name_the_tools_choice():
    from cfgpatch.errors import OwnershipConflict

    live = server_side_apply(None, configmap({"a"}), manager="x").object
    changed = copy.deepcopy(configmap({"a"}))
    changed["data"]["a"] = "w"
    try:
        server_side_apply(live, changed, manager="helm")
    except OwnershipConflict as error:
        lines = conflict_lines(error.conflicts, "helm", live, changed)
    assert lines[0] == 'conflict on .data.a: owned by "x"; live "v", the configuration "w"'
    assert any(line.strip().startswith("Flux (") and "way 1" in line for line in lines)
    assert any(line.strip().startswith("Helm 4 (") and "fails" in line for line in lines)


def test_label_names_operation_version_and_subresource():
    entry = entries_of({"metadata": {"managedFields": [
        {"manager": "m", "operation": "Update", "apiVersion": "apps/v1",
         "fieldsType": "FieldsV1", "fieldsV1": {}, "subresource": "scale"}]}})[0]
    assert label(entry) == "m (Update apps/v1, /scale)"
