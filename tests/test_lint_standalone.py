"""lint/standalone.py: patch files that ``.cfgpatch.yaml`` maps to their target's file,
with the config's globs, exclusions, disabled rules and severity overrides."""

from __future__ import annotations

import pytest

from cfgpatch.errors import InvalidInput
from cfgpatch.lint import MemoryFiles, lint_files

WEB = """\
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
        - name: metrics
          image: m:1
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-settings
data:
  debug: on
"""

PATCHES = """\
    - patch: patches/drain.yaml
      target: manifests/web.yaml
      type: merge
      select: {kind: Deployment}
    - patch: patches/cm.yaml
      target: manifests/web.yaml
      select: {kind: ConfigMap, name: other}
    - patch: patches/guard.json
      target: manifests/web.yaml
      type: json
      select: {kind: Deployment}
    - patch: patches/missing.yaml
      target: manifests/web.yaml
    - patch: patches/settings.yaml
      target: manifests/web.yaml
      select: {kind: ConfigMap}
"""

TEXTS = {
    "manifests/web.yaml": WEB,
    "patches/drain.yaml": ("spec:\n  template:\n    spec:\n      containers:\n"
                           "        - name: web\n          image: web:2\n"),
    "patches/cm.yaml": "data: {debug: 'off'}\n",
    "patches/guard.json": '[{"op": "add", "path": "/spec/paused", "value": true},\n'
                          ' {"op": "test", "path": "/spec/replicas", "value": 2}]\n',
    "patches/settings.yaml": "data:\n  level: 'info'\n",
}


def _tree(config: str = "", patches: str = PATCHES) -> MemoryFiles:
    return MemoryFiles({".cfgpatch.yaml": f"lint:\n{config}  patches:\n{patches}", **TEXTS})


def _found(files) -> list[tuple]:
    return [(f.rule, f.level, f.location.file, f.location.line, f.location.column)
            for f in lint_files(files).findings]


def test_each_mapping_is_applied_as_kubectl_patch_local_would():
    report = lint_files(_tree())
    assert [(f.rule, f.level, f.location.file, f.location.line, f.location.column)
            for f in report.findings] == [
        # the missing file is named at its entry of the config
        ("build-failed", "error", ".cfgpatch.yaml", 14, 7),
        # the target's own YAML note is at its line in the target file
        ("yaml-type-change", "warning", "manifests/web.yaml", 20, 3),
        # select keeps nothing: the patch does nothing
        ("patch-matches-nothing", "error", "patches/cm.yaml", 1, 1),
        ("merge-list-replaced", "warning", "patches/drain.yaml", 4, 7),
        # kubectl refuses the JSON Patch: at the operation that fails (op 1, its path)
        ("patch-fails", "error", "patches/guard.json", 2, 17),
    ]
    messages = {f.rule: f.message for f in report.findings}
    assert messages["patch-fails"] == ("Deployment/web: kubectl patch fails: testing value "
                                       "/spec/replicas failed: test failed")
    assert messages["build-failed"] == ("the patch fails: patches/missing.yaml (named in "
                                        ".cfgpatch.yaml) cannot be read")
    assert "lost metrics" in messages["merge-list-replaced"]
    assert [t["path"] for t in report.targets] == [
        "patches/drain.yaml", "patches/cm.yaml", "patches/guard.json", "patches/missing.yaml",
        "patches/settings.yaml"]


def test_disabled_rules_and_severity_overrides():
    config = ("  disable: [yaml-type-change, build-failed]\n"
              "  severity: {merge-list-replaced: error, patch-matches-nothing: info}\n")
    assert _found(_tree(config)) == [
        ("patch-matches-nothing", "note", "patches/cm.yaml", 1, 1),
        ("merge-list-replaced", "error", "patches/drain.yaml", 4, 7),
        ("patch-fails", "error", "patches/guard.json", 2, 17),
    ]


def test_include_and_exclude_globs_choose_the_patch_files_linted():
    linted = lambda config: [t["path"] for t in lint_files(_tree(config)).targets]  # noqa: E731
    assert linted("  exclude: ['*.json', missing.yaml]\n") == [
        "patches/drain.yaml", "patches/cm.yaml", "patches/settings.yaml"]
    assert linted("  include: ['patches/d*']\n") == ["patches/drain.yaml"]
    assert linted("  include: ['**/*.json']\n") == ["patches/guard.json"]


def test_paths_limit_the_patch_files_linted():
    files = MemoryFiles({**_tree()._texts, "other/p.yaml": "data: {a: b}\n",  # noqa: SLF001
                         ".cfgpatch.yaml": "lint:\n  patches:\n" + PATCHES +
                         "    - {patch: other/p.yaml, target: manifests/web.yaml,"
                         " select: {kind: ConfigMap}}\n"})
    assert [t["path"] for t in lint_files(files, ["other"]).targets] == ["other/p.yaml"]
    assert len(lint_files(files).targets) == 6


def test_a_kustomization_excluded_by_a_glob_is_not_linted():
    files = MemoryFiles({
        ".cfgpatch.yaml": "lint:\n  exclude: ['**/vendor/**']\n",
        "app/vendor/lib/kustomization.yaml": "resources: [nothing.yaml]\n",
        "app/kustomization.yaml": "resources: []\n"})
    assert [t["path"] for t in lint_files(files).targets] == ["app/kustomization.yaml"]


@pytest.mark.parametrize("config, place, message", [
    ("lint:\n  patches:\n    - patch: a.yaml\n      target: b.yaml\n      type: xml\n",
     ".cfgpatch.yaml:5:7", "lint.patches[0].type must be one of strategic, merge, json"),
    ("lint:\n  severity:\n    field-set-twice: loud\n", ".cfgpatch.yaml:3:5",
     "lint.severity.field-set-twice: 'loud' is not error, warning or note"),
    ("lint:\n  include: [a\n", ".cfgpatch.yaml:3", "not YAML"),
])
def test_a_bad_config_is_an_error_naming_the_file_and_line(config, place, message):
    with pytest.raises(InvalidInput) as caught:
        lint_files(MemoryFiles({".cfgpatch.yaml": config}))
    assert caught.value.message.startswith(place + ": ")
    assert message in caught.value.message
