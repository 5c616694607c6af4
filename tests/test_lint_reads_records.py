"""lint, the page's lint mode and the preview read a failed build's records
(``BuildError.problem``), not kustomize's words: where a failure points, what cannot be
followed offline, the ``[noNs]`` explanation.  No kustomize phrase is matched there."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cfgpatch.kube import compat
from cfgpatch.kube.problems import Kustomize, within
from cfgpatch.lint import MemoryFiles, lint_files
from cfgpatch.lint.failures import failure_location
from cfgpatch.web.lintmode import explanation, lint_view
from phrase_support import string_literals
from test_kube_compat_kustomize import KUSTOMIZE_WORDING

SRC = Path(__file__).resolve().parent.parent / "src" / "cfgpatch"

#: The modules that decide from a build's failure (and did so from its words).
READERS = ("lint/failures.py", "lint/offline.py", "lint/kbuild.py", "lint/checks.py",
           "lint/linter.py", "web/lintmode.py", "preview/render.py")

#: Fragments of kustomize's words their regexes matched, besides the phrases the
#: builder's own check lists.
FRAGMENTS = ("no matches for Id", "unable to run", "external plugin", "evalsymlink",
             "no such file", "accumulating resources from", "recursed accumulation of",
             "multiple matches for", "unique target")


def _phrases_in(source: str) -> list[str]:
    """The kustomize phrases the string literals of ``source`` hold (docstrings aside;
    a regex's backslashes and non-capturing groups read away)."""
    found = []
    for node in string_literals(ast.parse(source)):
        text = node.value.replace("\\", "").replace("(?:", "").lower()
        found.extend(p for p in (*KUSTOMIZE_WORDING, *FRAGMENTS) if p.lower() in text)
    return found


@pytest.mark.parametrize("module", READERS)
def test_no_reader_of_a_build_failure_matches_kustomize_s_words(module):
    assert _phrases_in((SRC / module).read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("source", [
    "_RECURSED = re.compile(r\"recursed accumulation of path '([^']*)'\")",
    "_ENTRY = re.compile(r\"accumulating (?:resources|components) from '([^']*)'\")",
    "_NO_NS = re.compile(r'no matches for Id (?P<kind>[^./\\s]+)\\.')",
    "_PLUGIN = re.compile(r'external plugins? (disabled|not enabled)')",
    "_HELM = re.compile(r\"unable to run: '\\S+ (version|pull)\")",
    "kept = 'evalsymlink failure' in message",
    "if message.startswith('must specify --enable-helm'): pass",
])
def test_the_check_finds_a_phrase_matched_again(source):
    assert _phrases_in(source)


MISSING = Kustomize("no-such-path", path="/root/base/servcie.yaml",
                    detail="/root/base/servcie.yaml")


def _accumulating(entry: str, problem: object, directory: str) -> Kustomize:
    """kustomize's wrapping of ``problem`` met reading ``entry`` of ``directory``."""
    return Kustomize("accumulating-resources", cause=Kustomize(
        "accumulation", detail=Kustomize("resources-from", path=entry, cause=problem),
        cause=Kustomize("no-kustomization", path=f"{directory}/{entry}")))


def test_a_failure_points_at_the_entry_of_the_innermost_kustomization_its_records_name():
    files = MemoryFiles({"base/kustomization.yaml": "resources:\n- web.yaml\n- servcie.yaml\n",
                         "overlay/kustomization.yaml": "resources:\n- ../base\n"})
    inner = Kustomize("recursed-accumulation", path="/root/base",
                      cause=_accumulating("servcie.yaml", MISSING, "/root/base"))
    problem = _accumulating("../base", inner, "/root/overlay")
    assert [s.code for s in within(problem)][:4] == [
        "accumulating-resources", "accumulation", "resources-from", "recursed-accumulation"]
    # the words say nothing here: the records alone name the place
    where = failure_location(files, "overlay/kustomization.yaml", "it failed", problem,
                             "/root/")
    assert (where.file, where.line) == ("base/kustomization.yaml", 3)
    where = failure_location(files, "overlay/kustomization.yaml", "it failed",
                             _accumulating("../base", MISSING, "/root/overlay"), "/root/")
    assert (where.file, where.line) == ("overlay/kustomization.yaml", 2)
    assert failure_location(files, "overlay/kustomization.yaml", "it failed",
                            Kustomize("helm-not-enabled"), "/root/") is None
    assert failure_location(files, "overlay/kustomization.yaml", "it failed") is None


def test_lint_points_a_base_s_missing_file_at_its_entry():
    texts = {"base/kustomization.yaml": "resources:\n- web.yaml\n- servcie.yaml\n",
             "base/web.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n",
             "overlay/kustomization.yaml": "namePrefix: a-\nresources:\n- ../base\n"}
    failed = [f for f in lint_files(MemoryFiles(texts)).findings if f.rule == "build-failed"]
    assert {(f.location.file, f.location.line) for f in failed} == {
        ("base/kustomization.yaml", 3)}
    assert all(isinstance(f.problem, Kustomize) for f in failed)
    assert "servcie.yaml" in compat.word(failed[0].problem)


WEB = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: prod\n"
       "spec:\n  replicas: 1\n")


@pytest.mark.parametrize("detail, explained", [
    ((0, "Deployment", "web", ""), True),
    ((2, "Deployment", "web", ""), False),  # several matches: not the namespace's doing
    ((0, "Deployment", "web", "prod"), False),
])
def test_the_no_namespace_explanation_reads_the_record(detail, explained):
    problem = Kustomize("configuring-builtin", name="PatchTransformer", detail="x",
                        cause=Kustomize("no-unique-target", id="(any words)", detail=detail))
    said = explanation(problem, {"web.yaml": WEB})
    assert (said is not None) == explained
    if explained:
        assert "The Deployment `web` in these files is in namespace `prod`." in said
    assert explanation(compat.word(problem), {"web.yaml": WEB}) is None  # words: no record


def test_the_page_explains_a_patch_without_namespace_from_the_build_s_record():
    files = [{"path": "kustomization.yaml",
              "text": "resources: [web.yaml]\npatches:\n- path: patch.yaml\n"},
             {"path": "web.yaml", "text": WEB},
             {"path": "patch.yaml", "text": "apiVersion: apps/v1\nkind: Deployment\n"
                                            "metadata:\n  name: web\nspec:\n  replicas: 2\n"}]
    view = lint_view(files)
    found = [f for group in view["files"] for f in group["findings"]]
    assert [f["rule"] for f in found] == ["build-failed"]
    assert "Add `namespace: prod` to the patch's `metadata`" in found[0]["explain"]
    assert "problem" not in found[0] and "problem" not in view["report"]["findings"][0]
