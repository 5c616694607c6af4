"""kubectl's move from client-side to server-side apply (client-go ``csaupgrade``).

``kubectl apply`` (client-side) writes as an Update by ``kubectl-client-side-apply`` and
keeps the last-applied annotation.  When the user switches to ``kubectl apply
--server-side``, kubectl 1.32 does, after its server-side apply:

1. *save the annotation*: with the field manager ``kubectl``, if the object has the
   last-applied annotation and no Apply entry owns it, an apply by ``kubectl-last-applied``
   of just that annotation (so later server-side applies keep it);
2. *migrate*: the Update entries that own the annotation (the client-side managers) are
   merged into the server-side manager's Apply entry (renamed into it when there is
   none) and dropped, by a JSON patch of ``metadata.managedFields``;
3. *re-apply* the same configuration when it migrated, so that fields the configuration no
   longer sends are now removed (they were the client-side manager's, now they are
   ``kubectl``'s own).

Without the migration (another field manager, a tool such as Helm or Flux that does not
run it) the client-side manager keeps its fields: a field the new configuration drops stays
in the object ("stuck"), and changing one conflicts with ``kubectl-client-side-apply``.

Helm 4 runs the same patch with itself as both managers when a release Helm 3 installed
client-side is upgraded server-side (:func:`merge_own_updates`): only ``helm``'s own
Update entries move, ``kubectl-client-side-apply`` keeps its fields.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from ...records import dataclass, field
from . import fieldpath as fp
from . import managed as mf
from .api import ApplyResult, Schema, Types, server_side_apply, update

CLIENT_SIDE_MANAGER = "kubectl-client-side-apply"
SERVER_SIDE_MANAGER = "kubectl"
LAST_APPLIED_MANAGER = "kubectl-last-applied"
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
LAST_APPLIED_PATH = fp.FieldSet.from_paths(
    [(fp.field("metadata"), fp.field("annotations"), fp.field(LAST_APPLIED))])


def _entries(obj: Any) -> list[dict]:
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    items = meta.get("managedFields") if isinstance(meta, dict) else None
    return [e for e in items if isinstance(e, dict)] if isinstance(items, list) else []


def _fields(entry: dict) -> fp.FieldSet:
    try:
        return fp.FieldSet.from_fields_v1(entry.get("fieldsV1") or {})
    except fp.FieldsV1Error:
        raise ValueError("failed to convert fields to set") from None


def find_fields_owners(entries: Iterable[dict], operation: str, fields: fp.FieldSet) -> list[dict]:
    """The entries of ``operation`` whose fields include all of ``fields``."""
    out = []
    for e in entries:
        if e.get("operation") != operation:
            continue
        try:
            owned = _fields(e)
        except ValueError:
            continue
        if fields.difference(owned).empty():
            out.append(e)
    return out


def upgraded_entries(entries: list[dict], csa_managers: Iterable[str], ssa_manager: str,
                     subresource: str = "") -> list[dict] | None:
    """The managed fields with the client-side managers merged into ``ssa_manager``."""
    out: list[dict] | None = copy.deepcopy(entries)
    for name in sorted(set(csa_managers)):
        out = _upgrade(out, name, ssa_manager, subresource)
    return out


def _is(entry: dict, manager: str, operation: str, subresource: str) -> bool:
    return (entry.get("manager", "") == manager and entry.get("operation") == operation
            and entry.get("subresource", "") == subresource)


def _upgrade(entries: list[dict] | None, csa: str, ssa: str, sub: str) -> list[dict] | None:
    if entries is None:
        return None
    target = next((i for i, e in enumerate(entries) if _is(e, ssa, mf.APPLY, sub)), None)
    if target is None:
        target = next((i for i, e in enumerate(entries) if _is(e, csa, mf.UPDATE, sub)), None)
        if target is None:
            return entries
        entries[target]["operation"] = mf.APPLY
        entries[target]["manager"] = ssa
    ssa_entry = entries[target]
    combined = _fields(ssa_entry)
    source = next((e for e in entries if _is(e, csa, mf.UPDATE, sub)
                   and e.get("apiVersion") == ssa_entry.get("apiVersion")), None)
    if source is not None:
        combined = combined.union(_fields(source))
    ssa_entry["fieldsV1"] = combined.to_fields_v1()
    kept = [e for e in entries if not _is(e, csa, mf.UPDATE, sub)]
    return kept or None


def upgrade_managed_fields_patch(obj: dict, csa_managers: Iterable[str], ssa_manager: str,
                                 subresource: str = "") -> list[dict] | None:
    """kubectl's JSON patch replacing ``metadata.managedFields`` (``None``: nothing to do)."""
    before = _entries(obj)
    after = upgraded_entries(before, csa_managers, ssa_manager, subresource)
    if after == before or (after is None and not before):
        return None
    rv = (obj.get("metadata") or {}).get("resourceVersion", "")
    return [{"op": "replace", "path": "/metadata/managedFields", "value": after},
            {"op": "replace", "path": "/metadata/resourceVersion", "value": rv}]


