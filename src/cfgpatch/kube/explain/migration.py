"""A move from client-side to server-side apply, simulated: which fields it leaves behind.

The assumption of lint's ``ssa-stuck-field`` rule, made one object at a time:

1. the live object was last written by one tool (the *history*) from the *old*
   configuration (:func:`written_by`): client-side ``kubectl apply``
   (:func:`client_side_created`: an Update by ``kubectl-client-side-apply`` of the object
   with its ``kubectl.kubernetes.io/last-applied-configuration`` annotation, as the API
   server records the create), Helm 3 (an Update by ``helm``, no annotation: Helm 3
   creates with a POST and upgrades with a three-way merge patch, both named after its
   binary), or a server-side applier (``kubectl apply --server-side``, Flux, Helm 4: their
   own Apply entry); ``none``: the tool creates the object itself;
2. the tool that now applies it server-side runs its own migration, then applies the
   *new* configuration (:func:`apply_as`):

   * ``server-side`` (``kubectl apply --server-side``): kubectl's ``csaupgrade`` hands
     ``kubectl-client-side-apply``'s fields to ``kubectl`` and applies again
     (:func:`~cfgpatch.kube.ssa.csaupgrade.kubectl_server_side_apply`); a configuration
     that carries the last-applied annotation itself conflicts on it, and, forced, leaves
     no Update entry owning the annotation, so kubectl migrates nothing;
   * ``flux`` (kustomize-controller): its cleanup hands every ``kubectl*`` entry to
     ``kustomize-controller``, unless the object says ``kustomize.toolkit.fluxcd.io/ssa:
     Merge``; then a forced apply (:func:`~cfgpatch.kube.ssa.flux.flux_apply`);
   * ``helm4`` (``helm upgrade`` of Helm 4): ``helm``'s own Update entries are merged into
     its Apply entry (:func:`~cfgpatch.kube.ssa.csaupgrade.merge_own_updates`; none here),
     then an apply as ``helm`` without force: a field the new configuration changes and
     ``kubectl-client-side-apply`` owns is a conflict, and the upgrade fails on it;

   after a conflict (``Moved.conflicts``) the simulation goes on as
   ``--force-conflicts`` would, to find what stays;

3. every field the old configuration set and the new one no longer sends that is still
   in the object afterwards is *left behind* (:func:`left_behind`), with the managers that
   still own it (why it stays).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import OwnershipConflict
from ...records import dataclass, field
from ..engine.clientapply import modified_configuration
from ..ssa import fieldpath as fp
from ..ssa.api import ApplyResult, Types, server_side_apply, update
from ..ssa.csaupgrade import CLIENT_SIDE_MANAGER, kubectl_server_side_apply, merge_own_updates
from ..ssa.flux import FLUX_MANAGER, flux_apply, skips_apply, skips_cleanup
from ..ssa.managed import ManagedFieldsEntry
from .ownership import HELM4, _owns_under, _tops, label, value_at

#: ``apply:`` values of ``.cfgpatch.yaml`` that apply server-side, and their managers.
MANAGERS = {"server-side": "kubectl", "flux": FLUX_MANAGER, "helm4": HELM4.manager}
#: How each tool is named in messages.
NAMES = {"server-side": "kubectl apply --server-side", "flux": "Flux (kustomize-controller)",
         "helm4": "Helm 4"}
#: What each ``history:`` (the tool that last wrote the object) is called in messages.
HISTORY_NAMES = {"client-side": "client-side `kubectl apply`",
                 "server-side": "`kubectl apply --server-side`",
                 "flux": "Flux (kustomize-controller)", "helm3": "Helm 3", "helm4": "Helm 4",
                 "none": "nothing (the tool creates the objects)"}
#: The field manager each history leaves on the object.
HISTORY_MANAGERS = {"client-side": CLIENT_SIDE_MANAGER, "server-side": "kubectl",
                    "flux": FLUX_MANAGER, "helm3": HELM4.manager, "helm4": HELM4.manager}
TIME = "1970-01-01T00:00:00Z"


@dataclass
class Moved:
    """The tool's apply after the client-side history: the result, the managers its
    migration handed over, the conflicts it met (Helm 4 fails on them), and why the tool
    leaves the object alone (``skipped``)."""

    tool: str
    result: ApplyResult | None
    handed: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    #: The managers the conflicts are with (each once, in the server's order).
    against: list[str] = field(default_factory=list)
    skipped: str = ""
    kept_managers: bool = False  # Flux's ``ssa: Merge``: no cleanup


@dataclass(frozen=True)
class LeftBehind:
    """A field the old configuration set that the new one drops and that stays."""

    path: tuple
    owners: tuple[str, ...]

    @property
    def field(self) -> str:
        return fp.path_string(self.path)


def client_side_created(obj: dict, types: Types, time: str = TIME) -> dict:
    """The object as client-side ``kubectl apply`` creates it: its last-applied annotation
    added, stored by an Update of ``kubectl-client-side-apply``."""
    namespace = (obj.get("metadata") or {}).get("namespace")
    modified, _ = modified_configuration(obj, namespace or None)
    return update(None, modified, manager=CLIENT_SIDE_MANAGER, schema=types,
                  time=time).object


def apply_as(tool: str, live: dict | None, obj: dict, types: Types, time: str = TIME
             ) -> Moved:
    """The tool's migration and server-side apply of ``obj`` over ``live`` (None: the
    tool creates the object)."""
    if tool == "server-side":
        conflicts: Sequence[Any] = ()
        try:
            done = kubectl_server_side_apply(live, obj, schema=types, time=time)
        except OwnershipConflict as err:  # (a build that carries the last-applied annotation)
            conflicts = err.conflicts
            done = kubectl_server_side_apply(live, obj, force=True, schema=types, time=time)
        return Moved(tool, done.result, list(done.migrated_managers), *_named(conflicts))
    if tool == "flux":
        if skips_apply(obj, live):
            return Moved(tool, None, skipped="kustomize.toolkit.fluxcd.io/ssa says not to "
                                             "apply it")
        result, handed = flux_apply(live, obj, types, time)
        return Moved(tool, result, handed, kept_managers=skips_cleanup(obj, live))
    if tool == "helm4":
        moved, handed = (None, []) if live is None else \
            merge_own_updates(live, HELM4.manager, types, time)
        try:
            result = server_side_apply(moved, obj, manager=HELM4.manager, schema=types,
                                       time=time)
            return Moved(tool, result, handed)
        except OwnershipConflict as err:
            conflicts = err.conflicts
        result = server_side_apply(moved, obj, manager=HELM4.manager, force=True,
                                   schema=types, time=time)
        return Moved(tool, result, handed, *_named(conflicts))
    raise ValueError(f"unknown tool {tool!r} (known: {', '.join(MANAGERS)})")


def _named(conflicts: Sequence[Any]) -> tuple[list[str], list[str]]:
    """The conflicts' fields, and their managers each once."""
    return [c.field for c in conflicts], list(dict.fromkeys(c.manager for c in conflicts))


