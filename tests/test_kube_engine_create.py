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
