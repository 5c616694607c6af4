"""The PyYAML internals cfgpatch builds on are still there, and both YAML paths agree.

cfgpatch reads YAML as go-yaml does by overriding methods of PyYAML's scanner, parser,
composer and emitter that PyYAML does not document (``kube/io/patch_text.py``'s
``GoYamlMixin``, ``kube/io/writer.py``'s ``Dumper``), and asks libyaml (when PyYAML has
it) to compose simple texts (``kube/io/kyaml_read.py``).  A PyYAML release that renames
or drops one of those methods would silently bring PyYAML's own behaviour back: these
tests name each method and fail on the first one missing or with other parameters.
"""

from __future__ import annotations

import inspect

import pytest
from hypothesis import given
from hypothesis import strategies as st

yaml = pytest.importorskip("yaml")

from cfgpatch.kube.io import kyaml_read, reader, writer  # noqa: E402

#: (PyYAML class, method) -> the parameters PyYAML's method takes (our override's too).
PRIVATE_OVERRIDES = {
    ("yaml.scanner.Scanner", "scan_to_next_token"): ["self"],
    ("yaml.scanner.Scanner", "scan_plain_spaces"): ["self", "indent", "start_mark"],
    ("yaml.scanner.Scanner", "scan_tag"): ["self"],
    ("yaml.scanner.Scanner", "scan_block_scalar_indicators"): ["self", "start_mark"],
    ("yaml.scanner.Scanner", "scan_block_scalar"): ["self", "style"],
    ("yaml.scanner.Scanner", "scan_block_scalar_indentation"): ["self"],
    ("yaml.scanner.Scanner", "scan_block_scalar_breaks"): ["self", "indent"],
    ("yaml.scanner.Scanner", "scan_flow_scalar_non_spaces"): ["self", "double", "start_mark"],
    ("yaml.scanner.Scanner", "scan_directive_name"): ["self", "start_mark"],
    ("yaml.parser.Parser", "process_directives"): ["self"],
    ("yaml.composer.Composer", "compose_node"): ["self", "parent", "index"],
    ("yaml.composer.Composer", "compose_document"): ["self"],
    ("yaml.emitter.Emitter", "check_simple_key"): ["self"],
    ("yaml.emitter.Emitter", "analyze_scalar"): ["self", "scalar"],
    ("yaml.emitter.Emitter", "write_double_quoted"): ["self", "text", "split"],
    ("yaml.emitter.Emitter", "write_single_quoted"): ["self", "text", "split"],
}
#: Documented entry points we override too (resolvers are meant to be extended).
PUBLIC_OVERRIDES = {("yaml.resolver.BaseResolver", "resolve"), ("yaml.emitter.Emitter", "__init__")}


def _class(dotted: str) -> type:
    module, _, name = dotted.rpartition(".")
    return getattr(__import__(module, fromlist=[name]), name)


def _our_classes() -> list[type]:
    classes = [reader._loader_class(), reader._patch_loader_class(), writer._dumper_class()]
    if getattr(yaml, "__with_libyaml__", False) and kyaml_read.LIBYAML:
        kyaml_read._fast_compose(yaml, "a: 1\n")
        classes.append(kyaml_read._c_loader)
    return classes


def _overrides() -> set[tuple[str, str]]:
    """(PyYAML class, method) of every PyYAML method a cfgpatch class defines again."""
    found = set()
    for cls in _our_classes():
        theirs = [c for c in cls.__mro__ if c.__module__.split(".")[0] == "yaml"]
        for ours in (c for c in cls.__mro__ if c.__module__.startswith("cfgpatch")):
            for name, value in vars(ours).items():
                if not callable(value):
                    continue
                owner = next((t for t in theirs if name in vars(t)), None)
                if owner is not None:
                    found.add((f"{owner.__module__}.{owner.__name__}", name))
    return found


@pytest.mark.parametrize("where,name", sorted(PRIVATE_OVERRIDES))
def test_each_overridden_pyyaml_method_is_still_there(where, name):
    method = getattr(_class(where), name, None)
    assert method is not None, (
        f"PyYAML {yaml.__version__} has no {where}.{name}: cfgpatch overrides it to read or "
        "print YAML as go-yaml does; adapt kube/io before allowing this PyYAML")
    params = list(inspect.signature(method).parameters)
    assert params == PRIVATE_OVERRIDES[where, name], (
        f"PyYAML {yaml.__version__} changed {where}.{name}{inspect.signature(method)}: "
        "cfgpatch's override takes the old parameters")


