"""Strategic merge patch exactly as ``kubectl patch --local --type strategic`` (1.32).

:func:`strategic_merge` walks the object and the patch together.  Where both hold a
map or both a list at a key, it asks the schema node (:mod:`cfgpatch.kube.schema`)
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

>>> from cfgpatch.kube.schema import builtin_schema
>>> node = builtin_schema().for_kind("v1", "Namespace")
>>> obj = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"finalizers": ["a", "b"]}}
>>> strategic_merge(obj, {"metadata": {"finalizers": ["c", "a"]}}, node)["metadata"]
{'finalizers': ['c', 'a', 'b']}
"""

from __future__ import annotations

import copy
from typing import Any

from ..errors import KubeError
from ..pointer import format_pointer
from .goruntime import (
    MAP_TYPE,
    SLICE_TYPE,
    append_capacity,
    crash,
    go_equal,
    go_format,
    go_type,
    grow_capacity,
    hash_key,
    stable_sort,
)
from .schema import Node, PatchMeta

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


def _no_merge_key(item: dict, key: str) -> KubeError:
    return KubeError(f"map: {go_format(item)} does not contain declared merge key: {key}",
                     hint=f"every element of this list is identified by its {key!r}; "
                          f"kubectl refuses the whole patch when an element lacks it")


def _bad_arg_type(expected: str, value: Any) -> KubeError:
    actual = go_type(value) or "%!s(<nil>)"
    return KubeError(f"expected a {expected}, but received a {actual}",
                     hint="the value has a different JSON type than strategic merge expects here")


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
    try:
        _apply_retain_keys(original, patch)
        _merge_ordered_lists(original, patch, node, path)
    except KubeError as exc:
        raise _with_pointer(exc, path) from None
    for key in list(patch):
        if key in patch:
            _merge_key(original, key, patch[key], node, path)
    return original


def _map_directive(directive: Any, patch: dict) -> dict:
    if directive == REPLACE and isinstance(directive, str):
        del patch[DIRECTIVE]
        return patch
    if directive == DELETE and isinstance(directive, str):
        return {}
    raise _bad_patch_type(directive, patch)


def _merge_key(original: dict, key: str, value: Any, node: Node, path: list) -> None:
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
            original[key] = _merge_list_field(current, value, elem, meta, delete_list, where)
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


# ------------------------------------------------------------------ $setElementOrder


def _merge_ordered_lists(original: dict, patch: dict, node: Node, path: list) -> None:
    for key in list(patch):
        if key.startswith(SET_ELEMENT_ORDER):
            order = patch.pop(key)
            _merge_ordered_list(original, patch, key, order, node, path)


def _merge_ordered_list(original: dict, patch: dict, key: str, order: Any, node: Node,
                        path: list) -> None:
    if not isinstance(order, list):
        raise _bad_arg_type(SLICE_TYPE, order)
    field = _extract_key(key, SET_ELEMENT_ORDER)
    found_original, found_patch = field in original, field in patch
    current, given = original.get(field), patch.get(field)
    for present, value in ((found_original, current), (found_patch, given)):
        if present and not isinstance(value, list):
            raise _bad_arg_type(SLICE_TYPE, value)
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
        merged = _merge_list_field(current, given, elem, meta, False, [*path, field])
    else:
        return
    patch_items, server_items = _partition(merged, order, meta.merge_key)
    kind = _element_type(current, given)
    original[field] = _normalize_order(patch_items, server_items, order, current,
                                       meta.merge_key, kind)
    patch.pop(field, None)


def _check_order(given: list, order: list, merge_key: str) -> None:
    if not order or not given:
        return
    items = _split_deletes(given)[0] if merge_key else given
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
            raise _bad_arg_type(MAP_TYPE, item)
        if merge_key not in item:
            raise _no_merge_key(item, merge_key)
    return go_equal(left[merge_key], right[merge_key])


# ------------------------------------------------------------------ lists


