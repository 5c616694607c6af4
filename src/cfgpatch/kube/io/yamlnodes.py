"""go-yaml's decoding of composed YAML nodes into kubectl's values.

:mod:`.reader` composes YAML text with PyYAML (untagged plain scalars tagged
:data:`PLAIN_TAG`); :class:`NodeReader` turns those nodes into the values kubectl gets
from sigs.k8s.io/yaml: plain scalars resolved by go-yaml v2's rules (``on`` is ``true``,
``010`` is 8), keys turned back into strings, ``<<`` merges expanded in go-yaml's order,
``!!binary`` decoded, and the type notes collected for every plain scalar that does not
stay the string that was written.  A document go-yaml would refuse raises
:class:`ConvertError` carrying go-yaml's own text.
"""

from __future__ import annotations

import math

from ...errors import KubeError
from ..go import json as gojson
from ..go import yaml as goyaml
from ..problems import Refusal, YamlValue
from .notes import TypeNote, is_noted

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The tag :func:`.reader.compose_documents` gives untagged plain scalars (go-yaml
#: resolves those).
PLAIN_TAG = "!cfgpatch/plain"


def pyyaml():
    """The PyYAML module (a declared dependency of the YAML side)."""
    try:
        import yaml
    except ImportError as err:  # pragma: no cover - PyYAML is a declared dependency
        raise KubeError("reading YAML needs PyYAML (pip install 'cfgpatch[yaml]')") from err
    return yaml


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


class NodeReader:
    """Turns composed PyYAML nodes into kubectl's values, collecting type notes."""

    def __init__(self) -> None:
        self.notes: list[TypeNote] = []

    def value(self, node: Any, pointer: str) -> Any:
        yaml = pyyaml()
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, pointer)
        if isinstance(node, yaml.SequenceNode):
            return [self.value(item, f"{pointer}/{i}") for i, item in enumerate(node.value)]
        return self.scalar(node, pointer, "value")

    def scalar(self, node: Any, pointer: str, where: str) -> Any:
        text, tag = node.value, node.tag
        if any("\ud800" <= ch <= "\udfff" for ch in text):  # a \uD83D-style escape
            mark = node.start_mark
            raise ConvertError(YamlValue("bad-escape", None, mark.line + 1, mark.column + 1))
        if tag == PLAIN_TAG:
            value = goyaml.resolve_plain(text)
            if value is goyaml.STR:
                return text
            if where == "value":
                self.note(pointer, text, value, where)
            return value
        short = tag.rsplit(":", 1)[-1] if tag.startswith("tag:yaml.org,2002:") else ""
        if short in ("int", "float", "bool", "null"):
            return self.tagged(text, short, _place(node))
        if short == "binary":
            return _binary(text)
        return text

    def tagged(self, text: str, short: str, place: tuple[int, int] = (0, 0)) -> Any:
        value = goyaml.resolve_plain(text)
        got = "str" if value is goyaml.STR else _kind(value)
        if got == short:
            return value
        if short == "float" and got == "int":
            return float(value)
        raise ConvertError(YamlValue("cannot-decode", (got, text, f"!!{short}"),
                                     *place))

    def note(self, pointer: str, text: str, value: Any, where: str) -> None:
        if is_noted(text, value):
            self.notes.append(TypeNote(pointer, text, value, where))

    def mapping(self, node: Any, pointer: str) -> dict:
        result: dict = {}
        for key_node, value_node in self.pairs(node):
            key = self.key(key_node, value_node, pointer)
            result[key] = self.value(value_node, f"{pointer}/{_escape(key)}")
        return result

    def pairs(self, node: Any) -> list:
        """Members in the order go-yaml v2 applies them, ``<<`` merge keys expanded where
        they stand: a later member overwrites an earlier one (so a merge can overwrite an
        explicit key written before it), and in ``<<: [*a, *b]`` the first map wins."""
        yaml = pyyaml()
        out: list = []
        for key_node, value_node in node.value:
            if not (isinstance(key_node, yaml.ScalarNode) and key_node.value == "<<"
                    and key_node.tag == PLAIN_TAG):
                out.append((key_node, value_node))
                continue
            is_list = isinstance(value_node, yaml.SequenceNode)
            for source in reversed(value_node.value) if is_list else [value_node]:
                if not isinstance(source, yaml.MappingNode):
                    raise ConvertError(YamlValue("merge-not-map", None, *_place(source)))
                out.extend(self.pairs(source))
        return out

    def key(self, key_node: Any, value_node: Any, pointer: str) -> str:
        yaml = pyyaml()
        if not isinstance(key_node, yaml.ScalarNode):
            raise ConvertError(YamlValue("invalid-map-key", _go_syntax(key_node),
                                         *_place(key_node)))
        key = self.scalar(key_node, pointer, "key")
        if isinstance(key, str):
            return key
        if key is None:
            shown = _go_syntax(value_node)
            shown = "<nil>" if shown == "interface {}(nil)" else shown
            raise ConvertError(YamlValue("map-key-nil", shown, *_place(key_node)))
        if isinstance(key, bool):
            text = "true" if key else "false"
        elif isinstance(key, int):
            if key > gojson.INT64_MAX:
                raise ConvertError(YamlValue("map-key-uint64", f"0x{key:x}", *_place(key_node)))
            text = str(key)
        else:
            text = {math.inf: ".inf", -math.inf: "-.inf"}.get(key, "") or (
                ".nan" if key != key else gojson.go_float_g(key))
        if key_node.tag == PLAIN_TAG and text != key_node.value:
            self.notes.append(TypeNote(f"{pointer}/{_escape(text)}", key_node.value, text, "key"))
        return text


def _binary(text: str) -> str:
    """A ``!!binary`` scalar: base64 decoded; bytes that are not UTF-8 print as U+FFFD."""
    import base64
    import binascii

    try:
        data = base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError):
        raise ConvertError(YamlValue("bad-base64", None)) from None
    return data.decode("utf-8", "replace")


def _go_syntax(node: Any) -> str:
    """Go's ``%#v`` of a YAML node as go-yaml decodes it (sigs.k8s.io/yaml prints it in
    errors): keys keep their YAML type, map members sorted (a nil key first; keys of
    different types come in an order Go does not fix, here by text)."""
    yaml = pyyaml()
    if isinstance(node, yaml.SequenceNode):
        return "[]interface {}{" + ", ".join(_go_syntax(item) for item in node.value) + "}"
    if isinstance(node, yaml.MappingNode):
        members = sorted((not _go_syntax(k).startswith("interface {}(nil)"),
                          f"{_go_syntax(k)}:{_go_syntax(v)}") for k, v in node.value)
        return "map[interface {}]interface {}{" + ", ".join(text for _, text in members) + "}"
    value = goyaml.resolve_plain(node.value) if node.tag == PLAIN_TAG else node.value
    if value is goyaml.STR or isinstance(value, str):
        return gojson.go_quote(node.value)
    if value is None:
        return "interface {}(nil)"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, int) else gojson.go_float_g(value)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    return "int" if isinstance(value, int) else "float"


def _place(node: Any) -> tuple[int, int]:
    """The line and column (from 1) where ``node`` starts."""
    mark = node.start_mark
    return mark.line + 1, mark.column + 1


class ConvertError(Refusal):
    """go-yaml / sigs.k8s.io/yaml refused the document: ``problem`` is a record of
    :mod:`cfgpatch.kube.problems` or go-yaml's words (a ``str``); ``str()`` its words."""
