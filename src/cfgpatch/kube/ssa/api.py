"""The Python API of server-side apply: :func:`server_side_apply` and :func:`update`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from ...errors import INVALID_ARGUMENTS, SERVER_REFUSES, KubeError, OwnershipConflict
from ...records import dataclass, field
from . import fieldpath as fp
from . import managed as mf
from .fieldmanager import ConflictError, FieldManager, ServerError, Trace, gvk_of, gvk_string
from .kind_types import Types
from .schema import Schema
from .validate import validate
from .value import deep_copy


@dataclass(frozen=True)
class Conflict:
    """A field the apply would change that another manager owns."""

    manager: str
    operation: str
    api_version: str
    path: tuple
    subresource: str = ""

    @property
    def field(self) -> str:
        """The field as the server prints it: ``.spec.replicas``."""
        return fp.path_string(self.path)

    @property
    def owner(self) -> str:
        """The owner as the server prints it: ``"hpa-controller" using apps/v1``."""
        return mf.describe(mf.identifier(self.manager, self.operation, self.api_version,
                                         self.subresource))

    def __str__(self) -> str:
        return f"conflict with {self.owner}: {self.field}"


def field_owners(entries: Sequence[mf.ManagedFieldsEntry]) -> dict[tuple, list[str]]:
    """Every owned field (its path) and the managers owning it, as the server names them
    (``"helm"``, ``"hpa-controller" using apps/v1``), in the entries' order.

    >>> replicas = (fp.field("spec"), fp.field("replicas"))
    >>> e = mf.ManagedFieldsEntry("hpa", "Update", "apps/v1", fp.FieldSet.from_paths([replicas]))
    >>> {fp.path_string(p): who for p, who in field_owners([e]).items()}
    {'.spec.replicas': ['"hpa" using apps/v1']}
    """
    out: dict[tuple, list[str]] = {}
    for entry in entries:
        for path in entry.fields.paths():
            out.setdefault(path, []).append(entry.label())
    return out


def conflict_message(conflicts: Sequence[Conflict]) -> str:
    """The server's text for conflicts: ``Apply failed with 1 conflict: ...``."""
    if len(conflicts) == 1:
        return f"Apply failed with 1 conflict: {conflicts[0]}"
    groups: dict[str, list[Conflict]] = {}
    for c in conflicts:
        ident = mf.identifier(c.manager, c.operation, c.api_version, c.subresource)
        groups.setdefault(ident, []).append(c)
    lines = []
    for ident in sorted(groups):
        lines.append(f"conflicts with {mf.describe(ident)}:")
        lines.extend(f"- {c.field}" for c in groups[ident])
    return f"Apply failed with {len(conflicts)} conflicts: " + "\n".join(lines)


def _conflicts(found: list[tuple[str, tuple]]) -> list[Conflict]:
    out = []
    for ident, path in found:
        d = mf.parse_identifier(ident)
        out.append(Conflict(str(d.get("manager", "")), str(d.get("operation", "")),
                            str(d.get("apiVersion", "")), tuple(path),
                            str(d.get("subresource", ""))))
    return out


@dataclass
class Changes:
    """The object's fields the operation added, modified and removed."""

    added: fp.FieldSet = field(default_factory=fp.FieldSet)
    modified: fp.FieldSet = field(default_factory=fp.FieldSet)
    removed: fp.FieldSet = field(default_factory=fp.FieldSet)


@dataclass
class ApplyResult:
    """What a server-side apply stores, and what explains it.

    ``object``: the object as stored, ``metadata.managedFields`` included;
    ``managed_fields``: its entries, typed; ``before``: the live object's entries;
    ``changed``: False when the apply left the object as it was (only ownership moved);
    ``changes``: the object's fields added, modified and removed (what the apply removed
    because the applier stopped sending it and nobody else owns it is in ``removed``);
    ``forced``: the conflicts ``force`` (or kubectl's last-applied upgrade) overrode;
    ``dropped``: the fields the applier owned before and no longer applies (those nobody
    else owns are gone: in ``changes.removed``; the others stay with their other owners);
    ``before_first_apply``: the live fields were first recorded for ``before-first-apply``;
    ``upgraded_from_last_applied``: kubectl's conflicts were all on fields its
    last-applied annotation set, so the server forced the apply.
    """

    object: dict
    managed_fields: list[mf.ManagedFieldsEntry]
    before: list[mf.ManagedFieldsEntry]
    changed: bool
    changes: Changes
    forced: list[Conflict] = field(default_factory=list)
    before_first_apply: bool = False
    upgraded_from_last_applied: bool = False
    dropped: fp.FieldSet = field(default_factory=fp.FieldSet)

    def owners(self, path: tuple, *, after: bool = True) -> list[mf.ManagedFieldsEntry]:
        """The entries that own ``path`` after (or before) the apply."""
        entries = self.managed_fields if after else self.before
        return [e for e in entries if e.fields.has(path)]


@dataclass
class UpdateResult:
    """What an Update stores: ``object``, ``managed_fields``, ``before``, ``changes``,
    and ``taken``: fields other managers owned that the update changed (they lose them)."""

    object: dict
    managed_fields: list[mf.ManagedFieldsEntry]
    before: list[mf.ManagedFieldsEntry]
    changes: Changes
    taken: list[Conflict] = field(default_factory=list)


