"""The API server's field manager chain around the Apply and Update operations.

As kube-apiserver 1.32 builds it (``managedfields.NewDefaultFieldManager``), outermost
first:

1. the object's ``managedFields`` are decoded (an Update takes the ones the request
   carries when it carries any, else the live object's; ``managedFields: []`` resets);
2. an Apply must be of the field manager's kind (``invalid object type: ...``);
3. the last-applied annotation: after a successful apply by the manager ``kubectl`` on an
   object that has one, it is rewritten from the applied configuration; when ``kubectl``'s
   apply conflicts only on fields its last-applied annotation shows it set (and the live
   object still holds), the apply is forced (the client-side to server-side upgrade);
4. ``before-first-apply``: an Apply on an object without managed fields first records
   everything the object holds as an Update by ``before-first-apply``; an Update of an
   existing object (one with a ``uid``) without managed fields tracks nothing;
5. at most 10 Update entries: the oldest are merged into ``ancient-changes`` per version;
6. manager identifiers (name, operation, version, subresource), the operation's time;
7. ``apiVersion``, ``kind`` and the server-owned metadata (name, namespace, uid, ...)
   belong to nobody;
8. the typed operation itself (:mod:`.updater`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...records import dataclass, field
from ..go.json import encode
from . import fieldpath as fp
from . import managed as mf
from .fieldsets import validated_field_set
from .kind_types import gvk_of
from .schema import Schema, TypeRef
from .typed import errors_text, forget_items
from .updater import ConflictsFound, Managers, Typed, UpdaterError, VersionedSet
from .updater import apply as smd_apply
from .updater import update as smd_update
from .validate import validate
from .value import ABSENT, deep_copy

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
BEFORE_FIRST_APPLY = "before-first-apply"
_CURRENT = "current-operation"

STRIPPED = fp.FieldSet.from_paths(
    [(fp.field("apiVersion"),), (fp.field("kind"),), (fp.field("metadata"),)]
    + [(fp.field("metadata"), fp.field(n)) for n in (
        "name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName",
        "generation", "managedFields", "resourceVersion")])

Lookup = Callable[[str, str, str], "tuple[Schema, TypeRef] | None"]


class ServerError(Exception):
    """The field manager refuses; ``str()`` is the server's text."""


class ConflictError(Exception):
    """An Apply met fields other managers own: ``[(manager identifier, path)]``."""

    def __init__(self, conflicts: list[tuple[str, tuple]]) -> None:
        super().__init__(conflicts)
        self.conflicts = conflicts


@dataclass
class Trace:
    """What happened inside one operation (for explanations): ``changes``, the
    Comparison of the live object with the stored one; ``before``, the live object's
    managers and times, decoded; ``dropped``, the fields the applier owned and no longer
    applies; the rest as :class:`~.api.ApplyResult` says."""

    before_first_apply: bool = False
    forced: list[tuple[str, tuple]] = field(default_factory=list)
    upgraded_from_last_applied: bool = False
    taken: list[tuple[str, tuple]] = field(default_factory=list)
    changes: Any = None
    changed: bool = True
    before: Any = None
    dropped: Any = None


def gvk_string(gvk: tuple[str, str, str]) -> str:
    """Go's ``GroupVersionKind.String()``: ``apps/v1, Kind=Deployment``."""
    return f"{gvk[0]}/{gvk[1]}, Kind={gvk[2]}"


def group_version(gvk: tuple[str, str, str]) -> str:
    """``apps/v1``, or ``v1`` for the core group."""
    return f"{gvk[0]}/{gvk[1]}" if gvk[0] else gvk[1]


def _meta_str(obj: Any, name: str) -> str:
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    v = meta.get(name) if isinstance(meta, dict) else None
    return v if isinstance(v, str) else ""


def _gvknn(obj: Any) -> str:
    return f"{_meta_str(obj, 'namespace')}/{_meta_str(obj, 'name')}; {gvk_string(gvk_of(obj))}"


def _annotations(obj: Any) -> dict | None:
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    ann = meta.get("annotations") if isinstance(meta, dict) else None
    if not isinstance(ann, dict) or not all(isinstance(v, str) for v in ann.values()):
        return None
    return ann


def bare(obj: Any) -> Any:
    """The object without ``metadata.managedFields`` (a shallow copy when it has them): they
    are owned by nobody and replaced after every operation, so the walks skip them."""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    if isinstance(meta, dict) and "managedFields" in meta:
        obj = dict(obj)
        obj["metadata"] = {k: v for k, v in meta.items() if k != "managedFields"}
    return obj


def without_managed_fields(obj: Any) -> Any:
    """A copy without ``metadata.managedFields``."""
    out = deep_copy(obj)
    meta = out.get("metadata") if isinstance(out, dict) else None
    if isinstance(meta, dict):
        meta.pop("managedFields", None)
    return out


