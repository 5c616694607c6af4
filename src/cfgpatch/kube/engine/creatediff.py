"""The diff walk of apimachinery's strategic merge patch creation (``diffMaps``).

:func:`diff_maps` compares two maps under a schema node and returns the patch from
``original`` to ``modified``; :class:`DiffOptions` are apimachinery's switches (keep
only additions and changes, only deletions, add ``$setElementOrder`` lists).  The
entry points (two-way, three-way) are in :mod:`.create`.

What the walk writes, as apimachinery does:

* changed and added fields, and ``null`` for a field ``modified`` lacks;
* lists without ``patchStrategy: merge`` whole, when they differ in any way;
* keyed lists (``containers`` by ``name``): the changed elements (each with its merge
  key), added elements whole, ``{"$patch": "delete", <key>: v}`` for removed ones, and
  ``$setElementOrder/<list>`` naming every element of ``modified`` in order whenever
  anything in the list changed or its order did;
* scalar merge lists (``finalizers``): the added values, ``$deleteFromPrimitiveList/<f>``
  for removed ones, and ``$setElementOrder/<f>`` when the content changed or when the
  new list is not in ``%v``-sorted order: apimachinery sorts the old list *in place*
  before comparing, so an unchanged but unsorted list still gets a
  ``$setElementOrder`` (kubectl apply then reports ``configured``);
* ``$retainKeys`` (sorted names of the non-null fields of ``modified``) in maps whose
  field is tagged ``retainKeys`` (Deployment ``strategy``, volume sources), whenever
  the map's patch is not empty or the old map has a field the new one lacks.

Lists are walked in ``%v`` order (:mod:`.keysort`).  A field the schema does not know
is an error only when its value changed (``unable to find api field in struct ...``).
Errors are :class:`~cfgpatch.errors.KubeError` with apimachinery's text.  ``original``
may be modified (its scalar merge lists get sorted, as in Go); ``modified`` is not.

>>> from cfgpatch.kube.schema.node import builtin_schema
>>> node = builtin_schema().for_kind("v1", "ConfigMap")
>>> diff_maps({"data": {"a": "1", "b": "2"}}, {"data": {"a": "1", "c": "3"}}, node, TWO_WAY)
{'data': {'c': '3', 'b': None}}
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ...errors import KubeError
from ...jsonvalue import equal
from ..go.runtime import MAP_TYPE, dedupe_in_place, go_format, go_type
from ..schema.node import Node
from .directives import (
    DELETE,
    DELETE_FROM_PRIMITIVE_LIST,
    DIRECTIVE,
    MERGE,
    REPLACE,
    RETAIN_KEYS,
    SET_ELEMENT_ORDER,
    merge_key_equal,
)
from .keysort import sort_maps, sort_scalars, sorted_scalars
from .listorder import element_type, no_merge_key, normalize_order


@dataclass(frozen=True)
class DiffOptions:
    """apimachinery's ``DiffOptions``."""

    set_element_order: bool = False
    ignore_changes_and_additions: bool = False
    ignore_deletions: bool = False
    build_retain_keys: bool = False


TWO_WAY = DiffOptions(set_element_order=True)
DELTA = DiffOptions(set_element_order=True, ignore_deletions=True)
DELETIONS = DiffOptions(set_element_order=True, ignore_changes_and_additions=True)
CHANGES = DiffOptions()


def diff_maps(original: dict, modified: dict, node: Node, options: DiffOptions) -> dict:
    """apimachinery's ``diffMaps``.  Sorts scalar merge lists of ``original`` in place,
    as Go does (which decides ``$setElementOrder`` later)."""
    patch: dict = {}
    retain: list = []
    for key, new in modified.items():
        if options.build_retain_keys and new is not None:
            retain.append(key)
        if key not in original:
            if not options.ignore_changes_and_additions:
                patch[key] = new
            continue
        old = original[key]
        if key == DIRECTIVE:
            if not isinstance(old, str) or not isinstance(new, str):
                raise KubeError(f"invalid value for special key: {DIRECTIVE}",
                                hint="$patch must be a string on both sides")
            if new != old:
                patch[DIRECTIVE] = new
            continue
        if go_type(old) != go_type(new):
            if not options.ignore_changes_and_additions:
                patch[key] = new
            continue
        if isinstance(old, dict):
            _map_diff(key, old, new, patch, node, options)
        elif isinstance(old, list):
            _slice_diff(key, old, new, patch, node, options)
        elif not options.ignore_changes_and_additions and not equal(old, new):
            patch[key] = new
    if not options.ignore_deletions:
        for key in original:
            if key not in modified:
                patch[key] = None
    if retain and (patch or _has_additional_field(original, modified)):
        patch[RETAIN_KEYS] = sorted_scalars(retain)
    return patch


def _has_additional_field(original: dict, modified: dict) -> bool:
    return any(value is not None and key not in modified for key, value in original.items())


