"""lint/build.py (with lint/resolve.py): the resources a kustomization's patches see.

Replayed against kubectl kustomize's recorded builds of the kustomize corpus
(tests/data/kustomize/recorded, scripts/record_kustomize_trees.py): lint's own
resolution gives the same resources (apiVersion, kind, name, namespace) for every build
that succeeds, and fails where kustomize fails.  Not modelled, so left out of the
comparison: the hash suffix of generated ConfigMaps and Secrets.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from cfgpatch.lint import MemoryFiles
from cfgpatch.lint.build import Builder, lint_kustomization
from cfgpatch.lint.resolve import ResolveError

DATA = Path(__file__).parent / "data" / "kustomize"
#: Trees whose files are not all UTF-8 text: lint's in-memory file system holds text (the
#: page leaves such files out and says so), so they are built from disk only.
NOT_TEXT = {"file-bytes", "env-files"}
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


#: Where lint's own in-memory resolution is known to differ from kustomize (on disk lint
#: builds with kube build, which agrees with kubectl on every recorded tree).
RESOLVER_GAPS: dict[tuple[str, str], str] = {}
#: lint's in-memory resolution does not run ``replacements`` (it marks the layer
#: incomplete): it neither renames with them nor fails where they fail.
RESOLVER_GAPS.update({
    ("replacements-errors", build): "lint's own resolution does not run replacements "
                                    "(the layer is incomplete; kube build runs them)"
    for build in ("file-and-inline", "file-missing", "file-unknown-field", "multiple-matches",
                  "no-select", "no-targets",
                  "nothing-selected",
                  "nothing-selected-default-path", "select-empty-selects-all",
                  "source-bracket-without-equals", "source-delimiter-on-map",
                  "source-index-out-of-bounds", "source-negative-index", "source-null",
                  "source-path-empty-segment", "source-path-missing", "source-wildcard",
                  "target-delimiter-on-list", "target-index-too-far",
                  "target-list-selector-on-map", "target-missing", "target-through-scalar",
                  "target-type-mismatch", "target-wildcard-nowhere", "target-wildcard-on-map",
                  "target-wildcard-scalar-element", "source-list-selector-on-map",
                  "source-index-past-the-end", "source-through-scalar", "source-number-on-map",
                  "target-number-on-map", "target-number-on-scalar")
})
RESOLVER_GAPS.update({
    ("error-smp-unreadable", build): "lint's own resolution does not read a "
                                     "patchesStrategicMerge file's documents as resources"
    for build in ("missing-kind-with-inline", "missing-name")
})
RESOLVER_GAPS.update({
    ("error-patch-config", build): "lint's own resolution does not refuse a patch entry "
                                   "with both patch and path, or neither"
    for build in ("both-legacy-json", "both-patch-and-path", "neither-legacy-json",
                  "neither-patch-nor-path")
})
RESOLVER_GAPS.update({
    ("configurations", build): "lint's own resolution reads configurations files for "
                               "their errors only (the layer is incomplete; kube build "
                               "applies them)"
    for build in ("base", "overlay", "narrow", "error-labels-conflict",
                  "error-replicas-unmatched", "error-conflict-in-one-file", "created-fields")
})
RESOLVER_GAPS[("resource-scalar-identity", "prefixed")] = (
    "lint's own resolution reads a number as a name by its value (010 is 8), kustomize "
    "by its text")
RESOLVER_GAPS.update({
    ("vars", build): "lint's own resolution does not resolve vars (the layer is "
                     "incomplete; kube build does)"
    for build in ("error-ambiguous", "error-base-duplicate", "error-duplicate", "error-hex",
                  "error-no-field", "error-not-found", "error-not-strings", "error-two-bases")
})
RESOLVER_GAPS.update({
    ("json6902-unannotated", build): "lint's own resolution gives a JSON patch an empty "
                                     "annotations map where kustomize shows a null"
    for build in ("add-key", "test-null")
})
RESOLVER_GAPS[("generator-internal-annotations", "test-op")] = (
    "lint's own resolution keeps no internal annotations (a JSON patch here tests "
    "internal.config.kubernetes.io/generatorBehavior)")
RESOLVER_GAPS[("namespace-conflict-affixes", "json-sees-affixes")] = (
    "lint's own resolution keeps no internal annotations (a JSON patch here tests "
    "internal.config.kubernetes.io/prefixes)")
RESOLVER_GAPS.update({
    ("replacements-file-types", build): "lint's own resolution does not read replacement "
                                        "files (the layer is incomplete; kube build does)"
    for build in ("create-list", "delimiter-list", "field-paths-string",
                  "index-string-kind-number")
})
RESOLVER_GAPS.update({
    ("empty-entries", "replacement-path-null"): "lint's own resolution does not run "
                                                "replacements (an empty one is an error)",
    ("empty-entries", "smp-null"): "lint's own resolution skips an empty "
                                   "patchesStrategicMerge entry without kustomize's error",
})
RESOLVER_GAPS.update({
    ("builtin-plugins", build): "lint's own resolution does not run built-in plugins given "
                                "as generators/transformers/validators configuration files"
    for build in ("build-metadata-plugins", "errors-external", "errors-external-generator",
                  "errors-missing", "errors-not-generator", "errors-not-transformer",
                  "errors-patch-config", "errors-prefix-specs", "errors-subjects",
                  "errors-unknown-builtin", "generators", "inline-entries", "namespace-modes",
                  "transformers")
})
RESOLVER_GAPS.update({
    ("replacements-references", build): "lint's own resolution does not run replacements "
                                        "(a replacement renames the Service)"
    for build in ("base", "overlay")
})


@pytest.mark.parametrize("record, build", BUILDS,
                         ids=[f"{r['tree']}:{b}" for r, b in BUILDS])
def test_lint_resolves_what_kubectl_kustomize_builds(record, build):
    gap = RESOLVER_GAPS.get((record["tree"], build))
    if gap:
        pytest.xfail(gap)
    recorded = record["builds"][build]
    builder = Builder(_files(record["tree"]))
    directory = "" if build == "." else build
    if recorded["exit_code"] != 0:
        with pytest.raises(ResolveError):
            builder.base(directory)
        return
    ours = [r.obj for r in builder.base(directory)]
    generated = {o["metadata"]["name"] for o in ours if o["kind"] in ("ConfigMap", "Secret")}
    # BaseLoader: a key "<<" that kustomize prints is a key, not a YAML 1.1 merge
    theirs = [o for o in yaml.load_all(recorded["stdout"], Loader=yaml.BaseLoader) if o]
    assert _ids(ours) == _ids(theirs, generated)


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
    outcome = lint_kustomization(Builder(files), "kustomization.yaml")
    assert outcome.error is None
    assert [a.after["spec"]["replicas"] for a in outcome.applications] == [3, 7, 5]
    assert [a.site.label.split(" ")[0] for a in outcome.applications] == [
        "patchesStrategicMerge[0]", "patches[0]", "patchesJson6902[0]"]


def test_a_strategic_patch_without_target_must_match_one_resource():
    files = _tree(**{"kustomization.yaml": "resources: [d.yaml]\npatches:\n  - path: p.yaml\n",
                     "d.yaml": DEPLOY,
                     "p.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\n"})
    outcome = lint_kustomization(Builder(files), "kustomization.yaml")
    assert outcome.error.startswith('no resource matches strategic merge patch '
                                    '"Deployment.v1.apps/api.[noNs]"')
    assert (outcome.error_location.file, outcome.error_location.line) == ("p.yaml", 1)


def test_remote_resources_and_plugins_make_the_layer_incomplete():
    files = _tree(**{"kustomization.yaml": "resources:\n  - d.yaml\n  - "
                     "https://example.invalid/base?ref=v1\ntransformers: [t.yaml]\n",
                     "d.yaml": DEPLOY})
    outcome = lint_kustomization(Builder(files), "kustomization.yaml")
    assert outcome.error is None
    assert outcome.incomplete == ["transformers", "remote https://example.invalid/base?ref=v1"]


def test_bases_are_built_once_and_copied():
    files = _tree(**{"base/kustomization.yaml": "resources: [d.yaml]\n", "base/d.yaml": DEPLOY,
                     "a/kustomization.yaml": "resources: [../base]\nnamePrefix: a-\n",
                     "b/kustomization.yaml": "resources: [../base]\nnamePrefix: b-\n"})
    builder = Builder(files)
    a = builder.base("a")
    b = builder.base("b")
    assert [r.obj["metadata"]["name"] for r in a + b] == ["a-web", "b-web"]
    assert a[0].previous == ("web",)
    assert builder.base("base")[0].obj["metadata"]["name"] == "web"


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
      "d.yaml": DEPLOY}, "patches[0] of kustomization.yaml on Deployment/web"),
    ({"kustomization.yaml": "resources: [d.yaml]\npatches:\n  - target: {name: 'w('}\n"
                            "    patch: '[]'\n", "d.yaml": DEPLOY}, "invalid regular expression"),
])
def test_what_kustomize_refuses_is_a_build_failure(texts, message):
    outcome = lint_kustomization(Builder(_tree(**texts)), "kustomization.yaml")
    assert outcome.error is not None and message in outcome.error
    assert outcome.error_location.file == "kustomization.yaml"


def test_kustomization_scalars_are_read_as_kustomize_reads_them():
    """YAML 1.1 (go-yaml v2 through sigs.k8s.io/yaml): ``namespace: n`` is a boolean, and
    kustomize's type error (recorded: label-aliasing/yaml11-namespace) is lint's, at the
    field; quoted, it is a string."""
    record = json.loads((DATA / "recorded" / "label-aliasing.json").read_text("utf-8"))
    expected = record["builds"]["yaml11-namespace"]["stderr"].removeprefix("error: ").strip()
    files = _tree(**{"kustomization.yaml": "resources: [d.yaml]\nnamespace: n\n",
                     "d.yaml": DEPLOY})
    with pytest.raises(ResolveError) as caught:
        Builder(files).base("")
    assert caught.value.message == expected
    assert (caught.value.location.file, caught.value.location.line) == ("kustomization.yaml", 2)
    quoted = _tree(**{"kustomization.yaml": "resources: [d.yaml]\nnamespace: 'n'\n",
                      "d.yaml": DEPLOY})
    (resource,) = Builder(quoted).base("")
    assert resource.obj["metadata"]["namespace"] == "n"


CONFIG = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\ndata:\n{data}"


def test_resources_with_merge_keys_resolve_as_kustomize_expands_them():
    files = _tree(**{"kustomization.yaml": "resources: [c.yaml]\n",
                     "c.yaml": "apiVersion: v1\nkind: ConfigMap\n"
                               "metadata: {<<: {name: settings, namespace: tools}}\n"})
    [resource] = Builder(files).base("")
    assert resource.obj["metadata"] == {"name": "settings", "namespace": "tools"}


def test_a_resource_with_a_key_written_twice_fails_at_the_end_of_the_build():
    files = {"base/kustomization.yaml": "resources: [c.yaml]\n",
             "base/c.yaml": CONFIG.format(name="c", data="  a: 1\n  a: 2\n"),
             "overlay/kustomization.yaml": "resources: [../base]\npatches:\n- patch: |-\n"
                                           "    $patch: delete\n    apiVersion: v1\n"
                                           "    kind: ConfigMap\n    metadata: {name: c}\n"}
    builder = Builder(_tree(**files))
    with pytest.raises(ResolveError) as caught:
        builder.base("base")
    assert caught.value.message == ("map[string]interface {}(nil): yaml: unmarshal errors:\n"
                                    '  line 7: mapping key "a" already defined at line 6')
    assert builder.base("overlay") == []  # deleted before the end: kustomize builds it
