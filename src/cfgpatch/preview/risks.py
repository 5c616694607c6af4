"""What in a change can hurt the cluster: said first, each at its attributed line.

* ``recreate``: an immutable field changed, so the apply fails or the object must be
  deleted and created again (workload selectors, Service ``clusterIP`` and ``type``,
  Job ``selector`` and ``template``, PVC ``storageClassName``, ``accessModes`` and
  ``volumeName``, StatefulSet ``volumeClaimTemplates``, ``serviceName`` and
  ``podManagementPolicy``);
* ``removed``: an object that disappears (what a pruning GitOps tool deletes), or
  is renamed (a generated ConfigMap or Secret whose hash changed aside);
* ``namespace-moved``: the same object in another namespace (deleted and created);
* ``image``: a container image changed (old and new tag or digest);
* ``hpa-replicas``: ``spec.replicas`` changed on a workload an HPA scales (the
  apply resets what the HPA chose);
* ``crd-version-removed``: a CustomResourceDefinition stops serving a version;
* ``secret-data``: a Secret's data changed (the keys are named, never the values);
* ``live-removal`` (``--live``): the apply removes a field of the live object that the
  change itself does not remove;
* ``live-refused`` (``--live``): kubectl or the API server refuses the apply;
* ``live-conflict`` (``--live --server-side``): the apply changes a field another field
  manager owns (it fails, or takes the field over with ``--force-conflicts``);
* ``live-stuck`` (``--live --server-side``): a field client-side kubectl apply set, that
  the head render no longer sends, stays in the live object because
  ``kubectl-client-side-apply`` still owns it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .objdiff import FieldChange

IMMUTABLE: dict[str, tuple[str, ...]] = {
    "Deployment": ("/spec/selector",),
    "ReplicaSet": ("/spec/selector",),
    "DaemonSet": ("/spec/selector",),
    "StatefulSet": ("/spec/selector", "/spec/volumeClaimTemplates", "/spec/serviceName",
                    "/spec/podManagementPolicy"),
    "Job": ("/spec/selector", "/spec/template", "/spec/completionMode"),
    "Service": ("/spec/clusterIP", "/spec/clusterIPs", "/spec/type"),
    "PersistentVolumeClaim": ("/spec/storageClassName", "/spec/accessModes",
                              "/spec/volumeName", "/spec/volumeMode"),
    "PersistentVolume": ("/spec/claimRef",),
}
_CONTAINERS = ("containers", "initContainers", "ephemeralContainers")


@dataclass
class Risk:
    rule: str
    message: str
    path: str = ""
    change: FieldChange | None = None

    def to_dict(self, obj: str) -> dict:
        out = {"rule": self.rule, "object": obj, "message": self.message, "path": self.path}
        where = self.change.attribution[0] if self.change and self.change.attribution else None
        if where:
            out["file"], out["line"] = where["file"], where["line"]
        return out


def object_risks(kind: str, how: str, changes: list[FieldChange], before: Any, after: Any,
                 scaled: bool) -> list[Risk]:
    out: list[Risk] = []
    if how == "removed":
        return [Risk("removed", f"{kind} disappears: a pruning GitOps tool deletes it")]
    if how == "renamed":
        old = (before.get("metadata") or {}).get("name")
        out.append(Risk("removed", f"{kind} {old} is renamed: a pruning GitOps tool deletes "
                                   "it and creates the new one", "/metadata/name",
                        next((c for c in changes if c.path == "/metadata/name"), None)))
    if how == "namespace-moved":
        old = (before.get("metadata") or {}).get("namespace") or "(none)"
        new = (after.get("metadata") or {}).get("namespace") or "(none)"
        out.append(Risk("namespace-moved", f"moves from namespace {old} to {new}: "
                                           "deleted there and created here"))
    if how == "added" or before is None:
        return out
    for change in changes:
        if change.ignored:
            continue
        for prefix in IMMUTABLE.get(kind, ()):
            if _under(change.path, prefix) and not (kind == "Service" and _new_cluster_ip(
                    change)):
                out.append(Risk("recreate", f"{prefix[1:].replace('/', '.')} is immutable: "
                                            f"the apply fails unless the {kind} is deleted "
                                            "and created again", change.path, change))
                break
        if _is_image(change.path) and change.action == "replace":
            out.append(Risk("image", f"image {change.before} -> {change.after}", change.path,
                            change))
        elif _is_container(change.path) and isinstance(change.after, dict) \
                and change.action == "add" and change.after.get("image"):
            out.append(Risk("image", f"new container image {change.after.get('image')}",
                            change.path, change))
        if scaled and change.path == "/spec/replicas":
            out.append(Risk("hpa-replicas", f"replicas {change.before} -> {change.after} on a "
                                            "workload an HPA scales: the apply resets the "
                                            "HPA's choice", change.path, change))
        if kind == "Secret" and change.path.startswith(("/data", "/stringData")):
            key = change.path.split("/", 2)[2] if change.path.count("/") >= 2 else "(all)"
            out.append(Risk("secret-data", f"Secret data {key.replace('~1', '/')} "
                                           f"{_verb(change.action)} (value not shown)",
                            change.path, change))
    if kind == "CustomResourceDefinition":
        out += _crd_versions(before, after, changes)
    return out


def _verb(action: str) -> str:
    return {"add": "added", "remove": "removed"}.get(action, "changed")


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith(prefix + "/")


def _new_cluster_ip(change: FieldChange) -> bool:
    """A clusterIP the base left to the API server (absent or empty) is not a change of
    an allocated address."""
    return change.path.startswith("/spec/clusterIP") and change.before in (None, "")


def _is_image(path: str) -> bool:
    parts = path.split("/")
    return len(parts) >= 3 and parts[-1] == "image" and parts[-3] in _CONTAINERS


def _is_container(path: str) -> bool:
    parts = path.split("/")
    return len(parts) >= 2 and parts[-2] in _CONTAINERS


def _crd_versions(before: Any, after: Any, changes: list[FieldChange]) -> list[Risk]:
    def served(value: Any) -> set[str]:
        spec = value.get("spec") if isinstance(value, dict) else None
        versions = spec.get("versions") if isinstance(spec, dict) else None
        return {str(v.get("name")) for v in versions or [] if isinstance(v, dict)
                and v.get("served", True) is not False}

    gone = sorted(served(before) - served(after))
    anchor = next((c for c in changes if c.path.startswith("/spec/versions")), None)
    return [Risk("crd-version-removed", f"version {v} is no longer served: objects stored "
                                        "at it become unreadable", "/spec/versions", anchor)
            for v in gone]


def hpa_targets(objects: list[Any]) -> set[tuple[str, str, str]]:
    """(kind, namespace, name) of every workload a HorizontalPodAutoscaler scales."""
    out = set()
    for obj in objects:
        value = obj.value
        if value.get("kind") != "HorizontalPodAutoscaler":
            continue
        ref = (value.get("spec") or {}).get("scaleTargetRef") or {}
        namespace = str((value.get("metadata") or {}).get("namespace") or "")
        out.add((str(ref.get("kind") or ""), namespace, str(ref.get("name") or "")))
    return out
