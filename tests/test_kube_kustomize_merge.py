"""kustomize's strategic merge (kustomize/merge.py) against recorded kubectl kustomize.

Every case under tests/data/kustomize/merge/cases/ (one resource file, one patch, maybe
an ``openapi:`` document) was built by real ``kubectl kustomize`` 1.27 ... 1.33
(scripts/record_kustomize_merge.py); our result, printed by ``kyaml_write``, must be
byte-identical to kubectl 1.32's output, or our error text equal to its ``error:`` line.
"""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import KUSTOMIZE_ERROR, KubeError
from cfgpatch.jsonvalue import deep_copy
from cfgpatch.kube.kustomize.merge import apply_strategic
from cfgpatch.kube.kustomize.schema import KustomizeSchema
from kustomize_merge_support import RECORDED, Answer, case_texts, our_answer, same

BUILTIN = KustomizeSchema.builtin()

#: Each case class of issue 11 and the recorded cases that cover it.
CASE_CLASSES = {
    "directive-only list element": ["list-directive-merge-only", "list-directive-delete-only",
                                    "list-directive-merge-first-after",
                                    "list-directive-nonassoc", "list-directive-primitive"],
    "top-level items": ["top-level-items-cr", "top-level-items-builtin"],
    "null already present": ["null-in-resource-kept", "null-replaced-by-map",
                             "null-in-list-elements"],
    "$patch: delete at the top": ["top-level-delete"],
    "$patch: replace": ["list-directive-replace", "list-directive-replace-ports", "map-replace",
                        "top-level-replace", "list-element-replace"],
    "$retainKeys": ["retain-keys"],
    "$setElementOrder": ["set-element-order"],
    "$deleteFromPrimitiveList": ["delete-from-primitive-list"],
    "kustomize's own merge keys": ["newer-field-replaced", "newer-kind-replaced",
                                   "volumes-merge-retainkeys", "tolerations-replaced",
                                   "finalizers-union", "embedded-object-schema"],
    "list ordering": ["containers-order", "env-order", "service-ports-two-keys"],
    "several keys": ["service-ports-two-keys", "service-ports-one-key-given",
                     "container-ports-protocol", "cr-openapi"],
    "custom resources": ["cr-no-schema", "cr-openapi", "cr-crd-in-resources",
                         "openapi-replaces-builtin"],
    "the resource's scalar style": ["quoted-style-taken-by-patch"],
    "errors": ["error-map-vs-list", "error-list-vs-map", "error-scalar-vs-list",
               "error-primitive-list-map", "list-directive-unknown", "map-directive-unknown"],
}


def recorded_answer(name: str) -> Answer:
    entry = RECORDED[name]
    return Answer.from_kubectl(entry["exit_code"], entry["stdout"], entry["stderr"])


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_recorded_case(name):
    ours = our_answer(*case_texts(name))
    theirs = recorded_answer(name)
    assert same(ours, theirs), f"{name}:\nkubectl:\n{theirs}\nours:\n{ours}"


def test_every_case_class_is_recorded():
    for cases in CASE_CLASSES.values():
        for name in cases:
            assert name in RECORDED


def test_versions_agree_with_1_32():
    for name, entry in RECORDED.items():
        assert all(v == "same" for v in entry["versions"].values()), name


# ------------------------------------------------------------------ direct behaviour


def deployment(containers: list, **spec) -> dict:
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
            "spec": {"template": {"spec": {"containers": containers, **spec}}}}


def containers(doc: dict) -> list:
    return doc["spec"]["template"]["spec"]["containers"]


def test_patch_elements_come_first():
    out = apply_strategic(deployment([{"name": "a"}, {"name": "b"}]),
                          deployment([{"name": "b", "image": "x"}, {"name": "c"}]), BUILTIN)
    assert [c["name"] for c in containers(out)] == ["b", "c", "a"]


def test_delete_at_the_top_removes_the_resource():
    assert apply_strategic(deployment([]), {"$patch": "delete"}, BUILTIN) is None


def test_replace_at_the_top_changes_nothing():
    resource = deployment([{"name": "a"}])
    assert apply_strategic(resource, {"$patch": "replace", "spec": {}}, BUILTIN) == resource


