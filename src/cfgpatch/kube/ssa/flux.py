"""Flux's kustomize-controller applying one object server-side, offline (``cfgpatch kube
apply --server-side --as flux``, ``cfgpatch kube preview --live DIR --server-side --as flux``).

What the controller does to each object, read in its sources (docs/kube-apply.md cites
the places): before applying, it hands to its own ``Apply`` entry the fields of the
entries whose manager starts with ``kubectl`` (``Apply`` and ``Update``: so
``kubectl-client-side-apply``, ``kubectl-edit``, ``kubectl-last-applied`` too), of
``before-first-apply`` (``Update``) and of its own ``Update`` entry (entries of a
subresource are left alone), and removes the last-applied annotation, in one JSON patch
sent as ``kustomize-controller``; then it applies as ``kustomize-controller`` with force.

The cleanup is skipped for an object whose manifest or live copy carries the label or
annotation ``kustomize.toolkit.fluxcd.io/ssa: Merge`` (any case: fluxcd/pkg
``cleanupMetadata`` returns early on ``ApplyCleanupOptions.Exclusions``, which
kustomize-controller sets to that pair): the client-side managers then keep their
fields, as they do under Helm 4.  ``ssa: Ignore`` and ``ssa: IfNotPresent`` (for an
object that exists) skip the apply itself (:func:`skips_apply`).
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

from . import fieldpath as fp
from .api import ApplyResult, Types, server_side_apply, update

FLUX_MANAGER = "kustomize-controller"
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
#: (manager name prefix, operation) of the entries the cleanup hands over.
CLEANED = (("kubectl", "Apply"), ("kubectl", "Update"), ("before-first-apply", "Update"),
           (FLUX_MANAGER, "Update"))
#: The label or annotation of kustomize-controller's behaviour per object.
SSA_KEY = "kustomize.toolkit.fluxcd.io/ssa"


def _matches(entry: dict) -> bool:
    if entry.get("subresource"):
        return False
    name, operation = str(entry.get("manager", "")), entry.get("operation")
    return any(name.startswith(prefix) and operation == op for prefix, op in CLEANED)


def marked(obj: Any, value: str) -> bool:
    """fluxcd/pkg ``AnyInMetadata``: a label or annotation ``ssa`` equal to ``value``,
    ignoring case."""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    if not isinstance(meta, dict):
        return False
    for key in ("labels", "annotations"):
        found = meta.get(key)
        text = found.get(SSA_KEY) if isinstance(found, dict) else None
        if isinstance(text, str) and text and text.casefold() == value.casefold():
            return True
    return False


def skips_cleanup(desired: Any, live: Any) -> bool:
    """Whether the controller leaves the object's managers alone (``ssa: Merge``)."""
    return marked(desired, "Merge") or marked(live, "Merge")


def skips_apply(desired: Any, live: Any) -> bool:
    """Whether the controller does not apply the object at all (``ssa: Ignore`` on
    either, ``ssa: IfNotPresent`` on the manifest of an object that exists)."""
    return marked(desired, "Ignore") or marked(live, "Ignore") or (
        live is not None and marked(desired, "IfNotPresent"))


def replaced_entries(entries: list[dict]) -> list[dict] | None:
    """fluxcd/pkg ``PatchReplaceFieldsManagers``: the matching entries merged into the
    controller's ``Apply`` entry (the first match renamed when it has none), which goes
    last; None when nothing matches."""
    own = next((e for e in entries if e.get("manager") == FLUX_MANAGER
                and e.get("operation") == "Apply"), None)
    merged = copy.deepcopy(own) if own is not None else None
    kept: list[dict] = []
    edited = False
    for entry in entries:
        if entry is own:
            continue
        if not _matches(entry):
            kept.append(entry)
            continue
        edited = True
        if merged is None:
            merged = dict(copy.deepcopy(entry), manager=FLUX_MANAGER, operation="Apply")
            continue
        fields = fp.FieldSet.from_fields_v1(merged.get("fieldsV1") or {}).union(
            fp.FieldSet.from_fields_v1(entry.get("fieldsV1") or {}))
        merged["fieldsV1"] = fields.to_fields_v1()
    if not edited or merged is None:
        return None
    return [*kept, merged]


def _cleaned(live: dict, types: Types, time: str | datetime | None
             ) -> tuple[dict, list[str]]:
    """The controller's cleanup patch (managers handed over, annotation removed)."""
    meta = live.get("metadata") or {}
    entries = [e for e in meta.get("managedFields") or [] if isinstance(e, dict)]
    replaced = replaced_entries(entries)
    annotations = meta.get("annotations") or {}
    if replaced is None and LAST_APPLIED not in annotations:
        return live, []
    handed: list[str] = []
    cleaned = copy.deepcopy(live)
    cmeta = cleaned.setdefault("metadata", {})
    if replaced is not None:
        handed = sorted({f"{e.get('manager')} ({e.get('operation')})"
                         for e in entries if _matches(e)})
        cmeta["managedFields"] = replaced
    if LAST_APPLIED in annotations:
        cmeta["annotations"] = {k: v for k, v in annotations.items() if k != LAST_APPLIED}
        if not cmeta["annotations"]:
            del cmeta["annotations"]
    return update(live, cleaned, manager=FLUX_MANAGER, schema=types, time=time).object, handed


def flux_apply(live: dict | None, obj: dict, types: Types,
               time: str | datetime | None) -> tuple[ApplyResult, list[str]]:
    """The result of the controller's cleanup (unless :func:`skips_cleanup`) and forced
    apply, and the managers it handed over."""
    handed: list[str] = []
    if live is not None and not skips_cleanup(obj, live):
        live, handed = _cleaned(live, types, time)
    result = server_side_apply(live, obj, manager=FLUX_MANAGER, force=True, schema=types,
                               time=time)
    return result, handed
