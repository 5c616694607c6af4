"""kustomize's merge of an associative list (kyaml's ``walkAssociativeSequence``).

A list whose schema says ``x-kubernetes-patch-strategy: merge`` is merged element by
element, matched on the schema's keys (all of ``x-kubernetes-list-map-keys`` where
given, e.g. Service ports on ``port`` + ``protocol``), compared as text:

1. every distinct key tuple is collected, the patch's elements first, then the
   resource's; with several keys, tuples that agree where both have a value are made
   one (``[80, ""]`` and ``[80, TCP]``), pairwise in collection order;
2. for each tuple the patch's and the resource's element with these key texts are
   walked together; an element that ends up empty (``$patch: delete``, or no element
   on either side, as for a patch element without the keys) removes every resource
   element that matches the tuple -- with no key value at all, every element that has
   the key fields;
3. the result is the walked elements, in that order, followed by the resource's
   remaining elements (each replacing an equal-keyed one or appended), so patch
   elements come first.

A list of scalars with ``merge`` (``finalizers``) is the union, the patch's values
first, without duplicates.
"""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR
from ..problems import Kustomize, ProblemError
from .nodes import (
    MISSING,
    element_list,
    element_setter,
    has_field,
    is_missing_or_null,
    key_text,
    text,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DIRECTIVE = "$patch"


def walk_associative(walker: Any, sources: list[Any], node: Any, depth: int) -> Any:
    dest = visit_list(sources[0], sources[1])
    if dest is MISSING:
        return MISSING
    sources[0] = dest
    keys = node.merge_keys()
    values = _element_values(sources, keys)
    if values or keys:
        return _set_elements(walker, sources, node, depth, values, keys, dest)
    return _set_elements(walker, sources, node, depth, _primitive_values(sources), [""], dest)


def visit_list(dest: Any, origin: Any) -> Any:
    """kyaml's ``Merger.VisitList`` for a merged list (MISSING: clear it)."""
    if is_missing_or_null(dest):
        return origin
    if origin is None:
        return MISSING
    found = list_directive(origin)
    if found == "delete":
        return MISSING
    if found == "replace":
        return origin
    return dest


def list_directive(patch: Any) -> str:
    """A list's directive: its first mapping element with a ``$patch`` field, if that
    element holds nothing else (removed, with every element of the same directive)."""
    if not isinstance(patch, list):
        return "merge"
    element = next((e for e in patch if isinstance(e, dict) and DIRECTIVE in e), None)
    if element is None or len(element) > 1:
        return "merge"
    value = text(element[DIRECTIVE])
    if value not in ("delete", "replace", "merge"):
        raise ProblemError(Kustomize("unknown-patch-strategy", name=value), code=KUSTOMIZE_ERROR)
    element_setter(patch, MISSING, [DIRECTIVE], [value])
    return value


def _element_values(sources: list[Any], keys: list[str]) -> list[list[str]]:
    """Every element's key texts, the patch's first, without repeats."""
    out: list[list[str]] = []
    for source in (sources[1], sources[0]):
        if not isinstance(source, list):
            continue
        for element in source:
            values = [key_text(element, key) for key in keys]
            if values and values not in out:
                out.append(values)
    return out


def _primitive_values(sources: list[Any]) -> list[list[str]]:
    out: list[list[str]] = []
    seen: set[str] = set()
    for source in (sources[1], sources[0]):
        if not isinstance(source, list):
            continue
        for item in source:
            value = text(item)
            if value not in seen:
                seen.add(value)
                out.append([value])
    return out


def _merge_values(values_list: list[list[str]]) -> list[list[str]]:
    """Tuples that agree where both have a value become one (kyaml's ``mergeValues``)."""
    for i in range(len(values_list)):
        first = values_list[i]
        for j in range(len(values_list)):
            matched, merged = _match(first, values_list[j])
            if matched:
                values_list[i] = merged
                values_list[j] = merged
    return values_list


def _match(first: list[str], second: list[str]) -> tuple[bool, list[str]]:
    if len(first) != len(second):
        return False, []
    common = False
    merged: list[str] = []
    for a, b in zip(first, second):
        if a == b:
            common = True
            merged.append(a)
        elif a and b:
            return False, []
        else:
            merged.append(a or b)
    return common, merged


def _valid_keys(values_list: list[list[str]], values: list[str],
                keys: list[str]) -> tuple[list[str], list[str]]:
    """The keys that have a value somewhere (all of them when none has)."""
    valid = {keys[i] for row in values_list for i, v in enumerate(row) if v != ""}
    if not valid:
        return keys, values
    return ([k for k in keys if k in valid],
            [v for i, v in enumerate(values) if v != "" or keys[i] in valid])


def _set_elements(walker: Any, sources: list[Any], node: Any, depth: int,
                  values_list: list[list[str]], keys: list[str], dest: list) -> Any:
    added: list = []
    elements = node.elements()
    if len(keys) > 1:
        values_list = _merge_values(values_list)
    valid_values: list[str] = []
    valid_keys = keys
    for values in values_list:
        if not values:
            continue
        valid_keys, valid_values = _valid_keys(values_list, values, keys)
        match_keys, match_values = _valid_keys([valid_values], valid_values, valid_keys)
        pair = [element_list(s, match_keys, match_values) if s is not MISSING else MISSING
                for s in sources]
        value = walker.walk(pair, elements, depth + 1)
        if is_missing_or_null(value) or value == {}:
            element_setter(dest, MISSING, valid_keys, valid_values)
            continue
        for key, key_value in zip(valid_keys, valid_values):
            if isinstance(value, dict) and key not in value and key_value != "":
                value[key] = _scalar(key_value)
        element_setter(added, value, valid_keys, valid_values)
    if values_list:
        dest = _append_list(added, dest, valid_keys)
    if is_missing_or_null(dest):
        return MISSING
    return dest


def _append_list(target: list, source: list, keys: list[str]) -> list:
    """kyaml's ``appendListNode``: ``source``'s elements into ``target`` by key."""
    for element in list(source):
        if keys[0] == "":
            element_setter(target, element, [""], [text(element)])
            continue
        values = []
        for key in keys:
            if not has_field(element, key):
                target.append(element)
                continue
            values.append(text(element[key]))
        if len(keys) > 1:
            element_setter(target, MISSING, keys, values)
        element_setter(target, element, keys, values)
    return target


def _scalar(value: str) -> Any:
    """A scalar kyaml makes up from text (untagged: read back as YAML would)."""
    from ..io.kyaml_scalars import resolve

    tag, resolved = resolve(value)
    return value if tag == "!!timestamp" else resolved