def merge_own_updates(live: dict, manager: str, schema: Types,
                      time: str | datetime | None = None) -> tuple[dict, list[str]]:
    """Helm 4's ``upgradeClientSideFieldManager`` (``pkg/kube/client.go``): ``manager``'s
    Update entries merged into its Apply entry by a JSON patch of
    ``metadata.managedFields`` sent as ``manager`` (client-go ``csaupgrade`` with
    ``manager`` as both managers; other managers' entries stay).  The object after it,
    and ``[manager]`` when something moved (else ``live`` itself and ``[]``)."""
    patch = upgrade_managed_fields_patch(live, [manager], manager)
    if patch is None:
        return live, []
    moved = copy.deepcopy(live)
    moved.setdefault("metadata", {})["managedFields"] = patch[0]["value"] or []
    return update(live, moved, manager=manager, schema=schema, time=time).object, [manager]


@dataclass
class KubectlApply:
    """``kubectl apply --server-side``: the final result and the requests kubectl sent."""

    result: ApplyResult
    saved_annotation: bool = False
    migrated_managers: list[str] = field(default_factory=list)
    reapplied: bool = False
    steps: list[str] = field(default_factory=list)


def kubectl_server_side_apply(live: dict | None, obj: dict, *,
                              field_manager: str = SERVER_SIDE_MANAGER, force: bool = False,
                              schema: Types | Schema | None = None, crds: Sequence[Any] = (),
                              time: str | datetime | None = None) -> KubectlApply:
    """What ``kubectl apply --server-side`` leaves on the server, migration included."""
    types = schema if isinstance(schema, Types) else Types(schema, crds)
    first = server_side_apply(live, obj, manager=field_manager, force=force, schema=types,
                              time=time)
    out = KubectlApply(first, steps=[f"apply by {field_manager}"])
    current = first.object
    ann = ((current.get("metadata") or {}).get("annotations") or {})
    if field_manager == SERVER_SIDE_MANAGER and LAST_APPLIED in ann and not find_fields_owners(
            _entries(current), mf.APPLY, LAST_APPLIED_PATH):
        meta = current.get("metadata") or {}
        just_meta: dict = {k: meta[k] for k in ("name", "namespace") if k in meta}
        just_meta["annotations"] = {LAST_APPLIED: ann[LAST_APPLIED]}
        just = {"apiVersion": current.get("apiVersion"), "kind": current.get("kind"),
                "metadata": just_meta}
        saved = server_side_apply(current, just, manager=LAST_APPLIED_MANAGER, schema=types,
                                  time=time)
        current = saved.object
        out.saved_annotation = True
        out.steps.append(f"apply of the annotation by {LAST_APPLIED_MANAGER}")
    owners = find_fields_owners(_entries(current), mf.UPDATE, LAST_APPLIED_PATH)
    names = sorted({str(e.get("manager", "")) for e in owners})
    patch = upgrade_managed_fields_patch(current, names, field_manager) if names else None
    if patch is None:  # (no client-side manager: nothing to move)
        out.result = _refreshed(first, current)
        return out
    migrated = copy.deepcopy(current)
    migrated.setdefault("metadata", {})["managedFields"] = patch[0]["value"] or []
    current = update(current, migrated, manager=field_manager, schema=types, time=time).object
    out.migrated_managers = names
    out.steps.append("managed fields of " + ", ".join(names) + f" moved to {field_manager}")
    out.result = server_side_apply(current, obj, manager=field_manager, force=force,
                                   schema=types, time=time)
    out.reapplied = True
    out.steps.append(f"apply by {field_manager} again")
    return out


def _refreshed(first: ApplyResult, current: dict) -> ApplyResult:
    if current is first.object:
        return first
    return ApplyResult(current, mf.entries_of(current), first.before, first.changed,
                       first.changes, first.forced, first.before_first_apply,
                       first.upgraded_from_last_applied)
