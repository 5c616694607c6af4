"""Server-side apply on a custom resource, from its CRD's markers (``--crd``).

A list marked ``x-kubernetes-list-type: map`` is merged by its
``x-kubernetes-list-map-keys``, ``set`` lists are unions, other lists are atomic, maps
merge unless ``x-kubernetes-map-type: atomic``.  Computed from the schema markers
alone: the applier is assumed to own no field yet and ``null`` removes; no server runs
(which would also default, validate and prune).
"""

from __future__ import annotations

from typing import Any

from ...jsonvalue import deep_copy, equal
from ..schema.crd import crd_shapes
from ..schema.rules import ATOMIC_RULE, KEYED, SET, Shapes


def server_side_apply(obj: Any, applied: Any, crd: Any) -> Any:
    """The object after server-side apply of ``applied`` (see the module docstring)."""
    shapes = crd_shapes(crd, obj)
    if not isinstance(applied, dict) or not isinstance(obj, dict):
        return deep_copy(applied)
    return _apply_map(obj, applied, (), shapes)


def _apply_map(base: dict, applied: dict, shape: tuple[str, ...], shapes: Shapes) -> dict:
    out = dict(base)
    for key, value in applied.items():
        here = (*shape, key)
        if value is None:
            out.pop(key, None)
        elif (isinstance(value, dict) and isinstance(out.get(key), dict)
              and not shapes.map_atomic(here)):
            out[key] = _apply_map(out[key], value, here, shapes)
        elif isinstance(value, list) and isinstance(out.get(key), list):
            out[key] = _apply_list(out[key], value, here, shapes)
        else:
            out[key] = deep_copy(value)
    return out


def _apply_list(old: list, items: list, shape: tuple[str, ...], shapes: Shapes) -> list:
    rule = shapes.list_rule(shape) or ATOMIC_RULE
    if rule.kind == SET:
        return deep_copy(old) + [v for v in items if not any(equal(v, o) for o in old)]
    if rule.kind != KEYED:
        return deep_copy(items)
    result = deep_copy(old)
    for item in items:
        if not isinstance(item, dict):
            continue
        index = next((i for i, e in enumerate(result) if isinstance(e, dict) and all(
            equal(e.get(k), item.get(k)) for k in rule.keys)), None)
        if index is None:
            result.append(deep_copy(item))
        else:
            result[index] = _apply_map(result[index], item, (*shape, "[]"), shapes)
    return result

