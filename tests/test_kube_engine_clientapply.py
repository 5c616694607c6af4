"""Client-side ``kubectl apply`` and Helm's upgrade (``kube/engine/clientapply.py``),
replayed against real kubectl.

``tests/data/kube/apply/recorded.jsonl`` holds what kubectl 1.32 sent to a fake API
server (``scripts/record_kube_apply.py``): for each ``apply`` case the PATCH body of
``kubectl apply`` (three-way), for each ``edit`` case that of ``kubectl edit``
(two-way), byte for byte, or kubectl's error.  Every case must come out identical.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cfgpatch.errors import APPLY_CONFLICT, KubeError
from cfgpatch.kube.engine import create, createjson
from cfgpatch.kube.engine.clientapply import (
    LAST_APPLIED,
    helm_upgrade,
    kubectl_apply,
    last_applied_of,
    modified_configuration,
    resource_name,
)
from cfgpatch.kube.go.json import encode
from cfgpatch.kube.schema.node import builtin_schema
from cfgpatch.kube.schema.scope import is_cluster_scoped

RECORDED = Path(__file__).parent / "data" / "kube" / "apply" / "recorded.jsonl"
CASES = [json.loads(line) for line in RECORDED.read_text(encoding="utf-8").splitlines()]
SCHEMA = builtin_schema()


def ours(case: dict) -> tuple[str | None, str | None]:
    """(patch text or None when no PATCH is sent, error message or None)."""
    obj = case.get("manifest") or case["new"]
    node = SCHEMA.for_kind(obj["apiVersion"], obj["kind"])
    try:
        if case["how"] == "apply":
            namespace = None if is_cluster_scoped(obj["apiVersion"], obj["kind"]) else "default"
            done = kubectl_apply(case["manifest"], case["live"], node, namespace=namespace,
                                 overwrite="--overwrite=false" not in case.get("flags", ()))
            return (None if done.unchanged else done.patch_text), None
        if node is None:
            return encode(createjson.create_merge_patch(case["old"], case["new"])), None
        return encode(create.create_two_way(case["old"], case["new"], node)), None
    except KubeError as error:
        return None, error.message


def test_enough_cases_recorded():
    assert len(CASES) >= 40
    assert {case["kubectl"][:6] for case in CASES} == {"v1.32."}


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_identical_to_kubectl(case):
    patch, error = ours(case)
    assert patch == case["patch"]
    if case["code"] == 0:
        assert error is None
    else:
        assert error is not None
        # kubectl wraps the message in its own context; it ends with apimachinery's text
        assert case["stderr"].rstrip("\n").endswith(error.rstrip("\n"))


def test_content_type_follows_the_schema():
    for case in CASES:
        if case["content_type"] is None:
            continue
        obj = case.get("manifest") or case["new"]
        known = SCHEMA.for_kind(obj["apiVersion"], obj["kind"]) is not None
        expected = "strategic-merge-patch" if known else "merge-patch"
        assert case["content_type"] == f"application/{expected}+json"


def test_conflict_has_its_code():
    case = next(c for c in CASES if c["id"] == "overwrite-false-conflict")
    node = SCHEMA.for_kind("apps/v1", "Deployment")
    with pytest.raises(KubeError) as caught:
        kubectl_apply(case["manifest"], case["live"], node, overwrite=False)
    assert caught.value.code == APPLY_CONFLICT


def test_annotation_as_kubectl_writes_it():
    manifest = {"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": "c", "annotations": {LAST_APPLIED: "stale", "x": "<"}}}
    modified, annotation = modified_configuration(manifest, "ns")
    assert annotation == ('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"annotations":'
                          '{"x":"\\u003c"},"name":"c","namespace":"ns"}}\n')
    assert modified["metadata"]["annotations"] == {"x": "<", LAST_APPLIED: annotation}
    assert manifest["metadata"]["annotations"][LAST_APPLIED] == "stale"
    assert last_applied_of(modified) == {
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"annotations": {"x": "<"}, "name": "c", "namespace": "ns"}}


def test_bad_annotation_is_kubectls_error():
    live = {"metadata": {"annotations": {LAST_APPLIED: "[1]"}}}
    with pytest.raises(KubeError) as caught:
        last_applied_of(live)
    assert caught.value.message == "invalid JSON document"
    assert last_applied_of({"metadata": {}}) is None


def test_create_when_there_is_no_live_object():
    manifest = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}
    done = kubectl_apply(manifest, None, SCHEMA.for_kind("v1", "ConfigMap"))
    assert done.patch is None and done.result["metadata"]["namespace"] == "default"
    assert LAST_APPLIED in done.result["metadata"]["annotations"]


def test_helm_upgrade_three_way_keeps_live_only_fields():
    node = SCHEMA.for_kind("apps/v1", "Deployment")
    old = {"spec": {"replicas": 2, "paused": False}}
    new = {"spec": {"replicas": 3}}
    live = {"spec": {"replicas": 2, "paused": False, "minReadySeconds": 7}}
    done = helm_upgrade(old, new, live, node)
    assert done.patch == {"spec": {"paused": None, "replicas": 3}}
    assert done.result == {"spec": {"replicas": 3, "minReadySeconds": 7}}
    assert done.annotation is None


def test_helm_upgrade_custom_resource_two_way_variant():
    old = {"spec": {"tags": ["a"], "size": 1}}
    new = {"spec": {"tags": ["a", "b"]}}
    live = {"spec": {"tags": ["a", "live"], "size": 1, "owner": "ops"}}
    assert helm_upgrade(old, new, live, None, cr_three_way=True).patch == {
        "spec": {"size": None, "tags": ["a", "b"]}}
    assert helm_upgrade(old, new, live, None).patch == {
        "spec": {"size": None, "tags": ["a", "b"]}}
    # unchanged lists: two-way (helm upgrade's default) sends nothing, three-way
    # restores the manifest's list
    same = {"spec": {"tags": ["a"]}}
    assert helm_upgrade(same, same, live, None).patch == {}
    assert helm_upgrade(same, same, live, None, cr_three_way=True).patch == {
        "spec": {"tags": ["a"]}}


@pytest.mark.parametrize(("kind", "resource"), [
    ("Deployment", "deployments"), ("NetworkPolicy", "networkpolicies"),
    ("Ingress", "ingresses"), ("IngressClass", "ingressclasses"), ("Endpoints", "endpoints"),
    ("EndpointSlice", "endpointslices"), ("ComponentStatus", "componentstatuses"),
    ("PodSecurityPolicy", "podsecuritypolicies"), ("Gateway", "gateways"),
    ("ServiceEntryEndpoints", "serviceentryendpoints")])
def test_resource_name_is_discoverys(kind, resource):
    # the built-in names are what API servers serve; the last two are custom resources
    assert resource_name(kind) == resource
