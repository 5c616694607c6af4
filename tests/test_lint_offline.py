"""What cannot be followed offline is a note, not a failure; test data folders are skipped;
build options per folder; placeholders silence patch-matches-nothing."""

from __future__ import annotations

import pytest

from cfgpatch.errors import KUSTOMIZE_ERROR, InvalidInput
from cfgpatch.kube import compat
from cfgpatch.kube.problems import Kustomize
from cfgpatch.lint import MemoryFiles, lint_files
from cfgpatch.lint.config import parse_config
from cfgpatch.lint.offline import kept_own_error, offline_reason, reason_location
from cfgpatch.lint.options import BuildOptions

DEPLOY = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n"
          "  template:\n    spec:\n      containers: [{name: app, image: x}]\n")
PATCH = ("patches:\n- target: {kind: Deployment, name: argocd-server}\n  patch: |-\n"
         "    - op: replace\n      path: /spec/replicas\n      value: 2\n")


def _rules(texts: dict, **kwargs) -> list[tuple[str, str, int]]:
    report = lint_files(MemoryFiles(texts), **kwargs)
    return [(f.rule, f.location.file, f.location.line) for f in report.findings]


def test_a_remote_base_is_one_note_and_its_patch_is_not_said_to_match_nothing():
    texts = {"app/kustomization.yaml": "resources:\n- github.com/org/repo//deploy?ref=v1\n"
                                       "- web.yaml\n" + PATCH,
             "app/web.yaml": DEPLOY}
    assert _rules(texts) == [("build-incomplete", "app/kustomization.yaml", 2)]
    report = lint_files(MemoryFiles(texts))
    assert "github.com/org/repo//deploy?ref=v1" in report.findings[0].message
    assert report.findings[0].level == "note"
    assert not report.build_failed()


def test_a_remote_base_under_two_overlays_is_one_note_at_the_base():
    base = {"base/kustomization.yaml": "resources: [https://example.com/x.yaml, web.yaml]\n",
            "base/web.yaml": DEPLOY,
            "a/kustomization.yaml": "resources: [../base]\nnamePrefix: a-\n",
            "b/kustomization.yaml": "resources: [../base]\nnamePrefix: b-\n"}
    assert _rules(base) == [("build-incomplete", "base/kustomization.yaml", 1)]


def test_a_missing_local_file_next_to_a_remote_base_still_fails():
    texts = {"kustomization.yaml": "resources:\n- https://example.com/x.yaml\n- gone.yaml\n"}
    rules = {rule for rule, _, _ in _rules(texts)}
    assert "build-failed" in rules


def test_what_kustomize_refuses_at_hand_is_still_a_failure():
    texts = {"kustomization.yaml": "resources: [web.yaml]\nnamePrefix: [a]\n",
             "web.yaml": DEPLOY}
    assert [r for r, _, _ in _rules(texts)] == ["build-failed"]


def _helm(args: str, stderr: str | None, code: int) -> Kustomize:
    return Kustomize("helm-failed", path="/usr/bin/helm", name=args,
                     detail=(stderr, "", "", code, False))


def _gone(path: str) -> Kustomize:
    return Kustomize("no-such-path", path=path, detail=path)


def _from(entry: str, problem: Kustomize) -> Kustomize:
    return Kustomize("accumulating-resources", cause=Kustomize(
        "accumulation", detail=Kustomize("resources-from", path=entry, cause=problem),
        cause=Kustomize("no-kustomization", path=f"/r/{entry}")))


@pytest.mark.parametrize("problem, offline", [
    (_helm("version -c --short", "fork/exec: no such file or directory", -1), True),
    (_helm("pull --untar --repo https://charts.example.com x", "", 1), True),
    (_from("chart", _helm("template x ./chart", "Error: oops", 1)), True),
    (_helm("install x", "", 1), False),
    (_gone("/r/https:/example.com/schema.json"), True),
    (_from("HTTPS://example.com/x.yaml", _gone("/r/HTTPS:/example.com/x.yaml")), True),
    (Kustomize("external-plugin", name="tshirt"), True),
    (Kustomize("loading-generator-plugins",
               cause=Kustomize("external-plugin", name="tshirt")), True),
    (_from("gone.yaml", _gone("/r/gone.yaml")), False),
    (Kustomize("helm-not-enabled"), False),
    ("words of cfgpatch's own", False),
])
def test_which_kustomize_errors_cannot_be_followed_offline(problem, offline):
    message = compat.word(problem)
    assert (offline_reason(KUSTOMIZE_ERROR, message, problem) is not None) == offline
    if offline:
        assert offline_reason(KUSTOMIZE_ERROR, message, problem).endswith(message)


