"""views/kustomize/kustomization.py: the kustomization read as kustomize reads it, through
go-yaml v2 and sigs.k8s.io/yaml (end to end: the corpus trees error-nested-types,
nested-field-names and json6902-annotation-keys/common-annotations)."""

from __future__ import annotations

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube.io.kyaml_read import read_document
from cfgpatch.kube.views.kustomize.kustomization import is_empty, v2_value


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
