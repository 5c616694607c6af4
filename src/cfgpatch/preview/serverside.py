"""``--live DIR --server-side``: what ``kubectl apply --server-side`` does to the live
objects (:func:`cfgpatch.kube.ssa.csaupgrade.kubectl_server_side_apply`: the API server's
field manager, kubectl's client-side to server-side migration included).

The live objects hold ``metadata.managedFields``: who owns which field.  For every head
object found there, the head render is applied by ``field_manager``:

* a field the apply changes that another manager owns is a **conflict**
  (``live-conflict``: the apply fails, or with ``--force-conflicts`` takes the field
  over): the other manager (``"hpa-controller" using autoscaling/v2``), the field as the
  server prints it (``.spec.replicas``) and, when the head render sets it, the line that
  does;
* a field the applier owned and no longer sends, that no other manager owns, is
  **removed** by the apply (``live-removal``, unless the change itself removes it: that is
  in the diff already);
* a field client-side ``kubectl apply`` set (the last-applied annotation holds it) that
  the head render no longer sends and that ``kubectl-client-side-apply`` still owns after
  the apply **stays** (``live-stuck``: server-side apply removes only what the applier
  owns; :func:`cfgpatch.kube.explain.ownership.stuck_fields`), with the base line that
  used to set it;
* any other refusal of the server (duplicate keys, a missing key field) is
  ``live-refused``.

Whose apply it is (``ServerSide.tool``, the command line's ``--as``, the words of ``kube
apply --as``):

* ``kubectl`` (the default): ``kubectl apply --server-side --field-manager NAME``, with
  kubectl's client-side to server-side migration (``csaupgrade``), which moves the fields
  of ``kubectl-client-side-apply`` to NAME so that the re-apply removes them;
* ``helm4``: Helm 4's apply as ``helm``, a plain server-side apply without that
  migration; Helm 4 does merge ``helm``'s own Update entries (a release Helm 3 installed
  client-side) into its Apply entry first, as ``cfgpatch kube upgrade --server-side
  --from-client-side`` does;
* ``flux``: Flux's kustomize-controller (:mod:`cfgpatch.kube.ssa.flux`): its cleanup
  hands kubectl's managers' fields to ``kustomize-controller``, then a forced apply.

Custom resources are typed by the CRDs of the head render and of ``DIR`` (else from their
content, as the server does for a CRD without a schema).  ``kubectl get -o yaml`` leaves
``managedFields`` out unless given ``--show-managed-fields``: a live object without them
is owned by nobody the server knows (its fields go to ``before-first-apply``), which the
outcome says (``no_managed_fields``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from ..errors import INVALID_ARGUMENTS, InvalidInput, KubeError, OwnershipConflict
from ..kube.explain.migration import pointer_of
from ..kube.explain.ownership import HELM4, stuck_fields
from ..kube.kustomize.resources import Gvk, ResId
from ..kube.ssa import Types, path_string, server_side_apply
from ..kube.ssa import fieldpath as fp
from ..kube.ssa.csaupgrade import kubectl_server_side_apply, merge_own_updates
from ..kube.ssa.flux import FLUX_MANAGER, flux_apply
from .objdiff import field_changes
from .render import RenderedObject

#: managedFields' times are not shown; a fixed time keeps the outcome reproducible.
TIME = "1970-01-01T00:00:00Z"
SKIP = ("/metadata/managedFields", "/metadata/resourceVersion", "/metadata/uid",
        "/metadata/generation", "/metadata/creationTimestamp", "/status")


#: ``--as``: each tool's field manager (Helm 4 and Flux apply under their own name only).
TOOLS = {"kubectl": "kubectl", "helm4": HELM4.manager, "flux": FLUX_MANAGER}


@dataclass(frozen=True)
class ServerSide:
    """``--server-side`` with ``--field-manager``, ``--force-conflicts`` and ``--as``."""

    field_manager: str = "kubectl"
    force: bool = False
    tool: str = "kubectl"


def server_side(tool: str = "kubectl", field_manager: str | None = None,
                force: bool = False) -> ServerSide:
    """The apply of ``--as tool`` (``field_manager``: by default the tool's own; Flux
    always forces).

    >>> server_side("helm4")
    ServerSide(field_manager='helm', force=False, tool='helm4')
    >>> server_side(field_manager="helm").tool
    'kubectl'
    """
    if tool not in TOOLS:
        raise InvalidInput(f"--as {tool}: not one of {', '.join(TOOLS)}", code=INVALID_ARGUMENTS)
    own = TOOLS[tool]
    if tool != "kubectl" and field_manager not in (None, own):
        raise InvalidInput(f"--as {tool} applies as {own}: leave --field-manager out",
                           code=INVALID_ARGUMENTS)
    return ServerSide(field_manager or own, force or tool == "flux", tool)


def types_for(objects: list[dict]) -> Types:
    """The field manager's types: the CRDs among ``objects`` (an invalid one is left out),
    the built-in table, then kinds typed from their content."""
    crds = [o for o in objects if o.get("kind") == "CustomResourceDefinition"
            and str(o.get("apiVersion", "")).startswith("apiextensions.k8s.io/")]
    good = []
    for crd in crds:
        try:
            Types(crds=[crd])
        except KubeError:
            continue
        good.append(crd)
    try:
        return Types(crds=good, deduced=True)
    except KubeError:
        return Types(deduced=True)


def outcome(head: RenderedObject, live: dict, how: ServerSide, types: Types,
            base: RenderedObject | None = None) -> tuple[dict, list[dict]]:
    """The server-side apply's outcome for one object (the report's ``live.server_side``)
    and the risks it carries (``base``: the base render, for where a stuck field was
    set)."""
    value = _namespaced(head.value)
    out: dict[str, Any] = {"field_manager": how.field_manager, "force": how.force,
                           "as": how.tool}
    meta = live.get("metadata")
    if not (isinstance(meta, dict) and meta.get("managedFields")):
        out["no_managed_fields"] = True  # kubectl get -o yaml leaves them out by default
    try:
        result, migrated = _apply(live, value, how, types)
    except OwnershipConflict as err:
        conflicts = [_conflict(c, value, head) for c in err.conflicts]
        out.update(applied=False, conflicts=conflicts, message=err.message)
        return out, [_conflict_risk(c, how, forced=False) for c in conflicts]
    except KubeError as err:
        out.update(applied=False, refused=err.message)
        return out, [{"rule": "live-refused",
                      "message": f"kubectl apply --server-side fails: {err.message}"}]
    forced = [_conflict(c, value, head) for c in result.forced]
    removed = [_field(p, live) for p in _tops(result.changes.removed)]
    changes = [c for c in field_changes(_trim(live), _trim(result.object))
               if not c.path.startswith(SKIP)]
    out.update(applied=True, unchanged=not result.changed, conflicts=forced,
               removed=removed, changes=[c.to_dict() for c in changes])
    stuck = [_stuck(path, manager, result.object, base)
             for path, manager in stuck_fields(live, value, result.managed_fields)]
    if stuck:
        out["stuck"] = stuck
    if migrated:
        out["migrated_managers"] = migrated
    risks = [_conflict_risk(c, how, forced=True) for c in forced]
    risks += [{"rule": "live-removal", "path": r["path"], "field": r["field"],
               "message": f"server-side apply by {how.field_manager} removes {r['field']} "
                          "from the live object (it applied that field before and no "
                          "longer sends it; no other manager owns it)"}
              for r in removed]
    risks += [_stuck_risk(s, how) for s in stuck]
    return out, risks


def _apply(live: dict, value: dict, how: ServerSide, types: Types) -> tuple[Any, list[str]]:
    """The apply's result and the client-side managers kubectl migrated."""
    if how.tool == "helm4":  # Helm 4 runs no kubectl migration
        live, migrated = merge_own_updates(live, how.field_manager, types, TIME)
        return server_side_apply(live, value, manager=how.field_manager, force=how.force,
                                 schema=types, time=TIME), migrated
    if how.tool == "flux":
        result, handed = flux_apply(live, value, types, TIME)
        return result, sorted({h.split(" ")[0] for h in handed})
    applied = kubectl_server_side_apply(live, value, field_manager=how.field_manager,
                                        force=how.force, schema=types, time=TIME)
    return applied.result, applied.migrated_managers


