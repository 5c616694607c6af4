"""Built-in plugins given as configuration (kustomize/plugins.py).

The recorded tree ``builtin-plugins`` (tests/data/kustomize) holds kubectl's answers
for every modelled plugin and its errors; these tests cover what a recording cannot
hold byte for byte, and the splitting of entries.
"""

from __future__ import annotations

import pytest

from cfgpatch.errors import KUSTOMIZE_ERROR, KUSTOMIZE_UNMODELLED
from cfgpatch.kube.kustomize.build import BuildError, build
from cfgpatch.kube.kustomize.filesys import MemoryFileSystem
from cfgpatch.kube.kustomize.plugins import split_entries

CM = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: b\n"
LABELS = ("apiVersion: builtin\nkind: LabelTransformer\nmetadata:\n  name: l\n"
          "labels: {x: y}\nfieldSpecs:\n- {path: metadata/labels, create: true}\n")


def _build(kustomization: str, **files: str):
    return build("/t", fs=MemoryFileSystem({"/t/kustomization.yaml": kustomization,
                                            "/t/cm.yaml": CM,
                                            **{f"/t/{k}": v for k, v in files.items()}}))


def test_inline_entries_come_before_paths_whatever_the_order_written():
    inline, paths = split_entries(["a.yaml", LABELS, "", None, "dir"], "k.yaml")
    assert [r.name for r in inline] == ["l"] and paths == ["a.yaml", "dir"]


def test_a_validator_that_changes_resources_fails_the_build():
    # kubectl's message continues with Go memory addresses: its first line is ours
    with pytest.raises(BuildError) as caught:
        _build("resources: [cm.yaml]\nvalidators: [labels.yaml]\n", **{"labels.yaml": LABELS})
    assert caught.value.code == KUSTOMIZE_ERROR
    assert caught.value.message.startswith(
        "validator shouldn't modify the resource map: nodes unequal: \n -- "
        '{"apiVersion":"v1","data":{"a":"b"},"kind":"ConfigMap","metadata":{"name":"c"}},')


def test_a_validator_that_changes_nothing_passes():
    quiet = LABELS.replace("labels: {x: y}\n", "")
    built = _build("resources: [cm.yaml]\nvalidators: [q.yaml]\n", **{"q.yaml": quiet})
    assert built.yaml() == _build("resources: [cm.yaml]\n").yaml()


def test_transformer_plugins_run_after_the_kustomizations_own_transformers():
    result = _build("resources: [cm.yaml]\nnamePrefix: a-\ntransformers:\n- |-\n"
                    "  apiVersion: builtin\n  kind: PrefixTransformer\n  metadata: {name: p}\n"
                    "  prefix: b-\n  fieldSpecs: [{path: metadata/name}]\n")
    assert result.resources[0].name == "b-a-c"


def test_value_add_through_a_missing_list_element_is_named_not_modelled():
    with pytest.raises(BuildError) as caught:
        _build("resources: [cm.yaml]\ntransformers:\n- |-\n  apiVersion: builtin\n"
               "  kind: ValueAddTransformer\n  metadata: {name: x}\n  targets:\n"
               "  - fieldPath: data/items/3/name\n")
    assert caught.value.code == KUSTOMIZE_UNMODELLED
    assert "data/items/3/name" in caught.value.message


def test_hash_transformer_hashes_where_it_runs_and_the_build_hashes_again():
    result = _build("configMapGenerator:\n- name: cm\n  literals: [a=b]\ntransformers:\n- |-\n"
                    "  apiVersion: builtin\n  kind: HashTransformer\n  metadata: {name: h}\n")
    names = [r.name for r in result.resources]
    assert names == ["cm-4h2mbtbbt6-4h2mbtbbt6"]   # kubectl 1.32 (tree builtin-plugins-fieldless)


def test_iam_policy_generator_refuses_other_clouds():
    with pytest.raises(BuildError) as caught:
        _build("generators:\n- |-\n  apiVersion: builtin\n  kind: IAMPolicyGenerator\n"
               "  metadata: {name: g}\n  cloud: aws\n")
    assert caught.value.message == "cloud provider aws not supported yet"
