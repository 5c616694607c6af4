"""Custom resources: what other tools would do where ``kubectl patch`` refuses.

kubectl has no Go type for a custom resource, so it refuses a strategic merge patch.
Three common tools silently fall back to a JSON merge patch instead: kustomize (its
patches on a kind without a schema), client-side ``kubectl apply`` and Helm's
client-side upgrade.  :func:`custom_resource_findings` computes their result on the
same object and patch and names every list element it loses.

Given the CustomResourceDefinition, :func:`server_side_apply` shows how server-side
apply would merge instead: a list marked ``x-kubernetes-list-type: map`` is merged by
its ``x-kubernetes-list-map-keys``, ``set`` lists are unions, other lists are atomic,
maps merge unless ``x-kubernetes-map-type: atomic``.  This view is computed from the
schema markers alone: it assumes the applier owns no field yet (so nothing is
removed for lack of ownership) and treats ``null`` as removal; it does not run a
server (which would also default, validate and prune).
"""

from __future__ import annotations

from typing import Any

from ..jsonvalue import deep_copy, equal
from .changes import ATOMIC_RULE, KEYED, SET, ListRule, Shapes, compute_changes, describe_element
from .findings import Finding, make

FALLBACK_TOOLS = "kustomize, client-side kubectl apply and Helm's client-side upgrade"


def version_schema(crd: Any, api_version: str) -> dict | None:
    """The ``openAPIV3Schema`` of the CRD version serving ``api_version`` (or the first)."""
    if not isinstance(crd, dict) or not isinstance(crd.get("spec"), dict):
        return None
    spec = crd["spec"]
    wanted = api_version.rsplit("/", 1)[-1]
    versions = [v for v in spec.get("versions") or [] if isinstance(v, dict)]
    chosen = next((v for v in versions if v.get("name") == wanted), versions[0] if versions
                  else None)
    for holder in (chosen or {}, spec):
        schema = (holder.get("schema") or holder.get("validation") or {})
        if isinstance(schema, dict) and isinstance(schema.get("openAPIV3Schema"), dict):
            return schema["openAPIV3Schema"]
    return None


class CrdShapes(Shapes):
    """List shapes read from a CRD's structural schema (server-side apply markers)."""

    def __init__(self, root: dict) -> None:
        self.root = root

    def _node(self, shape: tuple[str, ...]) -> dict | None:
        node: Any = self.root
        for step in shape:
            if not isinstance(node, dict):
                return None
            if step == "[]":
                node = node.get("items")
            elif step in (node.get("properties") or {}):
                node = node["properties"][step]
            elif isinstance(node.get("additionalProperties"), dict):
                node = node["additionalProperties"]
            elif step in ("apiVersion", "kind", "metadata") and node is self.root:
                return {}
            else:
                return None
        return node if isinstance(node, dict) else None

    def list_rule(self, shape: tuple[str, ...]) -> ListRule | None:
        node = self._node(shape)
        if node is None or node.get("type") != "array":
            return None
        list_type = node.get("x-kubernetes-list-type")
        keys = node.get("x-kubernetes-list-map-keys") or []
        if list_type == "map" and keys:
            return ListRule(KEYED, tuple(keys))
        if list_type == "set":
            return ListRule(SET)
        return ATOMIC_RULE

    def map_atomic(self, shape: tuple[str, ...]) -> bool:
        node = self._node(shape)
        return bool(node and node.get("x-kubernetes-map-type") == "atomic")

    def field_known(self, shape: tuple[str, ...]) -> bool | None:
        if not shape or shape[-1] == "[]":
            return None
        parent = self._node(shape[:-1])
        if parent is None or parent.get("x-kubernetes-preserve-unknown-fields"):
            return None
        if parent is self.root and shape[-1] in ("apiVersion", "kind", "metadata"):
            return True
        if parent.get("additionalProperties") not in (None, False):
            return True
        props = parent.get("properties")
        return None if props is None else shape[-1] in props


def crd_shapes(crd: Any, obj: Any) -> Shapes:
    """The :class:`CrdShapes` of the CRD version matching ``obj`` (empty if none)."""
    api_version = obj.get("apiVersion", "") if isinstance(obj, dict) else ""
    schema = version_schema(crd, api_version if isinstance(api_version, str) else "")
    return CrdShapes(schema) if schema is not None else Shapes()


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
        elif isinstance(value, dict) and isinstance(out.get(key), dict) and not (
                isinstance(shapes, CrdShapes) and shapes.map_atomic(here)):
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


def custom_resource_findings(obj: Any, patch: Any, crd: Any = None) -> list[Finding]:
    """Why kubectl refuses, what the fallback tools produce, and (with a CRD) SSA's view."""
    kind = obj.get("kind", "") if isinstance(obj, dict) else ""
    out = [make("custom-resource", "",
                f"kubectl has no merge keys for {kind or 'this kind'}: a strategic patch fails "
                f"locally, and a server answers 415 UnsupportedMediaType; use --type merge or "
                f"--type json")]
    if not isinstance(patch, dict):
        return out
    out.append(_fallback_finding(obj, patch))
    if crd is not None:
        out.append(_ssa_finding(obj, patch, crd))
    return out


def _fallback_finding(obj: Any, patch: dict) -> Finding:
    from . import kustomize, mergepatch
    try:
        merged = mergepatch.apply(obj, patch)
    except Exception:  # noqa: BLE001 - an unusable patch: show kustomize's view only
        merged = kustomize.strategic_merge(obj, patch, None)
    lost = _lost_lists(obj, merged)
    if lost:
        text = (f"{FALLBACK_TOOLS} fall back to a JSON merge patch here: "
                + "; ".join(f"{path} replaced, losing {names}" for path, names in lost))
    else:
        text = f"{FALLBACK_TOOLS} fall back to a JSON merge patch here; no list element is lost"
    return make("fallback-view", "", text, result=merged,
                kustomize=kustomize.strategic_merge(obj, patch, None))


def _ssa_finding(obj: Any, patch: dict, crd: Any) -> Finding:
    result = server_side_apply(obj, patch, crd)
    shapes = crd_shapes(crd, obj)
    merged = [c.path for c in compute_changes(obj, result, shapes=shapes)
              if c.action == "list" and c.how != "replaced"]
    lost = _lost_lists(obj, result)
    text = "server-side apply (with this CRD's list markers) "
    text += ("merges " + ", ".join(merged)) if merged else "merges no list"
    if lost:
        text += "; still replaces " + "; ".join(f"{p} (losing {n})" for p, n in lost)
    return make("server-side-apply-view", "", text, result=result)


def _lost_lists(before: Any, after: Any) -> list[tuple[str, str]]:
    out = []
    for change in compute_changes(before, after, mode="merge"):
        if change.action != "list" or not change.lost:
            continue
        kept = {describe_element(item) for item in change.after}
        gone = [describe_element(item) for item in change.lost]
        names = [name for name in gone if name not in kept]
        if names:
            out.append((change.path, ", ".join(names)))
    return out
