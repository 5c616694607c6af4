"""Strategic merge patch exactly as ``kubectl patch --local --type strategic`` (1.32).

:func:`strategic_merge` walks the object and the patch together.  Where both hold a
map or both a list at a key, it asks the schema node (:mod:`cfgpatch.kube.schema.node`)
for the field's type and tags and then:

* maps merge key by key; ``null`` deletes; a value new to the object is taken from
  the patch with its ``null`` members and directive-carrying maps dropped;
* lists without ``patchStrategy: merge`` are replaced; ``merge`` lists of maps are
  merged by ``patchMergeKey`` into the first element with an equal key (``"9153"``
  is not ``9153``); ``merge`` lists of scalars are a union without duplicates;
* directives: ``$patch: replace|delete`` on maps and list elements (``merge`` and
  anything else are errors), ``$retainKeys``, ``$deleteFromPrimitiveList/<f>`` and
  ``$setElementOrder/<f>``;
* the order of a merged list is kubectl's: patch items in patch order, the other
  items in their original order, interleaved by their original positions (so an
  item added on its own goes first), with Go's stable sort and, for scalar lists
  holding duplicates, the in-place overwrite that Go's ``append`` causes;
* every error is raised as :class:`~cfgpatch.errors.KubeError` with kubectl's text
  (without ``error: ``) and the pointer where it happened; where kubectl panics
  (``$setElementOrder`` on an atomic list of maps, ...) the error has
  ``code="kubectl crash"``.

Inputs are never modified.

>>> from cfgpatch.kube.schema.node import builtin_schema
>>> node = builtin_schema().for_kind("v1", "Namespace")
>>> obj = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"finalizers": ["a", "b"]}}
>>> strategic_merge(obj, {"metadata": {"finalizers": ["c", "a"]}}, node)["metadata"]
{'finalizers': ['c', 'a', 'b']}
"""

from __future__ import annotations

import copy
from contextvars import ContextVar
from typing import Any

from ...errors import KubeError
from ...jsonvalue import canonical_unchecked
from ...pointer import format_pointer
from ..go.runtime import (
    MAP_TYPE,
    SLICE_TYPE,
    GoSlice,
    append_unique,
    go_equal,
    go_format,
    go_type,
    hash_key,
)
from ..schema.node import Node, PatchMeta
from .listorder import (
    KeyIndex,
    bad_arg_type,
    element_type,
    find_by_key,
    no_merge_key,
    normalize_order,
    partition,
    split_deletes,
)

DIRECTIVE = "$patch"
REPLACE = "replace"
DELETE = "delete"
MERGE = "merge"
RETAIN_KEYS = "$retainKeys"
DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList"
SET_ELEMENT_ORDER = "$setElementOrder"

BAD_RETAIN_KEYS = "invalid patch format of retainKeys"
BAD_PRIMITIVE_LIST = "invalid patch format of primitive list"
BAD_ORDER_LIST = "invalid patch format of setElementOrder list"


def strategic_merge(original: Any, patch: Any, node: Node) -> Any:
    """Apply strategic merge ``patch`` to ``original`` under schema ``node``.

    Returns the new object; raises :class:`KubeError` as kubectl would.
    """
    if patch is None:
        patch = {}
    if not isinstance(patch, dict) or not isinstance(original, dict):
        raise KubeError("invalid JSON document",
                        hint="a strategic merge patch and the object must both be JSON objects")
    return _merge_map(copy.deepcopy(original), copy.deepcopy(patch), node, [])


# ------------------------------------------------------------------ errors


def _fail(message: str, hint: str, path: list | None = None) -> KubeError:
    pointer = None if path is None else format_pointer([str(t) for t in path])
    return KubeError(message, hint=hint, pointer=pointer)


def _bad_patch_type(directive: Any, item: dict) -> KubeError:
    return KubeError(f"unknown patch type: {go_format(directive, 's')} in map: {go_format(item)}",
                     hint="$patch takes replace or delete (on a map or a list element)")


def _with_pointer(exc: KubeError, path: list) -> KubeError:
    if exc.pointer is None:
        exc.pointer = format_pointer([str(t) for t in path])
    return exc


# ------------------------------------------------------------------ maps


def _merge_map(original: dict, patch: dict, node: Node, path: list) -> dict:
    if DIRECTIVE in patch:
        return _map_directive(patch[DIRECTIVE], patch)
    capacities: dict[str, tuple[list, int]] = {}
    try:
        _apply_retain_keys(original, patch)
        _merge_ordered_lists(original, patch, node, path, capacities)
    except KubeError as exc:
        raise _with_pointer(exc, path) from None
    probe = _PROBE.get()
    if probe is not None:
        _probe_orders(original, patch, node, path, probe)
    for key in list(patch):
        if key in patch:
            _merge_key(original, key, patch[key], node, path, capacities)
    return original


