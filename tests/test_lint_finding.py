"""One finding per mistake: a patch reaching several resources is reported once."""

from __future__ import annotations

from cfgpatch.lint import MemoryFiles, lint_files
from cfgpatch.lint.finding import Location, make, one_per_mistake


def _deployment(name: str) -> str:
    return (f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n"
            "  annotations: {team: a, owner: b}\nspec:\n  template:\n    spec:\n"
            "      containers: [{name: app, image: x}]\n")


TREE = {
    "kustomization.yaml": "resources: [a.yaml, b.yaml, c.yaml]\npatches:\n"
                          "- target: {kind: Deployment}\n  patch: |-\n"
                          "    - op: add\n      path: /metadata/annotations\n"
                          "      value: {new: '1'}\n",
    "a.yaml": _deployment("a"), "b.yaml": _deployment("b"), "c.yaml": _deployment("c"),
}


def test_a_patch_reaching_three_resources_is_one_finding_naming_them():
    report = lint_files(MemoryFiles(TREE)).to_dict()
    found = [f for f in report["findings"] if f["rule"] == "add-replaces-map"]
    assert len(found) == 1
    assert found[0]["message"].startswith("Deployment/a, Deployment/b, Deployment/c: op 0 add")
    assert found[0]["detail"]["resources"] == ["Deployment/a", "Deployment/b", "Deployment/c"]
    assert found[0]["line"] == 6  # the operation's path


def test_different_messages_or_places_stay_apart():
    here, there = Location("k.yaml", 3), Location("k.yaml", 4)
    findings = [make("null-deletes", "Deployment/a: x", here, resource="Deployment/a"),
                make("null-deletes", "Deployment/b: y", here, resource="Deployment/b"),
                make("null-deletes", "Deployment/c: x", there, resource="Deployment/c"),
                make("null-deletes", "Deployment/d: x", here, resource="Deployment/d")]
    merged = one_per_mistake(findings)
    assert [f.message for f in merged] == ["Deployment/a, Deployment/d: x", "Deployment/b: y",
                                           "Deployment/c: x"]


def test_findings_without_a_resource_are_kept_as_they_are():
    plain = make("build-failed", "kustomize build fails: x", Location("k.yaml"))
    assert one_per_mistake([plain, plain]) == [plain, plain]
