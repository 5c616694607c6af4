"""Where the elements of a merged list land, in kubectl's order.

After strategic merge has merged a list (by key, or as a union of scalars), kubectl
re-orders it: the items the patch names keep the patch's order (or the order of
``$setElementOrder``), the others keep their order in the object, and the two runs
are interleaved by the items' positions in the original list; an item not in the
original is taken as soon as it comes up.  The sorting is Go's ``sort.SliceStable``
with kubectl's comparison, which calls an item missing from the reference list
"less" than anything.  Items carrying ``$patch: delete`` go last.

Also here: the checks that run on the way (every item of a keyed list carries the
merge key; all items have one JSON type) with kubectl's error texts.

>>> normalize_order([{"name": "side"}], [{"name": "app"}, {"name": "metrics"}],
...                 [{"name": "side"}], [{"name": "app"}, {"name": "metrics"}],
...                 "name", MAP_TYPE)
[{'name': 'side'}, {'name': 'app'}, {'name': 'metrics'}]
"""

from __future__ import annotations

from typing import Any

from ..errors import KubeError
from .goruntime import (
    MAP_TYPE,
    SLICE_TYPE,
    crash,
    go_equal,
    go_format,
    go_type,
    hash_key,
    stable_sort,
)

DIRECTIVE = "$patch"
DELETE = "delete"


def no_merge_key(item: dict, key: str) -> KubeError:
    return KubeError(f"map: {go_format(item)} does not contain declared merge key: {key}",
                     hint=f"every element of this list is identified by its {key!r}; "
                          f"kubectl refuses the whole patch when an element lacks it")


def bad_arg_type(expected: str, value: Any) -> KubeError:
    actual = go_type(value) or "%!s(<nil>)"
    return KubeError(f"expected a {expected}, but received a {actual}",
                     hint="the value has a different JSON type than strategic merge expects here")


def element_type(*lists: list) -> str:
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


def find_by_key(items: list, merge_key: str, value: Any) -> int:
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise KubeError(f"value for key {index} is not a map.",
                            hint="a merge-keyed list may only hold objects")
        if merge_key in item and go_equal(item[merge_key], value):
            return index
    return -1


def partition(merged: list, reference: list, merge_key: str) -> tuple[list, list]:
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
            raise bad_arg_type(MAP_TYPE, item)
        if merge_key not in item:
            raise no_merge_key(item, merge_key)
        found = find_by_key(reference, merge_key, item[merge_key]) >= 0
        (named if found else rest).append(item)
    return named, rest


def split_deletes(items: list) -> tuple[list, list]:
    keep: list = []
    deletes: list = []
    for item in items:
        if not isinstance(item, dict):
            raise bad_arg_type(MAP_TYPE, item)
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
                    raise bad_arg_type(MAP_TYPE, item)
                if merge_key not in item:
                    raise no_merge_key(item, merge_key)
        items, deletes = split_deletes(items)
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


def normalize_order(patch_items: list, server_items: list, patch_order: list,
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
