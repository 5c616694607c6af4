"""Why a server-side apply does what it does: field owners, removals and conflicts.

The explanation of ``cfgpatch kube apply --server-side --explain``:

* every field of the managed-fields entries, with its owners before and after the
  operation (``*`` marks the fields whose owners changed);
* what the apply removes, and why: the applier sent the field last time, no longer
  sends it, and no other manager owns it;
* what it cannot remove: fields the applier stopped sending that another manager still
  owns (a client-side apply's ``kubectl-client-side-apply`` entry keeps a field "stuck"
  after a move to server-side apply);
* each conflict, with its three ways out (force, drop the field from the configuration,
  have the other manager give it up), and the way Helm 4 and Flux take.

The tools' settings are facts read in their sources (docs/kube-apply.md names them):
``helm upgrade`` applies as the field manager ``helm`` with ``--force-conflicts`` off
(a conflict fails the upgrade); Flux's kustomize-controller applies as
``kustomize-controller`` and always forces (it takes the field over).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...records import dataclass
from ..ssa import fieldpath as fp
from ..ssa.managed import APPLY, ManagedFieldsEntry


@dataclass(frozen=True)
class Tool:
    """A deployment tool that applies server-side: its field manager and its force."""

    name: str
    manager: str
    force: bool
    where: str


#: ``helm upgrade`` (Helm 4): manager "helm", ``--force-conflicts`` off by default.
HELM4 = Tool("Helm 4", "helm", False, "helm upgrade/install (--force-conflicts is off "
             "by default)")
#: Flux's kustomize-controller: manager "kustomize-controller", always forced.
FLUX = Tool("Flux", "kustomize-controller", True, "kustomize-controller (applies with "
            "force, always)")
TOOLS = (HELM4, FLUX)


def label(entry: ManagedFieldsEntry) -> str:
    """``helm (Apply)``, ``hpa-controller (Update apps/v1)``, with the subresource."""
    text = f"{entry.manager} ({entry.operation}"
    if entry.operation != APPLY and entry.api_version:
        text += f" {entry.api_version}"
    if entry.subresource:
        text += f", /{entry.subresource}"
    return text + ")"


def _owners(entries: Sequence[ManagedFieldsEntry], path: tuple) -> list[str]:
    return [label(e) for e in entries if e.fields.has(path)]


def _leaves(entries: Iterable[ManagedFieldsEntry]) -> list[tuple]:
    found: set[tuple] = set()
    for entry in entries:
        found.update(entry.fields.leaves().paths())
    return sorted(found, key=lambda p: tuple(pe.sort_key for pe in p))


def owner_lines(before: Sequence[ManagedFieldsEntry],
                after: Sequence[ManagedFieldsEntry]) -> list[str]:
    """One line per owned field: ``path: before -> after``, ``*`` where they differ."""
    lines = []
    for path in _leaves([*before, *after]):
        was, now = _owners(before, path), _owners(after, path)
        mark = "*" if was != now else " "
        lines.append(f"{mark} {fp.path_string(path)}: {', '.join(was) or '(nobody)'} -> "
                     f"{', '.join(now) or '(nobody)'}")
    return lines


def _applier(entries: Sequence[ManagedFieldsEntry], manager: str) -> fp.FieldSet:
    out = fp.FieldSet()
    for e in entries:
        if e.manager == manager and e.operation == APPLY and not e.subresource:
            out = out.union(e.fields)
    return out


def dropped_lines(manager: str, before: Sequence[ManagedFieldsEntry],
                  after: Sequence[ManagedFieldsEntry], removed: fp.FieldSet) -> list[str]:
    """The fields ``manager`` applied before and no longer sends: removed, or kept (and
    by whom)."""
    mine = _applier(after, manager)
    stopped = _applier(before, manager).difference(mine)
    lines = []
    for path in _tops(stopped, mine):
        name = fp.path_string(path)
        others = [label(e) for e in after if _owns_under(e.fields, path)]
        if others:
            lines.append(f"kept {name}: {manager} no longer sends it, but "
                         f"{', '.join(others)} still own{'s' if len(others) == 1 else ''} it"
                         " (it stays, stuck, until they give it up)")
        else:
            lines.append(f"removed {name}: {manager} owned it as an applier, no longer sends "
                         "it, and no other manager owns it")
    return lines


def _tops(fields: fp.FieldSet, kept: fp.FieldSet) -> list[tuple]:
    """The members of ``fields`` under which ``kept`` has nothing, none of whose
    ancestors is such a member (a map the applier still sends fields of is no loss)."""
    members = [p for p in sorted(fields.paths(), key=lambda p: tuple(pe.sort_key for pe in p))
               if not _owns_under(kept, p)]
    chosen = set(members)
    return [p for p in members if not any(p[:i] in chosen for i in range(1, len(p)))]


CLIENT_SIDE = "kubectl-client-side-apply"
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


def stuck_fields(live: Any, config: Any, after: Sequence[ManagedFieldsEntry]
                 ) -> list[tuple[tuple, str]]:
    """(field path, owning manager) of each field client-side ``kubectl apply`` set (its
    last-applied annotation holds it) that the configuration no longer sends and
    ``kubectl-client-side-apply`` still owns after the apply: server-side apply cannot
    remove it (stuck)."""
    import json

    meta = live.get("metadata") if isinstance(live, dict) else None
    text = ((meta or {}).get("annotations") or {}).get(LAST_APPLIED) \
        if isinstance(meta, dict) else None
    try:
        last = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        last = None
    found = []
    for e in after:
        if e.manager != CLIENT_SIDE or e.operation == APPLY or last is None:
            continue
        for path in _tops(e.fields.leaves(), fp.FieldSet()):
            if path and path[0] == fp.field("metadata"):
                continue
            if value_at(last, path)[0] and not value_at(config, path)[0]:
                found.append((path, e.manager))
    return found


def stuck_lines(live: Any, config: Any, after: Sequence[ManagedFieldsEntry]) -> list[str]:
    """One line per :func:`stuck_fields` field."""
    return [f"stuck {fp.path_string(path)}: client-side kubectl apply set it and {manager} "
            "still owns it; this configuration no longer sends it, but server-side apply "
            "removes only what the applier owns (kubectl's migration, or Flux's cleanup, "
            "would hand it over)" for path, manager in stuck_fields(live, config, after)]


def _owns_under(fields: fp.FieldSet, path: tuple) -> bool:
    node = fields
    for pe in path:
        node = node.descend(pe)
    return fields.has(path) or not node.empty()


def value_at(obj: Any, path: tuple) -> tuple[bool, Any]:
    """(found, value) of a field path in an object."""
    node = obj
    for pe in path:
        if (pe.kind == fp.FIELD and isinstance(node, dict) and pe.data in node) or (
                pe.kind == fp.INDEX and isinstance(node, list) and pe.data < len(node)):
            node = node[pe.data]
        elif pe.kind == fp.KEY and isinstance(node, list):
            node = next((i for i in node if isinstance(i, dict)
                         and all(i.get(k) == v for k, v in pe.data)), _MISSING)
            if node is _MISSING:
                return False, None
        elif pe.kind == fp.VALUE and isinstance(node, list) and pe.data in node:
            node = pe.data
        else:
            return False, None
    return True, node


_MISSING = object()


def _shown(found: tuple[bool, Any]) -> str:
    import json

    if not found[0]:
        return "(absent)"
    text = json.dumps(found[1], sort_keys=True, separators=(",", ":"))
    return text if len(text) <= 60 else text[:57] + "..."


def conflict_lines(conflicts: Sequence[Any], manager: str, live: Any, config: Any,
                   tools: Sequence[Tool] = TOOLS) -> list[str]:
    """Each conflict (a :class:`~cfgpatch.kube.ssa.Conflict`) with its ways out and the
    way each tool takes."""
    lines = []
    for c in conflicts:
        lines.append(f"conflict on {c.field}: owned by {c.owner}; live "
                     f"{_shown(value_at(live, c.path))}, the configuration "
                     f"{_shown(value_at(config, c.path))}")
        lines.append(f"  1. force (--force-conflicts): {manager} takes {c.field} over and "
                     f"{c.manager} loses it" + (
                         f" ({c.manager} writes it again on its next update: the two fight)"
                         if c.operation != APPLY else ""))
        lines.append(f"  2. drop {c.field} from the configuration: {c.manager} keeps it "
                     "and its value")
        lines.append(f"  3. have {c.manager} give it up (it stops setting the field, or "
                     "its entry is removed from metadata.managedFields), or set the same "
                     "value to share it")
        for tool in tools:
            if tool.force:
                way = f"takes way 1: the field becomes {tool.manager}'s"
            else:
                way = ("fails on it (way 2 or 3 is yours to take; --force-conflicts "
                       "takes way 1)")
            lines.append(f"  {tool.name} ({tool.where}, manager {tool.manager}): {way}")
    return lines
