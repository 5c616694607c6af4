"""kube/kustomize/json_ops_block.py: a block-YAML JSON patch read without PyYAML gives
what kubectl's patch reader (``reader.load_patch``) gives, or declines."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cfgpatch.errors import KubeError
from cfgpatch.kube.io import reader
from cfgpatch.kube.kustomize import json_ops_block
from cfgpatch.kube.kustomize.patch_loading import read_json_ops

_WORDS = ["add", "replace", "/spec/replicas", "/metadata/labels/a~1b", "x", "on", "off",
          "yes", "No", "y", "n", "true", "False", "null", "~", "Null", "", "0", "010", "0x1F",
          "0o17", "1_000", "-2", "+3", "1e3", "1.5", ".inf", "-.Inf", ".nan", "08",
          "9223372036854775807", "9223372036854775808", "-9223372036854775809",
          "2001-12-14", "2001-12-14T21:59:43.10-05:00", "<<", "a b", "--concurrent=20",
          "nginx:1.25", "http://x.y/z", "é", "日本", "a#b", "it's", "=", "1:2"]
_STYLES = ["plain", "plain", "plain", "single", "double"]


def _scalar(word: str, style: str) -> str:
    if style == "single":
        return "'" + word.replace("'", "''") + "'"
    if style == "double" and '"' not in word and "\\" not in word:
        return f'"{word}"'
    return word


_leaf = st.tuples(st.sampled_from(_WORDS), st.sampled_from(_STYLES))
_tree = st.recursive(
    _leaf,
    lambda inner: st.lists(inner, min_size=1, max_size=3)
    | st.dictionaries(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_STYLES)), inner,
                      min_size=1, max_size=3),
    max_leaves=8)


def _write(value, indent: int, lines: list[str], lead: str) -> None:
    pad = " " * indent
    if isinstance(value, tuple):
        lines.append(f"{lead}{_scalar(*value)}")
    elif isinstance(value, list) and lead and len(value) % 2 and \
            all(isinstance(item, tuple) for item in value):  # some lists written [a, b]
        lines.append(f"{lead}[{', '.join(_scalar(*item) for item in value)}]")
    elif isinstance(value, list):
        if lead:
            lines.append(lead.rstrip())
        for item in value:
            _write(item, indent + 2, lines, f"{pad}- ")
    else:
        if lead:
            lines.append(lead.rstrip())
        for key, item in value.items():
            _write(item, indent + 2, lines, f"{pad}{_scalar(*key)}: ")


@st.composite
def _patches(draw):
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        op = {("op", "plain"): draw(_leaf), ("path", "plain"): draw(_leaf),
              ("value", draw(st.sampled_from(_STYLES))): draw(_tree)}
        first = True
        for key, item in op.items():
            lead = f"- {_scalar(*key)}: " if first else f"  {_scalar(*key)}: "
            first = False
            _write(item, 4, lines, lead)
    return "\n".join(lines) + "\n"


@settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))
@given(_patches())
def test_generated_patches_read_as_kubectl_reads_them_or_declined(text):
    fast = json_ops_block.read(text)
    if fast is None:
        return
    assert fast is not json_ops_block.NOT_A_LIST
    try:
        full, _notes = reader.load_patch(text, "json")
    except KubeError as err:
        pytest.fail(f"read {fast!r} where kubectl's reader refuses: {err}")
    assert fast == full
    assert [type(x) for x in _leaves(fast)] == [type(x) for x in _leaves(full)]


def _leaves(value):
    if isinstance(value, dict):
        return [("k", k) for k in value] + [x for v in value.values() for x in _leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [value]


def test_a_usual_patch_is_read_without_pyyaml():
    text = ("- op: add\n  path: /spec/template/spec/containers/0/args/-\n"
            "  value: --concurrent=20\n- op: replace\n  path: /spec/replicas\n  value: 3\n"
            "- op: add\n  path: /metadata/labels\n  value:\n    tier: yes\n    app: 'web'\n"
            "- op: add\n  path: /spec/args\n  value: [a, 'b', on, 010]\n")
    fast = json_ops_block.read(text)
    assert fast is not None
    assert fast == reader.load_patch(text, "json")[0]
    assert fast[2]["value"] == {"app": "web", "tier": True}  # go-yaml v2's yes
    assert read_json_ops(text) == fast


@pytest.mark.parametrize("text", [
    "- {op: add, path: /a, value: 1}\n", "- value: [1, [2]]\n", "- op: add\n  value: 1.5\n", "- op: &a add\n",
    "- op: add\n  op: remove\n", "- on: add\n",
    "---\n---\n- op: add\n", "- op: add\n  value: 9223372036854775808\n",
])
def test_what_it_leaves_to_the_full_reader(text):
    assert json_ops_block.read(text) is None


@pytest.mark.parametrize("text", [
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n",
    "metadata:\n  name: x\n---\n- op: add\n", "on: 1\nkind: X\n", "a: 1\n",
])
def test_a_map_is_surely_no_list_of_operations(text):
    assert json_ops_block.read(text) is json_ops_block.NOT_A_LIST
    try:
        value, _notes = reader.load_patch(text, "json")
    except KubeError:
        value = None
    assert not isinstance(value, list)
    assert read_json_ops(text) is None


def test_the_first_document_is_the_patch_as_for_kubectl():
    text = "- op: add\n---\n- op: remove\n"
    assert json_ops_block.read(text) == reader.load_patch(text, "json")[0] == [{"op": "add"}]
