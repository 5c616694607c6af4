"""lint/testdata.py: a folder the default test-data excludes hold back is linted when a
Flux Kustomization of this repository deploys it (a cluster folder named ``test``), and a
kustomization there when a linted kustomization uses it as a base."""

from __future__ import annotations

from cfgpatch.lint import MemoryFiles, lint_files
from cfgpatch.lint.config import parse_config


def _flux(name: str, path: str, source: str = "flux-system") -> str:
    return ("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n"
            f"  name: {name}\n  namespace: flux-system\nspec:\n  interval: 1h\n"
            f"  path: {path}\n  prune: true\n  sourceRef:\n    kind: GitRepository\n"
            f"    name: {source}\n")


CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\ndata: {a: '1'}\n"
#: A kustomization whose patch selects nothing: linted, it is an error.
STALE = ("resources: [cm.yaml]\npatches:\n  - target: {kind: ConfigMap, name: gone}\n"
         "    patch: |-\n      - op: add\n        path: /data/b\n        value: '2'\n")
#: Test data meant to fail (a missing resource): never linted.
BROKEN = "resources: [missing.yaml]\n"
SELF = "resources: [gotk-sync.yaml]\n"

BOOTSTRAPPED = {
    "clusters/test/flux-system/gotk-sync.yaml": _flux("flux-system", "./clusters/test"),
    "clusters/test/flux-system/kustomization.yaml": SELF,
    "clusters/test/apps.yaml": _flux("apps", "./apps/test"),
    "apps/test/kustomization.yaml": STALE, "apps/test/cm.yaml": CONFIGMAP,
    "apps/test/fixtures/kustomization.yaml": BROKEN,
    "tools/testdata/ks.yaml": _flux("fixture", "./tools/testdata/case"),
    "tools/testdata/case/kustomization.yaml": BROKEN,
    "tools/testdata/other/ks.yaml": _flux("fixture", "./clusters/prod"),
    "tools/testdata/other/kustomization.yaml": BROKEN,
}


def _run(tree: dict, config: str = "") -> dict:
    options = {"config": parse_config(config, ".cfgpatch.yaml")} if config else {}
    return lint_files(MemoryFiles(tree), **options).to_dict()


def _linted(report: dict) -> list[tuple[str, str]]:
    return sorted((u["kind"], u["path"]) for u in report["linted"])


def test_a_cluster_folder_named_test_and_what_it_deploys_are_linted():
    report = _run(BOOTSTRAPPED)
    assert _linted(report) == [
        ("flux", "clusters/test/apps.yaml"),
        ("flux", "clusters/test/flux-system/gotk-sync.yaml"),
        ("kustomization", "apps/test/kustomization.yaml"),
        ("kustomization", "clusters/test/flux-system/kustomization.yaml")]
    rules = sorted({(f["rule"], f["file"]) for f in report["findings"]})
    # the stale patch of apps/test: the test folders the Flux Kustomizations deploy
    assert rules == [("patch-matches-nothing", "apps/test/kustomization.yaml")]


def test_the_excludes_apply_again_below_a_deployed_folder():
    linted = [p for _k, p in _linted(_run(BOOTSTRAPPED))]
    assert "apps/test/fixtures/kustomization.yaml" not in linted


def test_a_test_folder_the_controller_lists_itself_fails_its_build():
    # clusters/test has no kustomization: the controller's generated one lists every
    # top-most folder with a kustomization, tests/ too, so its failure is the build's
    tree = {**BOOTSTRAPPED, "clusters/test/tests/kustomization.yaml": BROKEN}
    report = _run(tree)
    assert "clusters/test/tests/kustomization.yaml" not in [p for _k, p in _linted(report)]
    failed = [f for f in report["findings"] if f["rule"] == "build-failed"]
    assert [f["file"] for f in failed] == ["clusters/test/tests/kustomization.yaml"]


def test_fixtures_naming_their_own_folder_from_elsewhere_stay_out():
    # tools/testdata/ks.yaml names a folder that does not hold it; other/ks.yaml names a
    # folder of another tree: neither is a deployment of the test data folder
    linted = [p for _k, p in _linted(_run(BOOTSTRAPPED))]
    assert not any(p.startswith("tools/") for p in linted)


