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
* the directives and kubectl's checks on them are in :mod:`.directives`; where the
  result depends on Go's random map order, :mod:`.maporder` computes both answers;
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

from ...errors import KubeError
from ...jsonvalue import deep_copy
from ..go.runtime import MAP_TYPE, SLICE_TYPE, GoSlice, append_unique, go_type, hash_key
from ..schema.node import Node, PatchMeta
from .directives import (
    DELETE,
    DELETE_FROM_PRIMITIVE_LIST,
    DIRECTIVE,
    MERGE,
    REPLACE,
    SET_ELEMENT_ORDER,
    apply_retain_keys,
    bad_patch_type,
    check_order,
    extract_key,
    map_directive,
    remove_directives,
    take_patch_value,
    with_pointer,
)
from .listorder import (
    KeyIndex,
    bad_arg_type,
    element_type,
    find_by_key,
    no_merge_key,
    normalize_order,
    partition,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    #: Called with ``(original, patch, node, path)`` for every patch map about to be
    #: merged key by key, after ``$retainKeys`` and ``$setElementOrder`` were handled.
    MapVisitor = Callable[[dict, dict, Node, list], None]


def strategic_merge(original: Any, patch: Any, node: Node, owned: bool = False) -> Any:
    """Apply strategic merge ``patch`` to ``original`` under schema ``node``; ``owned``:
    ``original`` is the caller's to give away (merged in place, not copied first).

    Returns the new object; raises :class:`KubeError` as kubectl would.
    """
    return StrategicMerge().run(original, patch, node, owned)


class StrategicMerge:
    """One strategic merge.  ``visit_map`` (optional) sees each patch map before its
    keys are merged: :mod:`.maporder` uses it to try the other Go map order."""

    def __init__(self, visit_map: MapVisitor | None = None) -> None:
        self.visit_map = visit_map

    def run(self, original: Any, patch: Any, node: Node, owned: bool = False) -> Any:
        if patch is None:
            patch = {}
        if not isinstance(patch, dict) or not isinstance(original, dict):
            raise KubeError("invalid JSON document",
                            hint="a strategic merge patch and the object must both be JSON "
                                 "objects")
        return self.merge_map(original if owned else deep_copy(original), deep_copy(patch),
                              node, [])

    # -------------------------------------------------------------- maps

    def merge_map(self, original: dict, patch: dict, node: Node, path: list) -> dict:
        if DIRECTIVE in patch:
            return map_directive(patch[DIRECTIVE], patch)
        capacities: dict[str, tuple[list, int]] = {}
        try:
            apply_retain_keys(original, patch)
            self._merge_ordered_lists(original, patch, node, path, capacities)
        except KubeError as exc:
            raise with_pointer(exc, path) from None
        if self.visit_map is not None:
            self.visit_map(original, patch, node, path)
        for key in list(patch):
            if key in patch:
                self.merge_key(original, key, patch[key], node, path, capacities)
        return original

    def merge_key(self, original: dict, key: str, value: Any, node: Node, path: list,
                  capacities: dict) -> None:
        """Merge the patch member ``key: value`` into the map ``original``."""
        delete_list = key.startswith(DELETE_FROM_PRIMITIVE_LIST)
        if delete_list:
            key = extract_key(key, DELETE_FROM_PRIMITIVE_LIST, path)
        if value is None:
            original.pop(key, None)
            return
        if key not in original or go_type(original[key]) != go_type(value):
            if not delete_list:
                take_patch_value(original, key, value)
            return
        current = original[key]
        where = [*path, key]
        try:
            if isinstance(current, dict):
                child, meta = node.lookup_struct(key)
                meta.check()
                original[key] = (value if meta.strategy == REPLACE
                                 else self.merge_map(current, value, child, where))
            elif isinstance(current, list):
                elem, meta = node.lookup_slice(key)
                meta.check()
                merged, capacity = self._merge_list_field(
                    current, value, elem, meta, delete_list, where,
                    _capacity(capacities, key, current))
                original[key] = merged
                capacities[key] = (merged, capacity)
            else:
                original[key] = value
        except KubeError as exc:
            raise with_pointer(exc, where) from None

    # -------------------------------------------------------------- $setElementOrder

    def _merge_ordered_lists(self, original: dict, patch: dict, node: Node, path: list,
                             capacities: dict) -> None:
        for key in list(patch):
            if key.startswith(SET_ELEMENT_ORDER):
                order = patch.pop(key)
                self._merge_ordered_list(original, patch, key, order, node, path, capacities)

    def _merge_ordered_list(self, original: dict, patch: dict, key: str, order: Any,
                            node: Node, path: list, capacities: dict) -> None:
        if not isinstance(order, list):
            raise bad_arg_type(SLICE_TYPE, order)
        field = extract_key(key, SET_ELEMENT_ORDER)
        found_original, found_patch = field in original, field in patch
        current, given = original.get(field), patch.get(field)
        for present, value in ((found_original, current), (found_patch, given)):
            if present and not isinstance(value, list):
                raise bad_arg_type(SLICE_TYPE, value)
        elem, meta = node.lookup_slice(field)
        meta.check()
        # (present and no list was refused above; absent is an empty list)
        current = current if isinstance(current, list) else []
        given = given if isinstance(given, list) else []
        check_order(given, order, meta.merge_key)
        if found_original and not found_patch:
            merged = current
        elif found_patch and not found_original:
            merged = remove_directives(given)[0]
        elif found_patch:
            merged = self._merge_list_field(current, given, elem, meta, False,
                                            [*path, field])[0]
        else:
            return
        patch_items, server_items = partition(merged, order, meta.merge_key)
        kind = element_type(current, given)
        result = normalize_order(patch_items, server_items, order, current, meta.merge_key,
                                 kind)
        original[field] = result
        capacities[field] = (result, len(result))
        patch.pop(field, None)

    # -------------------------------------------------------------- lists

    def _merge_list_field(self, current: list, given: list, elem: Node, meta: PatchMeta,
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
            merged = self._merge_by_key(live, given, merge_key, elem, path)
        patch_items, server_items = partition(merged, given, merge_key)
        result = normalize_order(patch_items, server_items, given, current, merge_key, kind)
        return result, len(result)

    def _merge_by_key(self, live: GoSlice | list, given: list, merge_key: str, elem: Node,
                      path: list) -> list:
        if isinstance(live, list):
            live = GoSlice(list(live))
        lookup = KeyIndex(live.items(), merge_key)
        for item in given:
            if merge_key not in item:
                raise no_merge_key(item, merge_key)
            index = lookup.find(item[merge_key])
            if index >= 0:
                live.set(index, self.merge_map(live.array[index], item, elem, [*path, index]))
            else:
                live.append(item)
                lookup.add(item)
        return live.items()


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
            raise bad_patch_type(directive, item)
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
