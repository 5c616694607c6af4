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

from ...errors import KubeError
from ..go.runtime import (
    MAP_TYPE,
    SLICE_TYPE,
    crash,
    go_equal,
    go_format,
    go_type,
    hash_key,
    stable_sort,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

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
    """Go's ``findMapInSliceBasedOnKeyValue``: the first element whose key equals ``value``."""
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise KubeError(f"value for key {index} is not a map",
                            hint="a merge-keyed list may only hold objects")
        if merge_key in item and go_equal(item[merge_key], value):
            return index
    return -1


class KeyIndex:
    """``find_by_key`` over one unchanging list, answered from a table.

    Falls back to the linear scan (and its errors and panics) whenever the table
    could answer differently: an element that is not an object, or an unhashable
    key value on either side.
    """

    def __init__(self, items: list, merge_key: str) -> None:
        self.items = items
        self.merge_key = merge_key
        self.table: dict | None = {}
        for index, item in enumerate(items):
            if not isinstance(item, dict):
                self.table = None
                return
            if merge_key in item:
                if isinstance(item[merge_key], (dict, list)):
                    self.table = None
                    return
                self.table.setdefault(hash_key(item[merge_key]), index)

    def add(self, item: Any) -> None:
        """Record an element appended to the list."""
        self.items.append(item)
        if self.table is None:
            return
        if not isinstance(item, dict) or isinstance(item.get(self.merge_key), (dict, list)):
            self.table = None
        elif self.merge_key in item:
            self.table.setdefault(hash_key(item[self.merge_key]), len(self.items) - 1)

    def find(self, value: Any) -> int:
        if self.table is None or isinstance(value, (dict, list)):
            return find_by_key(self.items, self.merge_key, value)
        return self.table.get(hash_key(value), -1)


def partition(merged: list, reference: list, merge_key: str) -> tuple[list, list]:
    """Split into items named by ``reference`` (patch items) and the rest."""
    named: list = []
    rest: list = []
    if not merge_key:
        keys = {hash_key(item) for item in reference}
        for item in merged:
            (named if hash_key(item) in keys else rest).append(item)
        return named, rest
    lookup = KeyIndex(reference, merge_key)
    for item in merged:
        if not isinstance(item, dict):
            raise bad_arg_type(MAP_TYPE, item)
        if merge_key not in item:
            raise no_merge_key(item, merge_key)
        found = lookup.find(item[merge_key]) >= 0
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


def _pick(item: Any, merge_key: str, kind: str | None) -> Any:
    if kind == MAP_TYPE:
        return item.get(merge_key) if isinstance(item, dict) else None
    return item


def _index(items: list, value: Any, merge_key: str, kind: str | None) -> int:
    """Go's ``index``: the first position whose (key) value equals ``value``'s."""
    wanted = _pick(value, merge_key, kind)
    for index, item in enumerate(items):
        if go_equal(wanted, _pick(item, merge_key, kind)):
            return index
    return -1


class _Positions:
    """``_index`` over one unchanging list, from a table (linear where Go could panic)."""

    def __init__(self, items: list, merge_key: str, kind: str | None) -> None:
        self.items, self.merge_key, self.kind = items, merge_key, kind
        self.table: dict | None = {}
        for index, item in enumerate(items):
            picked = _pick(item, merge_key, kind)
            if isinstance(picked, (dict, list)):
                self.table = None
                return
            self.table.setdefault(hash_key(picked), index)

    def __call__(self, value: Any) -> int:
        picked = _pick(value, self.merge_key, self.kind)
        if self.table is None or isinstance(picked, (dict, list)):
            return _index(self.items, value, self.merge_key, self.kind)
        return self.table.get(hash_key(picked), -1)


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
    position = _Positions(order, merge_key, kind)

    def less(a: Any, b: Any) -> bool:
        ia = position(a)
        if ia >= 0:
            ib = position(b)
            if ib >= 0:
                return ia < ib
        return True

    stable_sort(items, less)
    return items + deletes


def normalize_order(patch_items: list, server_items: list, patch_order: list,
                     server_order: list, merge_key: str, kind: str | None) -> list:
    patch_items = _sort_by(patch_items, patch_order, merge_key, kind)
    server_items = _sort_by(server_items, server_order, merge_key, kind)
    position = _Positions(server_order, merge_key, kind)
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
            left = position(server_items[i])
            right = position(patch_items[j])
            if left >= 0 and right >= 0 and left < right:
                out.append(server_items[i])
                i += 1
            else:
                out.append(patch_items[j])
                j += 1
    return out