def written_by(history: str, obj: dict, types: Types, time: str = TIME) -> dict | None:
    """The object as ``history`` (a ``history:`` value) leaves it when it creates it from
    ``obj``; None for ``none`` (nothing wrote it: the tool creates it)."""
    if history == "client-side":
        return client_side_created(obj, types, time)
    if history == "helm3":  # a POST, later three-way merge patches: Updates by "helm"
        return update(None, obj, manager=HISTORY_MANAGERS[history], schema=types,
                      time=time).object
    if history == "none":
        return None
    if history in MANAGERS:  # the server-side tools, on an object nothing wrote before
        made = apply_as(history, None, obj, types, time).result
        return made.object if made is not None else None  # (Flux told not to apply it)
    raise ValueError(f"unknown history {history!r} (known: {', '.join(HISTORY_NAMES)})")


def fields_of(obj: dict, types: Types) -> fp.FieldSet:
    """The fields an apply of ``obj`` sets (typed: list items by their keys)."""
    created = server_side_apply(None, obj, manager="fields", schema=types, time=TIME)
    out = fp.FieldSet()
    for entry in created.managed_fields:
        out = out.union(entry.fields)
    return out


def left_behind(old: dict, new: dict, after: dict, entries: Sequence[ManagedFieldsEntry],
                types: Types) -> list[LeftBehind]:
    """The fields ``old`` set and ``new`` does not (the outermost of each dropped part)
    that ``after`` still holds, with the entries that own them."""
    kept = fields_of(new, types)
    dropped = fields_of(old, types).difference(kept)
    out = []
    for path in _tops(dropped, kept):
        if not value_at(after, path)[0]:
            continue
        owners = tuple(label(e) for e in entries if _owns_under(e.fields, path))
        out.append(LeftBehind(path, owners))
    return out


def simulate(tool: str, old: dict, new: dict, types: Types, history: str = "client-side"
             ) -> tuple[Moved, list[LeftBehind]]:
    """Steps 1-3 of the module docstring for one object."""
    live = written_by(history, old, types)
    moved = apply_as(tool, live, new, types)
    if moved.result is None:
        return moved, []
    return moved, left_behind(old, new, moved.result.object, moved.result.managed_fields,
                              types)


def pointer_of(path: tuple, value: Any) -> str | None:
    """The JSON pointer of a field path in ``value`` (None when it is not there).

    >>> obj = {"spec": {"containers": [{"name": "a"}, {"name": "web", "image": "x"}]}}
    >>> pointer_of((fp.field("spec"), fp.field("containers"), fp.key([("name", "web")]),
    ...             fp.field("image")), obj)
    '/spec/containers/1/image'
    """
    out = ""
    for element in path:
        if element.kind == fp.FIELD:
            if not isinstance(value, dict) or element.data not in value:
                return None
            value = value[element.data]
            out += "/" + str(element.data).replace("~", "~0").replace("/", "~1")
            continue
        if not isinstance(value, list):
            return None
        at = _position(element, value)
        if at is None:
            return None
        value, out = value[at], f"{out}/{at}"
    return out


def _position(element: fp.PathElement, items: list) -> int | None:
    if element.kind == fp.INDEX:
        return element.data if 0 <= element.data < len(items) else None
    for at, item in enumerate(items):
        if element.kind == fp.VALUE and item == element.data:
            return at
        if element.kind == fp.KEY and isinstance(item, dict) and \
                all(item.get(name) == key for name, key in element.data):
            return at
    return None


__all__ = ["HISTORY_MANAGERS", "HISTORY_NAMES", "MANAGERS", "NAMES", "LeftBehind", "Moved",
           "apply_as", "client_side_created", "fields_of", "left_behind", "pointer_of",
           "simulate", "written_by"]

