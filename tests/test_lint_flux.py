"""lint/flux.py: Flux ``Kustomization`` objects and their ``spec.patches``.

kustomize-controller appends ``spec.patches`` to the ``patches`` of the kustomization in
``spec.path``, so they run before its ``namePrefix``. The live test builds that merged
kustomization with ``kubectl kustomize`` (the oracle); recorded answer (kubectl 1.32):
the patch on ``web`` sets the replicas of ``prod-web`` to 2, the one on ``prod-web``
matches nothing.
"""

from __future__ import annotations

import shutil
import subprocess

from cfgpatch.lint import MemoryFiles, lint_files
from cfgpatch.lint.flux import flux_objects
from cfgpatch.lint.yamlpos import values
from conftest import require

DEPLOYMENT = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n"

PATCHES = """\
    - target: {kind: Deployment, name: web}
      patch: |
        - op: replace
          path: /spec/replicas
          value: 2
    - target: {kind: Deployment, name: prod-web}
      patch: |
        - op: replace
          path: /spec/replicas
          value: 3
"""


def _flux(path: str, patches: str = PATCHES, api: str = "kustomize.toolkit.fluxcd.io/v1"
          ) -> str:
    return ("apiVersion: v1\nkind: Namespace\nmetadata: {name: apps}\n---\n"
            f"apiVersion: {api}\nkind: Kustomization\n"
            "metadata: {name: web, namespace: flux-system}\n"
            f"spec:\n  path: {path}\n  patches:\n{patches.rstrip()}\n"
            "  sourceRef: {kind: GitRepository, name: flux-system}\n")


PREFIXED = {"apps/web/deploy.yaml": DEPLOYMENT,
            "apps/web/kustomization.yaml": "namePrefix: prod-\nresources: [deploy.yaml]\n",
            "clusters/web.yaml": _flux("./apps/web")}
#: kubectl kustomize 1.32 on apps/web with PATCHES appended to its patches.
RECORDED = {"name": "prod-web", "replicas": 2}


def _found(files: dict) -> list[tuple]:
    return [(f.rule, f.location.file, f.location.line, f.location.column)
            for f in lint_files(MemoryFiles(files)).findings]


def test_flux_objects_are_found_in_any_document_of_a_file():
    (found,) = flux_objects(PREFIXED["clusters/web.yaml"])
    assert found[0] == 1 and found[2]["metadata"]["name"] == "web"
    assert flux_objects(_flux("./a", api="kustomize.config.k8s.io/v1beta1")) == []
    assert flux_objects("kind: Kustomization\napiVersion: kustomize.toolkit.fluxcd.io/v1\n"
                        "spec: [unclosed\n") == []


def test_spec_patches_run_before_the_name_prefix_and_point_into_the_flux_file():
    assert _found(PREFIXED) == [("patch-matches-nothing", "clusters/web.yaml", 18, 9)]
    report = lint_files(MemoryFiles(PREFIXED))
    (flux,) = [t for t in report.targets if t["kind"] == "flux"]
    assert flux["patches"] == 2 and flux["applications"] == 1


def test_kubectl_kustomize_with_the_patches_appended_agrees(tmp_path):
    require(shutil.which("kubectl") is not None, "kubectl is not on PATH")
    (tmp_path / "deploy.yaml").write_text(DEPLOYMENT)
    patches = PATCHES.replace("\n    ", "\n  ").replace("    - ", "  - ", 1)
    (tmp_path / "kustomization.yaml").write_text(
        f"namePrefix: prod-\nresources: [deploy.yaml]\npatches:\n{patches}")
    done = subprocess.run(["kubectl", "kustomize", str(tmp_path)], capture_output=True,
                          text=True, check=True, timeout=120)
    (built,) = values(done.stdout)
    assert {"name": built["metadata"]["name"], "replicas": built["spec"]["replicas"]} == \
        RECORDED


def test_a_folder_without_kustomization_is_built_from_its_manifests():
    files = {"apps/web/deploy.yaml": DEPLOYMENT, "apps/web/notes.txt": "kind: nothing",
             "clusters/web.yaml": _flux("./apps/web")}
    assert _found(files) == [("patch-matches-nothing", "clusters/web.yaml", 18, 9)]
    # a sub-folder with a kustomization is built as a whole (its prefix applies); a
    # patch of the upper layer still selects a resource by its name before the prefix, so
    # both patches set the replicas (kubectl kustomize 1.32 on the same layers: 3)
    nested = {"apps/web/sub/deploy.yaml": DEPLOYMENT,
              "apps/web/sub/kustomization.yaml": "namePrefix: prod-\nresources: [deploy.yaml]\n",
              "clusters/web.yaml": _flux("./apps/web")}
    assert _found(nested) == [("field-set-twice", "clusters/web.yaml", 19, 11)]


def test_engine_findings_of_an_inline_patch_are_at_its_line_in_the_flux_file():
    patches = ("    - patch: |\n        apiVersion: apps/v1\n        kind: Deployment\n"
               "        metadata: {name: web}\n        spec:\n          template: null\n")
    files = {"apps/web/deploy.yaml": DEPLOYMENT, "clusters/web.yaml": _flux("apps/web", patches)}
    assert _found(files) == [("null-deletes", "clusters/web.yaml", 16, 11)]


def test_a_missing_spec_path_is_a_build_failure_at_spec_path():
    files = {"apps/web/deploy.yaml": DEPLOYMENT, "clusters/web.yaml": _flux("./apps/nothere")}
    (finding,) = lint_files(MemoryFiles(files)).findings
    assert (finding.rule, finding.location.line, finding.location.column) == \
        ("build-failed", 9, 3)
    assert "spec.path './apps/nothere' is not a folder of the repository" in finding.message


def test_a_flux_object_without_patches_lints_nothing():
    files = {"apps/web/deploy.yaml": DEPLOYMENT,
             "clusters/web.yaml": _flux("./apps/web", "    []\n").replace(
                 "  patches:\n    []", "  patches: []")}
    report = lint_files(MemoryFiles(files))
    assert report.findings == [] and report.patch_count() == 0


def test_only_flux_kustomizations_built_from_this_repository_are_linted():
    """A sourceRef to another repository (or none: a fragment kustomize patches in) is
    not this repository's folder; ``flux-sources`` names the sources that are."""
    files = {**PREFIXED, "clusters/web.yaml": _flux("./apps/missing")}
    other = {**PREFIXED, "clusters/web.yaml": _flux("./apps/missing").replace(
        "name: flux-system}", "name: team-repo}")}
    fragment = {**PREFIXED, "clusters/web.yaml": "apiVersion: kustomize.toolkit.fluxcd.io/v1\n"
                "kind: Kustomization\nmetadata: {name: web}\nspec: {path: ./staging}\n"}
    assert [f.rule for f in lint_files(MemoryFiles(files)).findings] == ["build-failed"]
    # another source whose path is not here: a note, not a failure (test_lint_flux_sources)
    assert [f.rule for f in lint_files(MemoryFiles(other)).findings] == ["flux-other-source"]
    assert lint_files(MemoryFiles(fragment)).findings == []
    config = MemoryFiles({**other, ".cfgpatch.yaml": "lint:\n  flux-sources: "
                                                     "[GitRepository/flux-system/team-repo]\n"})
    assert [f.rule for f in lint_files(config).findings] == ["build-failed"]
