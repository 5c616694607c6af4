"""lint/linter.py: a Component's patch is judged over every build that runs it.

A component's patches select from what the kustomization including it builds, so a
shared component may patch a Deployment that only some overlays have.
``patch-matches-nothing`` is reported for such a patch only when it selects nothing in
every linted build that runs it."""

from __future__ import annotations

from cfgpatch.lint import MemoryFiles, lint_files

MASTER = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: master, labels: {app: x}}\n"
          "spec:\n  template:\n    spec:\n      containers: [{name: m, image: m}]\n")
WORKER = ("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: worker, labels: {app: x}}\n"
          "spec:\n  template:\n    spec:\n      containers: [{name: w, image: w}]\n")
COMPONENT = (
    "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n"
    "- target: {labelSelector: app=x, name: master}\n  patch: |-\n"
    "    - op: add\n      path: /spec/template/spec/priorityClassName\n      value: high\n"
    "- target: {labelSelector: app=x, name: {other}}\n  patch: |-\n"
    "    - op: add\n      path: /spec/template/spec/hostNetwork\n      value: true\n")


def _tree(other: str) -> dict[str, str]:
    return {
        "master/kustomization.yaml": "resources: [master.yaml]\n", "master/master.yaml": MASTER,
        "worker/kustomization.yaml": "resources: [worker.yaml]\n", "worker/worker.yaml": WORKER,
        "common/kustomization.yaml": COMPONENT.replace("{other}", other),
        "full/kustomization.yaml": "resources: [../master, ../worker]\n"
                                   "components: [../common]\n",
        "workers/kustomization.yaml": "resources: [../worker]\ncomponents: [../common]\n",
    }


def _nothing(texts: dict[str, str], paths: tuple[str, ...] = ("",)) -> list[tuple[str, int]]:
    report = lint_files(MemoryFiles(texts), paths)
    assert not report.build_failed()
    assert {f.rule for f in report.findings} <= {"patch-matches-nothing"}
    return [(f.location.file, f.location.line) for f in report.findings]


def test_a_component_patch_that_finds_its_target_in_another_overlay_is_not_an_error():
    assert _nothing(_tree("worker")) == []


def test_a_component_patch_that_finds_nothing_in_any_overlay_is_still_one():
    assert _nothing(_tree("nobody")) == [("common/kustomization.yaml", 11)]


def test_linting_only_the_overlay_without_the_target_still_says_so():
    assert _nothing(_tree("worker"), ("workers",)) == [("common/kustomization.yaml", 6)]
