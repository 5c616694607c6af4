"""lint/kbuild.py with ``openapi:`` and ``crds:``: kube build over the files in memory
(the page) and over the disk, so lint in memory finds what lint on disk finds.

A custom resource whose list is keyed by an ``openapi:`` document: kustomize merges a
patch's list into it; without the document it replaces the list (and lint says what is
lost).  The tree is written to disk and linted both ways."""

from __future__ import annotations

from pathlib import Path

import pytest

from cfgpatch.lint import DiskFiles, MemoryFiles, lint_files
from cfgpatch.lint.config import Config
from cfgpatch.lint.kbuild import lint_kustomization_built
from cfgpatch.lint.kustomizations import find_kustomization
from cfgpatch.lint.linter import build_root, outcomes
from cfgpatch.lint.model import Outcome

SCHEMA = """{"definitions": {
 "com.example.v1.Widget": {
   "type": "object",
   "x-kubernetes-group-version-kind": [{"group": "example.com", "kind": "Widget",
                                        "version": "v1"}],
   "properties": {"spec": {"$ref": "#/definitions/com.example.v1.WidgetSpec"}}},
 "com.example.v1.WidgetSpec": {
   "type": "object",
   "properties": {"items": {"type": "array", "x-kubernetes-patch-merge-key": "name",
                            "x-kubernetes-patch-strategy": "merge",
                            "items": {"type": "object"}}}}}}
"""
CR = """apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
spec:
  items:
  - name: a
    value: "1"
  - name: b
    value: "2"
"""
ADD = """apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
spec:
  items:
  - name: c
    value: "3"
"""
TREE = {
    # the base names the schema: its own patch and the overlay's merge on `name`
    "base/kustomization.yaml": "openapi:\n  path: schema.json\nresources:\n- cr.yaml\n"
                               "patches:\n- path: add.yaml\n",
    "base/schema.json": SCHEMA,
    "base/cr.yaml": CR,
    "base/add.yaml": ADD,
    "overlay/kustomization.yaml": "resources:\n- ../base\npatches:\n- path: add.yaml\n",
    "overlay/add.yaml": ADD.replace("name: c", "name: d"),
    # no schema: kustomize replaces the list (a, b are lost)
    "plain/kustomization.yaml": "resources:\n- cr.yaml\npatches:\n- path: add.yaml\n",
    "plain/cr.yaml": CR,
    "plain/add.yaml": ADD,
    # the same base under a top whose own schema wins (no merge keys for Widget): the
    # memoised build of base/ must not be reused here
    "top-wins/kustomization.yaml": "openapi:\n  path: empty.json\nresources:\n- ../base\n"
                                   "patches:\n- path: add.yaml\n",
    "top-wins/empty.json": '{"definitions": {}}\n',
    "top-wins/add.yaml": ADD.replace("name: c", "name: e"),
}


def _build(texts: dict, directory: str) -> Outcome:
    files = MemoryFiles(texts)
    path = find_kustomization(files, directory)
    assert path is not None
    return lint_kustomization_built(files, build_root(files), path)


def _failure(texts: dict, directory: str) -> Outcome:
    outcome = _build(texts, directory)
    assert outcome.error is not None
    return outcome


def _comparable(report) -> list:
    return [(f.rule, f.level, f.location, f.related,
             None if f.rule == "build-failed" else f.message) for f in report.findings]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name, text in TREE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, "utf-8")
    return tmp_path


def test_openapi_merge_keys_give_the_same_findings_in_memory_and_on_disk(tree):
    from_disk = lint_files(DiskFiles(str(tree)))
    in_memory = lint_files(MemoryFiles(dict(TREE)))
    assert in_memory.to_dict() == from_disk.to_dict()
    replaced = {f.location.file for f in in_memory.findings
                if f.rule == "custom-resource-list-replaced"}
    # merged on `name` where the base's schema holds; replaced without one, or where the
    # top's own (empty) schema wins over the base's
    assert replaced == {"plain/add.yaml", "top-wins/add.yaml"}
    units, _ = outcomes(MemoryFiles(dict(TREE)), Config())
    assert [u.incomplete for u in units] == [[]] * 4  # openapi: is modelled now


def test_the_in_memory_build_merges_with_the_openapi_schema():
    """kubectl kustomize 1.32 on this tree: overlay d, c, a, b (new elements first);
    top-wins e; plain c."""
    (overlay,) = _build(TREE, "overlay").built
    assert [i["name"] for i in overlay["spec"]["items"]] == ["d", "c", "a", "b"]
    (top,) = _build(TREE, "top-wins").built
    assert [i["name"] for i in top["spec"]["items"]] == ["e"]
    (plain,) = _build(TREE, "plain").built
    assert [i["name"] for i in plain["spec"]["items"]] == ["c"]


@pytest.mark.parametrize("kustomization, files, message", [
    ("openapi:\n  path: nothere.json\nresources:\n- cr.yaml\n", {},
     "evalsymlink failure on 'app/nothere.json'"),
    ("openapi:\n  path: ../schema.json\nresources:\n- cr.yaml\n", {"schema.json": SCHEMA},
     "security; file 'schema.json' is not in or below 'app'"),
    ("openapi:\n  version: v1.20.0\nresources:\n- cr.yaml\n", {},
     "the specified OpenAPI version is not built in"),
    ("openapi:\n  version: v1.21.2\n  path: s.json\nresources:\n- cr.yaml\n",
     {"app/s.json": SCHEMA}, "builtin version and custom schema provided, cannot use both"),
    ("crds:\n- nothere.json\nresources:\n- cr.yaml\n", {},
     "loading CRDs [nothere.json]: evalsymlink failure on 'app/nothere.json'"),
    ("crds:\n- bad.json\nresources:\n- cr.yaml\n", {"app/bad.json": "[1, 2]\n"},
     "loading CRDs [bad.json]: unable to parse open API definition from 'bad.json'"),
    ("openapi:\n  path: s.yaml\nresources:\n- cr.yaml\npatches:\n- path: add.yaml\n",
     {"app/s.yaml": "- a list\n", "app/add.yaml": ADD},
     "openapi: invalid schema file 'app/s.yaml': expected an OpenAPI document"),
])
def test_kube_build_s_errors_about_openapi_and_crds_files(kustomization, files, message):
    texts = {"app/kustomization.yaml": kustomization, "app/cr.yaml": CR, **files}
    failed = _failure(texts, "app")
    assert message in failed.error, failed.error
    assert failed.error_location.file == "app/kustomization.yaml"


