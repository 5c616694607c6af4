"""One mistake, one finding, across rules: a later patch of one kustomization that
replaces a value an earlier patch set is reported once, by the rule that says why the
value is replaced (no merge keys, an atomic list, a JSON Patch ``add`` on a map), with
``field-set-twice``'s fact (the earlier patch) folded in (``lint.finding.folded``).

The custom resource case is built live with ``kubectl.1.32 kustomize`` (when it is at
hand, always under CI=true); its recorded answer: the second patch's list alone is left.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from cfgpatch.lint import MemoryFiles, lint_files
from cfgpatch.lint.config import parse_config
from cfgpatch.lint.finding import Location, folded, make, one_per_mistake
from cfgpatch.lint.yamlpos import values
from conftest import require

KUBECTL = "/usr/lib/google-cloud-sdk/bin/kubectl.1.32"


def _widget(name: str) -> str:
    return (f"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: {name}\n"
            "  labels: {app: w}\nspec:\n  items: [z]\n")


def _items(selector: str, items: str) -> str:
    return (f"  - target: {{{selector}}}\n    patch: |-\n      apiVersion: example.com/v1\n"
            f"      kind: Widget\n      metadata: {{name: any}}\n      spec:\n"
            f"        items: {items}\n")


#: Two patches of one kustomization set the list of a kind kustomize has no merge keys for.
WIDGETS = {
    "kustomization.yaml": "resources: [one.yaml, two.yaml]\npatches:\n"
                          + _items("kind: Widget", "[a, b]") + _items("kind: Widget", "[c]"),
    "one.yaml": _widget("one"), "two.yaml": _widget("two"),
}
#: What kubectl kustomize 1.32 printed for WIDGETS' items (both objects).
RECORDED_ITEMS = [["c"], ["c"]]

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations: {z: "1"}
spec:
  template:
    spec:
      containers:
        - {name: web, image: web:1, args: [--z]}
"""


def _args(value: str) -> str:
    return ("  - patch: |-\n      apiVersion: apps/v1\n      kind: Deployment\n"
            "      metadata: {name: web}\n      spec:\n        template:\n          spec:\n"
            f"            containers:\n              - name: web\n                args: {value}\n")


def _annotations(value: str) -> str:
    return ("  - target: {kind: Deployment}\n    patch: |-\n      - op: add\n"
            f"        path: /metadata/annotations\n        value: {value}\n")


BUILT_IN = {
    "deploy.yaml": DEPLOYMENT,
    "kustomization.yaml": "resources: [deploy.yaml]\npatches:\n" + _args("[--a]")
                          + _args("[--b]") + _annotations("{a: '1'}")
                          + _annotations("{b: '1'}"),
}


def _findings(tree: dict, config: str = "") -> list[dict]:
    files = MemoryFiles(tree)
    options = {"config": parse_config(config, ".cfgpatch.yaml")} if config else {}
    return [f.to_dict() for f in lint_files(files, **options).findings]


def test_a_custom_resource_list_set_by_two_patches_is_one_finding():
    found = _findings(WIDGETS)
    assert [f["rule"] for f in found] == ["custom-resource-list-replaced"] * 2
    first, second = found
    assert first["line"] == 9 and "also" not in first["detail"]  # the base's z is lost
    assert second["line"] == 16
    assert second["message"] == (
        "Widget/one, Widget/two: kustomize has no merge keys for Widget, so the patch "
        "replaces /spec/items and loses a, b; patches[0] of kustomization.yaml set it first "
        "(applied earlier) and this patch wins over it")
    assert second["related"] == [{"file": "kustomization.yaml", "line": 9, "column": 9,
                                  "endLine": 9, "endColumn": 22,
                                  "message": "set first by patches[0] of kustomization.yaml"}]
    assert second["detail"]["also"] == ["field-set-twice"]
    assert second["detail"]["set_first_by"] == "patches[0] of kustomization.yaml"
    assert second["detail"]["resources"] == ["Widget/one", "Widget/two"]
    assert RECORDED_ITEMS == [["c"], ["c"]]


