"""lint/kbuild.py: the resources a kustomization's patches see, from ``kube build``.

Replayed against kubectl kustomize's recorded builds of the kustomize corpus
(tests/data/kustomize/recorded, scripts/record_kustomize_trees.py): lint's build of the
files in memory (the page's case) gives the same resources (apiVersion, kind, name,
namespace) for every build that succeeds, and fails where kustomize fails.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from cfgpatch.lint import MemoryFiles
from cfgpatch.lint.kbuild import lint_kustomization_built
from cfgpatch.lint.kustomizations import find_kustomization
from cfgpatch.lint.linter import build_root
from cfgpatch.lint.model import Outcome

DATA = Path(__file__).parent / "data" / "kustomize"
#: Trees whose files are not all UTF-8 text, or that hold symbolic links: lint's files in
#: memory are texts (the page leaves other files out and says so); kube build's own tests
#: build them from disk.
NOT_TEXT = {"file-bytes", "env-files", "reported-differences"}
BUILDS = [(json.loads(p.read_text("utf-8")), build) for p in sorted(DATA.glob("recorded/*.json"))
          if p.stem not in NOT_TEXT for build in json.loads(p.read_text("utf-8"))["builds"]]
_HASH = re.compile(r"-[a-z0-9]{10}$")


def _text(value) -> str:
    """A value as YAML's BaseLoader reads kubectl's output: text (``true``, ``8``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _ids(objects, generated=frozenset()):
    out = []
    for obj in objects:
        meta = obj.get("metadata", {})
        name = _text(meta.get("name", ""))
        if obj.get("kind") in ("ConfigMap", "Secret") and _HASH.sub("", name) in generated:
            name = _HASH.sub("", name)
        out.append((_text(obj.get("apiVersion")), _text(obj.get("kind")), name,
                    _text(meta.get("namespace", ""))))
    return sorted(out)


def _files(tree: str) -> MemoryFiles:
    root = DATA / "trees" / tree
    return MemoryFiles({p.relative_to(root).as_posix(): p.read_text("utf-8")
                        for p in root.rglob("*") if p.is_file()})


def _lint(files: MemoryFiles, directory: str = "") -> Outcome:
    path = find_kustomization(files, directory)
    assert path is not None
    return lint_kustomization_built(files, build_root(files), path)


@pytest.mark.parametrize("record, build", BUILDS,
                         ids=[f"{r['tree']}:{b}" for r, b in BUILDS])
def test_lint_resolves_what_kubectl_kustomize_builds(record, build):
    recorded = record["builds"][build]
    files = _files(record["tree"])
    directory = "" if build == "." else build
    if find_kustomization(files, directory) is None:
        assert recorded["exit_code"] != 0
        return
    outcome = _lint(files, directory)
    if recorded["exit_code"] != 0:  # a failure, or what cannot be followed offline: a note
        if outcome.error is None:  # a note says what kubectl's build refused, innermost
            notes = [outcome.offline, *(note for note, _ in outcome.offline_more)]
            said = recorded["stderr"].strip().rsplit(": ", 1)[-1]
            assert any(said in (note or "") for note in notes), (said, notes)
        return
    assert outcome.error is None, outcome.error
    # BaseLoader: a key "<<" that kustomize prints is a key, not a YAML 1.1 merge
    theirs = [o for o in yaml.load_all(recorded["stdout"], Loader=yaml.BaseLoader) if o]
    assert _ids(outcome.built) == _ids(theirs)


def _tree(**texts: str) -> MemoryFiles:
    return MemoryFiles(texts)


DEPLOY = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 1}\n"


def test_patches_run_in_kustomize_s_order():
    """patchesStrategicMerge, then patches, then the prefix, then patchesJson6902 (which
    sees the prefixed name), as measured with kubectl kustomize 1.32."""
    files = _tree(**{"kustomization.yaml": """\
namePrefix: p-
resources: [d.yaml]
patchesJson6902:
  - target: {group: apps, version: v1, kind: Deployment, name: p-web}
    patch: '[{"op": "replace", "path": "/spec/replicas", "value": 5}]'
patches:
  - patch: '{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
             "spec": {"replicas": 7}}'
patchesStrategicMerge:
  - '{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
      "spec": {"replicas": 3}}'
""", "d.yaml": DEPLOY})
    outcome = _lint(files)
    assert outcome.error is None
    assert [a.after["spec"]["replicas"] for a in outcome.applications] == [3, 7, 5]
    assert [a.site.label.split(" ")[0] for a in outcome.applications] == [
        "patchesStrategicMerge[0]", "patches[0]", "patchesJson6902[0]"]


