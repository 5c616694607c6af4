"""Whether two strategic merge patches conflict: apimachinery's ``MergingMapsHaveConflicts``.

``CreateThreeWayMergePatch`` with ``overwrite=False`` (``kubectl apply
--overwrite=false``) compares the patch it built with the changes from the last
applied configuration to the live object; they conflict where both set the same field
to different values.  The rules, as Go has them:

* maps: a ``$patch`` directive on one side only, or different directives, conflict;
  under ``patchStrategy: replace`` nothing inside counts; otherwise key by key (the
  ``$patch`` and ``$retainKeys`` keys are skipped, every other key present on both
  sides is looked up in the schema, so a directive key such as
  ``$deleteFromPrimitiveList/finalizers`` on both sides is kubectl's lookup error);
* merge lists of scalars never conflict; merge lists of maps are compared element by
  element, matched on the ``%s`` text of the merge key;
* other lists conflict when their lengths differ, else element by element in order
  (scalar lists de-duplicated and sorted first);
* scalars conflict when they differ; a map against a non-map conflicts.

>>> from cfgpatch.kube.schema.node import builtin_schema
>>> node = builtin_schema().for_kind("apps/v1", "Deployment")
>>> maps_have_conflicts({"spec": {"replicas": 3}}, {"spec": {"replicas": 5}}, node)
True
>>> maps_have_conflicts({"spec": {"replicas": 3}}, {"spec": {"paused": True}}, node)
False
"""

from __future__ import annotations

from typing import Any

from ...errors import KubeError
from ...jsonvalue import equal
from ..go.runtime import MAP_TYPE, go_equal, go_format
from ..schema.node import NO_META, Node
from .directives import DIRECTIVE, MERGE, REPLACE, RETAIN_KEYS
from .keysort import dedupe_and_sort
from .listorder import element_type


def maps_have_conflicts(left: dict, right: dict, node: Node) -> bool:
    """``MergingMapsHaveConflicts(left, right, schema)``; raises kubectl's errors."""
    return _fields_conflict(left, right, node, "", "")


def _fields_conflict(left: Any, right: Any, node: Node, strategy: str,
                     merge_key: str) -> bool:
    if isinstance(left, dict):
        if not isinstance(right, dict):
            return True
        in_left, in_right = DIRECTIVE in left, DIRECTIVE in right
        if in_left or in_right:
            if in_left != in_right:
                return True
            if not _same_directive(left[DIRECTIVE], right[DIRECTIVE]):
                return True
        if strategy == REPLACE:
            return False
        return _maps_conflict(left, right, node)
    if isinstance(left, list):
        if not isinstance(right, list):
            return True
        return _slices_conflict(left, right, node, strategy, merge_key)
    return not equal(left, right)


def _same_directive(left: Any, right: Any) -> bool:
    return go_equal(left, right)


def _maps_conflict(left: dict, right: dict, node: Node) -> bool:
    for key, value in left.items():
        if key in (DIRECTIVE, RETAIN_KEYS) or key not in right:
            continue
        child, meta = node, NO_META
        if isinstance(value, list):
            child, meta = node.lookup_slice(key)
            meta.check()
        elif isinstance(value, dict):
            child, meta = node.lookup_struct(key)
            meta.check()
        if _fields_conflict(value, right[key], child, meta.strategy, meta.merge_key):
            return True
    return False


def _slices_conflict(left: list, right: list, node: Node, strategy: str,
                     merge_key: str) -> bool:
    kind = element_type(left, right)
    if strategy == MERGE:
        if kind != MAP_TYPE:
            return False
        lefts = _by_key(left, merge_key)
        rights = _by_key(right, merge_key)
        for key, value in lefts.items():
            if key in rights and _fields_conflict(value, rights[key], node, "", ""):
                return True
        return False
    if len(left) != len(right):
        return True
    if kind != MAP_TYPE:
        left, right = dedupe_and_sort(left), dedupe_and_sort(right)
    return any(_fields_conflict(a, b, node, "", "") for a, b in zip(left, right))


def _by_key(items: list, merge_key: str) -> dict:
    out: dict = {}
    for item in items:
        if not isinstance(item, dict):
            raise KubeError(f"invalid element type in merging list:{go_format(items)}",
                            hint="a merge list of objects holds something else")
        if merge_key not in item:
            raise KubeError(f"cannot find merge key `{merge_key}` in merging list "
                            f"element:{go_format(item)}",
                            hint=f"every element of this list needs its {merge_key!r}")
        out[go_format(item[merge_key], "s")] = item
    return out
