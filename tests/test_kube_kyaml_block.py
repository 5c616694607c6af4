"""kube/io/kyaml_block.py: the nodes PyYAML's composers give, or a refusal.

Whenever the block reader answers, its nodes (kind, tag, value, style, line, column, file,
content) must be the ones :func:`kyaml_read._read_documents` gives through PyYAML, with
libyaml and with the pure-Python composer; and PyYAML must not refuse a text the block
reader accepts.  Checked on generated block YAML, on mutated texts and on every YAML
file recorded under tests/data.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cfgpatch.kube.io import kyaml_block, kyaml_read
from cfgpatch.kube.io.kyaml import KyamlError

DATA = Path(__file__).parent / "data"


def _shape(node, seen=None):
    return (node.kind, node.tag, node.value, node.style, node.line, node.column, node.file,
            [_shape(child) for child in node.content])


def _pyyaml(text, file, first, lines_before, libyaml, monkeypatch):
    with monkeypatch.context() as patch:
        patch.setattr(kyaml_block, "read", lambda *args, **kwargs: None)
        patch.setattr(kyaml_read, "LIBYAML", libyaml)
        try:
            return [_shape(node) for node in kyaml_read._read_documents(
                text, file, first=first, lines_before=lines_before)]
        except KyamlError as err:
            return err


def _check(text, monkeypatch, first=False, lines_before=0, file="f.yaml"):
    """The block reader's answer (None: it declined), checked against PyYAML's."""
    found = kyaml_block.read(text, file, first, lines_before)
    if found is None:
        return None
    mine = [_shape(node) for node in found]
    for libyaml in (True, False):
        theirs = _pyyaml(text, file, first, lines_before, libyaml, monkeypatch)
        assert not isinstance(theirs, KyamlError), (text, theirs)
        assert mine == theirs, (text, libyaml)
    return mine


_WORDS = ["a", "b", "name", "app.kubernetes.io/name", "k-1", "x_y", "a:b", "a b", "1", "010",
          "0x1F", "1e3", "1.5", "-2", "true", "False", "yes", "on", "null", "~", "Null",
          "2001-12-14", "2001-12-14T21:59:43.10-05:00", ".inf", "-.Inf", ".nan", "nginx:1.25",
          "http://x.y/z", "a#b", "a,b", "[x]", "{x}", "--x", "-", "- x", "a: b", "a:", "@x",
          "`x", "%x", "!x", "&x", "*x", "|", ">", "?", "? x", ":x", "x #y", "it's", 'say "hi"',
          "", " lead", "trail ", "---", "...", "<<", "a\\b", "é", "日本", "x\ty"]
_scalar_text = st.sampled_from(_WORDS) | st.text(
    alphabet=st.sampled_from(list("ab1.-:# '\"{}[],&*!|>%@`?~")), max_size=6)
_style = st.sampled_from(["plain", "plain", "single", "double", "literal", "literal-",
                          "literal+"])
_scalar = st.tuples(st.just("scalar"), _scalar_text, _style)
_tree = st.recursive(
    _scalar | st.just(("null",)) | st.sampled_from([("emptymap",), ("emptyseq",)]),
    lambda inner: st.tuples(st.just("map"), st.lists(st.tuples(_scalar_text, _style, inner),
                                                     min_size=1, max_size=4))
    | st.tuples(st.just("seq"), st.lists(inner, min_size=1, max_size=4)),
    max_leaves=12)


def _quote(text, style):
    if style == "single":
        return "'" + text.replace("'", "''") + "'"
    if style == "double":
        return '"' + text + '"'
    return text


class _Writer:
    def __init__(self, draw):
        self.draw = draw
        self.lines: list[str] = []

    def flag(self):
        return self.draw(st.booleans())

    def comment(self):
        return self.draw(st.sampled_from(["", "", "", " # note", "  #x"]))

    def filler(self):
        if self.draw(st.integers(0, 5)) == 0:
            self.lines.append(self.draw(st.sampled_from(["", "   ", "# c", "    # deep"])))

    def scalar_lines(self, head, node, indent):
        _, text, style = node
        if style.startswith("literal"):
            body = text.split("\n") if text else ["x"]
            self.lines.append(f"{head}|{style[7:]}")
            self.lines.extend(" " * (indent + 2) + line for line in body)
            return
        self.lines.append(f"{head}{_quote(text, style)}{self.comment()}")

    def value(self, head, node, indent, step):
        """``head`` is ``key:`` or ``-`` already indented; what follows it."""
        kind = node[0]
        if kind == "scalar":
            self.scalar_lines(head + " ", node, indent)
        elif kind == "null":
            self.lines.append(head + self.comment())
        elif kind in ("emptymap", "emptyseq"):
            self.lines.append(head + (" {}" if kind == "emptymap" else " []"))
        elif kind == "seq" and head.endswith(":") and self.flag():
            self.lines.append(head + self.comment())
            self.block(node, indent, step)  # a sequence at its key's indentation
        else:
            self.lines.append(head + self.comment())
            self.block(node, indent + step, step)

    def block(self, node, indent, step):
        pad = " " * indent
        if node[0] == "map":
            for key, style, value in node[1]:
                self.filler()
                self.value(f"{pad}{_quote(key, style if style in ('single', 'double') else 'plain')}:",
                           value, indent, step)
        else:
            for item in node[1]:
                self.filler()
                if item[0] == "map" and self.flag():  # "- key: value"
                    start = len(self.lines)
                    self.block(item, indent + 2, step)
                    self.lines[start] = pad + "- " + self.lines[start][indent + 2:]
                else:
                    self.value(pad + "-", item, indent, step)


@st.composite
def _documents(draw):
    writer = _Writer(draw)
    roots = draw(st.lists(_tree.filter(lambda t: t[0] in ("map", "seq")), min_size=1,
                          max_size=3))
    step = draw(st.sampled_from([2, 2, 4, 3]))
    if draw(st.booleans()):
        writer.lines.append("---")
    for index, root in enumerate(roots):
        if index:
            writer.lines.append(draw(st.sampled_from(["---", "---", "--- ", "---\n---"])))
        writer.block(root, 0, step)
    writer.filler()
    return "\n".join(writer.lines) + draw(st.sampled_from(["\n", "\n", "", "\n\n"]))


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=_documents(), first=st.booleans(), lines_before=st.integers(0, 3))
def test_generated_block_yaml_reads_as_pyyaml_reads_it(text, first, lines_before):
    with pytest.MonkeyPatch.context() as monkeypatch:
        _check(text, monkeypatch, first, lines_before)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=_documents(), data=st.data())
def test_mutated_texts_are_read_as_pyyaml_reads_them_or_declined(text, data):
    position = data.draw(st.integers(0, len(text)))
    piece = data.draw(st.sampled_from([" ", "  ", "\n", "-", ":", "#", "'", '"', "|", "x",
                                       "\n  ", "---\n", "{", "\t"]))
    mutated = text[:position] + piece + text[position + data.draw(st.integers(0, 2)):]
    with pytest.MonkeyPatch.context() as monkeypatch:
        _check(mutated, monkeypatch)


def test_a_usual_kustomization_and_resource_are_read_without_pyyaml(monkeypatch):
    kustomization = ("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
                     "namePrefix: dev-  # the stage\nlabels:\n- pairs:\n    app: web\n"
                     "  includeSelectors: true\nresources:\n- deployment.yaml\n"
                     "configMapGenerator:\n- name: cfg\n  literals:\n  - A=1\n  - 'B=x y'\n")
    resource = ("---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
                "  annotations: {}\nspec:\n  replicas: 2\n  template:\n    spec:\n"
                "      containers:\n      - name: web\n        image: \"nginx:1.25\"\n"
                "        command: [/bin/cp, -n, 'it''s', \"a b\", 010, ~]\n"
                "        args:\n        - --port=9898\n        -\n        - |\n          line one\n"
                "          line two\n        env: []\n")
    for text in (kustomization, resource):
        assert _check(text, monkeypatch) is not None
        assert _check(text, monkeypatch, first=True, lines_before=4) is not None


@pytest.mark.parametrize("text", [
    "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: [1, [2]]\n", "a: [1, 2] # c\n", "a: [1,]\n",
    "a: [a: b]\n", "a: [1,\n  2]\n", "a: ['x\\y', \"a\\\"b\"]\n", "a: [- x]\n", "a: [-]\n", "a: { ]\n", "a: [ }\n",
    "a: >\n  folded\n", "a: 'x\n  y'\n",
    "a: \"\\n\"\n", "a:\tb\n", "a: b\r\n", "? a\n: b\n", "%YAML 1.1\n---\na: 1\n", "a: 1\n...\n",
    "  a: 1\n", "a: b\n  c\n", "<<: {}\n", "- - a\n", "x\n", "a: b: c\n", "a: 1\n b: 2\n",
    "a: 1\n--- {b: c}\n", "a: 1\n--- b: c\n", "a: 1\n... b: c\n",
])
def test_what_it_does_not_read_goes_to_pyyaml(text):
    assert kyaml_block.read(text) is None


def _recorded_yaml():
    return sorted(path for pattern in ("*.yaml", "*.yml") for path in DATA.rglob(pattern))


def test_every_recorded_yaml_file_reads_as_pyyaml_reads_it(monkeypatch):
    files = _recorded_yaml()
    assert files
    accepted = 0
    for path in files:
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue
        for first in (False, True):
            if _check(text, monkeypatch, first=first, file=path.name) is not None:
                accepted += 1
    assert accepted > 0


_FLOW_WORDS = ["a", "x y", "/bin/cp", "-n", "--port=1", "010", "0x1F", "1.5", "~", "null",
               "true", "on", "it's", "*", "a:b", "a: b", "#x", "a #b", "a,b", "[x]", "{x}", "-",
               "- x", "?x", "!x", "&x", "", " ", "é", "x'y", 'x"y', "a\\b"]


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(items=st.lists(st.tuples(st.sampled_from(_FLOW_WORDS),
                                st.sampled_from(["plain", "single", "double"]),
                                st.sampled_from(["", " ", "  "])), min_size=1, max_size=4),
       inside=st.sampled_from(["", " "]), where=st.sampled_from(["key", "item"]))
def test_one_line_flow_sequences_read_as_pyyaml_reads_them_or_declined(items, inside, where):
    def spelled(word, style):
        if style == "single":
            return "'" + word.replace("'", "''") + "'"
        return f'"{word}"' if style == "double" else word

    body = ",".join(f"{pad}{spelled(word, style)}" for word, style, pad in items)
    flow = f"[{inside}{body}{inside}]"
    text = f"a:\n  b: {flow}\n" if where == "key" else f"a:\n- {flow}\n- c\n"
    with pytest.MonkeyPatch.context() as monkeypatch:
        _check(text, monkeypatch)


def test_a_flow_sequence_of_words_is_read_without_pyyaml(monkeypatch):
    text = ("spec:\n  args: [/bin/cp, -n, 'a b', \"c\", 010]\n  verbs: ['*']\n"
            "  podSelector: { }\n  ports: [  ]\n")
    assert _check(text, monkeypatch) is not None
