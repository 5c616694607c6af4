"""Printing results exactly as ``kubectl patch -o json|yaml`` does.

``-o json`` is Go's ``json.MarshalIndent`` with four spaces (:mod:`..go.json`);
``-o yaml`` is sigs.k8s.io/yaml over go-yaml v2: keys in go-yaml's order, its quoting
and its line folding (:mod:`..go.yaml` holds the rules, PyYAML's emitter the layout).
"""

from __future__ import annotations

from functools import cmp_to_key

from ..go import json as gojson
from ..go import yaml as goyaml
from ..problems import Command, ProblemError, YamlSyntax
from . import goquote, unstructured, yamlprint
from .yamlnodes import pyyaml

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@unstructured.too_deep
def dump(obj: Any, fmt: str, managed_fields: bool = False) -> str:
    """kubectl's ``-o json`` or ``-o yaml`` text for ``obj`` (``managedFields`` left out
    unless ``managed_fields``, as ``--show-managed-fields`` keeps them).

    >>> print(dump({"kind": "K", "data": {"k9": "y", "k10": "<b>"}}, "json"), end="")
    {
        "data": {
            "k10": "\\u003cb\\u003e",
            "k9": "y"
        },
        "kind": "K"
    }
    >>> print(dump({"kind": "K", "data": {"k9": "y", "k10": "<b>"}}, "yaml"), end="")
    data:
      k9: "y"
      k10: <b>
    kind: K
    """
    if not managed_fields:
        obj = _without_managed_fields(obj)
    if fmt == "json":
        return gojson.encode(obj, "    ") + "\n"
    if fmt == "yaml":
        if isinstance(obj, dict):
            try:
                return yamlprint.text(obj)
            except yamlprint.NotCovered:  # a long key, or a key holding a line break
                pass
        line = nel_key_line(obj)
        if line is not None:
            # go-yaml reading back kubectl's JSON: the key's NELs broke the flow mapping
            raise ProblemError(YamlSyntax("parser", "expected ',' or '}'",
                                          "while parsing a flow mapping", line, 0, False, None),
                               hint="kubectl cannot print a key holding U+0085 (NEL) as YAML")
        return emitter_yaml(obj)
    raise ProblemError(Command("no-printer", fmt), hint="use -o json or -o yaml")


def nel_key_line(value: Any) -> int | None:
    """Where go-yaml stops reading kubectl's JSON text of ``value``, if a key holds U+0085.

    kubectl prints YAML by reading its own compact JSON (keys sorted) back with go-yaml.
    Go's JSON encoder writes U+0085 (NEL) as it is, and go-yaml counts it as a line
    break: a flow mapping key that spans lines is refused at the token after it. The
    line go-yaml names is the number of NELs up to there (its parser errors give the
    0-based line). ``None`` when no key holds one."""
    count = 0
    stack: list[tuple[bool, Any]] = [(False, value)]  # (is a mapping key, item)
    while stack:
        is_key, item = stack.pop()
        if isinstance(item, str):
            count += item.count("\x85")
            if is_key and "\x85" in item:
                return count
        elif isinstance(item, dict):
            for key in sorted(item, reverse=True):  # popped in Go's (byte) order
                stack.append((False, item[key]))
                stack.append((True, key))
        elif isinstance(item, list):
            stack.extend((False, element) for element in reversed(item))
    return None


def _without_managed_fields(obj: Any) -> Any:
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    if isinstance(meta, dict) and "managedFields" in meta:
        return {**obj, "metadata": {k: v for k, v in meta.items() if k != "managedFields"}}
    return obj


def _node(value: Any) -> Any:
    yaml = pyyaml()
    str_tag = "tag:yaml.org,2002:str"
    if isinstance(value, dict):
        keys = sorted(value, key=cmp_to_key(goyaml.key_cmp))
        pairs = [(_node(key), _node(value[key])) for key in keys]
        return yaml.MappingNode("tag:yaml.org,2002:map", pairs, flow_style=not pairs)
    if isinstance(value, list):
        items = [_node(item) for item in value]
        return yaml.SequenceNode("tag:yaml.org,2002:seq", items, flow_style=not items)
    if value is None:
        return yaml.ScalarNode(str_tag, "null")
    if isinstance(value, bool):
        return yaml.ScalarNode(str_tag, "true" if value else "false")
    if isinstance(value, (int, float)):
        return yaml.ScalarNode(str_tag, goyaml.yaml_number(value))
    text = goyaml.yaml_text(value)
    if "\n" in text:
        style = "|"
    elif goyaml.is_plain_string(text):
        style = None
    else:
        style = '"'
    return yaml.ScalarNode(str_tag, text, style=style)


def _dumper_class() -> type:
    """PyYAML's emitter set up like go-yaml v2's: 80 columns, 2-space indent, Unicode
    written as is except characters beyond U+FFFF, which go-yaml escapes."""
    pyyaml()  # PyYAML, or the error that asks for it
    import yaml

    class Dumper(yaml.emitter.Emitter, yaml.serializer.Serializer, yaml.resolver.BaseResolver):
        def __init__(self, stream: Any, **kwargs: Any) -> None:
            yaml.emitter.Emitter.__init__(self, stream, canonical=False, indent=2, width=80,
                                          allow_unicode=True, line_break="\n")
            yaml.serializer.Serializer.__init__(self, explicit_start=False,
                                                explicit_end=False, version=None, tags=None)
            yaml.resolver.BaseResolver.__init__(self)

        def check_simple_key(self) -> bool:
            """go-yaml also writes an empty string as a simple key (``"": x``),
            counts a key's length in bytes of UTF-8 (simple up to 128), and counts a
            carriage return as a line break (PyYAML does not)."""
            event = self.event
            if isinstance(event, yaml.ScalarEvent):
                if self.analysis is None:
                    self.analysis = self.analyze_scalar(event.value)
                return (goyaml.is_simple_key_length(self.analysis.scalar)
                        and not self.analysis.multiline and "\r" not in self.analysis.scalar)
            return super().check_simple_key()

        def analyze_scalar(self, scalar: str) -> Any:
            analysis = super().analyze_scalar(scalar)
            if any(ord(ch) > 0xFFFF for ch in scalar):
                analysis.allow_flow_plain = analysis.allow_block_plain = False
                analysis.allow_single_quoted = analysis.allow_block = False
            return analysis

        def write_double_quoted(self, text: str, split: bool = True) -> None:
            goquote.write_double_quoted(self, text, split, self.best_width)

        def write_single_quoted(self, text: str, split: bool = True) -> None:
            goquote.write_single_quoted(self, text, split, self.best_width)

        def _write(self, data: str) -> None:
            self.column += len(data)
            self.stream.write(data)

    return Dumper


def emitter_yaml(obj: Any) -> str:
    yaml = pyyaml()
    text = yaml.serialize(_node(obj), Dumper=_dumper_class())
    # PyYAML closes a document that ends in a "|+" block with "..." on a line of its
    # own (after "\n", or after U+0085, U+2028 or U+2029, which YAML counts as line
    # breaks too); go-yaml does not.
    if text.endswith("...\n") and len(text) > 4 and text[-5] in "\n\x85\u2028\u2029":
        return text[:-4]
    return text
