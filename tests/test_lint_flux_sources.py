"""lint/flux.py and lint/flux_generate.py: Flux Kustomizations of this repository and of
other sources, and what kustomize-controller builds for them.

``tests/data/lint/flux-partial/repo`` is a small repository of our own:
``clusters/sync.yaml`` holds four Flux Kustomizations of other sources (a second
``GitRepository``, an ``OCIRepository``, a ``Bucket``): ``web`` (its folder has a
kustomization; ``targetNamespace``, ``nameSuffix``, ``components``, ``images``,
``commonMetadata`` and two ``patches``), ``plain`` (no kustomization: the controller
generates one; ``postBuild``), ``elsewhere`` (its path is not here) and ``broken`` (its
folder does not build). ``*.controller-kustomization.yaml`` is what the controller writes
for ``web`` and ``plain``, by hand from fluxcd/pkg's generator; ``*.kubectl-1.32.yaml``
is what ``kubectl.1.32 kustomize --load-restrictor LoadRestrictionsNone`` printed for the
folder with that kustomization (recorded once; the live test checks the record).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from cfgpatch.cli import main
from cfgpatch.errors import InvalidInput
from cfgpatch.lint import DiskFiles, MemoryFiles, lint_files
from cfgpatch.lint.config import parse_config
from cfgpatch.lint.flux import flux_objects
from cfgpatch.lint.flux_generate import FluxBuildError, controller_kustomization, listing
from cfgpatch.lint.formats import renderer
from cfgpatch.lint.linter import outcomes, read_config
from cfgpatch.lint.yamlpos import values
from conftest import require

DATA = Path(__file__).resolve().parent / "data" / "lint" / "flux-partial"
REPO = DATA / "repo"
KUBECTL = "/usr/lib/google-cloud-sdk/bin/kubectl.1.32"
MIRROR = "GitRepository/flux-system/mirror"


def _spec(name: str) -> dict:
    for _, _, value in flux_objects((REPO / "clusters" / "sync.yaml").read_text()):
        if value["metadata"]["name"] == name:
            return value["spec"]
    raise KeyError(name)


def _recorded(name: str) -> dict:
    (value,) = values((DATA / f"{name}.controller-kustomization.yaml").read_text())
    return value


def _canonical(value: dict) -> dict:
    """A kustomization as kustomize reads it (the key order and list order it keeps)."""
    return json.loads(json.dumps(value, sort_keys=True))


def _units(root: Path = REPO, config_text: str | None = None) -> dict:
    files = DiskFiles(str(root))
    config = parse_config(config_text) if config_text is not None else read_config(files)
    units, extra = outcomes(files, config)
    return {"units": {u.path + ":" + (u.partial or u.kind): u for u in units},
            "flux": [u for u in units if u.kind == "flux"], "extra": extra}


@pytest.mark.parametrize("name", ["web", "plain"])
def test_the_controller_kustomization_is_what_the_controller_writes(name):
    spec = _spec(name)
    written = controller_kustomization(DiskFiles(str(REPO)), spec["path"][2:], spec)
    assert _canonical(written.value) == _canonical(_recorded(name))
    assert written.generated == (name == "plain")
    assert written.path == f"apps/{name}/kustomization.yaml"


@pytest.mark.parametrize("name", ["web", "plain"])
def test_the_build_is_what_kubectl_kustomize_prints_for_that_folder(name):
    built = {u.partial: u for u in _units()["flux"]}
    (unit,) = [u for p, u in built.items() if f"(apps/{name})" in p]
    expected = values((DATA / f"{name}.kubectl-1.32.yaml").read_text())
    if name == "web":  # commonMetadata: set by the controller after the build
        for obj in expected:
            obj["metadata"]["labels"] = {"owner": "team"}
    assert unit.built == expected


@pytest.mark.parametrize("name", ["web", "plain"])
def test_the_record_is_kubectl_kustomizes_answer(name, tmp_path):
    require(Path(KUBECTL).exists(), f"{KUBECTL} is not installed")
    import subprocess
    shutil.copytree(REPO, tmp_path / "repo")
    (tmp_path / "repo" / "apps" / name / "kustomization.yaml").write_text(
        (DATA / f"{name}.controller-kustomization.yaml").read_text())
    done = subprocess.run([KUBECTL, "kustomize", "--load-restrictor", "LoadRestrictionsNone",
                           str(tmp_path / "repo" / "apps" / name)], capture_output=True,
                          text=True, check=True, timeout=120)
    assert done.stdout == (DATA / f"{name}.kubectl-1.32.yaml").read_text()


def test_other_sources_are_partial_builds_marked_in_every_finding():
    report = lint_files(DiskFiles(str(REPO)))
    found = [(f.rule, f.location.line, f.detail.get("partial", "")) for f in report.findings]
    web = f"source {MIRROR} is not this repository; built from the folder of the same " \
          "path here (apps/web)"
    assert ("patch-matches-nothing", 46, web) in found  # prod-web: the prefix runs later
    assert ("flux-other-source", 19, "") in found  # the note itself is not marked
    partial = [t for t in report.targets if t.get("partial")]
    assert sorted(t["partial"].rsplit("(", 1)[1] for t in partial) == \
        ["apps/broken)", "apps/plain)", "apps/web)"]
    assert all(f.detail.get("partial") for f in report.findings
               if f.rule not in ("flux-other-source",) and f.location.line < 89)


def test_a_path_not_here_is_a_note_naming_the_object_its_file_line_and_source():
    (note,) = [f for f in lint_files(DiskFiles(str(REPO))).findings if "elsewhere" in f.message]
    assert (note.rule, note.level, note.location.file, note.location.line) == \
        ("flux-other-source", "note", "clusters/sync.yaml", 73)
    assert note.message == (
        "Flux Kustomization elsewhere (clusters/sync.yaml:73): source "
        "Bucket/flux-system/artifacts is not this repository; its spec.path "
        "'./releases/prod' is not a folder here: not linted")


def test_a_failed_partial_build_is_a_warning_at_spec_path():
    (failed,) = [f for f in lint_files(DiskFiles(str(REPO))).findings
                 if f.rule == "partial-build-failed"]
    assert (failed.level, failed.location.line, failed.location.column) == ("warning", 89, 3)
    assert "may not add resource with an already registered id: ConfigMap.v1.[noGrp]/same" \
        in failed.message


def test_the_root_of_another_source_is_not_taken_for_this_repository():
    files = {"apps/a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
             "sync.yaml": "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\n"
                          "metadata: {name: tenant, namespace: apps}\nspec:\n  path: ./\n"
                          "  sourceRef: {kind: GitRepository, name: tenant}\n"}
    (note,) = lint_files(MemoryFiles(files)).findings
    assert note.rule == "flux-other-source" and note.detail["source"] == \
        "GitRepository/apps/tenant"
    assert "spec.path is the source's root" in note.message and note.location.line == 6


def test_flux_other_sources_skip_and_flux_sources_decide():
    skip = _units(config_text="lint:\n  flux-other-sources: skip\n")
    assert skip["flux"] == [] and skip["extra"] == []
    here = _units(config_text="lint:\n  flux-sources: [GitRepository/mirror, "
                              "OCIRepository/manifests]\n")
    assert sorted(u.partial for u in here["flux"]) == ["", "", ""]
    assert [f.rule for f in here["extra"]] == ["flux-other-source"]  # the Bucket
    with pytest.raises(InvalidInput) as raised:
        parse_config("lint:\n  flux-other-sources: maybe\n")
    assert raised.value.message == \
        ".cfgpatch.yaml:2:3: lint.flux-other-sources: 'maybe' is not partial or skip"


def test_exit_codes():
    root = str(REPO)
    assert main(["lint", "--root", root, "--fail-on", "never"]) == 0  # a warning, no 2
    assert main(["lint", "--root", root]) == 1  # the patch that matches nothing (an error)
    assert main(["lint", "--root", root, "--disable", "patch-matches-nothing"]) == 0
    assert main(["lint", "--root", root, "--disable", "patch-matches-nothing",
                 "--fail-on", "warning"]) == 1  # the partial build that fails


def test_a_missing_path_of_this_repository_still_exits_2(tmp_path):
    (tmp_path / "sync.yaml").write_text(
        "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\n"
        "metadata: {name: x, namespace: flux-system}\nspec:\n  path: ./gone\n"
        "  sourceRef: {kind: GitRepository, name: flux-system}\n")
    assert main(["lint", "--root", str(tmp_path)]) == 2
    (tmp_path / "sync.yaml").write_text((tmp_path / "sync.yaml").read_text().replace(
        "name: flux-system}", "name: other}"))
    assert main(["lint", "--root", str(tmp_path), "--fail-on", "note"]) == 1  # a note only
    assert main(["lint", "--root", str(tmp_path)]) == 0


def test_formats_say_a_build_is_partial():
    report = lint_files(DiskFiles(str(REPO)))
    human = renderer("human")(report)
    assert f"    partial build: source {MIRROR} is not this repository; built from the " \
           "folder of the same path here (apps/web)\n" in human
    assert "(3 Flux Kustomizations (3 of another source, built partially), " in human
    sarif = json.loads(renderer("sarif")(report))["runs"][0]
    marked = [r for r in sarif["results"] if r.get("properties", {}).get("partialBuild")]
    assert {r["ruleId"] for r in marked} >= {"patch-matches-nothing", "partial-build-failed"}
    assert len(sarif["properties"]["partialBuilds"]) == 3
    schema = json.loads((DATA.parent / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(
        json.loads(renderer("sarif")(report)))
    document = json.loads(renderer("json")(report))
    assert any(f.get("detail", {}).get("partial") for f in document["findings"])
    assert sum(1 for t in document["linted"] if t.get("partial")) == 3
    github = renderer("github")(report)
    assert "%0A(partial build: source GitRepository/flux-system/mirror" in github


def test_postbuild_is_a_note_only_where_variables_are_left():
    (note,) = [f for f in lint_files(DiskFiles(str(REPO))).findings
               if f.rule == "flux-substitution"]
    assert note.location.line == 62 and "(1 `${...}` in 1 object)" in note.message
    files = {"apps/a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"
                            "  annotations: {kustomize.toolkit.fluxcd.io/substitute: disabled}\n"
                            "data: {x: '${X}'}\n",
             "sync.yaml": "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\n"
                          "metadata: {name: a, namespace: flux-system}\nspec:\n  path: ./apps\n"
                          "  postBuild: {substitute: {X: y}}\n"
                          "  sourceRef: {kind: GitRepository, name: flux-system}\n"}
    assert lint_files(MemoryFiles(files)).findings == []


# What the generator does, one field at a time (in memory).

DEPLOY = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
          "spec: {template: {spec: {containers: [{name: c, image: 'nginx:1'}]}}}\n")


def test_the_listing_takes_the_top_most_folder_with_a_kustomization_in_walk_order():
    files = MemoryFiles({
        "f/b/deep/kustomization.yaml": "resources: []\n",
        "f/b/kustomization.yaml": "resources: []\n",
        "f/b-x.yaml": DEPLOY, "f/c/x.yml": DEPLOY, "f/.github/ci.yaml": DEPLOY,
        "f/cloudbuild.yaml": "steps: []\n", "f/n.json": "{}", "f/README.md": "# no\n"})
    # filepath.Walk visits "b" before "b-x.yaml" ('/' sorts after '-' only in whole paths)
    assert listing(files, "f") == ["./b", "./b-x.yaml", "./c/x.yml"]


def test_a_file_that_is_not_kubernetes_yaml_fails_the_controller():
    files = MemoryFiles({"f/values.yaml": "replicas: 2\n"})
    with pytest.raises(FluxBuildError, match=r"^failed to decode Kubernetes YAML from "
                                             r"f/values.yaml: "):
        listing(files, "f")


def test_an_empty_folder_gets_the_placeholder_namespace_and_one_without_resources_origin():
    files = MemoryFiles({"f/README.md": "x", "g/kustomization.yaml": "components: [../c]\n"})
    assert controller_kustomization(files, "f", {}).value["namespace"] == "_placeholder"
    assert controller_kustomization(files, "g", {}).value["buildMetadata"] == \
        ["originAnnotations"]


def test_images_merge_into_the_entry_of_the_same_name():
    files = MemoryFiles({"f/kustomization.yaml": "resources: [d.yaml]\nimages:\n"
                         "- {name: nginx, newName: r/nginx, digest: 'sha256:1'}\n",
                         "f/d.yaml": DEPLOY})
    spec = {"images": [{"name": "nginx", "newTag": "2"}, {"name": "redis", "newTag": "7"}]}
    assert controller_kustomization(files, "f", spec).value["images"] == [
        {"name": "nginx", "newName": "r/nginx", "newTag": "2"},
        {"name": "redis", "newTag": "7"}]


def test_components_must_be_local_and_may_be_missing_when_told():
    files = MemoryFiles({"f/d.yaml": DEPLOY})
    with pytest.raises(FluxBuildError, match="component path 'https://x/y' must be local"):
        controller_kustomization(files, "f", {"components": ["https://x/y"]})
    spec = {"components": ["../gone"], "ignoreMissingComponents": True}
    assert "components" not in controller_kustomization(files, "f", spec).value


def test_target_namespace_and_patches_reach_the_build():
    files = {"apps/d.yaml": DEPLOY,
             "sync.yaml": "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\n"
                          "metadata: {name: a, namespace: flux-system}\nspec:\n  path: ./apps\n"
                          "  targetNamespace: prod\n  namePrefix: p-\n"
                          "  patches:\n  - target: {kind: Deployment}\n    patch: |\n"
                          "      - {op: add, path: /spec/replicas, value: 2}\n"
                          "  sourceRef: {kind: GitRepository, name: flux-system}\n"}
    units, _ = outcomes(MemoryFiles(files), read_config(MemoryFiles(files)))
    (flux,) = [u for u in units if u.kind == "flux"]
    (built,) = flux.built
    assert (built["metadata"], built["spec"]["replicas"]) == \
        ({"name": "p-web", "namespace": "prod"}, 2)
    assert len(flux.applications) == 1 and flux.partial == ""


def test_a_spec_path_with_a_variable_is_a_note_not_a_failure():
    files = {"sync.yaml": "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\n"
                          "metadata: {name: a, namespace: flux-system}\nspec:\n"
                          "  path: ./apps/${CLUSTER}/web\n"
                          "  sourceRef: {kind: GitRepository, name: flux-system}\n"}
    (note,) = lint_files(MemoryFiles(files)).findings
    assert (note.rule, note.level, note.location.line) == ("flux-substitution", "note", 5)
    assert "spec.path './apps/${CLUSTER}/web' holds a variable" in note.message
    other = files["sync.yaml"].replace("name: flux-system}", "name: other}")
    assert [f.rule for f in lint_files(MemoryFiles({"sync.yaml": other})).findings] == \
        ["flux-substitution"]
    skip = {"sync.yaml": other, ".cfgpatch.yaml": "lint:\n  flux-other-sources: skip\n"}
    assert lint_files(MemoryFiles(skip)).findings == []


def test_kustomizations_below_a_flux_folder_build_as_the_controller_builds_them():
    """The controller builds with LoadRestrictionsNone: a kustomization below the Flux
    folder that reads a file above its own folder builds there (kubectl kustomize
    refuses it with the default restrictor: lint did too, exit 2)."""
    files = {"apps/shared.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}\n",
             "apps/web/kustomization.yaml": "resources: [../shared.yaml]\n",
             "sync.yaml": "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\n"
                          "metadata: {name: a, namespace: flux-system}\nspec:\n"
                          "  path: ./apps/web\n"
                          "  sourceRef: {kind: GitRepository, name: flux-system}\n"}
    assert lint_files(MemoryFiles(files)).findings == []
    alone = {k: v for k, v in files.items() if k != "sync.yaml"}
    assert [f.rule for f in lint_files(MemoryFiles(alone)).findings] == ["build-failed"]
    told = {**files, ".cfgpatch.yaml": "lint:\n  kustomize:\n  - path: apps/web\n"
                                       "    load-restrictor: LoadRestrictionsRootOnly\n"}
    assert [f.rule for f in lint_files(MemoryFiles(told)).findings] == ["build-failed"]


class _RefFiles:
    """A ref's files as the preview reads them (``preview.entrypoints.Files``)."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts

    def paths(self) -> list[str]:
        return sorted(self.texts)

    def read_text(self, path: str) -> str:
        return self.texts[path]

    def is_file(self, path: str) -> bool:
        return path in self.texts

    def is_dir(self, path: str) -> bool:
        return any(p.startswith(path + "/") for p in self.texts)


def test_the_preview_generates_the_same_listing():
    """One model of the controller: kube preview's Flux entry points list what lint does."""
    from cfgpatch.preview.render import generated_kustomization
    texts = {"f/b/deep/kustomization.yaml": "resources: []\n",
             "f/b/kustomization.yaml": "resources: []\n", "f/b-x.yaml": DEPLOY,
             "f/n.json": "{}", "f/.sops.yaml": "creation_rules: []\n"}
    assert values(generated_kustomization(_RefFiles(texts), "f"))[0]["resources"] == \
        listing(MemoryFiles(texts), "f") == ["./b", "./b-x.yaml"]
    with pytest.raises(FluxBuildError):
        generated_kustomization(_RefFiles({**texts, "f/v.yaml": "a: 1\n"}), "f")
