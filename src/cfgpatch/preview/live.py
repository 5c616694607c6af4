"""``--live DIR``: what the apply itself does to the objects as they are in the cluster.

``DIR`` holds objects as ``kubectl get -o yaml`` saved them (one per file, several, or
a ``List``).  For every head object found there, client-side ``kubectl apply``
(:func:`cfgpatch.kube.engine.clientapply.kubectl_apply`: the three-way merge with the
last-applied annotation) gives the patch kubectl sends and the object after it; the
preview says whether the apply changes anything, which fields it removes from the live
object (``live-removal``: something set there, by hand or by another tool, that this
apply deletes), and when kubectl would refuse the patch (``live-refused``).  A removed
object that is live is what pruning deletes.  Server-side apply is not modelled here.
"""

from __future__ import annotations

import os
from typing import Any

from ..errors import KubeError
from ..kube.engine.clientapply import kubectl_apply
from ..kube.io.reader import load_objects
from ..kube.kustomize.resources import Gvk, ResId
from ..kube.schema.node import builtin_schema
from .objdiff import field_changes
from .render import RenderedObject

SKIP = ("/metadata/managedFields", "/metadata/resourceVersion", "/metadata/uid",
        "/metadata/generation", "/metadata/creationTimestamp", "/status")


def read_live(folder: str) -> dict[tuple[str, str, str, str], dict]:
    """Every object under ``folder`` by (group, kind, namespace, name)."""
    out: dict[tuple[str, str, str, str], dict] = {}
    for top, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            if not name.endswith((".yaml", ".yml", ".json")):
                continue
            with open(os.path.join(top, name), encoding="utf-8") as handle:
                text = handle.read()
            for loaded in load_objects(text, name):
                if isinstance(loaded, KubeError):
                    raise loaded
                value = loaded[0]
                items = value.get("items") if str(value.get("kind", "")).endswith("List") \
                    else [value]
                for item in items or []:
                    if isinstance(item, dict):
                        out[ident(item)] = item
    return out


def ident(value: dict) -> tuple[str, str, str, str]:
    found = value.get("metadata")
    meta: dict = found if isinstance(found, dict) else {}
    return (str(value.get("apiVersion") or "").rpartition("/")[0], str(value.get("kind")),
            str(meta.get("namespace") or ""), str(meta.get("name") or ""))


def outcome(head: RenderedObject, live: dict) -> tuple[dict, list[dict]]:
    """The apply's outcome for one object, and the risks it carries."""
    value = head.value
    gvk = Gvk.of(value)
    node = builtin_schema().for_kind(gvk.api_version, gvk.kind)
    meta = value.get("metadata") or {}
    scoped = ResId(gvk, str(meta.get("name") or "")).cluster_scoped
    try:
        applied = kubectl_apply(value, live, node, namespace=None if scoped else "default")
    except KubeError as err:
        return {"refused": err.message}, [{"rule": "live-refused",
                                           "message": f"kubectl apply fails: {err.message}"}]
    changes = [c for c in field_changes(_trim(live), _trim(applied.result))
               if not c.path.startswith(SKIP)
               and not c.path.endswith("last-applied-configuration")]
    removed = [c.path for c in changes if c.action == "remove"]
    out: dict[str, Any] = {"patch": applied.patch, "unchanged": applied.patch == {},
                           "changes": [c.to_dict() for c in changes]}
    risks = [{"rule": "live-removal", "message": f"the apply removes {path} from the live "
                                                 "object", "path": path} for path in removed]
    return out, risks


def _trim(value: dict) -> dict:
    return {k: v for k, v in value.items() if k != "status"}
