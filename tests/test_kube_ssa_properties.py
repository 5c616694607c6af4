"""Invariants of server-side apply, over random objects of many kinds (hypothesis)."""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import CfgPatchError
from cfgpatch.kube.ssa import fieldpath as fp
from cfgpatch.kube.ssa import server_side_apply
from cfgpatch.kube.ssa.fieldmanager import STRIPPED, gvk_of
from cfgpatch.kube.ssa.fieldsets import to_field_set, validated_field_set
from cfgpatch.kube.ssa.validate import validate
from kube_ssa_support import types_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from ssa_cases import KINDS, _weird, mutate  # noqa: E402

KIND_NAMES = sorted(k for k in KINDS if not KINDS[k][1].startswith("openapi"))


def _object(seed: int, kind: str) -> tuple[dict, object]:
    make, schema = KINDS[kind]
    return make(random.Random(seed)), types_for(schema)


def _owned_fields_exist(result) -> bool:  # noqa: ANN001
    obj = {k: v for k, v in result.object.items()}
    for entry in result.managed_fields:
        for path in entry.fields.leaves().paths():
            if not _has(obj, path):
                return False
    return True


def _has(v: object, path: tuple) -> bool:
    for pe in path:
        if pe.kind == fp.FIELD:
            if not isinstance(v, dict) or pe.data not in v:
                return False
            v = v[pe.data]
        elif pe.kind == fp.KEY:
            if not isinstance(v, list):
                return False
            match = [x for x in v if isinstance(x, dict) and all(
                x.get(n, d) == val for (n, val), d in zip(pe.data, [val for _, val in pe.data]))]
            if not match:
                return False
            v = match[0]
        elif pe.kind == fp.VALUE:
            return isinstance(v, list) and pe.data in v
        else:
            return isinstance(v, list) and pe.data < len(v)
    return True


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(KIND_NAMES))
def test_reapplying_the_same_object_changes_nothing(seed: int, kind: str) -> None:
    obj, types = _object(seed, kind)
    try:
        first = server_side_apply(None, obj, manager="a", schema=types, time="2025-01-01T00:00:00Z")
    except CfgPatchError:
        return
    again = server_side_apply(first.object, obj, manager="a", schema=types,
                              time="2025-01-01T00:00:00Z")
    assert not again.changed
    assert again.object == first.object
    assert again.changes.added.empty() and again.changes.removed.empty()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(KIND_NAMES))
def test_the_applier_owns_its_fields_and_owned_fields_exist(seed: int, kind: str) -> None:
    obj, types = _object(seed, kind)
    rng = random.Random(seed)
    try:
        first = server_side_apply(None, obj, manager="a", schema=types)
        second = server_side_apply(first.object, mutate(obj, rng), manager="b", schema=types,
                                   force=True)
    except CfgPatchError:
        return
    [entry] = first.managed_fields
    assert entry.fields.intersection(STRIPPED).empty()
    assert _owned_fields_exist(first)
    assert {e.manager for e in second.managed_fields} <= {"a", "b"}
    for c in second.forced:  # what b forced is b's now, and no longer a's
        assert all(not e.fields.has(c.path) for e in second.managed_fields if e.manager == "a")


def _typed_case(seed: int, kind: str) -> tuple[dict, object, object]:
    obj, types = _object(seed, kind)
    rng = random.Random(seed)
    r = rng.random()
    if r < 0.4:
        obj = _weird(obj, rng)  # values of the wrong kind: validation errors
    elif r < 0.7:
        obj = mutate(obj, rng)  # (duplicate items among them)
    found = types.lookup(*gvk_of(obj))  # type: ignore[attr-defined]
    return obj, found[0] if found else None, found[1] if found else None


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(KIND_NAMES))
def test_the_one_walk_validation_and_field_set_agree_with_the_two_walks(seed: int,
                                                                       kind: str) -> None:
    obj, schema, ref = _typed_case(seed, kind)
    if schema is None:
        return
    errs, fields = validated_field_set(schema, ref, obj)
    assert sorted(errs) == sorted(validate(schema, ref, obj))
    if not errs:
        assert fields == to_field_set(schema, ref, obj)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(KIND_NAMES))
def test_an_apply_leaves_its_inputs_alone_and_shares_nothing_with_them(seed: int,
                                                                      kind: str) -> None:
    obj, types = _object(seed, kind)
    rng = random.Random(seed)
    try:
        live = server_side_apply(None, obj, manager="a", schema=types).object
    except CfgPatchError:
        return
    new = mutate(obj, rng)
    live_before, new_before = copy.deepcopy(live), copy.deepcopy(new)
    try:
        result = server_side_apply(live, new, manager=rng.choice(["a", "b"]), force=True,
                                   schema=types)
    except CfgPatchError:
        return
    assert live == live_before and new == new_before
    _scribble(result.object)
    assert live == live_before and new == new_before


def _scribble(v: object) -> None:
    """Change every map and list of ``v`` in place."""
    if isinstance(v, dict):
        for x in list(v.values()):
            _scribble(x)
        v["__scribbled"] = 1
    elif isinstance(v, list):
        for x in list(v):
            _scribble(x)
        v.append("__scribbled")