def _capacity(capacities: dict, key: str, current: list) -> int | None:
    """The Go capacity of ``current`` when an earlier step of this map built it.

    Lists built by strategic merge itself do not have the capacity of a decoded
    list: ``$deleteFromPrimitiveList`` leaves one of the length the list had before
    the deletion, a merged (re-ordered) list has exactly its length.  When kubectl
    handles ``$deleteFromPrimitiveList/f`` before ``f``, the union then appends into
    that spare room.  None: a list as decoded from JSON.
    """
    held = capacities.get(key)
    return held[1] if held is not None and held[0] is current else None


def _map_directive(directive: Any, patch: dict) -> dict:
    if directive == REPLACE and isinstance(directive, str):
        del patch[DIRECTIVE]
        return patch
    if directive == DELETE and isinstance(directive, str):
        return {}
    raise _bad_patch_type(directive, patch)


def _merge_key(original: dict, key: str, value: Any, node: Node, path: list,
               capacities: dict) -> None:
    delete_list = key.startswith(DELETE_FROM_PRIMITIVE_LIST)
    if delete_list:
        key = _extract_key(key, DELETE_FROM_PRIMITIVE_LIST, path)
    if value is None:
        original.pop(key, None)
        return
    if key not in original or go_type(original[key]) != go_type(value):
        if not delete_list:
            _take_patch_value(original, key, value)
        return
    current = original[key]
    where = [*path, key]
    try:
        if isinstance(current, dict):
            child, meta = node.lookup_struct(key)
            meta.check()
            original[key] = (value if meta.strategy == REPLACE
                             else _merge_map(current, value, child, where))
        elif isinstance(current, list):
            elem, meta = node.lookup_slice(key)
            meta.check()
            merged, capacity = _merge_list_field(current, value, elem, meta, delete_list, where,
                                                 _capacity(capacities, key, current))
            original[key] = merged
            capacities[key] = (merged, capacity)
        else:
            original[key] = value
    except KubeError as exc:
        raise _with_pointer(exc, where) from None


def _take_patch_value(original: dict, key: str, value: Any) -> None:
    _discard_nulls(value)
    cleaned, keep = _remove_directives(value)
    if keep:
        original[key] = cleaned
    else:
        original.pop(key, None)


def _discard_nulls(value: Any) -> None:
    if isinstance(value, dict):
        for key in list(value):
            if value[key] is None:
                del value[key]
            else:
                _discard_nulls(value[key])
    elif isinstance(value, list):
        for item in value:
            _discard_nulls(item)


def _remove_directives(value: Any) -> tuple[Any, bool]:
    """Drop maps carrying ``$patch`` from a value new to the object."""
    if isinstance(value, dict):
        if DIRECTIVE in value:
            return None, False
        for key in list(value):
            cleaned, keep = _remove_directives(value[key])
            if keep:
                value[key] = cleaned
            else:
                del value[key]
        return value, True
    if isinstance(value, list):
        out = []
        for item in value:
            cleaned, keep = _remove_directives(item)
            if keep:
                out.append(cleaned)
        return out, True
    return value, True


def _extract_key(key: str, prefix: str, path: list | None = None) -> str:
    head, sep, rest = key.partition("/")
    if not sep or head != prefix:
        message = BAD_PRIMITIVE_LIST if prefix == DELETE_FROM_PRIMITIVE_LIST else BAD_ORDER_LIST
        raise _fail(message, f"{key!r} is not a well-formed {prefix}/<field> directive", path)
    return rest


def _apply_retain_keys(original: dict, patch: dict) -> None:
    if RETAIN_KEYS not in patch:
        return
    keep = patch.pop(RETAIN_KEYS)
    if not isinstance(keep, list):
        raise KubeError(BAD_RETAIN_KEYS, hint="$retainKeys must be a list of field names")
    allowed = {hash_key(item) for item in keep}
    for key, value in patch.items():
        if value is None or key.startswith((DELETE_FROM_PRIMITIVE_LIST, SET_ELEMENT_ORDER)):
            continue
        if hash_key(key) not in allowed:
            raise KubeError(BAD_RETAIN_KEYS,
                            hint=f"the patch sets {key!r}, which its $retainKeys list omits")
    for key in list(original):
        if hash_key(key) not in allowed:
            del original[key]


