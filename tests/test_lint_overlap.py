"""lint/overlap.py: ``field-set-twice``, the same field set by two patches of one layer.

The tree below is also built live with ``kubectl kustomize`` (when kubectl is at hand, and
always under CI=true): its output is the oracle for which patch wins. Recorded answer
(kubectl 1.32): the strategic patch that lists ``side`` before ``web`` moves ``side`` to
index 0, so the JSON Patch on ``containers/0`` changes ``side``'s image; replicas is 5.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from cfgpatch.lint import DiskFiles, MemoryFiles, lint_files
from cfgpatch.lint.overlap import _label
from conftest import require

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  template:
    spec:
      containers:
        - name: web
          image: web:1
        - name: side
          image: side:1
"""

SCALE = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  template:
    spec:
      containers:
        - name: web
          image: web:2
"""

KUSTOMIZATION = """\
resources: [deploy.yaml]
patches:
  - path: scale.yaml
  - patch: |-
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        replicas: 5
        template:
          spec:
            containers:
              - name: side
                image: side:2
              - name: web
                image: web:2
  - target: {kind: Deployment, name: web}
    patch: |-
      - op: replace
        path: /spec/template/spec/containers/0/image
        value: web:3
"""

TREE = {"app/deploy.yaml": DEPLOYMENT, "app/scale.yaml": SCALE,
        "app/kustomization.yaml": KUSTOMIZATION}
#: What kubectl kustomize 1.32 printed for the containers of TREE's Deployment.
RECORDED_CONTAINERS = [{"image": "web:3", "name": "side"}, {"image": "web:2", "name": "web"}]
RECORDED_REPLICAS = 5


def _twice(files) -> list[dict]:
    return [f.to_dict() for f in lint_files(files).findings if f.rule == "field-set-twice"]


def test_the_later_patch_wins_and_the_message_says_so():
    first = _twice(MemoryFiles(TREE))[0]
    assert first["detail"] == {"field": "spec.replicas", "resource": "Deployment/web"}
    assert first["message"] == (
        "Deployment/web: spec.replicas is set by both patches[0] of app/kustomization.yaml "
        "and patches[1] of app/kustomization.yaml; patches[1] of app/kustomization.yaml sets "
        "it to 5 and wins over 3 set by patches[0] of app/kustomization.yaml (applied "
        "earlier)")
    # at the later patch's text (inline: its line inside the kustomization) ...
    assert (first["file"], first["line"], first["column"]) == ("app/kustomization.yaml", 9, 9)
    # ... and the first one's place, in its own file
    assert first["related"] == [{"file": "app/scale.yaml", "line": 5, "column": 3,
                                 "endLine": 5, "endColumn": 14,
                                 "message": "set first by patches[0] of "
                                            "app/kustomization.yaml"}]
    assert RECORDED_REPLICAS == 5


def test_keyed_elements_are_matched_by_key_and_the_key_itself_is_no_setting():
    fields = [f["detail"]["field"] for f in _twice(MemoryFiles(TREE))]
    # web's image is set by patches 0 and 1 although they list the containers in another
    # order; `name`, the merge key, is set by both and not reported
    assert fields == ["spec.replicas", "spec.template.spec.containers[name=web].image",
                      "spec.template.spec.containers[name=side].image"]
    same = _twice(MemoryFiles(TREE))[1]
    assert same["message"].endswith("sets it to the same value (one of the two is redundant)")


def test_a_json_patch_index_is_followed_to_the_element_it_hits_after_earlier_patches():
    last = _twice(MemoryFiles(TREE))[2]
    assert last["message"].endswith(
        'patches[2] of app/kustomization.yaml sets it to "web:3" and wins over "side:2" set '
        "by patches[1] of app/kustomization.yaml (applied earlier)")
    assert (last["line"], last["related"][0]["line"]) == (20, 14)
    assert RECORDED_CONTAINERS[0] == {"image": "web:3", "name": "side"}


def test_disk_and_memory_agree(tmp_path):
    for name, text in TREE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert _twice(DiskFiles(str(tmp_path))) == _twice(MemoryFiles(TREE))


def test_kubectl_kustomize_applies_them_in_the_same_order(tmp_path):
    require(shutil.which("kubectl") is not None, "kubectl is not on PATH")
    for name, text in TREE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    done = subprocess.run(["kubectl", "kustomize", str(tmp_path / "app")], capture_output=True, text=True, check=True, timeout=120)
    from cfgpatch.lint.yamlpos import values
    (built,) = values(done.stdout)
    assert built["spec"]["template"]["spec"]["containers"] == RECORDED_CONTAINERS
    assert built["spec"]["replicas"] == RECORDED_REPLICAS


@pytest.mark.parametrize("patch, expected", [
    # identity fields and directives are not settings
    ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
     "spec:\n  $retainKeys: [replicas]\n", []),
    # a JSON Patch that appends to a list inserts; it sets no existing field
    ("- {op: add, path: /spec/template/spec/containers/-, value: {name: x}}\n", []),
    # a whole element replaced by position is a swap, not a field
    ("- {op: replace, path: /spec/template/spec/containers/1, value: {name: x}}\n", []),
    ("- {op: add, path: /spec/replicas, value: 9}\n", ["spec.replicas"]),
])
def test_what_counts_as_setting_a_field(patch, expected):
    json_patch = patch.startswith("-")
    entry = ("  - target: {kind: Deployment}\n    patch: |-\n" if json_patch
             else "  - patch: |-\n")
    body = "".join(f"      {line}\n" for line in patch.splitlines())
    tree = {"app/deploy.yaml": DEPLOYMENT,
            "app/kustomization.yaml": "resources: [deploy.yaml]\npatches:\n"
                                      "  - patch: |-\n      apiVersion: apps/v1\n"
                                      "      kind: Deployment\n      metadata: {name: web}\n"
                                      "      spec: {replicas: 2}\n" + entry + body}
    report = lint_files(MemoryFiles(tree))
    assert not report.build_failed() and report.patch_count() == 2
    assert [f["detail"]["field"] for f in _twice(MemoryFiles(tree))] == expected


def test_an_overlay_overriding_its_base_is_not_reported():
    tree = {"base/deploy.yaml": DEPLOYMENT,
            "base/kustomization.yaml": "resources: [deploy.yaml]\npatches:\n"
                                       "  - patch: '{apiVersion: apps/v1, kind: Deployment, metadata: {name: web},"
                                       " spec: {replicas: 2}}'\n",
            "prod/kustomization.yaml": "resources: [../base]\npatches:\n"
                                       "  - patch: '{apiVersion: apps/v1, kind: Deployment, metadata: {name: web},"
                                       " spec: {replicas: 4}}'\n"}
    assert _twice(MemoryFiles(tree)) == []
    report = lint_files(MemoryFiles(tree))
    assert report.findings == [] and report.patch_count() == 2
    # the same two patches in one layer are reported
    one = {"app/deploy.yaml": DEPLOYMENT, "app/kustomization.yaml": "resources: [deploy.yaml]\n"
           "patches:\n" + tree["base/kustomization.yaml"].split("patches:\n")[1]
           + tree["prod/kustomization.yaml"].split("patches:\n")[1]}
    assert [f["detail"]["field"] for f in _twice(MemoryFiles(one))] == ["spec.replicas"]


def test_labels():
    assert _label(("spec", "template", "spec", "containers", "[name=web]", "image")) == \
        "spec.template.spec.containers[name=web].image"
    assert _label(("spec", "ports", "[port=53,protocol=UDP]", "name")) == \
        "spec.ports[port=53,protocol=UDP].name"
