"""kustomize's merge-key facts (kustomize/schema.py).

The built-in facts (data/kustomize.json) were measured with kubectl kustomize
(scripts/record_kustomize_merge.py --schema); the recorded cases replayed in
test_kube_kustomize_merge.py show them at work (newer-kind-replaced,
newer-field-replaced, volumes-merge-retainkeys, service-ports-two-keys, cr-openapi).
"""

from __future__ import annotations

from cfgpatch.kube.kustomize.schema import KustomizeSchema, _builtin_facts

BUILTIN = KustomizeSchema.builtin()


def lookup(schema: KustomizeSchema, api_version: str, kind: str, *path: str):
    node = schema.for_type(api_version, kind)
    for step in path:
        if node is None:
            return None
        node = node.elements() if step == "[]" else node.field(step)
    return node


def test_containers_merge_on_name():
    node = lookup(BUILTIN, "apps/v1", "Deployment", "spec", "template", "spec", "containers")
    assert node.strategy() == "merge"
    assert node.merge_keys() == ["name"]


def test_container_ports_merge_on_two_keys():
    node = lookup(BUILTIN, "v1", "Pod", "spec", "containers", "[]", "ports")
    assert node.merge_keys() == ["containerPort", "protocol"]
    node = lookup(BUILTIN, "v1", "Service", "spec", "ports")
    assert node.merge_keys() == ["port", "protocol"]


def test_volumes_keep_retain_keys_in_the_strategy():
    node = lookup(BUILTIN, "v1", "Pod", "spec", "volumes")
    assert "merge" in node.strategy().split(",")
    assert node.merge_keys() == ["name"]


def test_finalizers_are_a_merged_list_of_scalars():
    node = lookup(BUILTIN, "v1", "ConfigMap", "metadata", "finalizers")
    assert node.strategy() == "merge"
    assert node.merge_keys() == []


def test_fields_newer_than_kyamls_schema_are_unknown():
    assert lookup(BUILTIN, "v1", "Pod", "spec", "schedulingGates") is None
    assert lookup(BUILTIN, "v1", "Pod", "spec", "containers") is not None


def test_kinds_kyaml_does_not_know():
    assert BUILTIN.for_type("autoscaling/v2", "HorizontalPodAutoscaler") is None
    assert BUILTIN.for_type("autoscaling/v1", "HorizontalPodAutoscaler") is not None
    assert BUILTIN.for_type("example.com/v1", "Widget") is None
    assert BUILTIN.for_type(None, "Pod") is None


def test_kinds_the_table_lacks_use_a_stand_in():
    node = lookup(BUILTIN, "apiextensions.k8s.io/v1", "CustomResourceDefinition",
                  "metadata", "finalizers")
    assert node is not None and node.strategy() == "merge"


def test_map_values_share_a_schema():
    node = lookup(BUILTIN, "v1", "ConfigMap", "metadata", "labels", "anything")
    assert node is not None and node.strategy() == ""


def test_facts_are_consistent():
    facts = _builtin_facts()
    for owner, rule in facts["lists"].items():
        assert "." in owner and rule[0] == "merge" and len(rule[1]) >= 2
    assert all("." in owner for owner in facts["unknown_fields"])


OPENAPI = {"definitions": {
    "com.example.v1.Widget": {
        "type": "object",
        "x-kubernetes-group-version-kind": [
            {"group": "example.com", "version": "v1", "kind": "Widget"}],
        "properties": {"spec": {"$ref": "#/definitions/com.example.v1.WidgetSpec"}}},
    "com.example.v1.WidgetSpec": {
        "type": "object",
        "properties": {
            "members": {"type": "array", "items": {"$ref": "#/definitions/Member"},
                        "x-kubernetes-patch-strategy": "merge",
                        "x-kubernetes-patch-merge-key": "name"},
            "ports": {"type": "array", "items": {"type": "object"},
                      "x-kubernetes-patch-strategy": "merge",
                      "x-kubernetes-patch-merge-key": "port",
                      "x-kubernetes-list-map-keys": ["port", "protocol"]},
            "mapKeysOnly": {"type": "array", "items": {"type": "object"},
                            "x-kubernetes-list-type": "map",
                            "x-kubernetes-list-map-keys": ["id"]},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}}}},
    "Member": {"type": "object", "properties": {"name": {"type": "string"}}},
    "Core": {"type": "object", "x-kubernetes-group-version-kind": [
        {"group": "", "version": "v1", "kind": "Thing"}]}}}


def test_openapi_refs_items_and_keys():
    schema = KustomizeSchema.with_openapi(OPENAPI)
    members = lookup(schema, "example.com/v1", "Widget", "spec", "members")
    assert (members.strategy(), members.merge_keys()) == ("merge", ["name"])
    assert lookup(schema, "example.com/v1", "Widget", "spec", "members", "[]", "name")
    ports = lookup(schema, "example.com/v1", "Widget", "spec", "ports")
    assert ports.merge_keys() == ["port", "protocol"]
    assert lookup(schema, "example.com/v1", "Widget", "spec", "labels", "x") is not None
    assert lookup(schema, "example.com/v1", "Widget", "spec", "nothing") is None
    assert schema.for_type("v1", "Thing") is not None


def test_list_map_keys_without_a_patch_strategy_do_not_merge():
    schema = KustomizeSchema.with_openapi(OPENAPI)
    node = lookup(schema, "example.com/v1", "Widget", "spec", "mapKeysOnly")
    assert (node.strategy(), node.merge_keys()) == ("", [])


def test_openapi_replaces_the_builtin_schema():
    schema = KustomizeSchema.with_openapi(OPENAPI)
    assert schema.for_type("apps/v1", "Deployment") is None
    assert KustomizeSchema.with_openapi({}).for_type("example.com/v1", "Widget") is None


def test_crds_do_not_change_the_merge():
    crd = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition"}
    assert BUILTIN.with_crds([crd]) is BUILTIN


def test_cyclic_refs_end():
    doc = {"definitions": {"A": {"$ref": "#/definitions/B"}, "B": {"$ref": "#/definitions/A"},
                           "W": {"x-kubernetes-group-version-kind": [
                               {"group": "g", "version": "v1", "kind": "W"}],
                               "properties": {"a": {"$ref": "#/definitions/A"}}}}}
    schema = KustomizeSchema.with_openapi(doc)
    assert lookup(schema, "g/v1", "W", "a") is None
