"""kube build (views/kustomize/build.py) against kubectl kustomize's recorded corpus.

Every build of every tree in tests/data/kustomize is replayed: the exit code, the
output and the standard error (warnings, kustomize's error text) must be kubectl
1.32's, byte for byte.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cfgpatch.errors import KUSTOMIZE_UNMODELLED
from cfgpatch.kube.views.kustomize.build import BuildError, build
from cfgpatch.kube.views.kustomize.trace import Trace
from kustomize_corpus import TREES, builds, run_ours

BUILDS = builds()


@pytest.mark.parametrize("case", BUILDS, ids=[b.id for b in BUILDS])
def test_corpus_build_is_byte_identical(case):
    assert run_ours(case.directory) == case.expected()


def test_corpus_has_every_tree():
    trees = {b.tree for b in BUILDS}
    assert trees == {p.name for p in TREES.iterdir() if p.is_dir()}
    assert len(BUILDS) >= 39


def test_json_output_is_a_list_of_the_same_resources():
    result = build(str(TREES / "shop-overlays" / "overlays" / "prod"))
    value = json.loads(result.json())
    assert value["kind"] == "List"
    assert [i["metadata"]["name"] for i in value["items"]] == \
        [r.value["metadata"]["name"] for r in result.resources]


def test_a_trace_changes_nothing():
    directory = TREES / "components-monitoring" / "overlays" / "prod"
    traced = build(str(directory), Trace())
    assert traced.yaml() == build(str(directory)).yaml()
    assert traced.trace is not None and traced.trace.steps


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return tmp_path


CM = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n{extra}data:\n  a: b\n"


def test_local_config_resources_are_dropped(tmp_path):
    local = CM.format(name="local", extra="") .replace(
        "  name: local\n", "  name: local\n  annotations:\n"
        "    config.kubernetes.io/local-config: \"true\"\n")
    root = _tree(tmp_path, {"kustomization.yaml": "resources: [a.yaml, b.yaml]\n",
                            "a.yaml": CM.format(name="kept", extra=""), "b.yaml": local})
    assert [r.name for r in build(str(root)).resources] == ["kept"]


def test_fifo_sort_keeps_input_order(tmp_path):
    root = _tree(tmp_path, {
        "kustomization.yaml": "sortOptions: {order: fifo}\nresources: [a.yaml]\n",
        "a.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: z}\n---\n"
                  + CM.format(name="a", extra="")})
    assert [r.gvk.kind for r in build(str(root)).resources] == ["Deployment", "ConfigMap"]


@pytest.mark.parametrize("field, text", [
    ("helmCharts", "helmCharts:\n- name: x\n"),
    ("transformers", "transformers: [t.yaml]\n"),
    ("vars", "vars:\n- name: X\n"),
])
def test_unmodelled_fields_are_refused_naming_field_and_file(tmp_path, field, text):
    root = _tree(tmp_path, {"kustomization.yaml": text})
    with pytest.raises(BuildError) as info:
        build(str(root))
    assert info.value.code == KUSTOMIZE_UNMODELLED
    assert field in info.value.message and "kustomization.yaml:1" in info.value.message


def test_remote_base_is_refused(tmp_path):
    root = _tree(tmp_path, {"kustomization.yaml":
                            "resources:\n- github.com/acme/deploy//base?ref=v1\n"})
    with pytest.raises(BuildError) as info:
        build(str(root))
    assert info.value.code == KUSTOMIZE_UNMODELLED
    assert "github.com/acme/deploy//base?ref=v1" in info.value.message


def test_a_copy_of_a_tree_builds_with_its_own_paths(tmp_path):
    shutil.copytree(TREES / "error-missing-resource", tmp_path / "t")
    code, _out, err = run_ours(tmp_path / "t")
    assert code == 1 and str((tmp_path / "t").resolve()) in err
