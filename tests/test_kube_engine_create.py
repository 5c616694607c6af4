"""Strategic merge patch creation (``kube/engine/create.py``): two-way and three-way.

Hand-written cases follow apimachinery's documented behaviour; the cases recorded from
real kubectl (a fake API server capturing the PATCH that ``kubectl apply`` sends) are
replayed in ``tests/test_kube_apply_recorded.py``.
"""

from __future__ import annotations

import pytest

from cfgpatch.errors import APPLY_CONFLICT, KubeError
from cfgpatch.kube.engine.create import (
    APPLY_PRECONDITIONS,
    create_three_way,
    create_two_way,
)
from cfgpatch.kube.go.json import encode
from cfgpatch.kube.schema.node import builtin_schema

SCHEMA = builtin_schema()
DEPLOY = SCHEMA.for_kind("apps/v1", "Deployment")
NAMESPACE = SCHEMA.for_kind("v1", "Namespace")
POD = SCHEMA.for_kind("v1", "Pod")


def two(old, new, node=DEPLOY):
    return encode(create_two_way(old, new, node))


def three(last, new, live, node=DEPLOY, **kw):
    return encode(create_three_way(last, new, live, node, **kw))


def test_unsorted_scalar_merge_list_gets_an_order_directive():
    # apimachinery sorts the old list in place before comparing it with the new one
    same = {"metadata": {"finalizers": ["b", "a"]}}
    assert two(same, same, NAMESPACE) == '{"metadata":{"$setElementOrder/finalizers":["b","a"]}}'
    ordered = {"metadata": {"finalizers": ["a", "b"]}}
    assert two(ordered, ordered, NAMESPACE) == "{}"


def test_scalar_merge_list_additions_and_deletions():
    old = {"metadata": {"finalizers": ["a", "b"]}}
    new = {"metadata": {"finalizers": ["c", "a"]}}
    assert two(old, new, NAMESPACE) == (
        '{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"],'
        '"$setElementOrder/finalizers":["c","a"],"finalizers":["c"]}}')


