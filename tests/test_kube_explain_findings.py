"""Findings: every code of the catalogue is produced where it should be, and only there."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube import patch, type_findings
from cfgpatch.kube.explain.findings import CATALOGUE, Situation, detect, kubectl_tokens
from cfgpatch.kube.schema.node import builtin_schema, node_shapes


def deployment():
    return {
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "finalizers": ["a.example/one", "b.example/two"],
                     "annotations": {"kubernetes.io/change-cause": "x", "team": "a"}},
        "spec": {
            "replicas": 2,
            "strategy": {"type": "RollingUpdate",
                         "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
            "template": {"spec": {
                "tolerations": [{"key": "k1", "operator": "Exists"},
                                {"key": "k2", "operator": "Exists"}],
                "volumes": [{"name": "data", "emptyDir": {}}],
                "containers": [{"name": "app", "image": "nginx:1.25",
                                "env": [{"name": "LOG_LEVEL", "value": "info"}]},
                               {"name": "metrics", "image": "statsd:v0.26"}]}}}}


def service():
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "dns"},
            "spec": {"ports": [{"name": "dns-tcp", "port": 53, "protocol": "TCP"},
                               {"name": "dns-udp", "port": 53, "protocol": "UDP"},
                               {"name": "metrics", "port": 9153, "protocol": "TCP"}]}}


def prometheus():
    return {"apiVersion": "monitoring.coreos.com/v1", "kind": "Prometheus",
            "metadata": {"name": "main", "finalizers": ["a"]},
            "spec": {"replicas": 1, "containers": [{"name": "prometheus", "image": "p:1"},
                                                   {"name": "sidecar", "image": "s:1"}]}}


def situation(obj, body, patch_type="strategic", result=None):
    node = builtin_schema().for_kind(obj["apiVersion"], obj["kind"])
    return Situation(obj, body, patch_type, result=result if result is not None else obj,
                     shapes=node_shapes(node), node=node, kind=obj["kind"])


def codes(findings):
    return [f.code for f in findings]


def pod(**spec):
    return {"spec": {"template": {"spec": spec}}}


# ---------------------------------------------------------------- strategic


def test_atomic_list_replaced_names_the_lost_tolerations():
    found = detect(situation(deployment(), pod(tolerations=[{"key": "k3"}])))
    (f,) = [f for f in found if f.code == "atomic-list-replaced"]
    assert f.path == "/spec/template/spec/tolerations"
    lost = [{"key": "k1", "operator": "Exists"}, {"key": "k2", "operator": "Exists"}]
    assert f.detail["lost"] == lost
    assert f.message == ("tolerations is atomic: the patch list replaces it and drops "
                         '{"key":"k1","operator":"Exists"}, {"key":"k2","operator":"Exists"}')


def test_keyed_list_is_not_reported_as_atomic():
    found = detect(situation(deployment(), pod(containers=[{"name": "app", "image": "x"}])))
    assert "atomic-list-replaced" not in codes(found)


def test_finalizers_empty_is_a_noop():
    found = detect(situation(deployment(), {"metadata": {"finalizers": []}}))
    assert codes(found) == ["finalizers-empty-noop"]
    assert found[0].path == "/metadata/finalizers"


def test_null_deletes_and_null_for_missing_key():
    found = detect(situation(deployment(), {"spec": {"replicas": None, "paused": None}}))
    assert codes(found) == ["null-deletes", "null-deletes"]
    assert "was 2" in found[0].message and "nothing to delete" in found[1].message


def test_null_deleting_a_whole_top_level_section_is_a_warning():
    for patch_type in ("strategic", "merge"):
        found = patch(deployment(), {"spec": None, "metadata": {"labels": None}}, patch_type).findings
        assert [(f.code, f.severity, f.path) for f in found][:1] == [
            ("null-deletes-section", "warning", "/spec")], patch_type
        assert "whole top-level spec section" in found[0].message


def test_every_unescaped_slash_is_reported_not_only_the_first():
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {
        "name": "c", "annotations": {"a.io/x": "1", "b.io/y": "2"}}}
    ops = [{"op": "replace", "path": "/metadata/annotations/a.io/x", "value": "3"},
           {"op": "remove", "path": "/metadata/annotations/b.io/y"}]
    with pytest.raises(KubeError) as raised:
        patch(obj, ops, "json")
    fixes = [f.detail["corrected"] for f in raised.value.findings if f.code == "unescaped-slash"]
    assert fixes == ["/metadata/annotations/a.io~1x", "/metadata/annotations/b.io~1y"]


def test_service_port_sharing_a_number_goes_into_the_first_entry():
    body = {"spec": {"ports": [{"port": 53, "protocol": "UDP", "targetPort": 5353}]}}
    (f,) = detect(situation(service(), body))
    assert f.code == "shared-merge-key" and f.path == "/spec/ports/0"
    assert "dns-tcp" in f.message and "protocol" in f.message


def test_delete_on_shared_port_removes_all():
    body = {"spec": {"ports": [{"port": 53, "$patch": "delete"}]}}
    assert codes(detect(situation(service(), body))) == ["shared-merge-key"]


def test_merge_key_with_wrong_type():
    body = {"spec": {"ports": [{"port": "9153", "targetPort": 1}]}}
    (f,) = detect(situation(service(), body))
    assert f.code == "merge-key-type" and f.path == "/spec/ports/2"


def test_delete_matched_nothing_for_element_and_primitive_list():
    body = {"metadata": {"$deleteFromPrimitiveList/finalizers": ["zzz"]},
            **pod(containers=[{"name": "nope", "$patch": "delete"}])}
    found = detect(situation(deployment(), body))
    assert codes(found) == ["delete-matched-nothing", "delete-matched-nothing"]


def test_delete_and_add_same_value_is_nondeterministic_in_kubectl():
    body = {"metadata": {"$deleteFromPrimitiveList/finalizers": ["a.example/one"],
                         "finalizers": ["z", "a.example/one"]}}
    (f,) = detect(situation(deployment(), body))
    assert f.code == "kubectl-nondeterministic" and f.path == "/metadata/finalizers"


def test_retain_keys_leftovers_volume_source_and_rolling_update():
    found = detect(situation(deployment(), {
        "spec": {"strategy": {"type": "Recreate"},
                 "template": {"spec": {"volumes": [{"name": "data", "hostPath": {"path": "/x"}}]}}}}))
    assert codes(found) == ["retain-keys-leftover", "retain-keys-leftover"]
    assert found[0].path == "/spec/strategy" and found[0].detail["stale"] == ["rollingUpdate"]
    assert found[1].path == "/spec/template/spec/volumes/0"
    assert found[1].detail["stale"] == ["emptyDir"]


def test_retain_keys_directive_silences_the_leftover():
    body = {"spec": {"strategy": {"$retainKeys": ["type"], "type": "Recreate"}}}
    assert detect(situation(deployment(), body)) == []


def test_directive_inside_atomic_list_is_data():
    body = pod(tolerations=[{"$patch": "replace"}, {"key": "x"}])
    assert "directive-as-data" in codes(detect(situation(deployment(), body)))


def test_duplicates_in_union_list():
    obj = deployment()
    obj["metadata"]["finalizers"] = ["a", "a", "b"]
    assert codes(detect(situation(obj, {"metadata": {"finalizers": ["c"]}}))) == \
        ["duplicates-order"]


def test_unknown_field_for_the_kind():
    found = detect(situation(deployment(), {"spec": {"replica": 3}}))
    assert codes(found) == ["unknown-field"] and found[0].path == "/spec/replica"


def test_namespace_spec_finalizers_needs_finalize():
    ns = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "stuck"},
          "spec": {"finalizers": ["kubernetes"]}}
    found = detect(situation(ns, {"spec": {"finalizers": []}}, "merge"))
    assert "namespace-finalize" in codes(found)


# ---------------------------------------------------------------- merge


def test_merge_patch_names_the_lost_metrics_container():
    result = patch(deployment(), pod(containers=[{"name": "app", "image": "nginx:1.27"}]),
                   "merge")
    (f,) = [f for f in result.findings if f.code == "merge-list-replaced"]
    assert "lost metrics" in f.message and "app" in f.message


def test_directive_under_merge_is_data():
    result = patch(deployment(), {"spec": {"strategy": {"$retainKeys": ["type"]}}}, "merge")
    assert "directive-as-data" in codes(result.findings)


def test_merge_drops_nulls_in_lists_departure():
    result = patch(deployment(), {"spec": {"x": [{"a": None, "b": 1}]}}, "merge")
    assert "kubectl-merge-departure" in codes(result.findings)
    assert result.object["spec"]["x"] == [{"b": 1}]


# ---------------------------------------------------------------- json


def test_add_on_existing_map_replaces_it():
    ops = [{"op": "add", "path": "/metadata/annotations", "value": {"new": "1"}}]
    found = patch(deployment(), ops, "json").findings
    (f,) = [f for f in found if f.code == "add-replaces-map"]
    assert f.detail["dropped"] == ["kubernetes.io/change-cause", "team"]


def test_index_into_keyed_list_suggests_guard_and_guard_silences_it():
    op = {"op": "replace", "path": "/spec/template/spec/containers/0/image", "value": "x"}
    found = patch(deployment(), [op], "json").findings
    (f,) = [f for f in found if f.code == "index-into-keyed-list"]
    assert f.detail["guard"] == {"op": "test", "path": "/spec/template/spec/containers/0/name",
                                 "value": "app"}
    guarded = [f.detail["guard"], op]
    assert "index-into-keyed-list" not in codes(patch(deployment(), guarded, "json").findings)


def test_unescaped_slash_prints_corrected_pointer_on_the_error():
    ops = [{"op": "replace", "path": "/metadata/annotations/kubernetes.io/change-cause",
            "value": "y"}]
    with pytest.raises(KubeError) as info:
        patch(deployment(), ops, "json")
    (f,) = [f for f in info.value.findings if f.code == "unescaped-slash"]
    assert f.detail["corrected"] == "/metadata/annotations/kubernetes.io~1change-cause"


def test_unescaped_slash_for_a_new_annotation():
    ops = [{"op": "add", "path": "/metadata/annotations/example.com/owner", "value": "y"}]
    with pytest.raises(KubeError) as info:
        patch(deployment(), ops, "json")
    assert [f.detail["corrected"] for f in info.value.findings if f.code == "unescaped-slash"] \
        == ["/metadata/annotations/example.com~1owner"]


@pytest.mark.parametrize("op, words", [
    ({"op": "add", "path": "/metadata/finalizers/01", "value": "x"}, "index '01'"),
    ({"op": "add", "path": "/metadata/finalizers/-1", "value": "x"}, "inserts at position 2"),
    ({"op": "replace", "path": "/spec/paused", "value": True}, "adds it"),
    ({"op": "add", "path": "spec/paused", "value": True}, "writes /paused"),
    ({"op": "test", "path": "/spec/nothing", "value": None}, "missing path as null"),
    ({"op": "add", "path": "/metadata/labels", }, "sets null"),
])
def test_kubectl_json_departures(op, words):
    found = patch(deployment(), [op], "json").findings
    messages = [f.message for f in found if f.code == "kubectl-json-departure"]
    assert any(words in m for m in messages), messages


def test_invalid_escape_is_literal():
    assert kubectl_tokens("/a~2b/~01") == ["a~2b", "~1"]
    found = patch(deployment(), [{"op": "add", "path": "/metadata/a~2b", "value": 1}],
                  "json").findings
    assert "kubectl-json-departure" in codes(found)


# ---------------------------------------------------------------- custom resources, yaml


def test_custom_resource_strategic_fails_with_fallback_view():
    body = {"spec": {"containers": [{"name": "prometheus", "image": "p:2"}]}}
    with pytest.raises(KubeError) as info:
        patch(prometheus(), body)
    assert info.value.message == ("strategic merge patch is not supported for "
                                  "monitoring.coreos.com/v1, Kind=Prometheus locally, "
                                  "try --type merge")
    found = {f.code: f for f in info.value.findings}
    assert set(found) == {"custom-resource", "fallback-view"}
    assert "losing sidecar" in found["fallback-view"].message
    assert found["fallback-view"].detail["result"]["spec"]["containers"] == body["spec"][
        "containers"]


def test_yaml_type_change_from_notes():
    note = SimpleNamespace(pointer="/spec/enabled", written="on", value=True, where="value")
    (f,) = type_findings([note])
    assert f.code == "yaml-type-change" and f.path == "/spec/enabled" and '"on"' in f.message
    assert f.message.startswith("in the object, the unquoted value on was read as true")


def test_yaml_type_change_in_the_patch_and_number_forms():
    big = SimpleNamespace(pointer="/spec/n", written="12345678901234567890",
                          value=1.2345678901234567e19, where="value")
    empty = SimpleNamespace(pointer="/spec/e", written="", value=None, where="value")
    result = patch(deployment(), {"spec": {"paused": True}}, "merge", patch_notes=[big, empty])
    found = [f for f in result.findings if f.code == "yaml-type-change"]
    assert [f.detail["source"] for f in found] == ["patch", "patch"]
    assert "read as 12345678901234567000;" in found[0].message  # Go prints floats so
    assert found[1].message.startswith("in the patch, the empty value was read as null")


def test_every_catalogue_code_is_tested_here():
    """Each code is expected somewhere: named in a test where it is asserted present
    (``f.code == "x"``, ``"x" in codes(...)``, ``== [... "x" ...]``), not only absent."""
    import ast
    import pathlib

    asserted: set[str] = set()
    for name in ("test_kube_explain_findings.py", "test_kube_patcher.py",
                 "test_kube_schema_crd.py", "test_kube_kustomize.py"):
        tree = ast.parse(pathlib.Path(__file__).with_name(name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and not any(
                    isinstance(op, (ast.NotIn, ast.NotEq, ast.IsNot)) for op in node.ops):
                asserted |= {c.value for c in ast.walk(node)
                             if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    missing = [code for code in CATALOGUE if code not in asserted]
    assert missing == []


@pytest.mark.parametrize("path", ["/spec/template/spec/volumes/0",
                                  "/spec/template/spec/containers/1",
                                  "/spec/template/spec/containers/-",
                                  "/spec/template/spec/tolerations/0"])
def test_add_into_a_list_inserts_and_is_neither_a_map_replace_nor_an_index(path):
    value = {"name": "new", "emptyDir": {}} if "volumes" in path else {"name": "new"}
    found = codes(patch(deployment(), [{"op": "add", "path": path, "value": value}],
                        "json").findings)
    assert "add-replaces-map" not in found
    assert "index-into-keyed-list" not in found


def test_add_below_an_element_picked_by_position_is_still_an_index():
    op = {"op": "add", "path": "/spec/template/spec/containers/0/env/0",
          "value": {"name": "A", "value": "1"}}
    found = patch(deployment(), [op], "json").findings
    (f,) = [f for f in found if f.code == "index-into-keyed-list"]
    assert f.detail["guard"]["path"] == "/spec/template/spec/containers/0/name"


def test_add_over_a_map_inside_a_list_element_still_replaces_it():
    op = {"op": "add", "path": "/spec/template/spec/volumes/0/emptyDir",
          "value": {"medium": "Memory"}}
    obj = deployment()
    obj["spec"]["template"]["spec"]["volumes"][0]["emptyDir"] = {"sizeLimit": "1Gi"}
    assert "add-replaces-map" in codes(patch(obj, [op], "json").findings)


def test_an_atomic_element_restated_by_name_is_changed_not_lost():
    """A patch that restates a ClusterRoleBinding's subjects to move one to another
    namespace keeps it (changed on purpose); one it leaves out is still named."""
    before = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
              "metadata": {"name": "b"},
              "subjects": [{"kind": "ServiceAccount", "name": "app", "namespace": "one"},
                           {"kind": "ServiceAccount", "name": "other", "namespace": "one"}]}
    patch = {"subjects": [{"kind": "ServiceAccount", "name": "app", "namespace": "two"}]}
    (f,) = [f for f in detect(situation(before, patch)) if f.code == "atomic-list-replaced"]
    assert f.message == "subjects is atomic: the patch list replaces it and drops other"
    patch["subjects"].append({"kind": "ServiceAccount", "name": "other", "namespace": "two"})
    assert "atomic-list-replaced" not in codes(detect(situation(before, patch)))
