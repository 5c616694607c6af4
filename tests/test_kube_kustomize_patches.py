"""kustomize/patches.py: how patches are read and what a failed JSON 6902
operation prints (end to end: the corpus trees json6902-annotation-keys and
error-json6902-operations, recorded with kubectl kustomize)."""

from __future__ import annotations

import pytest

from cfgpatch.kube.kustomize.patch_loading import _strategic_documents


def test_a_list_is_no_strategic_patch_even_with_keys_json_refuses():
    assert _strategic_documents("- op: add\n  path: /a\n  value: {1: x}\n", "p.yaml", 0) is None


def test_a_failed_operation_is_kustomize_s_error_alone(tmp_path):
    """kubectl prints only the error line (tree error-json6902-operations): no hint."""
    from cfgpatch.kube.kustomize.build import BuildError, build
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
    from cfgpatch.kube.kustomize.patch_loading import _json_ops
    assert _json_ops('[{"op": "remove", "path": "/a"}]', 0)[0] == [{"op": "remove",
                                                                     "path": "/a"}]
    assert _json_ops("[{op: remove, path: /a}]", 0)[0] is None
    assert _json_ops('[{"op": "remove", "path": "/a"},]', 0)[0] is None
    assert _json_ops("# a comment\n[{op: remove, path: /a}]", 0)[0] == [{"op": "remove",
                                                                         "path": "/a"}]