# ------------------------------------------------------------------ Go's map order

_PROBE: ContextVar[list | None] = ContextVar("strategic_order_probe", default=None)
_ABSENT = object()


def order_alternatives(original: Any, patch: Any, node: Node) -> list[tuple[str, str]]:
    """Where kubectl's answer depends on the order in which Go walks a patch map.

    kubectl handles the keys of a patch map in Go's random map order.  The order
    matters when a map holds both ``f`` and ``$deleteFromPrimitiveList/f`` (and no
    ``$setElementOrder/f``, which is always handled first): deleting first and then
    merging can give another list than merging first and then deleting (a value in
    both, duplicates, or the spare capacity the deletion leaves behind).
    :func:`strategic_merge` follows the patch's key order, as kubectl does most of
    the time.  Returns ``(pointer, explanation)`` for each such field whose two
    orders give different answers; empty when the patch fails before reaching one.
    """
    found: list[tuple[str, str]] = []
    if not _has_pair(patch):
        return found
    token = _PROBE.set(found)
    try:
        strategic_merge(original, patch, node)
    except KubeError:
        pass
    finally:
        _PROBE.reset(token)
    return found


def _has_pair(value: Any) -> bool:
    """Whether some map of the patch holds both ``f`` and ``$deleteFromPrimitiveList/f``."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, child in item.items():
                if (key.startswith(DELETE_FROM_PRIMITIVE_LIST + "/")
                        and key.partition("/")[2] in item):
                    return True
                stack.append(child)
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _probe_orders(original: dict, patch: dict, node: Node, path: list,
                  found: list) -> None:
    for key in list(patch):
        if not key.startswith(DELETE_FROM_PRIMITIVE_LIST + "/"):
            continue
        field = key.partition("/")[2]
        if field not in patch:
            continue
        token = _PROBE.set(None)
        try:
            merge_first = _trial(original, field, patch, (field, key), node, path)
            delete_first = _trial(original, field, patch, (key, field), node, path)
        finally:
            _PROBE.reset(token)
        if merge_first == delete_first:
            continue
        keys = list(patch)
        ours_merge_first = keys.index(field) < keys.index(key)
        other, first = (delete_first, key) if ours_merge_first else (merge_first, field)
        found.append((format_pointer([*map(str, path), field]),
                      f"kubectl handles {field} and {key} in Go's random map order; "
                      f"the result shown takes them in the order kubectl reads the patch's "
                      f"keys (what it does most of the time), but when it takes {first} first, "
                      f"{field} {other}"))


def _trial(original: dict, field: str, patch: dict, keys: tuple[str, str], node: Node,
           path: list) -> str:
    """What ``field`` becomes when ``keys`` are handled in this order."""
    scratch = {field: copy.deepcopy(original[field])} if field in original else {}
    capacities: dict[str, tuple[list, int]] = {}
    try:
        for key in keys:
            _merge_key(scratch, key, copy.deepcopy(patch[key]), node, path, capacities)
    except KubeError as exc:
        return f"{'crashes' if exc.code == 'kubectl crash' else 'fails'}: {exc.message}"
    if field not in scratch:
        return "is left out"
    return f"is {canonical_unchecked(scratch[field])}"


# ------------------------------------------------------------------ $setElementOrder


def _merge_ordered_lists(original: dict, patch: dict, node: Node, path: list,
                         capacities: dict) -> None:
    for key in list(patch):
        if key.startswith(SET_ELEMENT_ORDER):
            order = patch.pop(key)
            _merge_ordered_list(original, patch, key, order, node, path, capacities)


def _merge_ordered_list(original: dict, patch: dict, key: str, order: Any, node: Node,
                        path: list, capacities: dict) -> None:
    if not isinstance(order, list):
        raise bad_arg_type(SLICE_TYPE, order)
    field = _extract_key(key, SET_ELEMENT_ORDER)
    found_original, found_patch = field in original, field in patch
    current, given = original.get(field), patch.get(field)
    for present, value in ((found_original, current), (found_patch, given)):
        if present and not isinstance(value, list):
            raise bad_arg_type(SLICE_TYPE, value)
    elem, meta = node.lookup_slice(field)
    meta.check()
    current = current if found_original else []
    given = given if found_patch else []
    _check_order(given, order, meta.merge_key)
    if found_original and not found_patch:
        merged = current
    elif found_patch and not found_original:
        merged = _remove_directives(given)[0]
    elif found_patch:
        merged = _merge_list_field(current, given, elem, meta, False, [*path, field])[0]
    else:
        return
    patch_items, server_items = partition(merged, order, meta.merge_key)
    kind = element_type(current, given)
    result = normalize_order(patch_items, server_items, order, current, meta.merge_key, kind)
    original[field] = result
    capacities[field] = (result, len(result))
    patch.pop(field, None)


def _check_order(given: list, order: list, merge_key: str) -> None:
    if not order or not given:
        return
    items = split_deletes(given)[0] if merge_key else given
    i = j = 0
    while i < len(items) and j < len(order):
        if isinstance(items[i], dict) and DIRECTIVE in items[i]:
            i += 1
            continue
        if _merge_key_equal(items[i], order[j], merge_key):
            i += 1
        j += 1
    if i < len(items) and j >= len(order):
        raise KubeError(
            f"The order in patch list:\n{go_format(given)}\n doesn't match "
            f"{SET_ELEMENT_ORDER} list:\n{go_format(order)}",
            hint="every element of the patch list must appear in $setElementOrder, "
                 "in the same relative order")


def _merge_key_equal(left: Any, right: Any, merge_key: str) -> bool:
    if not merge_key:
        return go_equal(left, right)
    for item in (left, right):
        if not isinstance(item, dict):
            raise bad_arg_type(MAP_TYPE, item)
        if merge_key not in item:
            raise no_merge_key(item, merge_key)
    return go_equal(left[merge_key], right[merge_key])


# ------------------------------------------------------------------ lists


def _merge_list_field(current: list, given: list, elem: Node, meta: PatchMeta,
                      delete_list: bool, path: list,
                      capacity: int | None = None) -> tuple[list, int | None]:
    """The merged list and its Go capacity (None: that of a list decoded from JSON).

    ``capacity`` is the capacity of ``current`` (None: as decoded).
    """
    if meta.strategy != MERGE and not delete_list:
        return given, None
    if not current and not given:
        return current, capacity
    kind = element_type(current, given)
    merge_key = meta.merge_key
    if kind != MAP_TYPE:
        if delete_list:  # a new slice with the capacity of the list before the deletion
            drop = {hash_key(item) for item in given}
            return [item for item in current if hash_key(item) not in drop], len(current)
        merged = append_unique(current, given, capacity)
    else:
        if not merge_key:
            raise KubeError(f"cannot merge lists without merge key for {elem.kind}",
                            hint="the schema marks this list merge but names no merge key")
        live, given = _apply_list_directives(current, given, merge_key, capacity)
        current = live.items() if isinstance(live, GoSlice) else live
        merged = _merge_by_key(live, given, merge_key, elem, path)
    patch_items, server_items = partition(merged, given, merge_key)
    result = normalize_order(patch_items, server_items, given, current, merge_key, kind)
    return result, len(result)


def _apply_list_directives(current: list, given: list, merge_key: str,
                           capacity: int | None = None) -> tuple[GoSlice | list, list]:
    plain: list = []
    replace = False
    live = GoSlice(current, capacity)
    for item in given:
        if DIRECTIVE not in item:
            plain.append(item)
            continue
        directive = item[DIRECTIVE]
        if directive == DELETE and isinstance(directive, str):
            if merge_key not in item:
                raise no_merge_key(item, merge_key)
            _delete_matching(live, merge_key, item[merge_key])
        elif directive == REPLACE and isinstance(directive, str):
            replace = True
        elif directive == MERGE and isinstance(directive, str):
            raise KubeError("merging lists cannot yet be specified in the patch",
                            hint="$patch: merge is not implemented for list elements; "
                                 "leave it out (merging is the default)")
        else:
            raise _bad_patch_type(directive, item)
    if replace:
        return plain, []
    return live, plain


def _delete_matching(live: GoSlice, merge_key: str, value: Any) -> None:
    """Remove every element whose key equals ``value``, shifting in place like Go."""
    while True:
        index = find_by_key(live.items(), merge_key, value)
        if index < 0:
            return
        live.delete_at(index)


def _merge_by_key(live: GoSlice | list, given: list, merge_key: str, elem: Node,
                  path: list) -> list:
    if isinstance(live, list):
        live = GoSlice(list(live))
    lookup = KeyIndex(live.items(), merge_key)
    for item in given:
        if merge_key not in item:
            raise no_merge_key(item, merge_key)
        index = lookup.find(item[merge_key])
        if index >= 0:
            live.set(index, _merge_map(live.array[index], item, elem, [*path, index]))
        else:
            live.append(item)
            lookup.add(item)
    return live.items()


