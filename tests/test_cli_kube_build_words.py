"""``kube build`` read without argparse: the same arguments as argparse, or argparse reads.

Also guards the start-up: a small ``kube build`` imports neither argparse nor the
kustomize modules only some kustomizations use.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.cli import _kube_build_args, build_parser
from cfgpatch.cli import kube_build_words as words_module
from startup_support import run_noting_modules
from words_support import assert_same_reading, assert_table_is_the_parser

SRC = Path(__file__).resolve().parent.parent / "src"


def _build_parser():
    parser = build_parser("kube")
    kube = next(a for a in parser._actions if a.dest == "command").choices["kube"]
    return next(a for a in kube._actions if a.dest == "kube_command").choices["build"]


def _argparse_reading(words: list[str]) -> dict | None:
    try:
        return vars(_kube_build_args(list(words)))
    except SystemExit:
        return None


def test_the_tables_are_the_parser_of_register():
    assert_table_is_the_parser(words_module.TABLE, _build_parser())


def _same_reading(words: list[str]) -> None:
    assert_same_reading(words_module.parse, _argparse_reading, words)


@pytest.mark.parametrize("words", [
    [], ["overlays/prod"], ["-"], ["-o", "json", "dir"], ["dir", "--output=yaml", "--explain"],
    ["--enable-helm", "--helm-command", "/bin/helm", "--helm-debug", "d"],
    ["--helm-api-versions", "a/v1", "--helm-api-versions=b/v1,c/v1", "--helm-kube-version",
     "1.30"], ["--load-restrictor", "LoadRestrictionsNone", "."], ["--helm-command="],
])
def test_plain_command_lines_read_as_argparse_reads_them(words):
    assert words_module.parse(words) is not None
    _same_reading(words)


@pytest.mark.parametrize("words", [
    ["-h"], ["d", "--help"], ["--expl"], ["-ojson"], ["-o=json"], ["-o", "xml"],
    ["--output="], ["-o"], ["-o", "--explain"], ["d", "e"], ["--"], ["--explain=1"],
    ["--helm-command", "-x"], ["-x"], ["--output=--"],
])
def test_anything_else_is_left_to_argparse(words):
    assert words_module.parse(words) is None


WORDS = st.sampled_from([
    "-o", "--output", "--explain", "--load-restrictor", "--enable-helm", "--helm-command",
    "--helm-api-versions", "--helm-kube-version", "--helm-debug", "yaml", "json", "dir",
    "-", "--", "=x", "", "-1", "-x", "--output=json", "--output=", "--helm-command=h",
    "--helm-api-versions=v1", "--enable", "-h", "x y", "- x", "-o=json", "--out",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS, max_size=7))
def test_any_words_read_as_argparse_reads_them_or_go_to_argparse(words):
    _same_reading(words)


#: Modules a build of one resource file does not need: argparse and what it imports,
#: the hashing of generated names, the trace and explanation of a build, what only some
#: kustomizations use (patches, images, replacements, vars, plugins, partial builds).
NOT_FOR_A_SMALL_BUILD = {
    "argparse", "gettext", "shutil", "hashlib", "cfgpatch.kube.explain",
    "cfgpatch.kube.kustomize.trace",
    "cfgpatch.kube.kustomize.patches", "cfgpatch.kube.kustomize.images",
    "cfgpatch.kube.kustomize.replacements", "cfgpatch.kube.kustomize.variables",
    "cfgpatch.kube.kustomize.plugins", "cfgpatch.kube.kustomize.partial",
    # stop 32: PyYAML (block YAML is read by kube/io/kyaml_block.py, and printed by
    # yamlprint.py), dataclasses and what it imports (cfgpatch.records instead), typing,
    # OpenSSL's hash module (the built-in _sha256), the modules of PyYAML's path
    "yaml", "dataclasses", "inspect", "ast", "typing", "_hashlib", "base64", "struct",
    "copy", "cfgpatch.kube.io.reader", "cfgpatch.kube.io.patch_text",
    "cfgpatch.kube.io.writer",
    # stop 35: the Go tools' wording, until a problem is worded
    "cfgpatch.kube.compat.gojson", "cfgpatch.kube.compat.goyaml", "cfgpatch.kube.compat.kubectl",
    # stop 36: helm without helmCharts, crds without crds:, selectors without targets, the
    # strategic merge without patches, the repeated-keys record without a key twice
    "contextlib", "warnings", "cfgpatch.kube.kustomize.helm", "cfgpatch.kube.kustomize.crds",
    "cfgpatch.kube.go.jsondecode", "cfgpatch.kube.kustomize.selectors",
    "cfgpatch.kube.kustomize.merge", "cfgpatch.kube.kustomize.repeated",
}

#: A small folder as the start-up target counts it: two resource files, a name prefix,
#: labels, annotations and a generated ConfigMap.
SMALL_FOLDER = {
    "kustomization.yaml": (
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
        "namePrefix: dev-\nlabels:\n- pairs:\n    app: web\n  includeSelectors: true\n"
        "commonAnnotations:\n  team: platform\nresources:\n- deployment.yaml\n"
        "- service.yaml  # the front\nconfigMapGenerator:\n- name: web-config\n"
        "  literals:\n  - LOG_LEVEL=debug\n  - PORT=8080\n"),
    "deployment.yaml": (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n"
        "  replicas: 2\n  template:\n    spec:\n      containers:\n      - name: web\n"
        "        image: nginx:1.25\n        ports:\n        - containerPort: 8080\n"
        "        envFrom:\n        - configMapRef:\n            name: web-config\n"),
    "service.yaml": ("apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n"
                     "  ports:\n  - port: 80\n    targetPort: 8080\n"),
}


def test_a_small_folder_builds_without_pyyaml_dataclasses_or_typing(tmp_path):
    for name, text in SMALL_FOLDER.items():
        (tmp_path / name).write_text(text)
    done, imported = run_noting_modules(["kube", "build", "."], tmp_path,
                                        NOT_FOR_A_SMALL_BUILD - {"hashlib"})
    assert done.returncode == 0, done.stderr
    assert "name: dev-web-config-" in done.stdout and "app: web" in done.stdout
    assert imported == []


def test_a_small_kube_build_imports_only_what_it_uses(tmp_path):
    (tmp_path / "kustomization.yaml").write_text("resources:\n- deploy.yaml\n")
    (tmp_path / "deploy.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n"
        "  template:\n    spec:\n      containers:\n      - name: web\n"
        "        image: nginx\n")
    done, imported = run_noting_modules(["kube", "build", "."], tmp_path,
                                        NOT_FOR_A_SMALL_BUILD)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("apiVersion: apps/v1\nkind: Deployment\n")
    assert imported == []


#: A folder as real trees write them (stop 33): a JSON 6902 patch inline, a strategic
#: patch file, a LabelTransformer given as configuration, `- --flag` arguments, a one-line
#: flow sequence and a multi-line string printed back.
PATCHED_FOLDER = {
    "kustomization.yaml": (
        "resources:\n- deployment.yaml\ntransformers:\n- labels.yaml\npatches:\n"
        "- path: replicas.yaml\n- target:\n    kind: Deployment\n  patch: |-\n"
        "    - op: add\n      path: /spec/template/spec/containers/0/args/-\n"
        "      value: --concurrent=20\n"),
    "labels.yaml": ("apiVersion: builtin\nkind: LabelTransformer\nmetadata:\n  name: l\n"
                    "labels:\n  env: dev\nfieldSpecs:\n- path: metadata/labels\n"
                    "  create: true\n"),
    "replicas.yaml": ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
                      "spec:\n  replicas: 3\n"),
    "deployment.yaml": (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
        "  annotations:\n    note: |\n      line one\n      line two\nspec:\n  template:\n"
        "    spec:\n      containers:\n      - name: web\n        image: nginx:1.25\n"
        "        command: [/bin/app, -v]\n        args:\n        - --port=8080\n"),
}


def test_a_folder_with_patches_builds_without_pyyaml_dataclasses_or_typing(tmp_path):
    for name, text in PATCHED_FOLDER.items():
        (tmp_path / name).write_text(text)
    unwanted = {"yaml", "dataclasses", "inspect", "ast", "typing",
                "cfgpatch.kube.io.reader", "cfgpatch.kube.io.patch_text"}
    done, imported = run_noting_modules(["kube", "build", "."], tmp_path, unwanted)
    assert done.returncode == 0, done.stderr
    assert "- --concurrent=20" in done.stdout and "replicas: 3" in done.stdout
    assert "env: dev" in done.stdout and "line one\n" in done.stdout
    assert imported == []
