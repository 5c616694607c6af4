"""Which strings kustomize holds quoted: the one scalar style its merge lets through.

When a patch sets a field the resource already has, kyaml gives the patch's value the
*resource's* node style.  So a resource's ``targetPort: "x"`` (quoted) patched with
``targetPort: 2`` prints ``targetPort: "2"``: the number is now a quoted scalar and reads
back as a string; a plain resource value lets it stay a number.  Plain JSON values lose
the style, so :func:`styled_value` marks the strings that were quoted (or written as
``|``/``>`` blocks) as :class:`Quoted`, a ``str`` like any other everywhere else.

Strings kustomize makes itself get a style too (measured, tree ``scalar-styles``):

* values it sets (``commonLabels``/``labels``/``commonAnnotations`` entries, generated
  ConfigMap and Secret data, their labels and annotations) are double-quoted when a
  YAML 1.1 parser would read them as something else than a string (``"1"``,
  ``"true"``, ``"yes"``: kyaml's ``IsYaml1_1NonString``), and a generated value with a
  line break is a ``|`` block (:func:`kustomize_set`);
* a JSON 6902 patch turns the whole resource into JSON and back through go-yaml's
  encoder: a string is then quoted where that encoder quotes it (``"8080"``,
  ``"yes"``, ``""``, a leading ``*``; a ``|`` block with a line break), plain otherwise,
  whatever style it had before (:func:`reencoded`);
* annotations are strings: read as the source text of each scalar (a date too:
  ``2024-01-01``, tree ``annotation-dates``), kept as :class:`SourceText` with the value
  the scalar decodes to (:func:`metadata_texts`);
* a JSON 6902 patch sees the decoded values, and the annotations come back from it as
  Go's JSON decodes them, formatted as strings: a number as a float64 (``0x1F`` is
  ``"31"``, ``1000000`` is ``"1e+06"``), ``~`` is ``"null"``, a date its RFC 3339 text
  (:func:`json_annotations`, tree ``json6902-annotation-values``); labels are left to
  the JSON re-encoding (``0x1F`` is the number 31).  At the end of the build a value
  that is not a string is printed as its text (:func:`value_text`).
"""

from __future__ import annotations

from ...lazy_pattern import lazily
from ..go import yaml as goyaml
from ..go.json import go_float
from ..io import folded
from ..io.kyaml import (
    DOUBLE,
    FLOW,
    FOLDED,
    LITERAL,
    MAPPING,
    SCALAR,
    SEQUENCE,
    SINGLE,
    TIMESTAMP,
    Node,
)
from ..io.kyaml_scalars import node_value, value_with_typed_keys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

QUOTED_STYLES = (SINGLE, DOUBLE, LITERAL, FOLDED)


class Quoted(str):
    """A string kustomize holds in a quoted or block style."""

    __slots__ = ()
    #: errors print the node as written; most quoted scalars are double-quoted
    double_quoted = True


class SourceText(str):
    """The source text of a metadata scalar that does not decode to a string:
    ``decoded`` is what it decodes to (what a JSON 6902 patch sees)."""

    decoded: Any

    def __new__(cls, text: str, decoded: Any) -> SourceText:
        made = super().__new__(cls, text)
        made.decoded = decoded
        return made

    # copies (a snapshot, deepcopy) keep both; str's stubs allow no second argument
    def __getnewargs__(self) -> tuple[str, Any]:  # type: ignore[override]
        return str(self), self.decoded


def styled_value(node: Node, check: bool = True) -> Any:
    """:func:`~cfgpatch.kube.io.kyaml_scalars.node_value`, with quoted strings marked.

    >>> from cfgpatch.kube.io.kyaml_read import read_document
    >>> value = styled_value(read_document('a: "x"\\nb: y\\n'))
    >>> [type(value[k]).__name__ for k in "ab"]
    ['Quoted', 'str']
    """
    return _mark(node, node_value(node, check), 0)


def styled_with_typed_keys(node: Node, check: bool = True,
                           resource: bool = False) -> tuple[Any, bool]:
    """:func:`styled_value` of a resource or patch: a plain key that reads as no string
    is a ``TypedKey`` (kustomize fails when it prints it, :mod:`.plainkeys`), and
    whether there is one (``check``: as for :func:`styled_value`).  In a ``resource``
    a field written with no value inside ``{}`` holds ``""`` (:class:`FlowEmptyKey`)."""
    value, typed = value_with_typed_keys(node, check)
    return _mark(node, value, 0, resource), typed


