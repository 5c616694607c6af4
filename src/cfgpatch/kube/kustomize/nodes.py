"""kyaml's node helpers as kustomize's merge uses them, on plain JSON-like values.

A mapping is a ``dict``, a sequence a ``list``, a ``null`` scalar ``None``; :data:`MISSING`
is kyaml's nil node (no value at all), distinct from a ``null`` scalar.  kyaml compares
scalars by their text as written (``node.Value``); :func:`text` gives that text for a
decoded value (``8080``, ``true``, ``null``; ``""`` for a mapping or a sequence).  The
helpers mutate their arguments in place, as kyaml mutates its nodes: the merge relies on
it (a merged list element *is* the resource's element).
"""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR, KubeError
from ..problems import Kustomize, ProblemError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()
#: A ``null`` the resource already holds where the patch has nothing: kyaml keeps it.
KEEP_NULL: Any = type("KeepNull", (), {"__repr__": lambda self: "KEEP_NULL"})()

MAPPING, SEQUENCE, SCALAR = "MappingNode", "SequenceNode", "ScalarNode"


def is_missing_or_null(value: Any) -> bool:
    return value is MISSING or value is None or value is KEEP_NULL


def kind_of(value: Any) -> str:
    if isinstance(value, dict):
        return MAPPING
    if isinstance(value, list):
        return SEQUENCE
    return SCALAR


def text(value: Any) -> str:
    """A scalar's text (``node.Value``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (dict, list)) or value is MISSING:
        return ""
    if isinstance(value, float):
        from ..go.json import go_float_g
        return go_float_g(value)
    return str(value)


def key_text(element: Any, key: str) -> str:
    """``ElementValuesList``'s value of ``key`` in one element ("" when absent or empty)."""
    if not isinstance(element, dict) or key not in element:
        return ""
    value = element[key]
    if value is None or value == {} or value == []:
        return ""
    return text(value)


def check_kind(kind: str, values: list[Any]) -> None:
    """kyaml's ``ErrorIfAnyInvalidAndNonNull``."""
    for value in values:
        if not is_missing_or_null(value) and kind_of(value) != kind:
            raise wrong_kind(kind, value)


def wrong_kind(kind: str, value: Any) -> KubeError:
    """kyaml's error for ``value`` where a node of ``kind`` was expected."""
    return ProblemError(wrong_kind_problem(kind, kind_of(value),
                                           node_text(value).rstrip(chr(10))),
                        code=KUSTOMIZE_ERROR)


def wrong_kind_problem(kind: str, found: str, contents: str) -> Kustomize:
    """A node of kind ``found`` (``contents``: as kyaml prints it) where one of ``kind``
    was expected."""
    return Kustomize("wrong-node-kind", name=kind, detail=(found, contents))


def node_text(value: Any, indent: str = "") -> str:
    """A node as kyaml prints it in an error (block style; the input's flow style is not
    known from plain values)."""
    if isinstance(value, dict) and value:
        lines = []
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item:
                nested = node_text(item, indent + ("  " if isinstance(item, dict) else ""))
                lines.append(f"{indent}{key}:\n{nested}")
            else:
                lines.append(f"{indent}{key}: {_scalar_text(item)}\n")
        return "".join(lines)
    if isinstance(value, list) and value:
        lines = []
        for item in value:
            if isinstance(item, (dict, list)) and item:
                nested = node_text(item, indent + "  ")
                lines.append(f"{indent}- {nested[len(indent) + 2:]}")
            else:
                lines.append(f"{indent}- {_scalar_text(item)}\n")
        return "".join(lines)
    return f"{indent}{_scalar_text(value)}\n"


def _scalar_text(value: Any) -> str:
    if getattr(value, "double_quoted", False) and "\n" not in value:  # styles.Quoted
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'  # as written
    if value == {}:
        return "{}"
    if value == []:
        return "[]"
    return text(value)


# ----------------------------------------------------------------- matching and setting


def has_field(element: Any, name: str) -> bool:
    """``Get(name)`` on an element: raises for a scalar, False for null."""
    if is_missing_or_null(element):
        return False
    if not isinstance(element, dict):
        raise wrong_kind(MAPPING, element)
    return name in element


def field_matches(element: Any, name: str, value: str) -> bool:
    """``FieldMatcher{Name, StringValue}``: ``value`` "" matches any value of the field."""
    if is_missing_or_null(element):
        return False
    if name == "":
        if not isinstance(element, (dict, list)):
            return text(element) == value
        raise wrong_kind(SCALAR, element)
    if not isinstance(element, dict):
        raise wrong_kind(MAPPING, element)
    if name not in element:
        return False
    return value == "" or text(element[name]) == value


def element_list(seq: Any, keys: list[str], values: list[str]) -> Any:
    """``ElementList``: the first element whose ``keys`` have these texts, or MISSING."""
    if not isinstance(seq, list):
        return MISSING
    if not keys or keys[0] == "":
        wanted = values[0] if values else ""
        for element in seq:
            if text(element) == wanted:
                return element
        return MISSING
    if len(keys) != len(values):
        return MISSING
    for element in seq:
        if not isinstance(element, dict):
            continue
        if all(k in element and text(element[k]) == v for k, v in zip(keys, values)):
            return element
    return MISSING


def element_setter(seq: list, element: Any, keys: list[str], values: list[str]) -> None:
    """``ElementSetter``: replace (or, with ``element`` MISSING, remove) every element
    matching ``keys``/``values``; append ``element`` when none matched.  Null and empty
    mapping elements are dropped on the way."""
    keys = keys or [""]
    mapping_setter = keys[0] != "" and bool(values) and values[0] != ""
    kept: list = []
    matched = False
    for item in seq:
        if item is None or item == {}:
            continue
        if not isinstance(item, dict) and mapping_setter:
            kept.append(item)
            continue
        found, hit = True, False
        for index, key in enumerate(keys):
            if index < len(values):
                hit = field_matches(item, key, values[index])
            if not hit:
                found = False
                break
        if not found:
            if values:
                kept.append(item)
            continue
        matched = True
        if element is not MISSING:
            kept.append(element)
    seq[:] = kept
    if is_missing_or_null(element):
        return
    if not matched:
        seq.append(element)
