"""kube build (kustomize/build.py) against kubectl kustomize's recorded corpus.

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
from cfgpatch.kube.kustomize.build import BuildError, build
from cfgpatch.kube.kustomize.trace import Trace
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
    ("remote resource", "resources: [https://example.com/base.yaml]\n"),
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


CONFIG = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\ndata:\n{data}"


def test_a_bad_merge_key_is_not_a_yaml_error_so_the_path_is_tried_as_a_directory(tmp_path):
    # measured (kubectl 1.32): kustomize's accumulation error, not MalformedYAMLError
    root = _tree(tmp_path, {"kustomization.yaml": "resources: [c.yaml]\n",
                            "c.yaml": CONFIG.format(name="c", data="  <<: text\n")})
    with pytest.raises(BuildError) as caught:
        build(str(root))
    assert caught.value.message == (
        "accumulating resources: accumulation err='accumulating resources from 'c.yaml': "
        "map merge requires map or sequence of maps as the value': must build at "
        f"directory: '{root / 'c.yaml'}': file is not directory")


def test_keys_written_twice_fail_the_build_at_the_end_in_output_order(tmp_path):
    # the Namespace prints first, so kustomize names it, not the ConfigMap read first
    files = {"kustomization.yaml": "namePrefix: p-\nresources: [r.yaml]\n",
             "r.yaml": CONFIG.format(name="c", data="  a: 1\n  a: 2\n")
             + "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: n\n  name: m\n"}
    with pytest.raises(BuildError) as caught:
        build(str(_tree(tmp_path, files)))
    assert caught.value.message == ("map[string]interface {}(nil): yaml: unmarshal errors:\n"
                                    '  line 5: mapping key "name" already defined at line 4')


def test_a_resource_with_keys_written_twice_that_a_patch_deletes_builds(tmp_path):
    files = {"kustomization.yaml": "resources: [r.yaml]\npatches:\n- patch: |-\n"
                                   "    $patch: delete\n    apiVersion: v1\n"
                                   "    kind: ConfigMap\n    metadata: {name: c}\n",
             "r.yaml": CONFIG.format(name="c", data="  a: 1\n  a: 2\n")
             + "---\n" + CONFIG.format(name="d", data="  a: 1\n")}
    result = build(str(_tree(tmp_path, files)))
    assert [r.name for r in result.resources] == ["d"]


COMMA_NAMED = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: a,b\n  namespace: x,y\n"


def test_previous_ids_with_commas_that_no_longer_line_up_are_kustomizes_panic(tmp_path):
    # kubectl 1.32 panics (exit 2) on both: split on commas, the previous names ("a,b")
    # are two where the kinds ("Secret") are one, or where the namespace ("team") is
    for kust in ("namePrefix: p-\n", "namespace: team\nnamePrefix: p-\n"):
        (tmp_path / "r.yaml").write_text(COMMA_NAMED)
        (tmp_path / "kustomization.yaml").write_text(kust + "resources:\n- r.yaml\n")
        with pytest.raises(BuildError) as caught:
            build(str(tmp_path))
        assert caught.value.message == ("number of previous names, number of previous "
                                        "namespaces, number of previous kinds not equal")


def test_previous_ids_with_commas_that_line_up_build(tmp_path):
    # kubectl 1.32 builds this one: name, namespace and kind split into two entries each
    (tmp_path / "r.yaml").write_text(COMMA_NAMED.replace("v1\nkind: Secret",
                                                         "example.com/v1\nkind: K,L"))
    (tmp_path / "kustomization.yaml").write_text("namePrefix: p-\nresources:\n- r.yaml\n")
    assert "name: p-a,b" in build(str(tmp_path)).yaml()