def _stuck(path: tuple, manager: str, stored: dict, base: RenderedObject | None) -> dict:
    item: dict[str, Any] = {"field": path_string(path), "path": pointer_of(path, stored) or "",
            "manager": manager}
    pointer = pointer_of(path, base.value) if base is not None else None
    where = base.blame.get(pointer) if base is not None and pointer is not None else None
    if where is not None and not where[0].startswith("("):
        item["file"], item["line"] = where
    return item


def _stuck_risk(stuck: dict, how: ServerSide) -> dict:
    risk = {"rule": "live-stuck", "path": stuck["path"], "field": stuck["field"],
            "manager": stuck["manager"],
            "message": f"{stuck['field']} stays in the live object after server-side apply "
                       f"by {how.field_manager}: the head render no longer sends it, but "
                       f"{stuck['manager']} (client-side kubectl apply) still owns it "
                       "(kubectl apply --server-side migrates it and removes it; Helm 4 "
                       "does not)"}
    if stuck.get("file"):
        risk["file"], risk["line"] = stuck["file"], stuck["line"]
    return risk


def _namespaced(value: dict) -> dict:
    """A namespaced object written without a namespace is applied to ``default``."""
    gvk = Gvk.of(value)
    meta = value.get("metadata") or {}
    if meta.get("namespace") or ResId(gvk, str(meta.get("name") or "")).cluster_scoped:
        return value
    out = copy.copy(value)
    out["metadata"] = {**meta, "namespace": "default"}
    return out


def _conflict(conflict: Any, value: dict, head: RenderedObject) -> dict:
    pointer = pointer_of(conflict.path, value)
    item: dict[str, Any] = {"manager": conflict.manager, "operation": conflict.operation,
                            "api_version": conflict.api_version, "owner": conflict.owner,
                            "field": conflict.field, "path": pointer or ""}
    where = head.blame.get(pointer) if pointer is not None else None
    if where is not None and not where[0].startswith("("):
        item["file"], item["line"] = where
    return item


def _conflict_risk(conflict: dict, how: ServerSide, forced: bool) -> dict:
    what = "takes over" if forced else "conflicts with"
    tail = " (--force-conflicts)" if forced else \
        ": kubectl apply --server-side fails (--force-conflicts would take it over)"
    risk = {"rule": "live-conflict", "path": conflict["path"], "field": conflict["field"],
            "manager": conflict["manager"],
            "message": f"server-side apply by {how.field_manager} {what} {conflict['owner']} "
                       f"on {conflict['field']}{tail}"}
    if conflict.get("file"):
        risk["file"], risk["line"] = conflict["file"], conflict["line"]
    return risk


def _field(path: tuple, live: dict) -> dict:
    return {"field": path_string(path), "path": pointer_of(path, live) or ""}


def _tops(fields: fp.FieldSet) -> list[tuple]:
    """The paths of ``fields`` that no other of its paths contains."""
    out: list[tuple] = []
    for path in sorted(fields.paths(), key=len):
        if not any(path[:len(top)] == top for top in out):
            out.append(path)
    return sorted(out, key=path_string)


def _trim(value: dict) -> dict:
    return {k: v for k, v in value.items() if k != "status"}