@dataclass(frozen=True)
class Refusal:
    """A reason the API server's field manager refuses an object: ``path`` as the server
    prints it (``.spec.template.spec.containers``) and its ``message``
    (``duplicate entries for key [name="app"]``)."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


def refusals(obj: dict, *, schema: Types | Schema | None = None, crds: Sequence[Any] = (),
             allow_duplicates: bool = False) -> list[Refusal]:
    """Why server-side apply would refuse ``obj`` (empty: it would take it).

    The checks the server runs on an applied object: duplicate keys in associative lists,
    items without their key fields, fields a schema does not declare, values of the wrong
    kind; a kind without a type is one refusal.  ``allow_duplicates``: as the server reads
    a live object or an Update (duplicates allowed).

    >>> svc = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"},
    ...        "spec": {"ports": [{"port": 80}, {"port": 80, "protocol": "TCP"}]}}
    >>> [str(r) for r in refusals(svc)]
    ['.spec.ports: duplicate entries for key [port=80,protocol="TCP"]']
    """
    _check(obj, "the object")
    types = _types(schema, crds)
    gvk = gvk_of(obj)
    found = types.lookup(*gvk)
    if found is None:
        return [Refusal("", f"no corresponding type for {gvk_string(gvk)}")]
    errs = validate(found[0], found[1], obj, allow_duplicates)
    return [Refusal(p, m) for p, m in errs]


def _now(time: str | datetime | None) -> str:
    if isinstance(time, str):
        return time
    return mf.rfc3339(time if time is not None else datetime.now(UTC))


def _types(schema: Types | Schema | None, crds: Sequence[Any]) -> Types:
    if isinstance(schema, Types):
        if crds:
            raise KubeError("give CRDs to Types, not both", code=INVALID_ARGUMENTS)
        return schema
    return Types(schema, crds)


def _store(obj: Any, managers: dict, times: dict) -> tuple[dict, list[mf.ManagedFieldsEntry]]:
    entries = mf.encode(managers, times)
    out = deep_copy(obj)
    if not isinstance(out, dict):
        out = {}
    meta = out.get("metadata")
    if entries:
        if not isinstance(meta, dict):
            meta = out["metadata"] = {}
        meta["managedFields"] = [e.to_dict() for e in entries]
    elif isinstance(meta, dict):
        meta.pop("managedFields", None)
    return out, entries


def _changes(trace: Trace) -> Changes:
    """The object's fields the operation changed (``managedFields`` aside)."""
    cmp = trace.changes
    if cmp is None:
        return Changes()
    mf_path = fp.FieldSet.from_paths([(fp.field("metadata"), fp.field("managedFields"))])
    return Changes(cmp.added.recursive_difference(mf_path),
                   cmp.modified.recursive_difference(mf_path),
                   cmp.removed.recursive_difference(mf_path))


def _check(obj: Any, what: str) -> None:
    if not isinstance(obj, dict):
        raise KubeError(f"{what} is not an object", code=INVALID_ARGUMENTS)


def server_side_apply(live: dict | None, obj: dict, *, manager: str = "kubectl",
                      force: bool = False, schema: Types | Schema | None = None,
                      crds: Sequence[Any] = (), time: str | datetime | None = None,
                      subresource: str = "") -> ApplyResult:
    """Server-side apply of ``obj`` by ``manager`` onto ``live`` (``None``: create it).

    Raises :class:`~cfgpatch.errors.OwnershipConflict` (the server's conflict text) or
    :class:`~cfgpatch.errors.KubeError` with code ``server refuses`` (its other refusals).
    """
    _check(obj, "the applied object")
    fm = FieldManager(gvk_of(obj), _types(schema, crds).lookup, subresource)
    if live is None:
        live = {"apiVersion": fm.version, "kind": fm.gvk[2]}
    _check(live, "the live object")
    trace = Trace()
    try:
        stored, managers, times = fm.apply(live, obj, manager, force, _now(time), trace)
    except ConflictError as exc:
        conflicts = _conflicts(exc.conflicts)
        raise OwnershipConflict(conflict_message(conflicts), conflicts=conflicts) from None
    except ServerError as exc:
        raise KubeError(str(exc), code=SERVER_REFUSES) from None
    result, entries = _store(stored, managers, times)
    return ApplyResult(result, entries, mf.encode(*trace.before),
                       changed=trace.changed, changes=_changes(trace),
                       forced=_conflicts(trace.forced),
                       before_first_apply=trace.before_first_apply,
                       upgraded_from_last_applied=trace.upgraded_from_last_applied,
                       dropped=trace.dropped if trace.dropped is not None else fp.FieldSet())


def update(live: dict | None, obj: dict, *, manager: str,
           schema: Types | Schema | None = None, crds: Sequence[Any] = (),
           time: str | datetime | None = None, subresource: str = "") -> UpdateResult:
    """An Update (a controller's write, ``kubectl replace``) of ``live`` to ``obj``."""
    _check(obj, "the new object")
    fm = FieldManager(gvk_of(obj), _types(schema, crds).lookup, subresource)
    if live is None:
        live = {"apiVersion": fm.version, "kind": fm.gvk[2]}
    _check(live, "the live object")
    trace = Trace()
    try:
        stored, managers, times = fm.update(live, obj, manager, _now(time), trace)
    except ServerError as exc:
        raise KubeError(str(exc), code=SERVER_REFUSES) from None
    result, entries = _store(stored, managers, times)
    return UpdateResult(result, entries, mf.entries_of(live), _changes(trace),
                        taken=_conflicts(trace.taken))
