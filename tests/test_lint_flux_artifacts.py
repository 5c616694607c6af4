"""lint/flux_artifacts.py: Flux Kustomizations of an ``ExternalArtifact`` that an
``ArtifactGenerator`` of this repository composes from its folders (the layout of
fluxcd/flux2-kustomize-helm-example, in a small repository of our own).

The artifact ``apps`` holds ``apps/base`` at ``base/`` and ``apps/prod`` at ``prod/``;
the Flux Kustomization builds its ``./prod``, whose kustomization reads ``../base``.
The live test builds the same composed folder with ``kubectl.1.32 kustomize``.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from cfgpatch.lint import MemoryFiles, lint_files
from cfgpatch.lint.flux_artifacts import artifact_view, generator_of, generators_in
from cfgpatch.lint.linter import outcomes, read_config
from cfgpatch.lint.yamlpos import tree_values, values
from conftest import require

KUBECTL = "/usr/lib/google-cloud-sdk/bin/kubectl.1.32"
DEPLOY = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
          "spec: {replicas: 1, template: {spec: {containers: [{name: c, image: 'nginx:1'}]}}}\n")


def _generator(copies: str, name: str = "flux-system", alias_source: str = "flux-system"
               ) -> str:
    return ("apiVersion: source.extensions.fluxcd.io/v1beta1\nkind: ArtifactGenerator\n"
            f"metadata: {{name: {name}, namespace: flux-system}}\nspec:\n  sources:\n"
            f"  - {{alias: repo, kind: GitRepository, name: {alias_source}}}\n"
            f"  artifacts:\n  - name: apps\n    copy:\n{copies}")


COPIES = ("    - {from: '@repo/apps/base/**', to: '@artifact/base/'}\n"
          "    - {from: '@repo/apps/prod/**', to: '@artifact/prod/'}\n")
FLUX = ("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\n"
        "metadata: {name: apps, namespace: flux-system}\nspec:\n  path: ./prod\n"
        "  targetNamespace: web\n"
        "  patches:\n  - target: {kind: Deployment, name: web}\n    patch: |\n"
        "      - {op: replace, path: /spec/replicas, value: 3}\n"
        "  sourceRef: {kind: ExternalArtifact, name: apps}\n")
REPO = {"apps/base/kustomization.yaml": "resources: [deploy.yaml]\n",
        "apps/base/deploy.yaml": DEPLOY,
        "apps/prod/kustomization.yaml": "resources: [../base]\nnamePrefix: prod-\n",
        "clusters/prod/artifacts.yaml": _generator(COPIES),
        "clusters/prod/apps.yaml": FLUX}


def _flux_units(files: dict) -> list:
    units, _ = outcomes(MemoryFiles(files), read_config(MemoryFiles(files)))
    return [u for u in units if u.kind == "flux"]


def test_the_artifact_is_a_view_of_the_repository():
    files = MemoryFiles(REPO)
    (generator,) = generators_in("clusters/prod/artifacts.yaml",
                                 tree_values(REPO["clusters/prod/artifacts.yaml"]))
    view = artifact_view(files, generator, "apps",
                         lambda ref, ns: ref.get("name") == "flux-system")
    assert view is not None and view.origin == {
        "base/kustomization.yaml": "apps/base/kustomization.yaml",
        "base/deploy.yaml": "apps/base/deploy.yaml",
        "prod/kustomization.yaml": "apps/prod/kustomization.yaml"}


def test_the_flux_kustomization_is_built_from_the_artifact():
    (unit,) = _flux_units(REPO)
    (built,) = unit.built
    assert (built["metadata"], built["spec"]["replicas"]) == \
        ({"name": "prod-web", "namespace": "web"}, 3)
    assert unit.partial == "" and len(unit.applications) == 1
    assert unit.source.startswith("ExternalArtifact/flux-system/apps, composed by "
                                  "ArtifactGenerator flux-system (clusters/prod/artifacts.yaml)")
    assert lint_files(MemoryFiles(REPO)).findings == []


def test_a_failure_points_at_the_repository_file():
    files = {**REPO, "apps/base/kustomization.yaml": "resources: [deploy.yaml, gone.yaml]\n"}
    (unit,) = _flux_units(files)
    assert unit.error_location is not None and \
        unit.error_location.file == "apps/base/kustomization.yaml"
    assert "'base/gone.yaml'" in unit.error and \
        unit.error.endswith("(paths inside ExternalArtifact/flux-system/apps)")
    # one failure per place: the base's own unit says it (the shorter text)
    (failed,) = lint_files(MemoryFiles(files)).findings
    assert (failed.rule, failed.location.file) == \
        ("build-failed", "apps/base/kustomization.yaml")


def test_the_nearest_generator_is_the_artifacts():
    staging = _generator("    - {from: '@repo/apps/base/**', to: '@artifact/base/'}\n"
                         "    - {from: '@repo/apps/staging/**', to: '@artifact/prod/'}\n")
    files = {**REPO, "clusters/staging/artifacts.yaml": staging,
             "apps/staging/kustomization.yaml": "resources: [../base]\nnamePrefix: stg-\n"}
    (unit,) = _flux_units(files)
    assert unit.built[0]["metadata"]["name"] == "prod-web"
    generators = [g for path in ("clusters/prod/artifacts.yaml",
                                 "clusters/staging/artifacts.yaml")
                  for g in generators_in(path, tree_values(files[path]))]
    # a Flux Kustomization as near to both: which one is not known
    assert generator_of(generators, "flux-system", "apps", "elsewhere/apps.yaml") is None


def test_what_is_not_modelled_is_another_source():
    for copies, source in ((COPIES.replace("'@artifact/base/'}", "'@artifact/base/', "
                                           "exclude: ['*.md']}"), "flux-system"),
                           (COPIES.replace("base/**", "base/*.yaml"), "flux-system"),
                           (COPIES, "team-repo")):
        files = {**REPO, "clusters/prod/artifacts.yaml": _generator(copies,
                                                                      alias_source=source)}
        (note,) = lint_files(MemoryFiles(files)).findings
        assert note.rule == "flux-other-source" and "ExternalArtifact/flux-system/apps" in \
            note.message and "'./prod' is not a folder here" in note.message


def test_kubectl_kustomize_builds_the_composed_folder_alike(tmp_path):
    require(Path(KUBECTL).exists(), f"{KUBECTL} is not installed")
    for dest, real in (("base", "apps/base"), ("prod", "apps/prod")):
        for name in ("kustomization.yaml", "deploy.yaml"):
            if f"{real}/{name}" in REPO:
                (tmp_path / dest).mkdir(exist_ok=True)
                (tmp_path / dest / name).write_text(REPO[f"{real}/{name}"])
    with (tmp_path / "prod" / "kustomization.yaml").open("a") as handle:
        handle.write("namespace: web\npatches:\n- target: {kind: Deployment, name: web}\n"
                     "  patch: |\n    - {op: replace, path: /spec/replicas, value: 3}\n")
    done = subprocess.run([KUBECTL, "kustomize", "--load-restrictor", "LoadRestrictionsNone",
                           str(tmp_path / "prod")], capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    (unit,) = _flux_units(REPO)
    assert values(done.stdout) == unit.built
