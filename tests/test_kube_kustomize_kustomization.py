"""kustomize/kustomization.py: the kustomization read as kustomize reads it, through
go-yaml v2 and sigs.k8s.io/yaml.  Measured with kubectl kustomize 1.32 (end to end: the
corpus trees yaml-merge-keys (builds kustomization and error-kustomization-merge),
error-nested-types, nested-field-names and json6902-annotation-keys/common-annotations)."""

from __future__ import annotations

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube.io.kyaml_read import read_document
from cfgpatch.kube.kustomize.kustomization import is_empty, v2_value


@pytest.mark.parametrize("text, expected", [
    ("a: own\n<<: {a: merged, b: merged}\n", {"a": "merged", "b": "merged"}),
    ("<<: {a: merged, b: merged}\na: own\n", {"a": "own", "b": "merged"}),
    ("<<: [{a: first}, {a: second, b: second}]\n", {"a": "first", "b": "second"}),
    ("m: &m {a: 1}\nk: {<<: *m, b: on}\n", {"m": {"a": 1}, "k": {"a": 1, "b": True}}),
])
def test_merge_keys_a_later_member_wins(text, expected):
    assert v2_value(read_document(text)) == expected


@pytest.mark.parametrize("text", ["<<: x\n", "<<: [{a: b}, x]\n", "<<: [[{a: b}]]\n",
                                  "l: &l [{a: b}]\n<<: *l\n", "l: &l [{a: b}]\n<<: [*l]\n"])
def test_a_merge_of_something_else_than_maps_is_go_yaml_v2_s_error(text):
    with pytest.raises(KubeError) as caught:
        v2_value(read_document(text))
    assert caught.value.message == ("invalid Kustomization: yaml: map merge requires map or "
                                    "sequence of maps as the value")



def test_yaml11_keys_are_written_as_sigs_k8s_io_yaml_writes_them():
    value = v2_value(read_document("{on: a, no: b, 1e3: c, 1e6: d, 0x1F: e, 1.5: f, x: y}"))
    assert value == {"true": "a", "false": "b", "1000": "c", "1e+06": "d", "31": "e",
                     "1.5": "f", "x": True}


def test_a_null_key_is_kustomize_s_error():
    with pytest.raises(KubeError) as caught:
        v2_value(read_document("commonAnnotations: {~: {a: [1, b]}}"))
    assert caught.value.message == (
        "invalid Kustomization: unsupported map key of type: %!s(<nil>), key: <nil>, "
        'value: map[interface {}]interface {}{"a":[]interface {}{1, "b"}}')


@pytest.mark.parametrize("value, empty", [
    ({}, True), ({"apiVersion": "v1", "kind": "Kustomization"}, True),
    ({"namespace": "", "resources": None}, True), ({"resources": []}, False),
    ({"namePrefix": "a-"}, False),
])
def test_is_empty(value, empty):
    assert is_empty(value) is empty
