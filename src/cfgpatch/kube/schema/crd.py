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

from .rules import ATOMIC_RULE, KEYED, SET, ListRule, Shapes


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


