"""The block-style YAML reader gives the full reader's answer, or declines.

Every text is read both ways: where ``blockyaml.read_documents`` answers, its documents
and type notes must be exactly the full reader's (PyYAML's composer plus go-yaml's
rules); texts it must decline are checked too.  The texts come from kubectl's own
``-o yaml`` printer and PyYAML's emitter in several styles, on generated objects with
awkward strings, and then get comments, blank lines and other indentation.
"""

from __future__ import annotations

import json
import re

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cfgpatch.errors import KubeError
from cfgpatch.kube.io import blockyaml, reader, unstructured, writer, yamlnodes


def typed(value):
    """A form where 1, 1.0 and True differ (json.dumps would not keep them apart)."""
    if isinstance(value, dict):
        return {k: typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [typed(v) for v in value]
    return (type(value).__name__, repr(value))


def full(text):
    """The full reader's documents and notes (PyYAML composer + go-yaml rules)."""
    nodes = reader.compose_documents(text)
    values, notes = [], []
    for node in nodes:
        if reader._is_empty(node):
            continue
        read = yamlnodes.NodeReader()
        values.append(reader._to_json_value(node, read))
        notes.extend(read.notes)
    return values, notes


def note_tuples(notes):
    return [(n.pointer, n.written, typed(n.value), n.where) for n in notes]


def check(text):
    """Return whether the fast reader answered; fail if its answer differs."""
    fast = blockyaml.read_documents(text)
    if fast is None:
        return False
    try:
        values, notes = full(text)
    except KubeError as err:
        pytest.fail(f"the fast reader accepted a text the full reader refuses ({err}):\n{text}")
    assert typed(fast[0]) == typed(values), text
    assert note_tuples(fast[1]) == note_tuples(notes), text
    assert fast[2] == unstructured.already_normal(fast[0]), text  # floats, big integers
    return True


WORDS = ["on", "off", "yes", "no", "y", "n", "~", "null", "true", "False", "010", "0x1F",
         "1e3", "1_000", "08", "-1", "+1", ".5", "1.", "2024-01-02", "12:30", "a: b", "a #b",
         "#x", "- x", "x:", "'q'", '"q"', "a\\b", "é", "ü ß", "", " lead", "trail ", "*a",
         "&a", "!t", "%p", "@at", "`b", "[x]", "{x}", "a,b", "?x", ":x", "x\ny", "x\n", "\n",
         "kubernetes.io/name", "app.kubernetes.io/part-of", "https://x.example/a?b=c#d"]
SCALARS = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.sampled_from(WORDS)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6))
KEYS = st.sampled_from(["name", "image", "value", "on", "1", "a b", "a:b", "-k", "k-", "é",
                        "x/y", "x~y", "'", '"', "a#b", "z"]) | st.text(max_size=4)
OBJECTS = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(KEYS, inner, max_size=4), max_leaves=25)


def dumps(obj, style):
    if style == "kubectl":
        return writer.dump({"root": obj}, "yaml")
    width, indent, literal = {"pyyaml": (80, 2, False), "wide": (4096, 4, False),
                              "literal": (80, 2, True)}[style]
    dumper = yaml.SafeDumper
    if literal:
        class Literal(yaml.SafeDumper):
            pass

        def show(d, data):
            style_ = "|" if "\n" in data else None
            return d.represent_scalar("tag:yaml.org,2002:str", data, style=style_)

        Literal.add_representer(str, show)
        dumper = Literal
    return yaml.dump({"root": obj}, Dumper=dumper, default_flow_style=False, width=width,
                     indent=indent, allow_unicode=True, sort_keys=False)


def decorate(text, seed):
    """Comments, blank lines and a document marker, placed where YAML allows them."""
    lines = text.split("\n")
    out = ["# generated", "---"] if seed % 3 == 0 else []
    for index, line in enumerate(lines):
        out.append(line)
        if seed % 2 and index % 4 == 1 and line and not line.rstrip().endswith(("|", "|-", "|+")):
            out.append("")
    return "\n".join(out)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OBJECTS, st.sampled_from(["kubectl", "pyyaml", "wide", "literal"]), st.integers(0, 5))
def test_generated_documents_read_the_same(obj, style, seed):
    try:
        text = dumps(json.loads(json.dumps(obj)), style)
    except (KubeError, ValueError, yaml.YAMLError):
        assume(False)
    check(decorate(text, seed) if style != "literal" else text)


KUBECTL_STYLE = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    deployment.kubernetes.io/revision: "3"
  labels:
    app: web
  name: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    spec:
      containers:
      - env:
        - name: A
          value: "on"
        - name: B
          value: 010
        image: nginx:1.25
        name: app
        ports:
        - containerPort: 80
          protocol: TCP
      tolerations: []
---
apiVersion: v1
data:
  config.yaml: |
    a: 1
    # not a comment

    b: 2
  empty: ""
  kept: |+
    x

  stripped: |-
    y
