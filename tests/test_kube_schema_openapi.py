"""Reading a user's OpenAPI v2/v3 document into the merge-schema interface."""

from __future__ import annotations

import json

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube.engine.strategic import strategic_merge
from cfgpatch.kube.schema.openapi import load_openapi, table_from_openapi, type_key

CONTAINERS = {"type": "array", "items": {"$ref": "#/definitions/io.k8s.api.core.v1.Container"},
              "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name"}

V2 = {"swagger": "2.0", "definitions": {
    "io.k8s.api.apps.v1.Deployment": {
        "x-kubernetes-group-version-kind": [{"group": "apps", "version": "v1",
                                             "kind": "Deployment"}],
        "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"},
                       "metadata": {"$ref": "#/definitions/"
                                            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"},
                       "spec": {"$ref": "#/definitions/io.k8s.api.apps.v1.DeploymentSpec"}}},
    "io.k8s.api.apps.v1.DeploymentSpec": {"properties": {
        "replicas": {"type": "integer", "format": "int32"},
        "strategy": {"$ref": "#/definitions/io.k8s.api.apps.v1.DeploymentStrategy",
                     "x-kubernetes-patch-strategy": "retainKeys"},
        "template": {"$ref": "#/definitions/io.k8s.api.core.v1.PodTemplateSpec"}}},
    "io.k8s.api.apps.v1.DeploymentStrategy": {"properties": {
        "type": {"type": "string"}, "rollingUpdate": {"type": "object"}}},
    "io.k8s.api.core.v1.PodTemplateSpec": {"properties": {
        "spec": {"$ref": "#/definitions/io.k8s.api.core.v1.PodSpec"}}},
    "io.k8s.api.core.v1.PodSpec": {"properties": {
        "containers": CONTAINERS,
        "tolerations": {"type": "array", "items": {"type": "object"}}}},
    "io.k8s.api.core.v1.Container": {"properties": {
        "name": {"type": "string"}, "image": {"type": "string"},
        "resources": {"$ref": "#/definitions/io.k8s.api.core.v1.ResourceRequirements"}}},
    "io.k8s.api.core.v1.ResourceRequirements": {"properties": {
        "limits": {"type": "object", "additionalProperties": {
            "$ref": "#/definitions/io.k8s.apimachinery.pkg.api.resource.Quantity"}}}},
    "io.k8s.apimachinery.pkg.api.resource.Quantity": {"type": "string"},
    "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": {"properties": {
        "name": {"type": "string"},
        "finalizers": {"type": "array", "items": {"type": "string"},
                       "x-kubernetes-patch-strategy": "merge"}}},
}}


def v3_of(doc: dict) -> dict:
    """The same definitions the way OpenAPI v3 writes them (allOf-wrapped refs)."""
    text = json.dumps(doc["definitions"]).replace("#/definitions/", "#/components/schemas/")
    schemas = json.loads(text)
    for spec in schemas.values():
        for prop in spec.get("properties", {}).values():
            if "$ref" in prop:
                prop["allOf"] = [{"$ref": prop.pop("$ref")}]
    return {"openapi": "3.0.0", "components": {"schemas": schemas}}


DEPLOYMENT = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
              "spec": {"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}},
                       "template": {"spec": {
                           "containers": [{"name": "app", "image": "a:1"},
                                          {"name": "metrics", "image": "m:1"}],
                           "tolerations": [{"key": "k1"}]}}}}


@pytest.mark.parametrize("doc", [V2, v3_of(V2)], ids=["v2", "v3"])
def test_documents_drive_strategic_merge(doc):
    schema = load_openapi(json.dumps(doc))
    node = schema.for_kind("apps/v1", "Deployment")
    patch = {"spec": {"template": {"spec": {"containers": [{"name": "side", "image": "s"}],
                                            "tolerations": [{"key": "k2"}]}},
                      "strategy": {"$retainKeys": ["type"], "type": "Recreate"}}}
    out = strategic_merge(DEPLOYMENT, patch, node)
    pod = out["spec"]["template"]["spec"]
    assert [c["name"] for c in pod["containers"]] == ["side", "app", "metrics"]
    assert pod["tolerations"] == [{"key": "k2"}]
    assert out["spec"]["strategy"] == {"type": "Recreate"}


def test_types_and_tags_are_converted():
    table = table_from_openapi(V2)
    assert table["kinds"] == {"apps/v1": {"Deployment": "apps/v1.Deployment"}}
    types = table["types"]
    assert types["core/v1.PodSpec"]["fields"]["containers"] == [
        "[]core/v1.Container", "merge", "name"]
    assert types["core/v1.PodSpec"]["fields"]["tolerations"] == "[]map[string]interface"
    assert types["apps/v1.DeploymentSpec"]["fields"]["strategy"] == [
        "apps/v1.DeploymentStrategy", "retainKeys"]
    assert types["apps/v1.DeploymentSpec"]["fields"]["replicas"] == "*int32"  # as Go has it
    assert types["core/v1.ResourceRequirements"]["fields"]["limits"] == \
        "map[string]resource.Quantity"
    assert types["resource.Quantity"] == {"name": "Quantity", "fields": {}}
    assert types["meta/v1.ObjectMeta"]["fields"]["finalizers"] == ["[]string", "merge"]


def test_inline_objects_become_named_structs():
    crd_like = {"$defs": {"com.example.v1.Widget": {
        "x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1",
                                             "kind": "Widget"}],
        "properties": {"spec": {"type": "object", "properties": {
            "ports": {"type": "array", "x-kubernetes-patch-strategy": "merge",
                      "x-kubernetes-patch-merge-key": "port",
                      "items": {"type": "object", "properties": {
                          "port": {"type": "integer"}, "name": {"type": "string"}}}}}}}}}}
    schema = load_openapi(json.dumps(crd_like))
    node = schema.for_kind("example.com/v1", "Widget")
    spec, _ = node.lookup_struct("spec")
    elem, meta = spec.lookup_slice("ports")
    assert meta.merge_key == "port" and elem.kind == "struct"
    obj = {"apiVersion": "example.com/v1", "kind": "Widget",
           "spec": {"ports": [{"port": 80, "name": "http"}]}}
    out = strategic_merge(obj, {"spec": {"ports": [{"port": 80, "name": "web"}]}}, node)
    assert out["spec"]["ports"] == [{"port": 80, "name": "web"}]


def test_definition_names_follow_go_packages():
    assert type_key("io.k8s.api.networking.v1.Ingress") == "networking/v1.Ingress"
    assert type_key("io.k8s.apimachinery.pkg.apis.meta.v1.Time") == "meta/v1.Time"
    assert type_key("io.k8s.apimachinery.pkg.util.intstr.IntOrString") == "intstr.IntOrString"
    assert type_key("com.coreos.monitoring.v1.Prometheus") == "com.coreos.monitoring.v1.Prometheus"


@pytest.mark.parametrize("text", ["{", "[]", "{}", '{"definitions": 3}'])
def test_bad_documents_are_clear_errors(text):
    with pytest.raises(KubeError) as caught:
        load_openapi(text)
    assert caught.value.code == "invalid arguments" and "schema document" in caught.value.message