def test_retain_keys_on_a_strategy_switch():
    old = {"spec": {"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}}}
    new = {"spec": {"strategy": {"type": "Recreate"}}}
    assert two(old, new) == (
        '{"spec":{"strategy":{"$retainKeys":["type"],"rollingUpdate":null,"type":"Recreate"}}}')


def test_keyed_list_delete_directive_and_order():
    old = {"spec": {"containers": [{"name": "a", "image": "1"}, {"name": "b"}]}}
    new = {"spec": {"containers": [{"name": "c"}, {"name": "a", "image": "2"}]}}
    assert two(old, new, POD) == (
        '{"spec":{"$setElementOrder/containers":[{"name":"c"},{"name":"a"}],'
        '"containers":[{"name":"c"},{"image":"2","name":"a"},{"$patch":"delete","name":"b"}]}}')


def test_two_way_round_trip_of_nothing():
    assert two({}, {}) == "{}"
    assert two(None, {"a": 1}) == '{"a":1}'


def test_three_way_field_left_the_manifest():
    # replicas was applied before and is no longer in the manifest: deleted
    assert three({"spec": {"replicas": 3}}, {"spec": {}}, {"spec": {"replicas": 5}}) == (
        '{"spec":{"replicas":null}}')


def test_three_way_field_never_applied_stays():
    assert three({"spec": {}}, {"spec": {}}, {"spec": {"replicas": 5}}) == "{}"


def test_three_way_manifest_wins_over_a_manual_edit():
    assert three({"spec": {"replicas": 3}}, {"spec": {"replicas": 4}},
                 {"spec": {"replicas": 5}}) == '{"spec":{"replicas":4}}'


def test_three_way_conflict_without_overwrite():
    with pytest.raises(KubeError) as caught:
        three({"spec": {"replicas": 3}}, {"spec": {"replicas": 4}}, {"spec": {"replicas": 5}},
              overwrite=False)
    assert caught.value.code == APPLY_CONFLICT
    assert caught.value.message.startswith("patch:\nspec:\n  replicas: 4\n")
    assert "conflicts with changes made from original to current:\nspec:\n  replicas: 5\n" in (
        caught.value.message)
    # no conflict when the live change is the one the manifest makes
    assert three({"spec": {"replicas": 3}}, {"spec": {"replicas": 4}}, {"spec": {"replicas": 4}},
                 overwrite=False) == "{}"


def test_apply_preconditions():
    with pytest.raises(KubeError) as caught:
        create_three_way({"kind": "A"}, {"kind": "B"}, {"kind": "A"}, DEPLOY,
                         preconditions=APPLY_PRECONDITIONS)
    assert caught.value.message == "precondition failed for: map[kind:B]"
    name = {"metadata": {"name": "x"}}
    with pytest.raises(KubeError):
        create_two_way(name, {"metadata": {"name": "y"}}, DEPLOY, APPLY_PRECONDITIONS)


def test_unknown_field_is_an_error_only_when_changed():
    same = {"spec": {"bogus": {"a": 1}}}
    assert two(same, same) == "{}"
    with pytest.raises(KubeError) as caught:
        two(same, {"spec": {"bogus": {"a": 2}}})
    assert caught.value.message == (
        'unable to find api field in struct DeploymentSpec for the json field "bogus"')


def test_inputs_are_not_modified():
    old = {"metadata": {"finalizers": ["b", "a"]}}
    create_two_way(old, old, NAMESPACE)
    assert old == {"metadata": {"finalizers": ["b", "a"]}}


def test_missing_merge_key_is_kubectls_error():
    with pytest.raises(KubeError) as caught:
        two({"spec": {"containers": [{"image": "x"}]}}, {"spec": {"containers": [{"name": "a"}]}},
            POD)
    assert "does not contain declared merge key: name" in caught.value.message


# ------------------------------------------------------------------ properties

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from cfgpatch.kube.engine.strategic import strategic_merge  # noqa: E402
from cfgpatch.kube.explain.apply import fields  # noqa: E402
from kube_gen_support import ObjectGen  # noqa: E402

KINDS = SCHEMA.kinds()


def _pair(kind_index: int, seed: int):
    api_version, kind = KINDS[kind_index % len(KINDS)]
    node = SCHEMA.for_kind(api_version, kind)
    gen = ObjectGen(seed)
    old = gen.object(api_version, kind, node)
    return node, gen, old, gen.edit(old, node)


def _round_trip(node, old, new):
    patch = create_two_way(old, new, node)
    assert strategic_merge(old, patch, node) == new, patch


def test_two_way_round_trip_every_builtin_kind():
    assert len(KINDS) > 300
    for index in range(len(KINDS)):
        for seed in range(3):
            node, _, old, new = _pair(index, seed * 7919 + index)
            _round_trip(node, old, new)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 2**31))
def test_two_way_round_trip_property(kind_index, seed):
    node, _, old, new = _pair(kind_index, seed)
    _round_trip(node, old, new)
    _round_trip(node, new, old)


def _ancestors(path: str) -> list[str]:
    cut = [i for i, ch in enumerate(path) if ch in ".["]
    return [path[:i] for i in cut]


def _has(path: str, flat: dict) -> bool:
    return path in flat or any(other.startswith((path + ".", path + "[")) for other in flat)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 2**31))
def test_three_way_property(kind_index, seed):
    """Applying the three-way patch to LIVE gives NEW on every field NEW names, deletes
    what only the last applied configuration named, and keeps every live-only field."""
    node, gen, last, new = _pair(kind_index, seed)
    live = gen.edit(last, node, live_only=True)
    result = strategic_merge(live, create_three_way(last, new, live, node), node)
    flat_last, flat_new = fields(last, node), fields(new, node)
    flat_live, flat_out = fields(live, node), fields(result, node)
    for path, value in flat_new.items():
        if value in ("{}", "[]"):
            assert _has(path, flat_out), path
        else:
            assert flat_out.get(path) == value, path
    for path in flat_last:
        if not _has(path, flat_new) and not any(a in flat_new for a in _ancestors(path)):
            assert path not in flat_out, path
    for path, value in flat_live.items():
        if _has(path, flat_last) or _has(path, flat_new) or \
                any(a in flat_new for a in _ancestors(path)):
            continue
        if any(_has(a, flat_last) and not _has(a, flat_new) for a in _ancestors(path)):
            continue  # its parent left the manifest, so the parent is deleted
        assert flat_out.get(path) == value, path
