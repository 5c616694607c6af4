"""Server-side apply on a custom resource, from its CRD (``kube patch --crd``).

The patch body is applied by the API server's field manager (:mod:`cfgpatch.kube.ssa`,
exact: a list marked ``x-kubernetes-list-type: map`` merged by its
``x-kubernetes-list-map-keys``, ``set`` lists as sets, other lists atomic, maps granular
unless ``x-kubernetes-map-type: atomic``), as a forced apply of a new manager: the
object's own fields stay where the body does not name them.  A CRD that does not name
the object's kind is completed from the object (group, kind, served versions).

Where the field manager cannot run (a body holding ``null``, which an apply does not
read as a removal; a CRD for another kind; a refusal such as a duplicate key), the view
falls back to the markers alone: ``null`` removes and the applier owns nothing yet.
"""

from __future__ import annotations

from typing import Any

from ...jsonvalue import deep_copy, equal
from ..schema.crd import crd_shapes
from ..schema.rules import ATOMIC_RULE, KEYED, SET, Shapes


def server_side_apply(obj: Any, applied: Any, crd: Any) -> Any:
    """The object after server-side apply of ``applied`` (see the module docstring)."""
    from ...errors import CfgPatchError

    try:
        return _field_manager(obj, applied, crd)
    except (CfgPatchError, _NotApplicable, OSError):  # OSError: no type table (a bundle)
        return _markers(obj, applied, crd)


class _NotApplicable(Exception):
    """The field manager cannot stand for this apply (see the module docstring)."""


def _field_manager(obj: Any, applied: Any, crd: Any) -> Any:
    from ..ssa import server_side_apply as apply

    if not isinstance(obj, dict) or not isinstance(applied, dict) or _has_null(applied):
        raise _NotApplicable
    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    meta = obj.get("metadata")
    if not isinstance(api_version, str) or not isinstance(kind, str) or \
            not isinstance(meta, dict) or not isinstance(crd, dict):
        raise _NotApplicable
    config = {k: v for k, v in applied.items() if k not in ("apiVersion", "kind", "metadata")}
    body_meta = applied.get("metadata")
    config_meta = {**(body_meta if isinstance(body_meta, dict) else {}),
                   **{k: meta[k] for k in ("name", "namespace") if k in meta}}
    config.update(apiVersion=api_version, kind=kind, metadata=config_meta)
    result = apply(deep_copy(obj), config, manager="cfgpatch", force=True,
                   crds=[_completed(crd, api_version, kind)], time="1970-01-01T00:00:00Z")
    out = result.object
    if "managedFields" not in meta:
        out.get("metadata", {}).pop("managedFields", None)
    return out


def _completed(crd: dict, api_version: str, kind: str) -> dict:
    out = deep_copy(crd)
    spec = out.setdefault("spec", {})
    if not isinstance(spec, dict):
        raise _NotApplicable
    group = api_version.rpartition("/")[0]
    names = spec.setdefault("names", {})
    if spec.setdefault("group", group) != group or not isinstance(names, dict) or \
            names.setdefault("kind", kind) != kind:
        raise _NotApplicable
    names.setdefault("plural", kind.lower() + "s")
    for version in spec.get("versions") or []:
        if isinstance(version, dict):
            version.setdefault("served", True)
    return out


def _has_null(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, dict):
        return any(_has_null(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_null(v) for v in value)
    return False


def _markers(obj: Any, applied: Any, crd: Any) -> Any:
    """The fallback: the CRD's markers alone."""
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