def _mark(node: Node, value: Any, depth: int, flow_text: bool = False) -> Any:
    if depth > 10000:
        return value
    if node.kind == SCALAR:
        if type(value) is str and node.style == FOLDED:
            return Quoted(folded.round_trip(value))  # as kustomize prints it
        if type(value) is str and node.style in QUOTED_STYLES:
            return Quoted(value)
        return value
    if node.kind == MAPPING and isinstance(value, dict):
        empty = []
        for key, child in node.pairs():
            if key.value in value and key.value != "<<":
                value[key.value] = _mark(child, value[key.value], depth + 1, flow_text)
                if child.kind == SCALAR and child.value == "" and not child.style \
                        and value[key.value] is None:
                    empty.append(key.value)
        if empty:
            _mark_empty(value, empty, flow_text and node.style == FLOW)
        return value
    if node.kind == SEQUENCE and isinstance(value, list) and len(value) == len(node.content):
        return [_mark(child, item, depth + 1, flow_text)
                for child, item in zip(node.content, value)]
    return value


class EmptyNullKey(str):
    """The key of a field written with no value (``args:``): a null like ``~`` or
    ``null`` everywhere, except that kustomize's strategic merge drops such fields from
    the resource it merges, at any depth, while written nulls stay (measured, tree
    ``empty-values``)."""

    __slots__ = ()


class FlowEmptyKey(EmptyNullKey):
    """The key of a resource's field written with no value inside ``{}`` (``{a: }``,
    ``{a}``): kustomize prints it, and a JSON 6902 patch sees it, as ``""``, while its
    strategic merge drops it as it drops ``a:`` (measured with kubectl 1.32; a patch's
    own ``{a: }`` stays a null that deletes ``a``).  The field holds ``""``."""

    __slots__ = ()


def _mark_empty(value: dict, keys: list[str], flow_text: bool = False) -> None:
    """Mark ``keys`` of ``value`` as :class:`EmptyNullKey` (in place, order kept); with
    ``flow_text``, as :class:`FlowEmptyKey` holding ``""``."""
    wanted = set(keys)
    items = [((FlowEmptyKey(k), "") if flow_text else (EmptyNullKey(k), v))
             if k in wanted and type(k) is str else (k, v)
             for k, v in value.items()]
    value.clear()
    value.update(items)


def drop_empty(mapping: dict, keys: list[EmptyNullKey]) -> None:
    """Remove those of ``keys`` (fields written with no value, see :class:`EmptyNullKey`)
    whose field in ``mapping`` still holds their empty value.  A strategic merge does
    this in every mapping its walk reaches (:mod:`.merge`): the whole resource, except
    the items of a list it does not merge by key, which it takes whole (measured, tree
    ``list-item-empty-values``)."""
    for key in keys:
        if key in mapping:
            held = mapping[key]
            if held is None or (held == "" and isinstance(key, FlowEmptyKey)):
                del mapping[key]


def restyled(old: Any, new: Any) -> Any:
    """``new`` set where the resource held ``old``: it takes ``old``'s style (over a
    quoted string, a patch scalar is its source text: :mod:`.patchtexts`)."""
    if isinstance(old, (dict, list)) or isinstance(new, (dict, list)) or new is None:
        return new
    from .patchtexts import Sourced
    if isinstance(old, Quoted):
        if isinstance(new, Quoted):
            return new
        if isinstance(new, Sourced):  # a patch scalar: its source text
            return Quoted(new.source)
        from .nodes import text
        return Quoted(text(new))
    if isinstance(new, Quoted):
        return str(new)
    return new.base if isinstance(new, Sourced) else new


def is_yaml11_non_string(text: str) -> bool:
    """kyaml's ``IsValueNonString``: would a YAML 1.1 parser read ``text`` as another
    type (a number, a boolean, a null, a map or a list)?

    >>> [is_yaml11_non_string(t) for t in ("1", "yes", "web", "", "a: b", "0x1F")]
    [True, True, False, False, True, True]
    """
    if text == "" or "\n" in text:
        return False
    if goyaml.resolve_plain(text) is not goyaml.STR:
        return True
    return (text[0] in "#[{" or text == "-" or text.startswith("- ")
            or text.endswith(":") or ": " in text)


def kustomize_set(text: str) -> str:
    """A string value kustomize writes itself, with the style it gives it."""
    if type(text) is not str:
        return text
    if "\n" in text or is_yaml11_non_string(text):
        return Quoted(text)
    return text


_NOT_PRINTABLE = lazily("[\x00-\x09\x0b-\x1f\x7f-\x84\x86-\x9f\ufeff\ufffe\uffff]")
_INDICATORS = set(",[]{}#&*!|>'\"%@`")