def test_the_page_s_lint_mode_finds_what_lint_on_disk_finds(tree):
    import json

    from cfgpatch.web.lintmode import lint_json
    files = [{"path": name, "text": text} for name, text in TREE.items()]
    view = json.loads(lint_json(json.dumps(files)))
    from_disk = lint_files(DiskFiles(str(tree))).to_dict()
    assert view["ok"]
    assert [(f["rule"], f["file"], f["line"], f["message"]) for f in view["report"]["findings"]] \
        == [(f["rule"], f["file"], f["line"], f["message"]) for f in from_disk["findings"]]


FLUX = """apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: app
spec:
  path: ./{folder}
  patches:
  - target:
      kind: Widget
    patch: |
      apiVersion: example.com/v1
      kind: Widget
      metadata:
        name: w
      spec:
        items:
        - name: f
  sourceRef: {{kind: GitRepository, name: flux-system}}
"""


def test_a_flux_kustomization_s_patches_merge_with_the_folder_s_schema():
    texts = {**TREE, "clusters/overlay.yaml": FLUX.format(folder="overlay"),
             "clusters/plain.yaml": FLUX.format(folder="plain")}
    report = lint_files(MemoryFiles(texts))
    replaced = sorted(f.location.file for f in report.findings
                      if f.rule == "custom-resource-list-replaced")
    assert replaced == ["clusters/plain.yaml", "plain/add.yaml", "top-wins/add.yaml"]


_RECORDED = Path(__file__).parent / "data" / "kustomize"
_SCHEMA_ERRORS = [("crds-fieldspecs", "error-bad"), ("crds-fieldspecs", "error-missing"),
                  ("openapi-schemas", "error-both"), ("openapi-schemas", "error-missing"),
                  ("openapi-schemas", "error-outside"),
                  ("openapi-schemas", "error-outside/base-a"),
                  ("openapi-schemas", "error-version")]


@pytest.mark.parametrize("tree, build", _SCHEMA_ERRORS, ids=[f"{t}:{b}" for t, b in _SCHEMA_ERRORS])
def test_the_texts_are_kubectl_s_with_root_relative_paths(tree, build):
    """kubectl kustomize's recorded stderr, its absolute paths made relative, ends with
    ours (kubectl also wraps a base's error in the overlay's)."""
    import json
    recorded = json.loads((_RECORDED / "recorded" / f"{tree}.json").read_text("utf-8"))
    stderr = recorded["builds"][build]["stderr"].replace("$TREE/", "").strip()
    root = _RECORDED / "trees" / tree
    texts = {p.relative_to(root).as_posix(): p.read_text("utf-8")
             for p in root.rglob("*") if p.is_file()}
    failed = _failure(texts, build)
    assert stderr.endswith(failed.error), (stderr, failed.error)


_NESTED = sorted(p.name for p in (_RECORDED / "trees" / "error-nested-types").iterdir()
                 if p.is_dir())


@pytest.mark.parametrize("build", _NESTED)
def test_nested_type_errors_are_kubectl_s_at_the_top_level_field(build):
    """lint decodes a kustomization into kustomize's Go types as kube build does: the
    same text, placed on the top-level field that holds the error."""
    import json
    recorded = json.loads((_RECORDED / "recorded" / "error-nested-types.json").read_text("utf-8"))
    stderr = recorded["builds"][build]["stderr"].strip()
    root = _RECORDED / "trees" / "error-nested-types"
    texts = {p.relative_to(root).as_posix(): p.read_text("utf-8")
             for p in root.rglob("*") if p.is_file()}
    failed = _failure(texts, build)
    assert stderr == "error: " + failed.error
    assert failed.error_location.file == f"{build}/kustomization.yaml"


@pytest.mark.parametrize("text", ["", "apiVersion: kustomize.config.k8s.io/v1beta1\n",
                                  "namespace: ''\nresources: null\n"])
def test_an_empty_kustomization_is_refused_as_kube_build_refuses_it(text):
    failed = _failure({"app/kustomization.yaml": text}, "app")
    assert failed.error == "kustomization.yaml is empty"


@pytest.mark.parametrize("patch, builds", [
    ("[{op: add, path: /data/x, value: y}]", False),  # `[`: JSON or nothing, as kube build
    ("# first\n[{op: add, path: /data/x, value: y}]", True),
    ('[{"op": "add", "path": "/data/x", "value": "y"}]', True),
])
def test_json_patches_are_read_as_kube_build_reads_them(patch, builds):
    kustomization = ("resources:\n- cm.yaml\npatches:\n- target: {kind: ConfigMap}\n"
                     "  patch: |\n" + "".join(f"    {line}\n" for line in patch.splitlines()))
    texts = {"app/kustomization.yaml": kustomization,
             "app/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata: {a: b}\n"}
    outcome = _build(texts, "app")
    if builds:
        assert outcome.error is None and len(outcome.built) == 1
    else:
        assert outcome.error is not None