class FieldManager:
    """The field manager of one kind (its ``gvk``), over a type lookup."""

    def __init__(self, gvk: tuple[str, str, str], lookup: Lookup, subresource: str = "") -> None:
        self.gvk = gvk
        self.lookup = lookup
        self.subresource = subresource
        self.version = group_version(gvk)

    # ------------------------------------------------------------ typing
    def typed(self, obj: Any, allow_duplicates: bool,
              applied: bool = False) -> tuple[Typed | None, str]:
        """The object validated as a typed value (``applied``: with its fields too)."""
        gvk = gvk_of(obj)
        found = self.lookup(*gvk)
        if found is None:
            return None, f"no corresponding type for {gvk_string(gvk)}"
        schema, ref = found
        fields = None
        if applied:
            errs, fields = validated_field_set(schema, ref, obj)
        else:
            errs = validate(schema, ref, obj, allow_duplicates)
        if errs:
            return None, errors_text(errs)
        return Typed(schema, ref, obj, fields), ""

    def ident(self, manager: str, operation: str) -> str:
        return mf.identifier(manager or "unknown", operation, self.version, self.subresource)

    # ------------------------------------------------------------ Apply
    def apply(self, live: Any, applied: Any, manager: str, force: bool, now: str | None,
              trace: Trace) -> tuple[Any, Managers, dict]:
        """The stored object, its managers and their times (raises on refusal)."""
        forget_items()
        try:
            return self._apply(live, applied, manager, force, now, trace)
        finally:
            forget_items()

    def _apply(self, live: Any, applied: Any, manager: str, force: bool, now: str | None,
               trace: Trace) -> tuple[Any, Managers, dict]:
        try:
            managers, times = mf.decode(mf.read_entries(live))
        except mf.DecodeError as exc:
            raise ServerError(f"failed to decode managed fields: {exc}") from None
        trace.before = (managers, times)
        if gvk_of(applied) != self.gvk:
            raise ServerError(f"invalid object type: {gvk_string(gvk_of(applied))}")
        try:
            obj, managers, times = self._skip_apply(live, applied, managers, times, manager,
                                                    force, now, trace)
        except ConflictError as exc:
            if manager != "kubectl":
                raise
            allowed = self._allowed_by_last_applied(live)
            if allowed is None:
                raise
            rest = [c for c in exc.conflicts if not allowed.has(c[1])]
            if rest:
                raise ConflictError(rest) from None
            trace.upgraded_from_last_applied = True
            trace.forced = list(exc.conflicts)
            obj, managers, times = self._skip_apply(live, applied, managers, times, manager,
                                                    True, now, trace)
        ann = _annotations(obj)
        if manager == "kubectl" and ann and ann.get(LAST_APPLIED):
            obj = dict(obj)  # (the merged object shares its parts with live and applied)
            obj["metadata"] = meta = dict(obj["metadata"])
            meta["annotations"] = dict(ann)
            meta["annotations"][LAST_APPLIED] = _last_applied_text(applied)
        return obj, managers, times

    def _skip_apply(self, live: Any, applied: Any, managers: Managers, times: dict,
                    manager: str, force: bool, now: str | None,
                    trace: Trace) -> tuple[Any, Managers, dict]:
        times = dict(times)
        if not managers:
            group, version, kind = gvk_of(applied)
            empty = {"apiVersion": group_version((group, version, kind)), "kind": kind}
            try:
                live, managers = self._update_chain(empty, live, managers, times,
                                                    BEFORE_FIRST_APPLY, now)
            except ServerError as exc:
                raise ServerError(f"failed to create manager for existing fields: {exc}") from None
            trace.before_first_apply = bool(managers)
        ident = self.ident(manager, mf.APPLY)
        last = managers.get(ident)
        obj, managers, forced, changes = self._smd_apply(live, applied, managers, ident, force)
        mine = managers.get(ident)
        if last is not None:
            trace.dropped = last.set.difference(mine.set) if mine is not None else last.set
        trace.forced = forced
        trace.changes = changes
        trace.changed = obj is not ABSENT
        managers = _strip(managers, ident)
        if obj is ABSENT:
            obj = without_managed_fields(live)
        else:
            times[ident] = now
        return obj, managers, times

    def _smd_apply(self, live: Any, patch: Any, managers: Managers, ident: str,
                   force: bool) -> tuple[Any, Managers, list, Any]:
        if mf.read_entries(patch) is not None:
            raise ServerError("metadata.managedFields must be nil")
        tpatch, err = self.typed(patch, False, applied=True)
        if tpatch is None:
            raise ServerError(f"failed to create typed patch object ({_gvknn(patch)}): {err}")
        tlive, err = self.typed(bare(live), True)
        if tlive is None:
            raise ServerError(f"failed to create typed live object ({_gvknn(live)}): {err}")
        try:
            done = smd_apply(tlive, tpatch, self.version, managers, ident, force)
        except ConflictsFound as exc:
            raise ConflictError(exc.conflicts) from None
        except UpdaterError as exc:
            raise ServerError(str(exc)) from None
        return done.value, done.managers, done.conflicts, done.changes

    # ------------------------------------------------------------ Update
    def update(self, live: Any, new: Any, manager: str, now: str | None,
               trace: Trace) -> tuple[Any, Managers, dict]:
        """The stored object, its managers and their times after an Update."""
        forget_items()
        try:
            return self._update(live, new, manager, now, trace)
        finally:
            forget_items()

    def _update(self, live: Any, new: Any, manager: str, now: str | None,
                trace: Trace) -> tuple[Any, Managers, dict]:
        managers, times = self._decode_live_or_new(live, new)
        new = without_managed_fields(new)
        if not managers and _meta_str(live, "uid"):
            return new, managers, times
        times = dict(times)
        new, managers = self._update_chain(live, new, managers, times, manager, now, trace)
        return new, managers, times

    def _decode_live_or_new(self, live: Any, new: Any) -> tuple[Managers, dict]:
        def live_or_empty() -> tuple[Managers, dict]:
            try:
                return mf.decode(mf.read_entries(live))
            except mf.DecodeError:
                return {}, {}
        if self.subresource:
            return live_or_empty()
        items = mf.read_entries(new)
        if items is not None and (not items or (len(items) == 1 and not any(
                v not in (None, "", {}) for v in items[0].values()))):
            return {}, {}
        try:
            managers, times = mf.decode(items)
        except mf.DecodeError:
            return live_or_empty()
        return (managers, times) if managers else live_or_empty()

    def _update_chain(self, live: Any, new: Any, managers: Managers, times: dict, manager: str,
                      now: str | None, trace: Trace | None = None) -> tuple[Any, Managers]:
        ident = self.ident(manager, mf.UPDATE)
        tnew, err = self.typed(new, True)
        if tnew is None:
            raise ServerError(f"failed to convert new object ({_gvknn(new)}) to smd typed: {err}")
        tlive, err = self.typed(bare(live), True)
        if tlive is None:
            raise ServerError(f"failed to convert live object ({_gvknn(live)}) to smd typed: {err}")
        try:
            managers, cmp, taken = smd_update(tlive, tnew, self.version, managers, _CURRENT)
        except UpdaterError as exc:
            raise ServerError(f"failed to update ManagedFields ({_gvknn(new)}): {exc}") from None
        if trace is not None:
            trace.taken = [c for c in taken if c[0] != ident]
            trace.changes = cmp
        managers = _strip(managers, _CURRENT)
        if _CURRENT in managers:
            vs = managers.pop(_CURRENT)
            prev = managers.get(ident)
            merged = vs.set.union(prev.set) if prev is not None else vs.set
            managers[ident] = VersionedSet(merged, vs.api_version, vs.applied)
            times[ident] = now
        return new, mf.cap_update_managers(managers, times)

    # ------------------------------------------------------------ last-applied
    def _allowed_by_last_applied(self, live: Any) -> fp.FieldSet | None:
        ann = _annotations(live)
        text = ann.get(LAST_APPLIED) if ann else None
        if not text:
            return None
        tlive, _ = self.typed(live, False)
        if tlive is None:
            return None
        try:
            import json

            last = json.loads(text)
        except ValueError:
            return None
        if not isinstance(last, dict) or not isinstance(last.get("kind"), str):
            return None
        if last.get("apiVersion") != self.version:
            return None
        tlast, _ = self.typed(last, False)
        if tlast is None:
            return None
        from .compare import compare

        cmp, errs = compare(tlast.schema, tlast.ref, tlast.value, tlive.value)
        if errs:
            return None
        return tlast.field_set().difference(cmp.modified).difference(cmp.added) \
            .difference(cmp.removed)


def _strip(managers: Managers, ident: str) -> Managers:
    vs = managers.get(ident)
    if vs is None:
        return managers
    managers = dict(managers)
    rest = vs.set.difference(STRIPPED)
    if rest.empty():
        del managers[ident]
    else:
        managers[ident] = VersionedSet(rest, vs.api_version, vs.applied)
    return managers


def _last_applied_text(applied: Any) -> str:
    obj = deep_copy(applied)
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    ann = _annotations(obj)
    if isinstance(meta, dict):
        if ann is None:
            meta.pop("annotations", None)
        else:
            ann.pop(LAST_APPLIED, None)
    return encode(obj) + "\n"