def test_identity_is_restored():
    patch = {"kind": "Other", "metadata": {"name": "other", "namespace": "ns"}}
    out = apply_strategic(deployment([]), patch, BUILTIN)
    assert out["kind"] == "Deployment"
    assert out["metadata"] == {"name": "d"}


def test_without_schema_lists_are_replaced():
    resource = {"apiVersion": "x.io/v1", "kind": "X", "metadata": {"name": "x",
                "finalizers": ["a"]}, "spec": {"l": [{"name": "a"}]}}
    patch = {"metadata": {"finalizers": ["b"]}, "spec": {"l": [{"name": "b"}]}}
    out = apply_strategic(resource, patch, BUILTIN)
    assert out["metadata"]["finalizers"] == ["b"]
    assert out["spec"]["l"] == [{"name": "b"}]


def test_unknown_directive_is_kustomizes_error():
    with pytest.raises(KubeError) as info:
        apply_strategic(deployment([]), {"spec": {"$patch": "sideways"}}, BUILTIN)
    assert info.value.code == KUSTOMIZE_ERROR
    assert info.value.message == "unknown patch strategy 'sideways'"


def test_kind_mismatch_names_the_node():
    with pytest.raises(KubeError) as info:
        apply_strategic(deployment([]), {"spec": ["x"]}, BUILTIN)
    assert info.value.message == ("wrong node kind: expected MappingNode but got SequenceNode: "
                                  "node contents:\n- x")


def test_not_mappings_are_refused():
    with pytest.raises(KubeError):
        apply_strategic(deployment([]), ["x"], BUILTIN)  # type: ignore[arg-type]


def test_deep_patch_is_a_clear_error():
    deep: dict = {}
    node = deep
    for _ in range(12000):
        node["a"] = {}
        node = node["a"]
    with pytest.raises((KubeError, RecursionError)):
        apply_strategic({"kind": "X", "metadata": {"name": "x"}}, deep, BUILTIN)


# ------------------------------------------------------------------ properties

SCALARS = st.one_of(st.integers(-5, 5), st.sampled_from(["a", "b", "yes", "1"]), st.booleans())
MAPS = st.recursive(st.dictionaries(st.sampled_from(["p", "q", "r"]), SCALARS, max_size=3),
                    lambda inner: st.dictionaries(st.sampled_from(["p", "q", "r", "s"]),
                                                  inner | SCALARS, max_size=3), max_leaves=8)


@settings(max_examples=150, deadline=None)
@given(MAPS, MAPS)
def test_maps_without_lists_merge_like_a_merge_patch(body, patch_body):
    """With no lists, no nulls and no directives kustomize's merge is a recursive merge;
    a mapping against a scalar is its kind error."""
    resource = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
                "data": body}
    patch = {"data": patch_body}
    if _conflict(body, patch_body):
        with pytest.raises(KubeError) as info:
            apply_strategic(resource, patch, BUILTIN)
        assert info.value.message.startswith("wrong node kind: expected ")
        return
    out = apply_strategic(resource, patch, BUILTIN)
    assert out["data"] == _merged(body, patch_body)


def _conflict(a, b) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return any(_conflict(a[k], b[k]) for k in a.keys() & b.keys())
    return isinstance(a, dict) != isinstance(b, dict)


def _merged(a, b):
    if not isinstance(a, dict) or not isinstance(b, dict):
        return deep_copy(b)
    out = dict(a)
    for key, value in b.items():
        out[key] = _merged(a[key], value) if key in a else deep_copy(value)
    return out


@settings(max_examples=100, deadline=None)
@given(MAPS, MAPS)
def test_inputs_are_not_changed(body, patch_body):
    resource = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
                "data": body, "spec": {"l": [body]}}
    patch = {"data": patch_body, "spec": {"$patch": "replace", "l": [patch_body]}}
    before = (deep_copy(resource), deep_copy(patch))
    with contextlib.suppress(KubeError):
        apply_strategic(resource, patch, BUILTIN)
    assert (resource, patch) == before
