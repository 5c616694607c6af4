"""Findings for a custom resource, where ``kubectl patch`` refuses a strategic patch.

Three common tools silently fall back to a JSON merge patch instead: kustomize (its
patches on a kind without a schema), client-side ``kubectl apply`` and Helm's
client-side upgrade.  :func:`custom_resource_findings` computes their result on the
same object and patch and names every list element it loses, and with the CRD how
server-side apply would merge instead.
"""

from __future__ import annotations

from typing import Any

from ..schema.crd import crd_shapes
from ..views.ssa import server_side_apply
from .catalogue import Finding, make
from .changes import compute_changes, describe_element

FALLBACK_TOOLS = "kustomize, client-side kubectl apply and Helm's client-side upgrade"


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


def _kustomize_view(obj: Any, patch: dict) -> Any:
    """kustomize's merge of the patch (every list replaced without a schema); the error
    text where kustomize refuses it, None where it deletes the resource."""
    from ...errors import KubeError
    from ..kustomize import KustomizeSchema, apply_strategic
    try:
        return apply_strategic(obj if isinstance(obj, dict) else {}, patch,
                               KustomizeSchema.builtin())
    except KubeError as exc:
        return {"error": exc.message}


def _fallback_finding(obj: Any, patch: dict) -> Finding:
    from ..engine import mergepatch
    kustomized = _kustomize_view(obj, patch)
    try:
        merged = mergepatch.apply(obj, patch)
    except Exception:  # noqa: BLE001 - an unusable patch: show kustomize's view only
        merged = kustomized
    lost = _lost_lists(obj, merged)
    if lost:
        text = (f"{FALLBACK_TOOLS} fall back to a JSON merge patch here: "
                + "; ".join(f"{path} replaced, losing {names}" for path, names in lost))
    else:
        text = f"{FALLBACK_TOOLS} fall back to a JSON merge patch here; no list element is lost"
    return make("fallback-view", "", text, result=merged, kustomize=kustomized)


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

