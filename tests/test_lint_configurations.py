"""lint/configurations.py: configuration-narrows-default, from the files alone."""

from __future__ import annotations

from cfgpatch.lint import MemoryFiles, lint_files
from cfgpatch.lint.configurations import RULE, configuration_findings

NARROW = "commonLabels:\n- path: metadata/labels\n  kind: App\n  create: true\n"


def _findings(**texts: str) -> list:
    return configuration_findings(MemoryFiles(texts), "kustomization.yaml")


def test_the_spec_is_named_with_what_the_other_kinds_lose():
    (finding,) = _findings(**{"kustomization.yaml": "configurations: [c.yaml]\n",
                              "c.yaml": NARROW})
    assert finding.rule == RULE and finding.level == "warning"
    assert (finding.location.file, finding.location.line, finding.location.column) == \
        ("c.yaml", 2, 3)
    assert finding.message == (
        "this commonLabels field spec (App.[noVer].[noGrp], metadata/labels) takes the place "
        "of kustomize's default for every kind at metadata/labels: other kinds no longer get "
        "commonLabels there")
    (related,) = finding.related
    assert (related.file, related.line) == ("kustomization.yaml", 1)
    assert finding.detail == {"field": "commonLabels", "path": "metadata/labels",
                              "kept": "App.[noVer].[noGrp]", "dropped": "[noKind].[noVer].[noGrp]"}


def test_the_second_file_and_a_folder():
    (finding,) = _findings(**{
        "kustomization.yaml": "configurations: [a.yaml, conf/b.yaml]\n",
        "a.yaml": "images: [{path: spec/image, kind: App}]\n",
        "conf/b.yaml": "namePrefix:\n- path: metadata/name\n  kind: Deployment\n"})
    assert (finding.location.file, finding.location.line) == ("conf/b.yaml", 2)
    assert finding.related[0].column == 26  # the second entry of the flow list
    assert "the name prefix" in finding.message


def test_what_narrows_nothing_is_silent():
    assert _findings(**{"kustomization.yaml": "configurations: [c.yaml]\n", "c.yaml": (
        # a path of its own; images (every container is updated anyway); a kind-less spec
        # at a default path; an empty file
        "commonLabels: [{path: spec/x, kind: App}]\n"
        "images: [{path: spec/template/spec/containers[]/image, kind: App}]\n"
        "commonAnnotations: [{path: metadata/annotations, create: true}]\n")}) == []
    assert _findings(**{"kustomization.yaml": "configurations: [c.yaml]\n", "c.yaml": ""}) == []
    assert _findings(**{"kustomization.yaml": "namePrefix: p-\n"}) == []


def test_files_the_build_fails_on_are_left_to_build_failed():
    for text in ("images: [\n", "foo: []\n",
                 "commonLabels: [{path: metadata/labels, kind: App}]\n"):  # create conflicts
        assert _findings(**{"kustomization.yaml": "configurations: [c.yaml]\n",
                            "c.yaml": text}) == []
    assert _findings(**{"kustomization.yaml": "configurations: [missing.yaml]\n"}) == []
    assert _findings(**{"kustomization.yaml": "configurations: [\n"}) == []


def test_a_component_s_configuration_is_checked_once():
    report = lint_files(MemoryFiles({
        "app/kustomization.yaml": "resources: [cm.yaml]\ncomponents: [../comp]\n"
                                  "commonLabels: {a: b}\n",
        "app/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
        "comp/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1alpha1\n"
                                   "kind: Component\nconfigurations: [c.yaml]\n",
        "comp/c.yaml": NARROW}))
    assert [(f.rule, f.location.file) for f in report.findings] == [(RULE, "comp/c.yaml")]


def test_a_kind_s_default_narrowed_to_one_version_is_not_reported():
    """Operator scaffolds narrow the CRD namespace default to apiextensions v1: quiet."""
    assert _findings(**{"kustomization.yaml": "configurations: [c.yaml]\n", "c.yaml": (
        "namespace:\n- kind: CustomResourceDefinition\n  version: v1\n"
        "  group: apiextensions.k8s.io\n"
        "  path: spec/conversion/webhook/clientConfig/service/namespace\n")}) == []