def test_the_placeholder_flux_bootstrap_leaves_marks_the_cluster_folder():
    tree = {"clusters/test/flux-system/gotk-sync.yaml": "# flux bootstrap writes this\n",
            "clusters/test/flux-system/gotk-components.yaml": "# and this\n",
            "clusters/test/flux-system/kustomization.yaml":
                "resources: [gotk-components.yaml, gotk-sync.yaml]\n",
            "clusters/test/apps.yaml": _flux("apps", "./apps"),
            "apps/kustomization.yaml": STALE, "apps/cm.yaml": CONFIGMAP}
    report = _run(tree)
    assert ("flux", "clusters/test/apps.yaml") in _linted(report)
    assert ("kustomization", "clusters/test/flux-system/kustomization.yaml") in \
        _linted(report)
    assert report["summary"]["error"] == 1  # the stale patch of apps, as before


def test_a_linted_flux_file_reaches_a_test_folder_and_on_through_it():
    tree = {"clusters/prod/apps.yaml": _flux("apps", "./deploy/test"),
            "deploy/test/more.yaml": _flux("more", "./deploy/fixtures"),
            "deploy/test/kustomization.yaml": "resources: [more.yaml]\n",
            "deploy/fixtures/kustomization.yaml": STALE, "deploy/fixtures/cm.yaml": CONFIGMAP}
    assert _linted(_run(tree)) == [
        ("flux", "clusters/prod/apps.yaml"), ("flux", "deploy/test/more.yaml"),
        ("kustomization", "deploy/fixtures/kustomization.yaml"),
        ("kustomization", "deploy/test/kustomization.yaml")]


def test_another_source_an_exclude_glob_or_no_default_excludes():
    other = {"clusters/prod/apps.yaml": _flux("apps", "./deploy/test", source="elsewhere"),
             "deploy/test/kustomization.yaml": BROKEN}
    assert ("kustomization", "deploy/test/kustomization.yaml") not in _linted(_run(other))
    tree = dict(BOOTSTRAPPED)
    excluded = _run(tree, "lint:\n  exclude: ['apps/**']\n")
    assert not any(p.startswith("apps/") for _k, p in _linted(excluded))
    everything = _run(tree, "lint:\n  default-exclude: []\n")
    assert ("kustomization", "tools/testdata/case/kustomization.yaml") in _linted(everything)


def _instance(kind: str, path: str) -> str:
    sync = f"kind: GitRepository\n  name: flux-system\n  url: https://example.com/r\n  path: {path}\n"
    if kind == "FluxInstance":
        return ("apiVersion: fluxcd.controlplane.io/v1\nkind: FluxInstance\nmetadata:\n"
                "  name: flux\n  namespace: flux-system\nspec:\n  sync:\n    "
                + sync.replace("\n  ", "\n    "))
    return ("apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n"
            "  name: flux-instance\n  namespace: flux-system\nspec:\n  values:\n"
            "    instance:\n      sync:\n        " + sync.replace("\n  ", "\n        "))


def test_the_path_a_flux_operator_instance_syncs_is_deployed():
    for kind in ("FluxInstance", "HelmRelease"):
        tree = {"clusters/test/flux-instance/release.yaml": _instance(kind, "clusters/test"),
                "clusters/test/flux-instance/kustomization.yaml": "resources: [release.yaml]\n",
                "clusters/test/apps.yaml": _flux("apps", "./apps/test"),
                "apps/test/kustomization.yaml": STALE, "apps/test/cm.yaml": CONFIGMAP}
        assert _linted(_run(tree)) == [
            ("flux", "clusters/test/apps.yaml"),
            ("kustomization", "apps/test/kustomization.yaml"),
            ("kustomization", "clusters/test/flux-instance/kustomization.yaml")], kind
        other = {**tree, "clusters/test/flux-instance/release.yaml":
                 _instance(kind, "clusters/test").replace("name: flux-system", "name: other")}
        assert _linted(_run(other)) == [], kind


def test_a_base_a_linted_overlay_uses_in_a_test_folder_is_linted_as_its_own_unit():
    # the overlay's build checks only the overlay's patches: the base's stale patch would
    # be checked nowhere; a test folder no linted kustomization uses stays out
    tree = {"overlay/kustomization.yaml": "resources: [../test/base]\n",
            "test/base/kustomization.yaml": "resources: [../fixtures/deep]\n",
            "test/fixtures/deep/kustomization.yaml": STALE, "test/fixtures/deep/cm.yaml": CONFIGMAP,
            "test/other/kustomization.yaml": BROKEN}
    report = _run(tree)
    assert _linted(report) == [("kustomization", "overlay/kustomization.yaml"),
                               ("kustomization", "test/base/kustomization.yaml"),
                               ("kustomization", "test/fixtures/deep/kustomization.yaml")]
    assert [(f["rule"], f["file"]) for f in report["findings"]] == [
        ("patch-matches-nothing", "test/fixtures/deep/kustomization.yaml")]