def encoder_quotes(text: str) -> bool:
    """Does go-yaml's encoder write ``text`` quoted (or as a block)?

    >>> [encoder_quotes(t) for t in ("8080", "x", "", "yes", "*a", "a: b", "a\\nb")]
    [True, False, True, True, True, True, True]
    """
    if text == "" or "\n" in text or not goyaml.is_plain_string(text):
        return True
    if _NOT_PRINTABLE.search(text):
        return True
    if text[0] in "-?:" and (len(text) == 1 or text[1] in " \t"):
        return True  # a block indicator: followed by a space or the end
    return (text[0] in _INDICATORS or text[0].isspace() or text[-1].isspace()
            or ": " in text or " #" in text or text.endswith(":"))


def reencoded(value: Any, depth: int = 0) -> Any:
    """``value`` as go-yaml reads back its own encoding of it (see the module docstring;
    an integer comes back from Go's JSON as a float64)."""
    if depth > 10000:
        return value
    if isinstance(value, str):
        return Quoted(value) if encoder_quotes(value) else str(value)
    if isinstance(value, dict):
        return {k: reencoded(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [reencoded(v, depth + 1) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return _float64(value)
    return value


def _float64(value: int) -> int | float:
    """An integer after Go's JSON: a float64, which prints otherwise only when its digits
    do not survive (``9223372036854775807`` prints ``9223372036854776000``)."""
    if -2**53 <= value <= 2**53:  # every such integer is a float64 printed as itself
        return value
    try:
        as_float = float(value)
    except OverflowError:
        return value
    return as_float if go_float(as_float) != str(value) else value


def plain(value: Any, depth: int = 0) -> Any:
    """``value`` without :class:`Quoted` marks (for the JSON output)."""
    if depth > 10000:
        return value
    if isinstance(value, Quoted):
        return str(value)
    if isinstance(value, dict):
        return {k: plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v, depth + 1) for v in value]
    return value


def metadata_texts(node: Node, value: Any, labels: bool = False, nulls: bool = True) -> None:
    """kustomize reads annotations as strings: each scalar's own text (``1.50``, ``~``,
    ``0x1F``, ``2024-01-01`` stay as written, as :class:`SourceText`), in place in
    ``value``; with ``labels`` the labels too (a patch with a ``target`` gets its labels
    set from a string map); ``nulls=False`` leaves ``null`` values alone (a patch's
    ``null`` still deletes)."""
    if node.kind != MAPPING or not isinstance(value, dict):
        return
    meta_node, meta = node.get("metadata"), value.get("metadata")
    if meta_node is None or meta_node.kind != MAPPING or not isinstance(meta, dict):
        return
    for field in ("annotations", "labels") if labels else ("annotations",):
        field_node, found = meta_node.get(field), meta.get(field)
        if field_node is None or field_node.kind != MAPPING or not isinstance(found, dict):
            continue
        for key, child in field_node.pairs():
            if child.kind != SCALAR or key.value not in found:
                continue
            current = found[key.value]
            if current is None and not nulls:
                continue
            if not isinstance(current, str) or child.tag == TIMESTAMP:
                found[key.value] = SourceText(child.value, current)


def json_annotations(value: Any, decoded: bool) -> None:
    """The annotations of ``value``, in place, as a JSON 6902 patch handles them:
    ``decoded`` (before the patch) each :class:`SourceText` becomes the value it decodes
    to; after it (``decoded`` false) each value that is not a string becomes the string
    kustomize writes for it (a number goes through Go's float64)."""
    meta = value.get("metadata") if isinstance(value, dict) else None
    found = meta.get("annotations") if isinstance(meta, dict) else None
    if not isinstance(found, dict):
        return
    for key, item in found.items():
        if decoded and isinstance(item, SourceText):
            found[key] = item.decoded
        elif not decoded and not isinstance(item, (str, dict, list)):
            is_number = isinstance(item, (int, float)) and not isinstance(item, bool)
            found[key] = value_text(float(item) if is_number else item)


def stringify_annotations(value: Any) -> None:
    """Annotations that are not strings (a JSON patch set them) as kustomize prints them;
    empty or null annotations are dropped (kustomize strips its internal annotations
    from every resource at the end, which clears a map left empty)."""
    meta = value.get("metadata") if isinstance(value, dict) else None
    found = meta.get("annotations") if isinstance(meta, dict) else None
    if isinstance(meta, dict) and "annotations" in meta and (found is None or found == {}):
        del meta["annotations"]
    if isinstance(found, dict):
        for key, item in found.items():
            if not isinstance(item, str):
                found[key] = value_text(item)


def value_text(value: Any) -> Any:
    """A decoded value as the string kustomize's string maps hold (no source text): a
    map or a list is "" (tree ``annotation-values``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, (dict, list)):
        return ""
    from .nodes import text
    return "null" if value is None else text(value)