@pytest.mark.parametrize("problem, kept", [
    (_from("gone.yaml", _gone("/r/gone.yaml")), True),
    (Kustomize("patch-file", path="p.yaml", cause=Kustomize(
        "unreadable-file", path="/r/p.yaml", name="open", detail="no such file or directory")),
     True),
    (Kustomize("unreadable-file", path="/r/p.yaml", name="read", detail="is a directory"),
     False),
    (_from("https://example.com/x.yaml", _gone("/r/https:/example.com/x.yaml")), False),
    (Kustomize("no-unique-target", id="X", detail=(0, "Deployment", "x", "")), False),
    ("words of cfgpatch's own: no such file", False),
])
def test_a_missing_local_file_is_kept_as_a_failure_after_a_skip(problem, kept):
    assert kept_own_error(problem) == kept


def test_the_note_points_at_the_entry_kube_build_names():
    where = reason_location("base/kustomization.yaml:4: remote resource 'x'", "k.yaml")
    assert (where.file, where.line) == ("base/kustomization.yaml", 4)
    assert reason_location("no place", "k.yaml").file == "k.yaml"


BROKEN = "resources: [gone.yaml]\n"


def test_test_data_folders_are_skipped_unless_named_or_configured():
    texts = {"deploy/kustomization.yaml": "resources: [web.yaml]\n", "deploy/web.yaml": DEPLOY,
             "pkg/testdata/bad/kustomization.yaml": BROKEN,
             "test/e2e/kustomization.yaml": BROKEN, "a/fixtures/kustomization.yaml": BROKEN}
    assert _rules(texts) == []
    assert [f for f, _, _ in _rules(texts, paths=["pkg/testdata/bad"])] == ["build-failed"]
    assert len(_rules(texts, paths=["pkg/testdata"])) == 1
    off = {**texts, ".cfgpatch.yaml": "lint:\n  default-exclude: []\n"}
    assert len(_rules(off)) == 3
    mine = {**texts, ".cfgpatch.yaml": "lint:\n  default-exclude: [fixtures]\n"}
    assert [file for _, file, _ in _rules(mine)] == ["pkg/testdata/bad/kustomization.yaml",
                                                      "test/e2e/kustomization.yaml"]


def test_a_placeholder_resource_silences_patch_matches_nothing():
    texts = {"kustomization.yaml": "resources: [gotk-components.yaml, web.yaml]\n" + PATCH,
             "gotk-components.yaml": "# written by flux bootstrap\n",
             "web.yaml": DEPLOY}
    assert _rules(texts) == []
    texts["gotk-components.yaml"] = DEPLOY.replace("web", "other")
    assert [r for r, _, _ in _rules(texts)] == ["patch-matches-nothing"]


def test_build_options_per_folder_later_entries_winning():
    config = parse_config("lint:\n  kustomize:\n  - load-restrictor: LoadRestrictionsNone\n"
                          "  - path: charts/**\n    enable-helm: true\n    helm-command: h3\n"
                          "  - path: charts/old\n    enable-helm: false\n")
    assert config.build_options("apps/web") == BuildOptions("LoadRestrictionsNone")
    assert config.build_options("charts/new") == BuildOptions("LoadRestrictionsNone", True, "h3")
    assert config.build_options("charts/old").enable_helm is False
    assert config.build_options("charts/new").flags() == [
        "--load-restrictor", "LoadRestrictionsNone", "--enable-helm", "--helm-command", "h3"]


@pytest.mark.parametrize("text, where, what", [
    ("lint:\n  kustomize:\n  - load-restrictor: none\n", "3:5", "load-restrictor must be"),
    ("lint:\n  kustomize:\n  - enable-helm: 'yes'\n", "3:5", "enable-helm must be true"),
    ("lint:\n  kustomize:\n  - helm: x\n", "3:5", "unknown key helm"),
    ("lint:\n  kustomize: 3\n", "2:3", "lint.kustomize must be a list"),
    ("lint:\n  default-exclude: 3\n", "2:3", "lint.default-exclude must be a list"),
])
def test_bad_build_options_are_placed(text, where, what):
    with pytest.raises(InvalidInput) as info:
        parse_config(text)
    assert info.value.message.startswith(f".cfgpatch.yaml:{where}: ")
    assert what in info.value.message


def test_a_folder_built_with_load_restrictions_none_builds_so_in_lint():
    texts = {"docs/example/kustomization.yaml": "resources: [../web.yaml]\n",
             "docs/web.yaml": DEPLOY}
    assert [r for r, _, _ in _rules(texts)] == ["build-failed"]
    none = "lint:\n  kustomize:\n  - path: docs/example\n    load-restrictor: LoadRestrictionsNone\n"
    assert _rules({**texts, ".cfgpatch.yaml": none}) == []


def test_each_entry_that_cannot_be_followed_is_its_own_note():
    texts = {"kustomization.yaml": "resources:\n- https://example.com/x.yaml\n- web.yaml\n"
                                   "components:\n- github.com/org/repo//comp?ref=v1\n",
             "web.yaml": DEPLOY}
    assert sorted(_rules(texts)) == [("build-incomplete", "kustomization.yaml", 2),
                                     ("build-incomplete", "kustomization.yaml", 5)]
