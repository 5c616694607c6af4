"""Write web/src/ssa-examples.json: the server-side examples of the page's apply mode.

Each live object is made by the engine itself from a short history (applies and updates
by named managers, at fixed times), as a cluster would have stored it; the page then
applies the example's manifest with its field manager.  Run after a change of the
examples: ``.venv/bin/python scripts/gen_web_ssa_examples.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from cfgpatch.kube.engine.clientapply import kubectl_apply
from cfgpatch.kube.io import writer
from cfgpatch.kube.schema.node import builtin_schema
from cfgpatch.kube.ssa import server_side_apply, update

OUT = Path(__file__).resolve().parent.parent / "web" / "src" / "ssa-examples.json"
T1, T2 = "2026-11-02T09:00:00Z", "2026-11-03T14:30:00Z"


def deployment(replicas: int | None = 3, image: str = "app:1.27", **spec: object) -> dict:
    out: dict = {"apiVersion": "apps/v1", "kind": "Deployment",
                 "metadata": {"name": "web", "namespace": "default"},
                 "spec": {"selector": {"matchLabels": {"app": "web"}},
                          "template": {"metadata": {"labels": {"app": "web"}},
                                       "spec": {"containers": [{"name": "app",
                                                                "image": image}]}}}}
    if replicas is not None:
        out["spec"]["replicas"] = replicas
    out["spec"].update(spec)
    return out


def text(obj: dict | None) -> str:
    return "" if obj is None else writer.dump(obj, "yaml", managed_fields=True)


def hpa() -> dict:
    live = server_side_apply(None, deployment(), manager="helm", time=T1).object
    scaled = json.loads(json.dumps(live))
    scaled["spec"]["replicas"] = 7
    live = update(live, scaled, manager="kube-controller-manager", time=T2).object
    return {"id": "ssa-hpa-conflict", "side": "server", "manager": "helm", "force": False,
            "title": "Server-side: an HPA owns replicas, the chart still sets it",
            "note": "helm applied replicas: 3; the HPA (kube-controller-manager) scaled to 7, "
                    "so it owns spec.replicas. helm's next apply conflicts: see the three "
                    "ways out, or tick --force-conflicts.",
            "live": text(live), "manifest": text(deployment(3, "app:1.28"))}


def migration() -> dict:
    old = deployment(3, minReadySeconds=10)
    node = builtin_schema().for_kind("apps/v1", "Deployment")
    created = kubectl_apply(old, None, node, namespace="default").result
    live = update(None, created, manager="kubectl-client-side-apply", time=T1).object
    return {"id": "ssa-csa-migration", "side": "server", "manager": "kubectl", "force": False,
            "title": "Server-side: moving from client-side apply (a field left the manifest)",
            "note": "Applied client-side with minReadySeconds; the manifest dropped it. "
                    "kubectl's move hands kubectl-client-side-apply's fields to the field "
                    "manager, so the re-apply removes it (Helm 4 and Flux do not make "
                    "this move: there it stays, stuck).",
            "live": text(live), "manifest": text(deployment(3))}


def removal() -> dict:
    first = deployment(3)
    first["metadata"]["labels"] = {"team": "a", "tier": "web"}
    live = server_side_apply(None, first, manager="kubectl", time=T1).object
    touched = json.loads(json.dumps(live))
    touched["metadata"]["labels"]["tier"] = "web"
    touched["metadata"].setdefault("annotations", {})["owner"] = "ops"
    live = update(live, touched, manager="kubectl-edit", time=T2).object
    new = deployment(3)
    new["metadata"]["labels"] = {"team": "a"}
    return {"id": "ssa-label-removed", "side": "server", "manager": "kubectl", "force": False,
            "title": "Server-side: a label the applier stops sending is removed",
            "note": "kubectl applied labels team and tier; the manifest now has team only, "
                    "and nobody else owns tier, so the apply removes it. The annotation "
                    "someone added with kubectl edit is not kubectl's: it stays.",
            "live": text(live), "manifest": text(new)}


def created() -> dict:
    return {"id": "ssa-create", "side": "server", "manager": "kubectl", "force": False,
            "title": "Server-side: the object is created",
            "note": "No live object: the server creates it, and kubectl owns every field it "
                    "sent.", "live": "", "manifest": text(deployment(2))}


CRD = {
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "gizmos.example.com"},
    "spec": {"group": "example.com", "scope": "Namespaced",
             "names": {"kind": "Gizmo", "plural": "gizmos", "singular": "gizmo",
                       "listKind": "GizmoList"},
             "versions": [{"name": "v1", "served": True, "storage": True, "schema": {
                 "openAPIV3Schema": {"type": "object", "properties": {"spec": {
                     "type": "object", "properties": {
                         "ports": {"type": "array", "x-kubernetes-list-type": "map",
                                   "x-kubernetes-list-map-keys": ["name"],
                                   "items": {"type": "object", "required": ["name"],
                                             "properties": {"name": {"type": "string"},
                                                            "port": {"type": "integer"}}}},
                         "tags": {"type": "array", "items": {"type": "string"}}}}}}}}]}}


def gizmo(ports: list, tags: list) -> dict:
    return {"apiVersion": "example.com/v1", "kind": "Gizmo",
            "metadata": {"name": "g", "namespace": "default"},
            "spec": {"ports": ports, "tags": tags}}


def custom() -> dict:
    live = server_side_apply(None, gizmo([{"name": "http", "port": 80}], ["a"]),
                             manager="kubectl", crds=[CRD], time=T1).object
    extra = {"apiVersion": "example.com/v1", "kind": "Gizmo",
             "metadata": {"name": "g", "namespace": "default"},
             "spec": {"ports": [{"name": "metrics", "port": 9090}]}}
    live = server_side_apply(live, extra, manager="operator", crds=[CRD], time=T2).object
    return {"id": "ssa-custom-resource", "side": "server", "manager": "kubectl",
            "force": False,
            "title": "Server-side: a custom resource, its list keys from the CRD",
            "note": "The CRD says ports is a map list keyed by name: the operator's metrics "
                    "port stays while kubectl changes http. Empty the CRD and the server "
                    "has no type for Gizmo.",
            "live": text(live), "manifest": text(gizmo([{"name": "http", "port": 8080}],
                                                       ["a", "b"])),
            "crd": yaml.safe_dump(CRD, sort_keys=False)}


def main() -> None:
    examples = [hpa(), migration(), removal(), created(), custom()]
    OUT.write_text(json.dumps(examples, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(examples)} examples to {OUT}")


if __name__ == "__main__":
    main()
