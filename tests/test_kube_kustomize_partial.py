"""kube/kustomize/partial.py: a partial build skips what cannot be followed offline and
reports it; everything else builds as the plain build."""

from __future__ import annotations

import pytest

from cfgpatch.kube.kustomize.build import BuildError, build
from cfgpatch.kube.kustomize.filesys import MemoryFileSystem
from cfgpatch.kube.kustomize.partial import active
from cfgpatch.kube.kustomize.partial_build import build_partial

DEPLOY = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 1}\n"


def _fs(**files: str) -> MemoryFileSystem:
    return MemoryFileSystem(files, cwd="/repo")


def test_a_remote_resource_is_skipped_and_reported_with_its_place():
    fs = _fs(**{"kustomization.yaml": "namePrefix: p-\nresources:\n  - d.yaml\n"
                "  - https://example.invalid/base?ref=v1\n", "d.yaml": DEPLOY})
    with pytest.raises(BuildError) as caught:
        build("/repo", fs=fs)
    assert "remote resource" in caught.value.message
    done = build_partial("/repo", fs=fs)
    assert [r.value["metadata"]["name"] for r in done.result.resources] == ["p-web"]
    (skipped,) = done.skipped
    assert (skipped.file, skipped.line, skipped.entry) == (
        "/repo/kustomization.yaml", 4, "https://example.invalid/base?ref=v1")
    assert "remote resource" in skipped.reason
    assert not active()


def test_a_remote_component_is_skipped():
    fs = _fs(**{"kustomization.yaml": "resources: [d.yaml]\ncomponents:\n"
                "  - github.com/acme/repo//comp?ref=v1\n", "d.yaml": DEPLOY})
    done = build_partial("/repo", fs=fs)
    assert [(s.entry, s.line) for s in done.skipped] == [("github.com/acme/repo//comp?ref=v1", 3)]
    assert len(done.result.resources) == 1


def test_a_chart_whose_helm_cannot_run_is_skipped():
    fs = _fs(**{"kustomization.yaml": "resources: [d.yaml]\nhelmCharts:\n"
                "  - name: x\n    repo: https://charts.example.invalid\n    version: 1.0.0\n",
                "d.yaml": DEPLOY})
    with pytest.raises(BuildError) as caught:
        build("/repo", fs=fs, enable_helm=True, helm_command="no-such-helm-here")
    assert "unable to run" in caught.value.message
    done = build_partial("/repo", fs=fs, enable_helm=True, helm_command="no-such-helm-here")
    assert [s.entry for s in done.skipped] == ["helmCharts"]
    assert "helm could not run here" in done.skipped[0].reason


def test_what_kustomize_refuses_with_what_is_at_hand_still_fails_with_the_skips():
    fs = _fs(**{"kustomization.yaml": "resources:\n  - https://example.invalid/b\n"
                "  - missing.yaml\n"})
    with pytest.raises(BuildError) as caught:
        build_partial("/repo", fs=fs)
    assert "missing.yaml" in caught.value.message
    assert [s.entry for s in caught.value.skipped] == ["https://example.invalid/b"]
    assert not active()


def test_a_tree_with_nothing_to_skip_builds_as_the_plain_build():
    fs = _fs(**{"kustomization.yaml": "namePrefix: p-\nresources: [d.yaml]\n", "d.yaml": DEPLOY})
    done = build_partial("/repo", fs=fs)
    assert done.skipped == []
    assert done.result.yaml() == build("/repo", fs=fs).yaml()


def test_an_external_plugin_is_skipped_and_the_built_in_ones_still_run():
    fs = _fs(**{"kustomization.yaml": "resources: [d.yaml]\ntransformers: [t.yaml, p.yaml]\n",
                "d.yaml": DEPLOY,
                "t.yaml": "apiVersion: example.com/v1\nkind: Tshirt\nmetadata: {name: t}\n",
                "p.yaml": "apiVersion: builtin\nkind: PrefixSuffixTransformer\n"
                          "metadata: {name: p}\nprefix: x-\nfieldSpecs: [{path: metadata/name}]\n"})
    with pytest.raises(BuildError) as caught:
        build("/repo", fs=fs)
    assert "external plugins disabled" in caught.value.message
    done = build_partial("/repo", fs=fs)
    (skipped,) = done.skipped
    assert (skipped.file, skipped.line) == ("/repo/kustomization.yaml", 2)
    assert skipped.reason.startswith("a plugin: external plugins disabled")
    assert [r.value["metadata"]["name"] for r in done.result.resources] == ["x-web"]
