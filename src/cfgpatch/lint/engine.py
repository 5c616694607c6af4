"""The patch engine's findings of a kustomize patch on one resource.

``kube build`` (``lint.kbuild``) applies every patch and records each resource before
and after; lint asks the patch engine (``cfgpatch.kube.patch``) what the same patch does
to ``before``, with its explanations: a strategic patch as kustomize merges it
(:func:`apply_strategic`, onto the resource it was retargeted to: :func:`retargeted`),
a JSON 6902 patch as kustomize sees the resource (:func:`apply_json`).
"""

from __future__ import annotations

from ..errors import KUSTOMIZE_DELETES, KubeError
from ..kube.kustomize.openapi import SchemaState
from .model import ResourceId

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def resource_id(obj: Any) -> ResourceId:
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    if not isinstance(meta, dict):
        meta = {}
    return ResourceId(str(obj.get("apiVersion", "")), str(obj.get("kind", "")),
                      str(meta.get("name", "")), str(meta.get("namespace") or ""))


def apply_strategic(obj: dict, patch: Any, explain: bool,
                    state: SchemaState | None = None) -> tuple[Any, list]:
    """kustomize's strategic merge of ``patch`` onto ``obj``: (result or None if the patch
    deletes the resource, the engine's findings).  ``state``: the build's schema (an
    ``openapi:`` document's merge keys); the findings are the engine's, with kyaml's
    built-in schema, as for a build on disk (``lint.kbuild``)."""
    from ..kube.patcher import patch as kube_patch
    schema = state.schema() if state is not None else None
    try:
        result = kube_patch(obj, patch, "strategic", as_="kustomize", explain=explain)
    except KubeError as exc:
        if exc.code == KUSTOMIZE_DELETES:
            return None, []
        raise
    if schema is not None and state is not None and state.custom:
        return _custom_merge(obj, patch, schema), list(result.findings)
    return result.object, list(result.findings)


def _custom_merge(obj: dict, patch: Any, schema: Any) -> Any:
    """kube build's merge with the schema of an ``openapi:`` document (None: deleted)."""
    from ..kube.io.unstructured import decode_result
    from ..kube.kustomize import apply_strategic as kustomize_merge
    merged = kustomize_merge(obj, patch if isinstance(patch, dict) else {}, schema)
    return decode_result(merged) if merged else None


def apply_json(obj: dict, ops: Any, explain: bool) -> tuple[Any, list]:
    """A JSON 6902 patch on ``obj``: (result, findings).  As in a build, the patch sees
    ``metadata.annotations`` even when ``obj`` has none (kustomize keeps its internal
    annotations there meanwhile), and an annotations map left empty is dropped."""
    from ..kube.patcher import patch as kube_patch
    meta = obj.get("metadata")
    if isinstance(meta, dict) and meta.get("annotations") is None:
        obj = {**obj, "metadata": {**meta, "annotations": {}}}
    result = kube_patch(obj, ops, "json", explain=explain)
    after = result.object
    after_meta = after.get("metadata") if isinstance(after, dict) else None
    if isinstance(after_meta, dict) and after_meta.get("annotations") in ({}, None) \
            and "annotations" in after_meta:
        after = {**after, "metadata": {k: v for k, v in after_meta.items()
                                       if k != "annotations"}}
    return after, list(result.findings)



def retargeted(patch: Any, obj: dict) -> Any:
    """A strategic patch with a target takes the kind, apiVersion, name and namespace of
    each resource it is applied to (kustomize copies them onto the patch)."""
    if not isinstance(patch, dict):
        return patch
    out = dict(patch)
    for key in ("apiVersion", "kind"):
        if key in obj:
            out[key] = obj[key]
    meta = patch.get("metadata")
    if not isinstance(meta, dict):
        meta = {}
    have = obj.get("metadata")
    if not isinstance(have, dict):
        have = {}
    meta = {**meta, **{k: have[k] for k in ("name", "namespace") if k in have}}
    if "namespace" not in have:
        meta.pop("namespace", None)
    out["metadata"] = meta
    return out


__all__ = ["apply_json", "apply_strategic", "resource_id", "retargeted"]