def test_kubectl_keeps_only_the_later_list(tmp_path: Path):
    require(Path(KUBECTL).exists(), f"{KUBECTL} is not installed")
    for name, text in WIDGETS.items():
        (tmp_path / name).write_text(text)
    done = subprocess.run([KUBECTL, "kustomize", str(tmp_path)], capture_output=True,
                          text=True, check=True, timeout=120)
    assert [o["spec"]["items"] for o in values(done.stdout)] == RECORDED_ITEMS


def test_a_built_in_atomic_list_and_a_map_added_twice_are_one_finding_each():
    found = _findings(BUILT_IN)
    assert [(f["rule"], f["line"], "also" in f["detail"]) for f in found] == [
        ("atomic-list-replaced", 12, False), ("atomic-list-replaced", 22, True),
        ("add-replaces-map", 26, False), ("add-replaces-map", 31, True)]
    assert found[1]["message"].endswith(
        "drops --a; patches[0] of kustomization.yaml set it first (applied earlier) and "
        "this patch wins over it")
    assert found[3]["related"][0]["line"] == 26


def test_with_the_replacing_rule_off_field_set_twice_still_says_it():
    found = _findings(WIDGETS, "lint:\n  disable: [custom-resource-list-replaced]\n")
    assert [f["rule"] for f in found] == ["field-set-twice"]
    assert found[0]["detail"]["field"] == "spec.items"


def test_the_higher_level_of_the_two_is_kept():
    found = _findings(WIDGETS, "lint:\n  severity: {field-set-twice: error}\n")
    assert [(f["rule"], f["level"]) for f in found] == [
        ("custom-resource-list-replaced", "warning"), ("custom-resource-list-replaced", "error")]


def test_only_the_same_field_of_the_same_resource_on_the_same_line_is_folded():
    here = Location("k.yaml", 7, 9)
    replaced = make("atomic-list-replaced", "Deployment/a: args is atomic", here,
                    pointer="/spec/template/spec/containers/0/args", resource="Deployment/a")
    twice = make("field-set-twice", "Deployment/a: set twice", here,
                 (Location("k.yaml", 3).with_message("set first by patches[0] of k.yaml"),),
                 field="spec.template.spec.containers[name=web].args", resource="Deployment/a")
    assert [f.rule for f in folded([replaced, twice])] == ["atomic-list-replaced"]
    other_resource = make("field-set-twice", "Deployment/b: set twice", here,
                          field="spec.template.spec.containers[name=web].args",
                          resource="Deployment/b")
    other_field = make("field-set-twice", "Deployment/a: set twice", here,
                       field="spec.template.spec.containers[name=web].command",
                       resource="Deployment/a")
    other_line = make("field-set-twice", "Deployment/a: set twice", Location("k.yaml", 8),
                      field="spec.template.spec.containers[name=web].args",
                      resource="Deployment/a")
    for kept in (other_resource, other_field, other_line):
        assert folded([replaced, kept]) == [replaced, kept]


def test_the_same_value_set_twice_is_a_redundancy_of_its_own():
    here = Location("k.yaml", 7, 9)
    replaced = make("atomic-list-replaced", "Deployment/a: args is atomic", here,
                    pointer="/spec/args", resource="Deployment/a")
    same = make("field-set-twice", "Deployment/a: to the same value", here, field="spec.args",
                resource="Deployment/a", same=True)
    assert one_per_mistake([replaced, same]) == [replaced, same]


#: A ``patches:`` line left atop a patch file: a field Deployment does not have, and null.
STRAY = {
    "kustomization.yaml": "resources: [deploy.yaml]\npatches:\n  - path: patch.yaml\n",
    "deploy.yaml": DEPLOYMENT,
    "patch.yaml": "patches:\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
                  "spec:\n  paused: null\n",
}


def test_a_stray_line_is_one_unknown_field_not_also_a_null():
    found = _findings(STRAY)
    assert [(f["rule"], f["line"]) for f in found] == [("unknown-field", 1),
                                                       ("null-deletes", 7)]
    assert found[0]["message"] == (
        "Deployment/web: patches is not a field of apps/v1 Deployment here (null-deletes: "
        "null for patches, which is not there: nothing to delete)")
    assert found[0]["detail"]["also"] == ["null-deletes"]
