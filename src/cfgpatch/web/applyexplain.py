"""The apply mode's consequences: what the page says beyond kubectl's own answer.

* :func:`consequences`: what the server does with what the patch sends, said as such.
  A field that leaves the manifest is sent as ``null`` and the server then defaults it;
  for ``spec.replicas`` of a workload that default is 1, so a Deployment an HPA (or a
  ``kubectl scale``) had at N replicas drops to 1 at once: the HPA trap;
* :func:`readable_patch`: the three-way patch as an indented JSON text, the
  ``kubectl.kubernetes.io/last-applied-configuration`` annotation (an escaped JSON string
  that makes the one-line patch unreadable) shown as ``<the new manifest, below>`` and
  given apart, decoded and indented;
* :func:`removed_lines`: kubectl's text of the live object and of the result as one
  listing, lines only in the live object marked ``-`` (what the apply removes), lines only
  in the result ``+``.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import CfgPatchError
from . import render
from .printed import printed_lines

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
#: Kinds whose ``spec.replicas`` the API server defaults to 1 when it is absent.
SCALED = {"Deployment", "ReplicaSet", "StatefulSet", "ReplicationController"}


def consequences(patch: Any, live: dict | None, manifest: dict) -> list[dict]:
    """``[{"code", "path", "text"}]``: what the server will do with what is sent."""
    out: list[dict] = []
    if not isinstance(patch, dict) or live is None:
        return out
    spec = patch.get("spec")
    if isinstance(spec, dict) and "replicas" in spec and spec["replicas"] is None \
            and manifest.get("kind") in SCALED:
        now = (live.get("spec") or {}).get("replicas") if isinstance(live.get("spec"), dict) \
            else None
        was = f" (it has {now} now)" if isinstance(now, int) and now != 1 else ""
        out.append({"code": "replicas-defaulted", "path": "/spec/replicas", "text": (
            f"`spec.replicas` left the manifest, so kubectl sends `replicas: null` and the "
            f"server defaults it to 1: the {manifest.get('kind')} drops to 1 replica at once"
            f"{was}. If a HorizontalPodAutoscaler scales it, the HPA scales it back up only "
            f"later. To hand the replicas over to an HPA without the drop, remove `replicas` "
            f"from the last-applied configuration first (`kubectl apply edit-last-applied`), "
            f"then from the manifest.")})
    for path, value in _nulls(patch, ""):
        if path == "/spec/replicas":
            continue
        out.append({"code": "field-removed", "path": path, "text": (
            f"`{path[1:].replace('/', '.')}` left the manifest, so kubectl sends null and the "
            f"field is removed (was {json.dumps(value, ensure_ascii=False)[:60]}); if the "
            f"server has a default for it, the default takes its place.")})
    return out


def _nulls(patch: Any, prefix: str) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    if isinstance(patch, dict):
        for key, value in patch.items():
            if key.startswith("$") or key == "metadata" and not prefix:
                continue
            path = f"{prefix}/{key.replace('~', '~0').replace('/', '~1')}"
            if value is None:
                found.append((path, "a value"))
            else:
                found += _nulls(value, path)
    return found[:8]


def readable_patch(patch: Any) -> dict | None:
    """``{"text", "annotation"}``: the patch indented, the annotation apart."""
    if not isinstance(patch, dict):
        return None
    annotation = None
    shown = json.loads(json.dumps(patch))
    annotations = (shown.get("metadata") or {}).get("annotations") \
        if isinstance(shown.get("metadata"), dict) else None
    if isinstance(annotations, dict) and isinstance(annotations.get(LAST_APPLIED), str):
        raw = annotations[LAST_APPLIED]
        annotations[LAST_APPLIED] = "<the new last-applied configuration, below>"
        try:
            annotation = json.dumps(json.loads(raw), indent=2, ensure_ascii=False)
        except ValueError:
            annotation = raw
    return {"text": json.dumps(shown, indent=2, ensure_ascii=False), "annotation": annotation}


def removed_lines(live: dict | None, lines: list, fmt: str) -> list:
    """The before/after listing of the live object and the result (``[sign, text]``)."""
    if live is None:
        return [["+", text] for text, _ in lines]
    try:
        before = printed_lines(live, fmt)
    except CfgPatchError:
        return []
    return render.before_after(before, lines)
