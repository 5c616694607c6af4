"""views/kustomize/patches.py: what a JSON 6902 patch leaves in the annotations
(end to end: the corpus trees json6902-annotation-keys and json6902-annotation-values,
recorded with kubectl kustomize)."""

from __future__ import annotations

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube.views.kustomize.patches import _strategic_documents, check_annotation_keys


@pytest.mark.parametrize("key", ["true", "1", "null", "~", "1.5", "0x1F", "2024-01-01", ""])
def test_an_annotation_key_yaml_reads_as_no_string_fails_the_build(key):
    value = {"kind": "ConfigMap", "metadata": {"name": "cm", "annotations": {key: "x"}}}
    with pytest.raises(KubeError) as caught:
        check_annotation_keys(value)
    assert caught.value.message.endswith(": json: unsupported type: "
                                         "map[interface {}]interface {}")
    assert '"annotations":map[interface {}]interface {}{' in caught.value.message


@pytest.mark.parametrize("key", ["on", "yes", "y", "web", "a/b", "1a"])
def test_string_keys_pass(key):
    check_annotation_keys({"metadata": {"annotations": {key: "x"}, "labels": {"1": "x"}}})
    check_annotation_keys({"metadata": None})


def test_the_dump_shows_typed_keys_and_the_rest_of_the_resource():
    value = {"kind": "ConfigMap", "metadata": {"name": "cm", "annotations": {"a": "b",
                                                                           "true": "x"}}}
    with pytest.raises(KubeError) as caught:
        check_annotation_keys(value)
    assert caught.value.message.startswith(
        'map[string]interface {}{"kind":"ConfigMap", "metadata":map[string]interface {}{'
        '"annotations":map[interface {}]interface {}{"a":"b", true:"x"}, "name":"cm"}}')


def test_a_list_is_no_strategic_patch_even_with_keys_json_refuses():
    assert _strategic_documents("- op: add\n  path: /a\n  value: {1: x}\n", "p.yaml", 0) is None


def test_a_failed_operation_is_kustomize_s_error_alone(tmp_path):
    """kubectl prints only the error line (tree error-json6902-operations): no hint."""
    from cfgpatch.kube.views.kustomize.build import BuildError, build
    (tmp_path / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n"
                                      "  name: cm\ndata:\n  a: b\n")
    (tmp_path / "kustomization.yaml").write_text(
        "resources:\n- cm.yaml\npatches:\n- target: {kind: ConfigMap}\n"
        "  patch: '- {op: test, path: /data/a, value: c}'\n")
    with pytest.raises(BuildError) as caught:
        build(str(tmp_path))
    assert caught.value.message == "testing value /data/a failed: test failed"
    assert not caught.value.hint


def test_a_patch_starting_with_a_bracket_must_be_json(tmp_path):
    from cfgpatch.kube.views.kustomize.patches import _json_ops
    assert _json_ops('[{"op": "remove", "path": "/a"}]', 0)[0] == [{"op": "remove",
                                                                     "path": "/a"}]
    assert _json_ops("[{op: remove, path: /a}]", 0)[0] is None
    assert _json_ops('[{"op": "remove", "path": "/a"},]', 0)[0] is None
    assert _json_ops("# a comment\n[{op: remove, path: /a}]", 0)[0] == [{"op": "remove",
                                                                         "path": "/a"}]