kind: ConfigMap
"""


def test_kubectl_style_files_take_the_fast_path():
    assert check(KUBECTL_STYLE)
    wide = "items:\n-   name: a\n    value: 1\n-   name: b\n    list:\n      - x\n      - y\n"
    assert check(wide)


@pytest.mark.parametrize("text", [
    "a: [1, 2]\n", "a: {b: 1}\n", "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: >\n  folded\n",
    "a: b # comment\n", "a:\tb\n", "a: 'multi\n  line'\n", 'a: "esc\\n"\n', "a: plain\n  more\n",
    "<<: {a: 1}\n", "? complex\n: key\n", "a: 1\r\n", "%YAML 1.1\n---\na: 1\n", "- - a\n",
    "a: |2\n   x\n", "a: |\n\n  x\n", "a: .inf\n", "scalar\n", "a: b: c\n", "a:b\n",
    "a: |\n  x", "...\n", "on: 1\n", "a: @x\n",
    # a more indented line after a scalar would continue it: no collection takes it
    "- a: x\n    b\n", "a: 'q'\n  z\n", 'a: "q"\n  z: 1\n', "a: {}\n  z\n", "a: []\n  - z\n",
    "a:\n- x\n  y\n", "a:\n  b: x\n   c: y\n", "a: x\n# c\n  b: y\n", "- x\n  - y\n",
])
def test_what_it_leaves_to_the_full_reader(text):
    assert blockyaml.read_documents(text) is None


@pytest.mark.parametrize(("text", "documents"), [
    ("a: 1\n--- b: c\n", None), ("a: 1\n---: x\n", None), ("a: 1\n--- {a: b}\nb: 2\n", None),
    ("k" * 1100 + ": 1\n", None), ("b:\n  " + "k" * 1100 + ": 1\n", None),
    ("a: 1\n... b: c\n", [{"a": 1}]),
])
def test_document_markers_and_long_keys_are_the_full_reader_s(text, documents):
    """A line at column 0 that starts like a document marker, and a key longer than
    YAML's simple keys, were once read as keys; the full reader refuses them (None) or
    reads other documents."""
    assert blockyaml.read_documents(text) is None
    if documents is None:
        with pytest.raises(KubeError):
            full(text)
    else:
        assert full(text)[0] == documents


@pytest.mark.parametrize("text", [
    "a:\n- 1\n- 2\nb: x\n", "a:\n  - 1\nb:\n", "- a: 1\n  b: 2\n- c\n", "a: |\n  x\n  y\nb: 1\n",
    "x: 'it''s'\n", 'x: "q"\n', "'k y': 1\n\"k:z\": 2\n", "a: {}\nb: []\n", "-\n  a: 1\n",
    "a:\n\n  # c\n  b: 1\n", "a: 1\n---\n---\nb: 2\n", "k: v  \n", "a: -1\nb: -x\n",
])
def test_hand_written_documents_read_the_same(text):
    assert check(text)


def test_most_generated_kubectl_output_takes_the_fast_path():
    taken = 0
    for seed in range(60):
        obj = {"metadata": {"name": f"n{seed}", "labels": {"a": str(seed), "b": "on"}},
               "data": {f"k{i}": ("line\n" * (seed % 3)) + str(i) for i in range(seed % 7)},
               "spec": {"list": [{"name": f"x{i}", "value": i} for i in range(seed % 5)]}}
        taken += check(writer.dump(obj, "yaml"))
    assert taken >= 55


@pytest.mark.parametrize(("text", "normal"), [
    ("a: 1\nb: x\n", True), ("a: 1.5\n", False),
    ("a: 9223372036854775807\n", True), ("a: 9223372036854775808\n", False),
    ("- a: -9223372036854775809\n", False), ("a: 1e3\n", False), ("a: '1.5'\nb: on\n", True),
])
def test_it_says_whether_every_number_is_an_int64(text, normal):
    assert blockyaml.read_documents(text)[2] is normal
    assert check(text)


def test_deep_nesting_is_declined_not_crashed():
    text = "".join(" " * (2 * i) + "a:\n" for i in range(400)) + " " * 800 + "b: 1\n"
    assert blockyaml.read_documents(text) is None
    assert re.search("a", text)


LINES = ["a: 1", "b:", "- x", "-", "- k: v", "k: |", "k: |-", "k: |+", "text", "# c", "",
         "c: 'q'", 'd: "q"', "e: {}", "f: []", "---", "on: x", "g: on", "h: 010", "i: a b",
         "j: ''", "- ", "k:  v  ", "l: -1", "'m': 1", "n: é"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.sampled_from(LINES)), max_size=10))
def test_random_line_soup_is_read_the_same_or_declined(lines):
    """Texts YAML may refuse: the fast reader never accepts one the full reader refuses,
    and agrees where both accept."""
    check("\n".join(" " * indent + line for indent, line in lines) + "\n")


def test_load_object_reads_block_yaml_the_fast_way_with_the_same_answer():
    text = KUBECTL_STYLE.split("---\n")[0]
    fast_obj, fast_notes = reader.load_object(text, "d.yaml")
    full_obj, full_notes = reader.object_from_nodes(reader.compose_documents(text), "d.yaml")
    assert typed(fast_obj) == typed(full_obj)
    assert note_tuples(fast_notes) == note_tuples(full_notes)
    assert [(n.pointer, n.written) for n in fast_notes] == [
        ("/spec/template/spec/containers/0/env/1/value", "010")]
    assert blockyaml.read_documents(text) is not None