def test_every_override_is_listed_here():
    assert _overrides() <= set(PRIVATE_OVERRIDES) | PUBLIC_OVERRIDES, \
        "a new override of a PyYAML method: list it in PRIVATE_OVERRIDES"
    assert set(PRIVATE_OVERRIDES) <= _overrides(), "a listed override is gone: unlist it"


@pytest.mark.skipif(not getattr(yaml, "__with_libyaml__", False), reason="PyYAML without libyaml")
@pytest.mark.parametrize("text", [
    "a: 1\nb: [x, 'y', \"z\"]\nc: {d: ~, e: on}\n",
    "k: |\n  line\n  two\n---\n- 010\n- 0x1F\n- 1e3\n",
    "anchors: &a {x: 1}\nagain: *a\n",
    "a: µ b\nc: 'é'\nd: [x, \"ü😀\", z]\n😀: 1\ne: |\n  lïne\n  two 😀\nf: {k: v, ü: 😀}\n",
    "- µµµ: a\n  b: \"\\u00b5 \\U0001F600\"\n- >\n  fold\u00a0µ\n  more\n",
])
def test_libyaml_and_the_pure_python_composer_give_the_same_nodes(monkeypatch, text):
    def shape(node):
        value = node.value
        if isinstance(value, list):
            value = [shape(v) if not isinstance(v, tuple) else (shape(v[0]), shape(v[1]))
                     for v in value]
        # (a plain scalar's style is "" from libyaml, None from PyYAML: the same)
        return (type(node).__name__, node.tag, value, getattr(node, "style", None) or None)

    monkeypatch.setattr(kyaml_read, "LIBYAML", True)  # (make test-pure-yaml switches it off)
    fast = kyaml_read._fast_compose(yaml, text)
    assert fast is not None
    monkeypatch.setattr(kyaml_read, "LIBYAML", False)
    assert kyaml_read._fast_compose(yaml, text) is None  # the switch takes the pure path
    pure = list(yaml.compose_all(text, Loader=reader._patch_loader_class()))
    assert [shape(n) for n in fast] == [shape(n) for n in pure]


def _marked(node):
    """Every node's kind, tag, value, style and place (line, column)."""
    out = [(type(node).__name__, node.tag, getattr(node, "style", None) or None,
            node.start_mark.line, node.start_mark.column,
            node.value if isinstance(node, yaml.ScalarNode) else None)]
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            out += _marked(key) + _marked(value)
    elif isinstance(node, yaml.SequenceNode):
        for value in node.value:
            out += _marked(value)
    return out


_WIDE = st.sampled_from(["µ", "é", "ü", "\u00a0", "😀", "中", "\u2027", "\ufefe", "\uff01"])
_WORD = st.text(st.one_of(st.sampled_from("abz019 -_."), _WIDE), min_size=1, max_size=12)


@pytest.mark.skipif(not getattr(yaml, "__with_libyaml__", False), reason="PyYAML without libyaml")
@given(st.lists(st.tuples(_WORD, _WORD, st.sampled_from(["{}: {}", "{}: '{}'", "- {}: [{}]",
                                                         "{}: |\n  {}"])),
                min_size=1, max_size=6))
def test_texts_beyond_ascii_compose_alike_with_their_places(pairs):
    """A text with characters beyond ASCII (the CRDs of real repositories carry a ``µ``)
    goes to libyaml when every such character is plain: the same nodes, at the same
    lines and columns, as the pure-Python composer gives."""
    text = "".join(form.format(k.strip() or "k", v.strip() or "v") + "\n"
                   for k, v, form in pairs)
    pure_loader = reader._patch_loader_class()
    try:
        pure = list(yaml.compose_all(text, Loader=pure_loader))
    except yaml.YAMLError:
        return
    old = kyaml_read.LIBYAML
    kyaml_read.LIBYAML = True
    try:
        fast = kyaml_read._fast_compose(yaml, text)
    finally:
        kyaml_read.LIBYAML = old
    assert fast is not None
    assert [_marked(n) for n in fast] == [_marked(n) for n in pure]


@pytest.mark.parametrize("text", ["a: \u2028b\n", "a: \x85\n", "a: \ufeffb\n", "a: \x9f\n",
                                  "a: b\r\n", "a:\tb\n", "k" * 300 + "µ: v\n",
                                  "a: \udc80\n"])
def test_texts_libyaml_may_read_otherwise_stay_on_the_pure_path(monkeypatch, text):
    monkeypatch.setattr(kyaml_read, "LIBYAML", True)
    assert kyaml_read._fast_compose(yaml, text) is None
