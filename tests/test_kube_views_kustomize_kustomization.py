"""views/kustomize/kustomization.py: how the kustomization file itself is decoded (through
sigs.k8s.io/yaml, so go-yaml v2's rules).  Measured with kubectl kustomize 1.32 (corpus
tree yaml-merge-keys, builds kustomization and error-kustomization-merge)."""

from __future__ import annotations

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube.io.kyaml_read import read_document
from cfgpatch.kube.views.kustomize.kustomization import v2_value


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
