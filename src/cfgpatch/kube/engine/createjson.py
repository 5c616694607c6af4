"""Creating a JSON merge patch as kubectl and Helm do for custom resources.

kubectl has no Go type for a custom resource, so client-side ``kubectl apply`` falls
back to apimachinery's ``CreateThreeWayJSONMergePatch`` (and so does Helm 3's
upgrade in the versions that merge custom resources three ways; older ones send the
two-way :func:`create_merge_patch` from the old chart output to the new one).  Both
use evanphx/json-patch (v4) underneath:

* :func:`create_merge_patch` is ``jsonpatch.CreateMergePatch(a, b)``: a member added or
  changed in ``b`` is set, one missing from ``b`` is ``null``, objects are compared
  member by member (a member holding ``null`` counts as missing), every other value
  (arrays above all) is replaced whole when it differs;
* :func:`create_three_way` is ``CreateThreeWayJSONMergePatch(original, modified,
  current)``: the additions and changes from ``current`` to ``modified`` (the ``null``
  members dropped, an explicitly empty object kept), plus the deletions from
  ``original`` to ``modified`` (only the ``null`` members kept), merged; a list that
  differs between the live object and the manifest is sent whole, so list items added
  in the live object are lost.

evanphx decodes numbers as float64, so the patch writes every number as Go writes a
float64 (``1.0`` becomes ``1``; an integer beyond 2**53 loses its last digits).
Standard library only.

>>> last = {"spec": {"size": 1, "tags": ["a"]}}
>>> live = {"spec": {"size": 2, "tags": ["a", "added-live"], "owner": "ops"}}
>>> new = {"spec": {"tags": ["a", "b"]}}
>>> create_three_way(last, new, live)
{'spec': {'size': None, 'tags': ['a', 'b']}}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...errors import KubeError
from ..go.json import kube_number
from .create import Precondition, check_preconditions, conflict_error
from .mergepatch import prune_nulls


def create_merge_patch(original: Any, modified: Any) -> Any:
    """``jsonpatch.CreateMergePatch``: the RFC 7386 patch from ``original`` to ``modified``."""
    original, modified = _as_floats(original), _as_floats(modified)
    if isinstance(original, dict) and isinstance(modified, dict):
        return _as_kube_numbers(_diff(original, modified))
    if isinstance(original, list) and isinstance(modified, list):
        return _as_kube_numbers(modified)  # evanphx: a top-level array is its own patch
    raise KubeError("Invalid JSON Document",
                    hint="both documents must be JSON objects (or both arrays)")


def create_three_way(original: dict | None, modified: dict | None, current: dict | None,
                     preconditions: Iterable[Precondition] = ()) -> dict:
    """``CreateThreeWayJSONMergePatch(original, modified, current, fns...)``."""
    original, modified, current = original or {}, modified or {}, current or {}
    changes = _keep_or_drop_nulls(create_merge_patch(current, modified), keep_null=False)
    deletions = _keep_or_drop_nulls(create_merge_patch(original, modified), keep_null=True)
    if has_conflicts(changes, deletions):
        raise conflict_error(changes, deletions)
    patch = _merge(deletions, changes)
    check_preconditions(patch, preconditions)
    return patch


def _diff(a: dict, b: dict) -> dict:
    into: dict = {}
    for key, new in b.items():
        if key not in a:
            into[key] = new
            continue
        old = a[key]
        if type(old) is not type(new):
            into[key] = new
        elif isinstance(old, dict):
            inner = _diff(old, new)
            if inner:
                into[key] = inner
        elif not _matches(old, new):
            into[key] = new
    for key in a:
        if key not in b:
            into[key] = None
    return into


def _matches(a: Any, b: Any) -> bool:
    """evanphx's ``matchesValue``: objects compare members, a missing one as ``null``."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return all(_matches(a.get(key), b.get(key)) for key in {**a, **b})
    if isinstance(a, list):
        return len(a) == len(b) and all(_matches(x, y) for x, y in zip(a, b))
    return a == b


def _keep_or_drop_nulls(patch: dict, keep_null: bool) -> dict:
    """apimachinery's ``keepOrDeleteNullInObj``."""
    out: dict = {}
    for key, value in patch.items():
        if value is None:
            if keep_null:
                out[key] = None
        elif isinstance(value, dict):
            if not value:
                if not keep_null:
                    out[key] = value  # an explicitly empty object is a value
                continue
            inner = _keep_or_drop_nulls(value, keep_null)
            if inner:
                out[key] = inner
        elif not keep_null:
            out[key] = value
    return out


def has_conflicts(left: Any, right: Any) -> bool:
    """``mergepatch.HasConflicts``: both set one key to different values."""
    if isinstance(left, dict):
        if not isinstance(right, dict):
            return True
        return any(key in right and has_conflicts(value, right[key])
                   for key, value in left.items())
    if isinstance(left, list):
        if not isinstance(right, list) or len(left) != len(right):
            return True
        return any(has_conflicts(a, b) for a, b in zip(left, right))
    return type(left) is not type(right) or left != right


def _merge(doc: dict, patch: dict) -> dict:
    """evanphx ``MergePatch(doc, patch)`` where ``patch`` holds no ``null`` member."""
    for key, value in patch.items():
        current = doc.get(key)
        if current is None:
            doc[key] = prune_nulls(value)
        elif isinstance(current, dict) and isinstance(value, dict):
            doc[key] = _merge(current, value)
        else:
            doc[key] = value if isinstance(current, dict) else prune_nulls(value)
    return doc


def _as_floats(value: Any) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, dict):
        return {key: _as_floats(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_floats(item) for item in value]
    return value


def _as_kube_numbers(value: Any) -> Any:
    """Back to kubectl's number model: a float64 holding an integer decodes as int64."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 63:
        return kube_number(int(value))
    if isinstance(value, dict):
        return {key: _as_kube_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_kube_numbers(item) for item in value]
    return value