def _merge_list_field(current: list, given: list, elem: Node, meta: PatchMeta,
                      delete_list: bool, path: list) -> list:
    if meta.strategy != MERGE and not delete_list:
        return given
    if not current and not given:
        return current
    kind = _element_type(current, given)
    merge_key = meta.merge_key
    if kind != MAP_TYPE:
        if delete_list:
            drop = {hash_key(item) for item in given}
            return [item for item in current if hash_key(item) not in drop]
        merged = _union(current, given)
    else:
        if not merge_key:
            raise KubeError(f"cannot merge lists without merge key for {elem.kind}",
                            hint="the schema marks this list merge but names no merge key")
        live, given = _apply_list_directives(current, given, merge_key)
        current = live.items() if isinstance(live, _GoSlice) else live
        merged = _merge_by_key(live, given, merge_key, elem, path)
    patch_items, server_items = _partition(merged, given, merge_key)
    return _normalize_order(patch_items, server_items, given, current, merge_key, kind)


def _element_type(*lists: list) -> str:
    first: str | None = None
    for items in lists:
        for item in items:
            kind = go_type(item)
            if first is None:
                if kind is None:
                    raise crash("invalid memory address or nil pointer dereference")
                if kind == SLICE_TYPE:
                    raise KubeError("lists of lists are not supported",
                                    hint="strategic merge cannot merge a list of lists")
                first = kind
            elif first != kind:
                raise KubeError(f"list element types are not identical: {go_format(list(lists))}",
                                hint="all elements of the object's list and the patch's list "
                                     "must have the same JSON type")
    if first is None:
        raise KubeError("no elements in any of the given slices",
                        hint="$setElementOrder names a list that is empty on both sides")
    return first


def _union(current: list, given: list) -> list:
    """``deduplicateScalars(append(current, given...))`` with Go's aliasing.

    When the decoded list has spare capacity, ``append`` writes into its array and
    the de-duplication's swaps then overwrite the original list in place, which
    later decides the order of the result (kubectl's duplicates quirk).
    """
    shared = append_capacity(len(current)) >= len(current) + len(given)
    array = current + given
    last = len(array) - 1
    i = 0
    while i < last:
        j = i + 1
        while j <= last:
            if go_equal(array[i], array[j]):
                array[j] = array[last]
                last -= 1
                j -= 1
            j += 1
        i += 1
    if shared:
        current[:] = array[:len(current)]
    return array[:last + 1]


class _GoSlice:
    """A Go slice over the caller's list, for kubectl's in-place list edits.

    Deleting an element shifts the rest left inside the same array and ``append``
    writes into spare capacity, so the caller's view of the original list (used
    later for ordering by ``$setElementOrder``) sees those writes, as in Go.
    """

    def __init__(self, view: list) -> None:
        self.view = view
        self.array = list(view)
        self.cap = append_capacity(len(view))
        self.length = len(view)
        self.shared = True

    def items(self) -> list:
        return self.array[:self.length]

    def set(self, index: int, value: Any) -> None:
        self.array[index] = value
        if self.shared and index < len(self.view):
            self.view[index] = value

    def delete_at(self, index: int) -> None:
        for k in range(index, self.length - 1):
            self.set(k, self.array[k + 1])
        self.length -= 1

    def append(self, value: Any) -> None:
        if self.length >= self.cap:
            self.array = self.array[:self.length]
            self.cap = grow_capacity(self.cap, self.length + 1)
            self.shared = False
        if self.length < len(self.array):
            self.set(self.length, value)
        else:
            self.array.append(value)
        self.length += 1


def _apply_list_directives(current: list, given: list,
                           merge_key: str) -> tuple[_GoSlice | list, list]:
    plain: list = []
    replace = False
    live = _GoSlice(current)
    for item in given:
        if DIRECTIVE not in item:
            plain.append(item)
            continue
        directive = item[DIRECTIVE]
        if directive == DELETE and isinstance(directive, str):
            if merge_key not in item:
                raise _no_merge_key(item, merge_key)
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