def test_a_strategic_patch_without_target_must_match_one_resource():
    files = _tree(**{"kustomization.yaml": "resources: [d.yaml]\npatches:\n  - path: p.yaml\n",
                     "d.yaml": DEPLOY,
                     "p.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\n"})
    outcome = _lint(files)
    assert outcome.error.startswith('no resource matches strategic merge patch '
                                    '"Deployment.v1.apps/api.[noNs]"')
    assert (outcome.error_location.file, outcome.error_location.line) == ("p.yaml", 1)


def test_a_remote_resource_makes_the_build_incomplete_not_failed():
    files = _tree(**{"kustomization.yaml": "resources:\n  - d.yaml\n  - "
                     "https://example.invalid/base?ref=v1\n", "d.yaml": DEPLOY})
    outcome = _lint(files)
    assert outcome.error is None
    (note,) = outcome.incomplete
    assert note.startswith("https://example.invalid/base?ref=v1: a remote resource")
    assert (outcome.offline_location.file, outcome.offline_location.line) == (
        "kustomization.yaml", 3)
    assert [o["metadata"]["name"] for o in outcome.built] == ["web"]


@pytest.mark.parametrize("texts, message", [
    ({"kustomization.yaml": "resources: [../x]\n"}, "no such file or directory"),
    ({"kustomization.yaml": "resources: [sub]\n", "sub/a.yaml": "{}"}, "unable to find one of"),
    ({"kustomization.yaml": "resources: [d.yaml, d.yaml]\n", "d.yaml": DEPLOY},
     "already registered id: Deployment.v1.apps/web.[noNs]"),
    ({"kustomization.yaml": "resource: [d.yaml]\n"}, 'unknown field "resource"'),
    ({"kustomization.yaml": "components: [c]\n", "c/kustomization.yaml": "resources: []\n"},
     "expected kind 'Component'"),
    ({"kustomization.yaml": "resources: [d.yaml]\npatches:\n  - target: {kind: Deployment}\n"
                            "    patch: '[{\"op\": \"remove\", \"path\": \"/nope\"}]'\n",
      "d.yaml": DEPLOY}, "Unable to remove nonexistent key: nope"),
    ({"kustomization.yaml": "resources: [d.yaml]\npatches:\n  - target: {name: 'w('}\n"
                            "    patch: '[]'\n", "d.yaml": DEPLOY}, "error parsing regexp"),
])
def test_what_kustomize_refuses_is_a_build_failure(texts, message):
    outcome = _lint(_tree(**texts))
    assert outcome.error is not None and message in outcome.error
    assert outcome.error_location.file == "kustomization.yaml"


def test_kustomization_scalars_are_read_as_kustomize_reads_them():
    """YAML 1.1 (go-yaml v2 through sigs.k8s.io/yaml): ``namespace: n`` is a boolean, and
    kustomize's type error (recorded: label-aliasing/yaml11-namespace) is lint's; quoted,
    it is a string."""
    record = json.loads((DATA / "recorded" / "label-aliasing.json").read_text("utf-8"))
    expected = record["builds"]["yaml11-namespace"]["stderr"].removeprefix("error: ").strip()
    files = _tree(**{"kustomization.yaml": "resources: [d.yaml]\nnamespace: n\n",
                     "d.yaml": DEPLOY})
    outcome = _lint(files)
    assert outcome.error == expected
    assert outcome.error_location.file == "kustomization.yaml"
    quoted = _tree(**{"kustomization.yaml": "resources: [d.yaml]\nnamespace: 'n'\n",
                      "d.yaml": DEPLOY})
    (resource,) = _lint(quoted).built
    assert resource["metadata"]["namespace"] == "n"


CONFIG = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\ndata:\n{data}"


def test_resources_with_merge_keys_resolve_as_kustomize_expands_them():
    files = _tree(**{"kustomization.yaml": "resources: [c.yaml]\n",
                     "c.yaml": "apiVersion: v1\nkind: ConfigMap\n"
                               "metadata: {<<: {name: settings, namespace: tools}}\n"})
    [resource] = _lint(files).built
    assert resource["metadata"] == {"name": "settings", "namespace": "tools"}


def test_a_resource_with_a_key_written_twice_fails_at_the_end_of_the_build():
    files = {"base/kustomization.yaml": "resources: [c.yaml]\n",
             "base/c.yaml": CONFIG.format(name="c", data="  a: 1\n  a: 2\n"),
             "overlay/kustomization.yaml": "resources: [../base]\npatches:\n- patch: |-\n"
                                           "    $patch: delete\n    apiVersion: v1\n"
                                           "    kind: ConfigMap\n    metadata: {name: c}\n"}
    failed = _lint(_tree(**files), "base")
    assert failed.error == ("map[string]interface {}(nil): yaml: unmarshal errors:\n"
                            '  line 7: mapping key "a" already defined at line 6')
    overlay = _lint(_tree(**files), "overlay")
    assert overlay.error is None and overlay.built == []  # deleted before the end
