"""The patch mode's CRD field: a custom resource's CustomResourceDefinition, as
``cfgpatch kube patch --crd`` takes it.

kubectl has no merge keys for a custom resource, so its strategic patch is refused; given
the CRD, the engine says how server-side apply would merge instead (its list and map
types: the ``server-side-apply-view`` finding).  kustomize reads no CRD for its merge but
an ``openapi:`` document: :func:`openapi_document` makes one of the CRD's schemas (one
definition per version, named ``<group reversed>.<version>.<Kind>``, with its
``x-kubernetes-group-version-kind``), and :func:`kustomize_view` runs kustomize's
strategic merge with it, as a kustomization with ``openapi: {path: that document}``
builds (checked against ``kubectl kustomize`` 1.32: ``tests/data/web/crd-kustomize``).
kustomize merges a list only where the schema has ``x-kubernetes-patch-strategy`` (with
``x-kubernetes-list-map-keys`` or ``x-kubernetes-patch-merge-key``): server-side apply's
``x-kubernetes-list-type: map`` alone leaves the list replaced; :func:`unmerged_lists`
names those lists.
"""

from __future__ import annotations

from typing import Any

from ..errors import CfgPatchError, KubeError

_READ: list[Any] = [None, None, None]  # text, crd, error: the last CRD text read


def _map(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def read_crd(text: str) -> tuple[dict | None, CfgPatchError | None]:
    """The CRD of the field (``(None, None)`` when it is empty), or why it cannot be read."""
    if not text.strip():
        return None, None
    if _READ[0] == text:
        return _READ[1], _READ[2]
    from ..kube.io import reader

    crd: dict | None = None
    error: CfgPatchError | None = None
    try:
        found = reader.load_object(text, "crd")[0]
        crd = found if found.get("kind") == "CustomResourceDefinition" else None
        if crd is None:
            error = KubeError(
                f"the CRD field holds a {found.get('kind') or 'object without a kind'}, not a "
                f"CustomResourceDefinition",
                hint="paste the CRD of the custom resource, as `kubectl get crd NAME -o yaml` "
                     "prints it")
    except CfgPatchError as exc:
        error = exc
    _READ[:] = [text, crd, error]
    return crd, error


def _versions(crd: dict) -> list[tuple[str, dict]]:
    spec = _map(crd.get("spec"))
    shared = _map(spec.get("validation")).get("openAPIV3Schema")
    out = []
    for version in spec.get("versions") or []:
        if not isinstance(version, dict) or not isinstance(version.get("name"), str):
            continue
        schema = _map(version.get("schema")).get("openAPIV3Schema")
        schema = schema if isinstance(schema, dict) else shared
        if isinstance(schema, dict):
            out.append((version["name"], schema))
    return out


def openapi_document(crd: dict) -> dict:
    """The CRD's schemas as an OpenAPI v2 document (see the module docstring)."""
    spec = _map(crd.get("spec"))
    group = str(spec.get("group") or "")
    names = _map(spec.get("names"))
    kind = str(names.get("kind") or "")
    prefix = ".".join(reversed(group.split("."))) if group else ""
    definitions = {}
    for version, schema in _versions(crd):
        name = ".".join(part for part in (prefix, version, kind) if part)
        definitions[name] = {**schema, "x-kubernetes-group-version-kind": [
            {"group": group, "version": version, "kind": kind}]}
    return {"swagger": "2.0", "info": {"title": "from the CRD", "version": "v1"},
            "definitions": definitions}


def kustomize_view(obj: Any, body: Any, crd: dict) -> Any:
    """kustomize's strategic merge of ``body`` into ``obj`` with the CRD's schemas as its
    ``openapi:`` document."""
    from ..kube.kustomize import KustomizeSchema, apply_strategic

    if not isinstance(body, dict) and body is not None:
        raise KubeError("a strategic merge patch must be a mapping (kustomize cannot read "
                        "a list or a scalar as a patch)")
    schema = KustomizeSchema.with_openapi(openapi_document(crd), builtin=False)
    result = apply_strategic(obj if isinstance(obj, dict) else {}, body or {}, schema)
    if result is None:
        raise KubeError("the patch deletes the whole resource ($patch: delete at the top)",
                        hint="kustomize leaves such a resource out of its output")
    return result


def unmerged_lists(crd: dict) -> list[str]:
    """The lists the CRD marks ``x-kubernetes-list-type: map`` that kustomize still
    replaces (no ``x-kubernetes-patch-strategy``), as dotted paths (``spec.ports``)."""
    found: list[str] = []

    def walk(node: Any, path: str) -> None:
        if not isinstance(node, dict):
            return
        if node.get("x-kubernetes-list-type") == "map" and \
                "x-kubernetes-patch-strategy" not in node and path not in found:
            found.append(path)
        for name, child in (node.get("properties") or {}).items():
            walk(child, f"{path}.{name}" if path else name)
        walk(node.get("items"), f"{path}[]")
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], f"{path}.*" if path else "*")

    for _version, schema in _versions(crd)[:1]:
        walk(schema, "")
    return found


def defines(crd: dict | None, obj: Any) -> bool:
    """Whether the CRD defines the object's kind (its group and kind)."""
    if crd is None or not isinstance(obj, dict):
        return False
    spec = _map(crd.get("spec"))
    names = _map(spec.get("names"))
    api_version = obj.get("apiVersion")
    group = api_version.rpartition("/")[0] if isinstance(api_version, str) else ""
    return group == spec.get("group") and obj.get("kind") == names.get("kind")


def openapi_note(crd: dict) -> str:
    """What the page says above kustomize's result computed with the CRD."""
    said = ("Computed with the CRD's schema as kustomize's `openapi:` document (a "
            "kustomization with `openapi: {path: ...}`).")
    lists = unmerged_lists(crd)
    if lists:
        named = ", ".join(f"`{path}`" for path in lists[:3])
        said += (f" kustomize merges a list only where the schema says "
                 f"`x-kubernetes-patch-strategy: merge`; server-side apply's "
                 f"`x-kubernetes-list-type: map` alone does not count, so {named} "
                 f"{'is' if len(lists) == 1 else 'are'} replaced. Add "
                 f"`x-kubernetes-patch-strategy: merge` next to it in the document to merge "
                 f"by its `x-kubernetes-list-map-keys`.")
    return said
