"""Custom resources: kubectl's refusal, the merge-patch fallback of other tools, SSA's view."""

from __future__ import annotations

import copy

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube import patch
from cfgpatch.kube.schema.crd import crd_shapes, version_schema
from cfgpatch.kube.views.ssa import server_side_apply

PROM = {"apiVersion": "monitoring.coreos.com/v1", "kind": "Prometheus",
        "metadata": {"name": "main", "finalizers": ["a"]},
        "spec": {"replicas": 1,
                 "containers": [{"name": "prometheus", "image": "p:1"},
                                {"name": "sidecar", "image": "s:1"}],
                 "tolerations": [{"key": "k1", "operator": "Exists"}],
                 "ports": [{"port": 9090, "protocol": "TCP", "name": "web"}],
                 "tags": ["x"]}}

CRD = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
       "metadata": {"name": "prometheuses.monitoring.coreos.com"},
       "spec": {"group": "monitoring.coreos.com", "versions": [
           {"name": "v1alpha1", "schema": {"openAPIV3Schema": {"type": "object"}}},
           {"name": "v1", "schema": {"openAPIV3Schema": {"type": "object", "properties": {
               "spec": {"type": "object", "properties": {
                   "replicas": {"type": "integer"},
                   "containers": {"type": "array", "x-kubernetes-list-type": "map",
                                  "x-kubernetes-list-map-keys": ["name"],
                                  "items": {"type": "object", "properties": {
                                      "name": {"type": "string"},
                                      "image": {"type": "string"}}}},
                   "ports": {"type": "array", "x-kubernetes-list-type": "map",
                             "x-kubernetes-list-map-keys": ["port", "protocol"],
                             "items": {"type": "object"}},
                   "tags": {"type": "array", "x-kubernetes-list-type": "set",
                            "items": {"type": "string"}},
                   "tolerations": {"type": "array", "items": {"type": "object"}},
                   "labels": {"type": "object", "x-kubernetes-map-type": "atomic",
                              "additionalProperties": {"type": "string"}}}}}}}}]}}

BODY = {"spec": {"replicas": 3, "containers": [{"name": "prometheus", "image": "p:2"}],
                 "tolerations": [{"key": "k3", "operator": "Exists"}]}}


def test_strategic_is_refused_like_kubectl():
    with pytest.raises(KubeError) as info:
        patch(copy.deepcopy(PROM), BODY)
    assert info.value.message.startswith(
        "strategic merge patch is not supported for monitoring.coreos.com/v1, Kind=Prometheus")
    assert "415" in [f for f in info.value.findings if f.code == "custom-resource"][0].message


def test_unregistered_kind_of_a_builtin_group():
    widget = {"apiVersion": "v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": {"a": [1]}}
    with pytest.raises(KubeError) as info:
        patch(widget, {"spec": {"a": [2]}})
    assert info.value.message == ("strategic merge patch is not supported for /v1, Kind=Widget "
                                  "locally, try --type merge")


def test_fallback_view_is_computed_and_names_the_lost_sidecar():
    with pytest.raises(KubeError) as info:
        patch(copy.deepcopy(PROM), BODY)
    view = [f for f in info.value.findings if f.code == "fallback-view"][0]
    assert view.detail["result"]["spec"]["containers"] == [{"name": "prometheus", "image": "p:2"}]
    assert "/spec/containers replaced, losing sidecar" in view.message
    assert "/spec/tolerations replaced, losing" in view.message
    assert merge_result() == view.detail["result"]


def merge_result():
    return patch(copy.deepcopy(PROM), BODY, "merge").object


def test_server_side_apply_merges_map_lists_and_sets():
    out = server_side_apply(copy.deepcopy(PROM), {"spec": {
        "containers": [{"name": "prometheus", "image": "p:2"}, {"name": "new", "image": "n"}],
        "ports": [{"port": 9090, "protocol": "UDP", "name": "udp"}],
        "tags": ["y", "x"], "tolerations": [{"key": "k3"}]}}, CRD)
    spec = out["spec"]
    assert spec["containers"] == [{"name": "prometheus", "image": "p:2"},
                                  {"name": "sidecar", "image": "s:1"},
                                  {"name": "new", "image": "n"}]
    assert [(p["port"], p["protocol"]) for p in spec["ports"]] == [(9090, "TCP"), (9090, "UDP")]
    assert spec["tags"] == ["y", "x"]  # the field manager's order (ssa-oracle agrees)
    assert spec["tolerations"] == [{"key": "k3"}]


def test_ssa_view_is_a_finding_when_the_crd_is_given():
    with pytest.raises(KubeError) as info:
        patch(copy.deepcopy(PROM), BODY, crd=CRD)
    (view,) = [f for f in info.value.findings if f.code == "server-side-apply-view"]
    assert "merges /spec/containers" in view.message
    assert "/spec/tolerations" in view.message
    assert [c["name"] for c in view.detail["result"]["spec"]["containers"]] == \
        ["prometheus", "sidecar"]


def test_crd_shapes_pick_the_served_version_and_know_fields():
    shapes = crd_shapes(CRD, PROM)
    assert shapes.list_rule(("spec", "containers")).keys == ("name",)
    assert shapes.list_rule(("spec", "tags")).kind == "set"
    assert shapes.list_rule(("spec", "tolerations")).kind == "atomic"
    assert shapes.field_known(("spec", "replicas")) is True
    assert shapes.field_known(("spec", "replica")) is False
    assert version_schema(CRD, "monitoring.coreos.com/v1alpha1") == {"type": "object"}
    assert version_schema({"spec": {}}, "x/v1") is None


def test_merge_on_a_custom_resource_with_the_crd_names_lost_by_key():
    result = patch(copy.deepcopy(PROM), BODY, "merge", crd=CRD)
    (f,) = [f for f in result.findings if f.code == "merge-list-replaced"
            and f.path == "/spec/containers"]
    assert "lost sidecar" in f.message
    assert [f.path for f in result.findings if f.code == "unknown-field"] == []


def test_atomic_map_is_replaced_by_ssa():
    obj = copy.deepcopy(PROM)
    obj["spec"]["labels"] = {"a": "1"}
    assert server_side_apply(obj, {"spec": {"labels": {"b": "2"}}}, CRD)["spec"]["labels"] == \
        {"b": "2"}
