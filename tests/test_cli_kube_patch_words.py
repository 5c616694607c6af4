"""``kube patch`` read without argparse: the same arguments as argparse, or argparse reads.

Also guards the start-up: a plain ``kube patch`` does not import argparse, typing or
dataclasses (together about a third of its process time on a small object).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.cli import build_parser
from cfgpatch.cli import kube as cli_kube
from cfgpatch.cli import kube_patch_words as words_module

SRC = Path(__file__).resolve().parent.parent / "src"


def _patch_parser():
    parser = build_parser("kube")
    kube = next(a for a in parser._actions if a.dest == "command").choices["kube"]
    return parser, next(a for a in kube._actions if a.dest == "kube_command").choices["patch"]


def _argparse_reading(words: list[str]) -> dict | None:
    parser, _ = _patch_parser()
    try:
        args = parser.parse_args(cli_kube.prepare_words(["kube", "patch", *words]))
    except SystemExit:
        return None
    return vars(args)


def test_the_table_is_the_parser_of_register():
    _, patch = _patch_parser()
    actions = [a for a in patch._actions if a.dest != "help"]
    flags = {}
    for action in actions:
        for option in action.option_strings:
            flags[option] = action.dest
        assert words_module.DEFAULTS[action.dest] == action.default
        assert (action.type is cli_kube._flag_value) == (action.dest in words_module.TRIMMED)
        assert words_module.CHOICES.get(action.dest) == (
            tuple(action.choices) if action.choices else None)
        if action.nargs == "?":
            assert words_module.OPTIONAL_VALUE_FLAGS[action.option_strings[0]] == (
                action.dest, action.const)
    table = {**words_module.VALUE_FLAGS, **words_module.SWITCHES,
             **{flag: dest for flag, (dest, _) in words_module.OPTIONAL_VALUE_FLAGS.items()}}
    assert table == flags
    assert set(words_module.DEFAULTS) == {a.dest for a in actions}
    assert [a.dest for a in actions if a.required] == ["filename"]


def _same_reading(words: list[str]) -> None:
    fast = words_module.parse(list(words))
    if fast is None:
        return  # argparse reads it (and the other tests of the command line cover that)
    assert vars(fast) == _argparse_reading(list(words)), words


@pytest.mark.parametrize("words", [
    ["--local", "-f", "o.yaml", "--type", "merge", "-p", '{"a":1}', "-o", "json"],
    ["-f", "-", "-p", "---"], ["-f", "o.yaml", "-p", "-1", "--explain"],
    ["-f", "=o.yaml", "-p", "=x", "-o", "=yaml", "-n", "=ns"],
    ["--filename=o.yaml", "--patch==x", "--output=", "--as=kustomize", "--dry-run"],
    ["-f", "a", "-f", "b", "--local", "false", "--dry-run", "server", "--patch-file", "p"],
    ["--local=", "--dry-run=x", "-f", "o", "--schema", "s.json", "--crd", "c.yaml"],
    ["-f", "o", "--local", "-p", "-x"], ["-f", "o", "-p", ""], ["-f", ""],
])
def test_plain_command_lines_read_as_argparse_reads_them(words):
    assert words_module.parse(words) is not None
    _same_reading(words)


@pytest.mark.parametrize("words", [
    [], ["-h"], ["-f", "o", "--help"], ["-f", "o", "--filen", "x"], ["-fo.yaml"],
    ["-f", "o", "-o=json"], ["-f", "o", "--explain=1"], ["-f", "o", "--as", "other"],
    ["-f", "o", "--"], ["-f", "--type", "merge"], ["-f", "o", "-p"], ["-f", "o", "x"],
    ["--type", "merge"], ["-f", "o", "--local", "-1"], ["-f", "o", "-p", "--"],
    ["-f", "o", "--as=bad", "--as=kubectl"], ["-f", "o", "--patch=--"],
])
def test_anything_else_is_left_to_argparse(words):
    assert words_module.parse(words) is None


WORDS = st.sampled_from([
    "-f", "--filename", "--type", "-p", "--patch", "--patch-file", "-o", "--output",
    "--explain", "--as", "--schema", "--crd", "-n", "--namespace", "--local", "--dry-run",
    "o.yaml", "-", "--", "merge", "json", "kubectl", "kustomize", "=x", "", "-1", "-x",
    "--filename=o", "--patch=-p", "--local=no", "--as=kubectl", "--as=bad", "--out", "-h",
    '{"a":1}', "-f=o", "x y", "- x",
])


@settings(max_examples=400, deadline=None)
@given(st.lists(WORDS, max_size=8))
def test_any_words_read_as_argparse_reads_them_or_go_to_argparse(words):
    _same_reading(["-f", "o.yaml", *words])
    _same_reading(words)


def test_a_plain_kube_patch_starts_without_argparse_typing_or_dataclasses(tmp_path):
    (tmp_path / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n"
                                      "  name: c\ndata:\n  a: b\n")
    script = ("import sys\nfrom cfgpatch.cli import main\ncode = main(sys.argv[1:])\n"
              "print(sorted({'argparse', 'typing', 'dataclasses', 'inspect', 'yaml'}"
              " & set(sys.modules)))\nsys.exit(code)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])])}
    for patch_type, patch in (("merge", {"data": {"a": "c"}}),
                              ("strategic", {"data": {"a": "c"}})):
        done = subprocess.run(
            [sys.executable, "-c", script, "kube", "patch", "--local", "-f", "cm.yaml",
             "--type", patch_type, "-p", json.dumps(patch), "-o", "json"],
            cwd=tmp_path, capture_output=True, text=True, env=env, check=True)
        assert done.stdout.splitlines()[-1] == "[]", (patch_type, done.stdout)