def _map_diff(key: str, old: dict, new: dict, patch: dict, node: Node,
              options: DiffOptions) -> None:
    try:
        child, meta = node.lookup_struct(key)
    except KubeError:
        if equal(old, new):
            return
        raise
    meta.check()
    if meta.strategy == REPLACE:
        if not options.ignore_changes_and_additions:
            patch[key] = new
        return
    value = diff_maps(old, new, child, replace(options, build_retain_keys=meta.retain_keys))
    if value:
        patch[key] = value


def _slice_diff(key: str, old: list, new: list, patch: dict, node: Node,
                options: DiffOptions) -> None:
    try:
        elem, meta = node.lookup_slice(key)
    except KubeError:
        if equal(old, new):
            return
        raise
    meta.check()
    if meta.strategy != MERGE:
        if not options.ignore_changes_and_additions and not equal(old, new):
            patch[key] = new
        return
    options = replace(options, build_retain_keys=meta.retain_keys)
    additions, deletions, order = diff_lists(old, new, elem, meta.merge_key, options)
    if additions:
        patch[key] = additions
    if deletions:
        patch[f"{DELETE_FROM_PRIMITIVE_LIST}/{key}"] = deletions
    if order:
        patch[f"{SET_ELEMENT_ORDER}/{key}"] = order


# ---------------------------------------------------------------------- lists


def diff_lists(original: list, modified: list, elem: Node, merge_key: str,
               options: DiffOptions) -> tuple[list, list, list]:
    """``diffLists``: (patch list, deletion list, ``$setElementOrder`` list)."""
    if not original:
        if not modified or options.ignore_changes_and_additions:
            return [], [], []
        return modified, [], []
    kind = element_type(original, modified)
    order: list = []
    if kind == MAP_TYPE:
        patch_list, deletes = _diff_lists_of_maps(original, modified, elem, merge_key, options)
        patch_list = normalize_order(patch_list, [], modified, [], merge_key, kind)
        same_order = _order_same(original, modified, merge_key)
        patch_list = patch_list + deletes
        changes = not options.ignore_changes_and_additions and (patch_list or not same_order)
        removals = not options.ignore_deletions and patch_list
        if options.set_element_order and (changes or removals):
            order = [{merge_key: item[merge_key]} for item in modified]
        return patch_list, [], order
    patch_list, deletes = _diff_lists_of_scalars(original, modified, options)
    patch_list = normalize_order(patch_list, [], modified, [], merge_key, kind)
    removals = not options.ignore_deletions and deletes
    changes = not options.ignore_changes_and_additions and not equal(original, modified)
    if options.set_element_order and (removals or changes):
        order = modified
    return patch_list, deletes, order


def _order_same(original: list, modified: list, merge_key: str) -> bool:
    if len(original) != len(modified):
        return False
    return all(merge_key_equal(left, right, merge_key)
               for left, right in zip(original, modified))


def _diff_lists_of_scalars(original: list, modified: list,
                           options: DiffOptions) -> tuple[list, list]:
    """``diffListsOfScalars``: both lists walked in ``%v`` order (``original`` sorted in
    place, as Go's ``sortScalars`` does)."""
    ordered = sorted_scalars(modified)
    sort_scalars(original)
    additions: list = []
    deletions: list = []
    i = j = 0
    while i < len(original) or j < len(ordered):
        left = go_format(original[i]) if i < len(original) else None
        right = go_format(ordered[j]) if j < len(ordered) else None
        if left is not None and right is not None and left == right:
            i, j = i + 1, j + 1
        elif left is None or (right is not None and left > right):
            if not options.ignore_changes_and_additions:
                additions.append(ordered[j])
            j += 1
        else:
            if not options.ignore_deletions:
                deletions.append(original[i])
            i += 1
    last = dedupe_in_place(deletions)
    return additions, deletions[:last + 1]


def _diff_lists_of_maps(original: list, modified: list, elem: Node, merge_key: str,
                        options: DiffOptions) -> tuple[list, list]:
    """``diffListsOfMaps``: elements paired by the ``%v`` text of their merge key."""
    olds = sort_maps(original, merge_key)
    news = sort_maps(modified, merge_key)
    patch: list = []
    deletions: list = []
    i = j = 0
    while i < len(olds) or j < len(news):
        left = right = None
        if i < len(olds):
            old, old_key = _keyed(olds[i], merge_key)
            left = go_format(old_key)
        if j < len(news):
            new, new_key = _keyed(news[j], merge_key)
            right = go_format(new_key)
        if left is not None and right is not None and left == right:
            value = diff_maps(old, new, elem, options)
            if value:
                value[merge_key] = new_key
                patch.append(value)
            i, j = i + 1, j + 1
        elif left is None or (right is not None and left > right):
            if not options.ignore_changes_and_additions:
                patch.append(new)
            j += 1
        else:
            if not options.ignore_deletions:
                deletions.append({DIRECTIVE: DELETE, merge_key: old_key})
            i += 1
    return patch, deletions


def _keyed(item: dict, merge_key: str) -> tuple[dict, Any]:
    if merge_key not in item:
        raise no_merge_key(item, merge_key)
    return item, item[merge_key]
