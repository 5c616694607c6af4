"""``lint`` read without argparse (cli/lint_words.py over cli/plain_words.py): the same
arguments as argparse, or argparse reads.  Also guards lint's start-up: a small
repository's lint imports neither argparse nor pathlib, shutil, typing or the field
manager."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.cli import build_parser
from cfgpatch.cli import lint_words as words_module
from cfgpatch.lint.formats import FORMATS
from startup_support import run_noting_modules
from words_support import assert_same_reading, assert_table_is_the_parser

SRC = Path(__file__).resolve().parent.parent / "src"


def _lint_parser():
    parser = build_parser("lint")
    return next(a for a in parser._actions if a.dest == "command").choices["lint"]


def _argparse_reading(words: list[str]) -> dict | None:
    try:
        found = vars(build_parser("lint").parse_args(["lint", *words]))
    except SystemExit:
        return None
    return found


def test_the_tables_are_the_parser_of_register():
    assert_table_is_the_parser(words_module.TABLE, _lint_parser())
    assert words_module.CHOICES["format"] == tuple(FORMATS)


def _same_reading(words: list[str]) -> None:
    assert_same_reading(words_module.parse, _argparse_reading, words)


@pytest.mark.parametrize("words", [
    [], ["."], ["apps", "infra"], ["--format", "sarif", "-o", "out.sarif"],
    ["--format=json", "--fail-on", "never", "apps"], ["--disable", "a", "--disable=b", "x"],
    ["--schema", "crds", "--schema=more", "--no-kubectl", "--show-notes"],
    ["--root", "/repo", "--config", "c.yaml", "--color", "never", "--base", "main"],
    ["--load-restrictor", "LoadRestrictionsNone", "--enable-helm", "--helm-command", "h"],
    ["--no-default-exclude", "--kubectl", "/bin/kubectl", "-"], ["a", "b", "--format", "json"],
])
def test_plain_command_lines_read_as_argparse_reads_them(words):
    assert words_module.parse(words) is not None
    _same_reading(words)


@pytest.mark.parametrize("words", [
    ["-h"], ["--help"], ["--form", "json"], ["-oout"], ["-o=out"], ["--format", "xml"],
    ["--format"], ["--format", "--show-notes"], ["a", "--format", "json", "b"], ["--"],
    ["--show-notes=1"], ["--root", "-x"], ["-x"], ["--output=--"], ["--version"],
])
def test_anything_else_is_left_to_argparse(words):
    assert words_module.parse(words) is None


WORDS = st.sampled_from([
    "--format", "json", "sarif", "human", "--fail-on", "never", "--disable", "--schema",
    "-o", "--output", "--show-notes", "--no-kubectl", "--root", "--base", "--color",
    "dir", "other", "-", "--", "", "-1", "-x", "--format=json", "--format=", "--out",
    "--disable=r", "--enable-helm", "--enable", "-h", "x y", "--no-default-exclude",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS, max_size=7))
def test_any_words_read_as_argparse_reads_them_or_go_to_argparse(words):
    _same_reading(words)


#: What a small repository's lint does not need: argparse and what it imports, pathlib
#: (with urllib.parse and ipaddress), typing, dataclasses, copy, the SSA field manager,
#: the migration tables of the stuck-field rule, and, without patches, the patch modules.
NOT_FOR_A_SMALL_LINT = {
    "argparse", "gettext", "shutil", "lzma", "pathlib", "urllib.parse", "ipaddress",
    "typing", "dataclasses", "inspect", "copy", "cfgpatch.kube.ssa.api",
    "cfgpatch.kube.ssa.fieldmanager", "cfgpatch.kube.explain.migration",
    # without a patch: neither the patch reader nor the explanations of what patches did
    "cfgpatch.kube.kustomize.patches", "cfgpatch.kube.explain.changes",
    # stop 35: lint's patch checks, build failures, standalone patches, Flux generation and
    # artifacts, JSON Pointers; the Go tools' wording until a problem is worded
    "cfgpatch.lint.engine", "cfgpatch.lint.locate", "cfgpatch.lint.overlap",
    "cfgpatch.lint.failures", "cfgpatch.lint.offline", "cfgpatch.lint.standalone",
    "cfgpatch.lint.flux_generate", "cfgpatch.lint.flux_artifacts", "cfgpatch.pointer",
    "cfgpatch.kube.ssa.openapi", "cfgpatch.kube.compat.kustomize",
    "cfgpatch.kube.compat.gojson", "cfgpatch.kube.compat.goyaml",
    "cfgpatch.kube.compat.kubectl",
    # the rule table (with the findings catalogue it is made from) until a rule is asked for
    "cfgpatch.kube.explain.catalogue",
    # stop 36: contextlib and warnings (a class scope instead of contextmanager; PATH read
    # without os.get_exec_path), the YAML printer (lint prints no YAML), helm without
    # helmCharts, crds without crds:, selectors without targets, the strategic merge
    # without patches, the repeated-keys record without a key twice
    "contextlib", "warnings", "cfgpatch.kube.io.kyaml_write", "cfgpatch.kube.io.yamlprint",
    "cfgpatch.kube.kustomize.helm", "cfgpatch.kube.kustomize.crds",
    "cfgpatch.kube.go.jsondecode", "cfgpatch.kube.kustomize.selectors",
    "cfgpatch.kube.kustomize.merge", "cfgpatch.kube.kustomize.repeated",
}


def test_a_small_repository_lints_without_argparse_pathlib_or_the_field_manager(tmp_path):
    (tmp_path / "kustomization.yaml").write_text("resources:\n- deploy.yaml\n")
    (tmp_path / "deploy.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n"
        "  template:\n    spec:\n      containers:\n      - name: web\n"
        "        image: nginx\n        ports:\n        - containerPort: 80\n")
    done, imported = run_noting_modules(["lint", "."], tmp_path, NOT_FOR_A_SMALL_LINT)
    assert done.returncode == 0, done.stderr
    assert "1 kustomization" in done.stdout
    assert imported == []