def _delete_matching(live: _GoSlice, merge_key: str, value: Any) -> None:
    """Remove every element whose key equals ``value``, shifting in place like Go."""
    while True:
        index = _find_by_key(live.items(), merge_key, value)
        if index < 0:
            return
        live.delete_at(index)


def _find_by_key(items: list, merge_key: str, value: Any) -> int:
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise KubeError(f"value for key {index} is not a map.",
                            hint="a merge-keyed list may only hold objects")
        if merge_key in item and go_equal(item[merge_key], value):
            return index
    return -1


def _merge_by_key(live: _GoSlice | list, given: list, merge_key: str, elem: Node,
                  path: list) -> list:
    if isinstance(live, list):
        live = _GoSlice(list(live))
    for item in given:
        if merge_key not in item:
            raise _no_merge_key(item, merge_key)
        index = _find_by_key(live.items(), merge_key, item[merge_key])
        if index >= 0:
            live.set(index, _merge_map(live.items()[index], item, elem, [*path, index]))
        else:
            live.append(item)
    return live.items()


def _partition(merged: list, reference: list, merge_key: str) -> tuple[list, list]:
    """Split into items named by ``reference`` (patch items) and the rest."""
    named: list = []
    rest: list = []
    if not merge_key:
        keys = {hash_key(item) for item in reference}
        for item in merged:
            (named if hash_key(item) in keys else rest).append(item)
        return named, rest
    for item in merged:
        if not isinstance(item, dict):
            raise _bad_arg_type(MAP_TYPE, item)
        if merge_key not in item:
            raise _no_merge_key(item, merge_key)
        found = _find_by_key(reference, merge_key, item[merge_key]) >= 0
        (named if found else rest).append(item)
    return named, rest


def _split_deletes(items: list) -> tuple[list, list]:
    keep: list = []
    deletes: list = []
    for item in items:
        if not isinstance(item, dict):
            raise _bad_arg_type(MAP_TYPE, item)
        directive = item.get(DIRECTIVE, None)
        is_delete = DIRECTIVE in item and directive == DELETE and isinstance(directive, str)
        (deletes if is_delete else keep).append(item)
    return keep, deletes


def _index(items: list, value: Any, merge_key: str, kind: str | None) -> int:
    def pick(item: Any) -> Any:
        if kind == MAP_TYPE:
            return item.get(merge_key) if isinstance(item, dict) else None
        return item

    wanted = pick(value)
    for index, item in enumerate(items):
        if go_equal(wanted, pick(item)):
            return index
    return -1


def _sort_by(items: list, order: list, merge_key: str, kind: str | None) -> list:
    deletes: list = []
    if kind == MAP_TYPE:
        for group in (items, order):
            for item in group:
                if not isinstance(item, dict):
                    raise _bad_arg_type(MAP_TYPE, item)
                if merge_key not in item:
                    raise _no_merge_key(item, merge_key)
        items, deletes = _split_deletes(items)
    items = list(items)

    def less(a: Any, b: Any) -> bool:
        ia = _index(order, a, merge_key, kind)
        if ia >= 0:
            ib = _index(order, b, merge_key, kind)
            if ib >= 0:
                return ia < ib
        return True

    stable_sort(items, less)
    return items + deletes


def _normalize_order(patch_items: list, server_items: list, patch_order: list,
                     server_order: list, merge_key: str, kind: str | None) -> list:
    patch_items = _sort_by(patch_items, patch_order, merge_key, kind)
    server_items = _sort_by(server_items, server_order, merge_key, kind)
    out: list = []
    i = j = 0
    while i < len(server_items) or j < len(patch_items):
        if j >= len(patch_items):
            out.append(server_items[i])
            i += 1
        elif i >= len(server_items):
            out.append(patch_items[j])
            j += 1
        else:
            left = _index(server_order, server_items[i], merge_key, kind)
            right = _index(server_order, patch_items[j], merge_key, kind)
            if left >= 0 and right >= 0 and left < right:
                out.append(server_items[i])
                i += 1
            else:
                out.append(patch_items[j])
                j += 1
    return out
