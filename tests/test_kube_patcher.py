"""The engine API: ``cfgpatch.kube.patch`` returns kubectl's result, changes and findings."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import KubeError
from cfgpatch.kube import KubeResult, patch
from cfgpatch.kube.schema.openapi import load_openapi

DEPLOY = {
    "apiVersion": "apps/v1", "kind": "Deployment",
    "metadata": {"name": "web", "finalizers": ["a.example/one", "b.example/two"]},
    "spec": {"replicas": 2, "template": {"spec": {
        "tolerations": [{"key": "k1", "operator": "Exists", "effect": "NoSchedule"},
                        {"key": "k2", "operator": "Exists", "effect": "NoExecute"}],
        "containers": [{"name": "app", "image": "nginx:1.25",
                        "env": [{"name": "LOG_LEVEL", "value": "info"}]},
                       {"name": "metrics", "image": "statsd:v0.26"}]}}}}


def run(body, patch_type="strategic", **kw):
    return patch(copy.deepcopy(DEPLOY), body, patch_type, **kw)


def containers(body):
    return {"spec": {"template": {"spec": {"containers": body}}}}


def names(result):
    return [c["name"] for c in result.object["spec"]["template"]["spec"]["containers"]]


def test_strategic_merges_by_name_and_new_item_goes_first():
    result = run(containers([{"name": "side", "image": "s"}]))
    assert isinstance(result, KubeResult)
    assert names(result) == ["side", "app", "metrics"]
    (change,) = [c for c in result.changes if c.action == "list"]
    assert [ld.action for ld in change.landings] == ["inserted", "kept", "kept"]


def test_merge_replaces_the_list_and_explain_names_metrics():
    result = run(containers([{"name": "app", "image": "nginx:1.27"}]), "merge")
    assert names(result) == ["app"]
    assert "env" not in result.object["spec"]["template"]["spec"]["containers"][0]
    assert any("lost metrics" in f.message for f in result.findings)


def test_json_patch_is_kubectls_lenient_one():
    result = run([{"op": "add", "path": "/metadata/finalizers/-1", "value": "z"}], "json")
    assert result.object["metadata"]["finalizers"] == ["a.example/one", "b.example/two", "z"]


def test_missing_merge_key_error_text():
    with pytest.raises(KubeError) as info:
        run(containers([{"image": "x"}]))
    assert info.value.message == "map: map[image:x] does not contain declared merge key: name"
    assert info.value.hint


def test_failed_patch_reports_no_effects():
    body = {"spec": {"template": {"spec": {"tolerations": [{"key": "k9"}],
                                           "containers": [{"image": "x"}]}}}}
    with pytest.raises(KubeError) as info:
        run(body)
    assert "atomic-list-replaced" not in [f.code for f in info.value.findings]
    assert "atomic-list-replaced" in [f.code for f in run({"spec": {"template": {"spec": {
        "tolerations": [{"key": "k9"}]}}}}).findings]


def test_set_element_order_on_atomic_list_is_a_crash():
    with pytest.raises(KubeError) as info:
        run({"spec": {"template": {"spec": {
            "$setElementOrder/tolerations": [{"key": "k2"}, {"key": "k1"}]}}}})
    assert info.value.code == "kubectl crash"
    assert [f.code for f in info.value.findings] == ["kubectl-crash"]


def test_bad_type_and_view():
    with pytest.raises(KubeError) as info:
        run({}, "apply")
    assert info.value.message == '--type must be one of [json merge strategic], not "apply"'
    with pytest.raises(KubeError):
        run({}, as_="helm")


def test_strategic_patch_must_be_an_object_or_null():
    for body in ([1], "x", 1, True, []):
        with pytest.raises(KubeError) as info:
            run(body)
        assert info.value.message == "invalid JSON document"
    assert run(None).object == DEPLOY and run(None).changes == []


def test_patch_that_removes_kind_fails_like_kubectl():
    with pytest.raises(KubeError) as info:
        run({"kind": None}, "merge")
    assert info.value.message.startswith("Object 'Kind' is missing in '{")


@pytest.mark.parametrize("obj, message", [
    ([1], "json: cannot unmarshal array into Go value of type unstructured.detector"),
    ("x", "json: cannot unmarshal string into Go value of type unstructured.detector"),
    ({"a": 1}, "Object 'Kind' is missing in '{\"a\":1}'"),
])
def test_object_must_be_a_kubernetes_object(obj, message):
    for patch_type in ("strategic", "merge", "json"):
        with pytest.raises(KubeError) as info:
            patch(obj, {}, patch_type)
        assert info.value.message == message


def test_user_schema_replaces_the_builtin_table():
    doc = {"definitions": {
        "io.k8s.api.apps.v1.Deployment": {
            "x-kubernetes-group-version-kind": [{"group": "apps", "version": "v1",
                                                 "kind": "Deployment"}],
            "properties": {"spec": {"$ref": "#/definitions/io.k8s.api.apps.v1.DeploymentSpec"},
                           "metadata": {"type": "object"}}},
        "io.k8s.api.apps.v1.DeploymentSpec": {"properties": {
            "replicas": {"type": "integer"},
            "template": {"$ref": "#/definitions/io.k8s.api.core.v1.PodTemplateSpec"}}},
        "io.k8s.api.core.v1.PodTemplateSpec": {"properties": {
            "spec": {"$ref": "#/definitions/io.k8s.api.core.v1.PodSpec"}}},
        "io.k8s.api.core.v1.PodSpec": {"properties": {
            "tolerations": {"type": "array", "items": {"type": "object"}},
            "containers": {"type": "array", "items": {"type": "object"}}}}}}
    schema = load_openapi(json.dumps(doc))
    result = run(containers([{"name": "side"}]), schema=schema)
    # this schema carries no merge key for containers: the list is atomic
    assert result.object["spec"]["template"]["spec"]["containers"] == [{"name": "side"}]
    assert "atomic-list-replaced" in [f.code for f in result.findings]


def test_to_dict_is_json_ready():
    result = run({"spec": {"replicas": 3}})
    data = result.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["changes"] == [{"action": "replace", "path": "/spec/replicas", "before": 2,
                                "after": 3}]


finalizer = st.sampled_from(["a.example/one", "b.example/two", "c", "d"])
bodies = st.fixed_dictionaries({}, optional={
    "metadata": st.fixed_dictionaries({"finalizers": st.lists(finalizer, max_size=3)}),
    "spec": st.fixed_dictionaries({}, optional={
        "replicas": st.integers(0, 5) | st.none(),
        "template": st.fixed_dictionaries({"spec": st.fixed_dictionaries({
            "containers": st.lists(st.fixed_dictionaries(
                {"name": st.sampled_from(["app", "metrics", "side"])},
                optional={"image": st.sampled_from(["x", "y"])}), max_size=3)})})})})


@settings(max_examples=60, deadline=None)
@given(bodies, st.sampled_from(["strategic", "merge"]))
def test_property_inputs_untouched_and_changes_consistent(body, patch_type):
    original = copy.deepcopy(DEPLOY)
    frozen = copy.deepcopy(body)
    result = patch(original, body, patch_type)
    assert original == DEPLOY and body == frozen
    assert (result.changes == []) == (result.object == DEPLOY)


junk = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["a", "$patch", "delete",
                                                                        "replace", "/a", "-1"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["kind", "apiVersion", "metadata", "spec", "containers", "name", "op",
                         "path", "value", "from", "$patch", "$retainKeys", "finalizers",
                         "$setElementOrder/containers", "$deleteFromPrimitiveList/finalizers"]),
        inner, max_size=4),
    max_leaves=10)


@settings(max_examples=300, deadline=None)
@given(junk, junk, st.sampled_from(["strategic", "merge", "json"]),
       st.sampled_from(["kubectl", "kustomize"]))
def test_property_bad_input_is_a_kube_error_never_a_crash(body, extra, patch_type, view):
    obj = copy.deepcopy(DEPLOY)
    if isinstance(extra, dict):
        obj["spec"]["template"]["spec"].update(extra)
    try:
        result = patch(obj, body, patch_type, as_=view)
    except KubeError as exc:
        assert isinstance(exc.message, str) and exc.message
        for finding in getattr(exc, "findings", []):
            finding.to_dict()
        return
    json.dumps(result.to_dict())


def test_without_explain_only_the_object_is_computed():
    obj = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
           "spec": {"template": {"spec": {"tolerations": [{"key": "a"}]}}}}
    body = {"spec": {"template": {"spec": {"tolerations": [{"key": "b"}]}}}}
    explained = patch(obj, body, "strategic")
    quiet = patch(obj, body, "strategic", explain=False)
    assert quiet.object == explained.object
    assert (quiet.changes, quiet.findings) == ([], [])
    assert [f.code for f in explained.findings] == ["atomic-list-replaced"]


def _outcome(obj, body, patch_type, explain):
    try:
        return "ok", patch(obj, body, patch_type, explain=explain).object
    except KubeError as exc:
        return "error", exc.message, [f.to_dict() for f in exc.findings]


@settings(max_examples=300, deadline=None)
@given(junk | bodies, junk, st.sampled_from(["strategic", "merge", "json"]))
def test_property_without_explain_the_engines_work_in_place_on_a_private_copy(
        body, extra, patch_type):
    """explain=False lets the engine change the decoded copy in place: the caller's
    object stays as it was, and the object (or the error and its findings) is what the
    explaining call gives."""
    obj = copy.deepcopy(DEPLOY)
    if isinstance(extra, dict):
        obj["spec"]["template"]["spec"].update(extra)
    frozen, frozen_body = copy.deepcopy(obj), copy.deepcopy(body)
    quiet = _outcome(obj, body, patch_type, explain=False)
    assert obj == frozen and body == frozen_body
    explained = _outcome(obj, body, patch_type, explain=True)
    if quiet[0] == "ok":
        assert explained[0] == "ok" and quiet[1] == explained[1]
    else:
        assert quiet == explained


def test_a_failed_json_patch_without_explain_reports_on_the_unchanged_object():
    obj = copy.deepcopy(DEPLOY)
    ops = [{"op": "replace", "path": "/spec/replicas", "value": 9},
           {"op": "test", "path": "/spec/replicas", "value": 1}]
    assert _outcome(obj, ops, "json", explain=False) == _outcome(obj, ops, "json", explain=True)
    assert obj == DEPLOY
