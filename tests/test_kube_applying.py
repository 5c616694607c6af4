"""The library's apply, diff and upgrade (kube/applying.py): typed results over the
engines, the same answers as the command line."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import KubeError
from cfgpatch.kube import ApplyOutcome, DiffResult, apply, diff, patch, upgrade

CM = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}
KEYS = st.sampled_from(["a", "b", "c", "d"])
# (no nulls: a merge patch cannot write one, and kubectl keeps those it finds)
VALUES = st.recursive(st.one_of(st.booleans(), st.integers(-5, 5), st.text("xy", max_size=2)),
                      lambda inner: st.dictionaries(KEYS, inner, max_size=3), max_leaves=6)
SPECS = st.dictionaries(KEYS, VALUES, max_size=4)


@settings(max_examples=150, deadline=None)
@given(SPECS, SPECS)
def test_a_diffs_patch_applied_to_old_gives_new(old_spec, new_spec):
    old = {"apiVersion": "x.io/v1", "kind": "Thing", "metadata": {"name": "t"}, "spec": old_spec}
    new = {**old, "spec": new_spec}
    found = diff(old, new)
    assert found.patch_type == "merge"  # no Go type: kubectl's merge patch
    assert patch(old, found.patch, "merge", explain=False).object == new
    assert found.changed == (found.patch_text != "{}")


def test_results_are_frozen_dataclasses():
    for kind in (ApplyOutcome, DiffResult):
        assert dataclasses.is_dataclass(kind)
    outcome = apply(CM)
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.action = "x"  # type: ignore[misc]


def test_apply_creates_configures_and_leaves_unchanged():
    created = apply({**CM, "data": {"a": "1"}})
    assert (created.action, created.patch) == ("created", None)
    assert created.object["metadata"]["namespace"] == "default"  # kubectl fills it in
    live = created.object | {"metadata": {**created.object["metadata"],
                                          "annotations": {"kubectl.kubernetes.io/last-applied-configuration": created.annotation}}}
    assert apply({**CM, "data": {"a": "1"}}, live).action == "unchanged"
    changed = apply({**CM, "data": {"a": "2"}}, live)
    assert changed.action == "configured" and changed.patch_type == "strategic"
    assert changed.object["data"] == {"a": "2"}
    assert [note.code for note in changed.notes] == ["changed"]


def test_a_cluster_scoped_kind_gets_no_namespace():
    ns = apply({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "n"}})
    assert "namespace" not in ns.object["metadata"]


def test_upgrade_of_a_custom_resource_sends_helms_two_way_merge_patch():
    old = {"apiVersion": "x.io/v1", "kind": "Thing", "metadata": {"name": "t"}, "spec": {"a": 1}}
    new = {**old, "spec": {"a": 2}}
    live = {**old, "spec": {"a": 1, "b": "live"}}
    done = upgrade(old, new, live)
    assert (done.action, done.patch_type, done.patch_text) == ("updated", "merge", '{"spec":{"a":2}}')
    assert done.object["spec"] == {"a": 2, "b": "live"}


def test_diff_refuses_what_kubectl_refuses():
    with pytest.raises(KubeError) as refused:
        diff({"apiVersion": "x.io/v1", "kind": "Thing"}, {"apiVersion": "x.io/v1", "kind": "Thing"},
             type="strategic")
    assert refused.value.message == ("strategic merge patch is not supported for Thing (x.io/v1); "
                                     "use --type merge")
    with pytest.raises(KubeError):
        diff(CM, CM, type="json")
