"""Merging two strategic merge patches into one, as ``CreateThreeWayMergePatch`` does.

The three-way patch is the deletions patch (last applied -> new manifest, deletions
only) with the delta patch (live -> new manifest, no deletions) merged into it by
apimachinery's ``mergeMap`` with ``MergeOptions{}``: the same walk as applying a patch
(:class:`~.strategic.StrategicMerge`), except that the result is itself a patch, so

* ``null`` values are kept (they are the deletions to send);
* ``$deleteFromPrimitiveList/<f>`` lists are carried over as they are;
* ``$retainKeys`` and ``$setElementOrder/<f>`` are copied into the result; when both
  patches hold one, they must be equal (they always are, both come from the manifest);
* ``{"$patch": "delete", ...}`` elements of the deletions patch are ordinary elements
  here: they keep their place after the elements the delta names.

>>> from cfgpatch.kube.schema.node import builtin_schema
>>> node = builtin_schema().for_kind("v1", "ConfigMap")
>>> merge_patches({"data": {"b": None}}, {"data": {"c": "3"}}, node)
{'data': {'b': None, 'c': '3'}}
"""

from __future__ import annotations

from typing import Any

from ...errors import KubeError
from ...jsonvalue import equal
from ..go.runtime import go_format, go_type
from ..schema.node import Node
from .directives import (
    DELETE_FROM_PRIMITIVE_LIST,
    DIRECTIVE,
    RETAIN_KEYS,
    map_directive,
    remove_directives,
    with_pointer,
)
from .strategic import StrategicMerge

BAD_ORDER_LIST = "invalid patch type of setElementOrder list"


def merge_patches(original: dict, patch: dict, node: Node) -> dict:
    """``mergeMap(original, patch, schema, MergeOptions{})``: ``patch`` merged into
    ``original``, both patches (neither is modified)."""
    return PatchMerge().run(original, patch, node)


class PatchMerge(StrategicMerge):
    """Strategic merge with ``MergeParallelList`` and ``IgnoreUnmatchedNulls`` off."""

    def merge_map(self, original: dict, patch: dict, node: Node, path: list) -> dict:
        if DIRECTIVE in patch:
            return map_directive(patch[DIRECTIVE], patch)
        capacities: dict = {}
        try:
            _copy_retain_keys(original, patch)
            self._merge_ordered_lists(original, patch, node, path, capacities)
        except KubeError as exc:
            raise with_pointer(exc, path) from None
        for key in list(patch):
            if key in patch:
                self.merge_key(original, key, patch[key], node, path, capacities)
        return original

    def _merge_ordered_list(self, original: dict, patch: dict, key: str, order: Any,
                            node: Node, path: list, capacities: dict) -> None:
        if key in original:
            if not equal(original[key], order):
                raise KubeError(BAD_ORDER_LIST,
                                hint=f"the two patches disagree on {key}")
        else:
            original[key] = order
        super()._merge_ordered_list(original, patch, key, order, node, path, capacities)

    def merge_key(self, original: dict, key: str, value: Any, node: Node, path: list,
                  capacities: dict) -> None:
        if key.startswith(DELETE_FROM_PRIMITIVE_LIST):
            original[key] = value
            return
        if value is None:
            original.pop(key, None)
            original[key] = None
            return
        if key not in original or go_type(original[key]) != go_type(value):
            cleaned, keep = remove_directives(value)
            if keep:
                original[key] = cleaned
            else:
                original.pop(key, None)
            return
        super().merge_key(original, key, value, node, path, capacities)


def _copy_retain_keys(original: dict, patch: dict) -> None:
    if RETAIN_KEYS not in patch:
        return
    keep = patch.pop(RETAIN_KEYS)
    if RETAIN_KEYS in original:
        if not equal(original[RETAIN_KEYS], keep):
            raise KubeError(
                f"{go_format(original[RETAIN_KEYS])} and {go_format(keep)} are not deep "
                "equal: this may happen when calculating the 3-way diff patch",
                hint="the two patches disagree on $retainKeys")
    else:
        original[RETAIN_KEYS] = keep
