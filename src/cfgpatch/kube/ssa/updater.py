"""structured-merge-diff's Updater: the Apply and Update operations over field sets.

Managers are keyed by their identifier (see :mod:`.managed`); each holds a
:class:`VersionedSet`: the fields it owns, the API version it used, and whether it
applied them (``Apply``) or wrote them (``Update``).

* **Update** (a controller's write, ``kubectl replace``): the fields it changed become its
  own; other managers lose the fields it changed and everyone loses what it removed.
* **Apply**: the configuration is merged into the live object; the applier now owns
  exactly the configuration's fields; fields it owned before and no longer sends are
  removed unless another manager owns them; a field the configuration changes that
  another manager owns is a conflict (unless ``force``, which takes it over).  Equal values
  do not conflict: their owners share them.

Version conversion is the identity here (every manager's version is read as the
object's own): the oracle and this engine convert nothing.
"""

from __future__ import annotations

from typing import Any

from ...records import dataclass
from . import fieldpath as fp
from .compare import Comparison, compare
from .fieldsets import to_field_set
from .merge import merge
from .remove import ensure_named_fields_are_members, reconcile_with_schema, remove_items
from .schema import Schema, TypeRef
from .typed import errors_text
from .value import ABSENT, equals


@dataclass
class VersionedSet:
    """The fields one manager owns, at an API version, applied or written."""

    set: fp.FieldSet
    api_version: str
    applied: bool


Managers = dict  # manager identifier -> VersionedSet


class UpdaterError(Exception):
    """A failure of the merge machinery (the server's words)."""


class ConflictsFound(Exception):
    """Fields the operation changes that other managers own: ``[(manager id, path)]``."""

    def __init__(self, conflicts: list[tuple[str, tuple]]) -> None:
        super().__init__(conflicts)
        self.conflicts = conflicts


@dataclass
class Typed:
    """A value of a type of a schema (``fields``: its fields, when the validation
    computed them)."""

    schema: Schema
    ref: TypeRef
    value: Any
    fields: fp.FieldSet | None = None

    def with_value(self, v: Any) -> Typed:
        """The same type holding another value."""
        return Typed(self.schema, self.ref, v)

    def field_set(self) -> fp.FieldSet:
        """Its fields."""
        if self.fields is not None:
            return self.fields
        return to_field_set(self.schema, self.ref, self.value)

    def ensure(self, s: fp.FieldSet) -> fp.FieldSet:
        """``s`` with struct fields that have subtrees as members too."""
        return ensure_named_fields_are_members(self.schema, self.ref, s)


def _update(old: Typed, new: Typed, version: str, managers: Managers, workflow: str,
            force: bool) -> tuple[Managers, Comparison, list[tuple[str, tuple]]]:
    cmp, errs = compare(old.schema, old.ref, old.value, new.value)
    if errs:
        raise UpdaterError(f"failed to compare objects: {errors_text(errs)}")
    changed = cmp.modified.union(cmp.added)
    conflicts: dict[str, fp.FieldSet] = {}
    for manager, vs in managers.items():
        if manager == workflow:
            continue
        both = vs.set.intersection(changed)
        if not both.empty():
            conflicts[manager] = both
    found = [(m, p) for m in sorted(conflicts) for p in conflicts[m].paths()]
    if not force and conflicts:
        raise ConflictsFound(found)
    out: Managers = {}
    for manager, vs in managers.items():
        s = vs.set
        if manager != workflow:
            if manager in conflicts:
                s = s.difference(conflicts[manager])
            if not cmp.removed.empty():
                s = s.difference(cmp.removed)
        if not s.empty():
            out[manager] = VersionedSet(s, vs.api_version, vs.applied)
    return out, cmp, found


def reconcile(live: Typed, managers: Managers) -> Managers:
    """Every manager's set corrected for the schema (atomic lists and maps)."""
    out = {}
    for manager, vs in managers.items():
        fixed = reconcile_with_schema(live.schema, live.ref, vs.set)
        out[manager] = vs if fixed is None else VersionedSet(fixed, vs.api_version, vs.applied)
    return out


def update(live: Typed, new: Typed, version: str, managers: Managers,
           manager: str) -> tuple[Managers, Comparison, list[tuple[str, tuple]]]:
    """An Update by ``manager``: the new managers, the comparison, the fields taken."""
    managers = reconcile(live, managers)
    managers, cmp, taken = _update(live, new, version, managers, manager, True)
    mine = managers.get(manager)
    s = mine.set if mine is not None else fp.FieldSet()
    s = s.difference(cmp.removed).union(cmp.modified).union(cmp.added)
    if s.empty():
        managers.pop(manager, None)
    else:
        managers[manager] = VersionedSet(s, version, False)
    return managers, cmp, taken


@dataclass
class Applied:
    """What an Apply computed: ``value``, the new object (:data:`ABSENT` when nothing
    changed); ``managers``; ``conflicts``, those ``force`` overrode; ``changes``, the live
    object's fields added, modified and removed."""

    value: Any
    managers: Managers
    conflicts: list[tuple[str, tuple]]
    changes: Comparison


def apply(live: Typed, config: Typed, version: str, managers: Managers, manager: str,
          force: bool) -> Applied:
    """An Apply of ``config`` by ``manager`` (raises :class:`ConflictsFound`)."""
    managers = reconcile(live, managers)
    merged, errs = merge(live.schema, live.ref, live.value, config.value)
    if errs:
        raise UpdaterError(f"failed to merge config: {errors_text(errs)}")
    new = live.with_value(merged if merged is not ABSENT else None)
    last = managers.get(manager)
    managers = dict(managers)
    managers[manager] = VersionedSet(config.field_set(), version, True)
    new = _prune(new, managers, manager, last)
    managers, cmp, found = _update(live, new, version, managers, manager, force)
    same = live.value == new.value and equals(live.value, new.value)  # (== first: C speed)
    return Applied(ABSENT if same else new.value, managers, found, cmp)


def _prune(merged: Typed, managers: Managers, applier: str, last: VersionedSet | None) -> Typed:
    if last is None or last.set.empty():
        return merged
    if last.set.is_subset(managers[applier].set):
        return merged  # the applier still sends every field it owned: nothing to remove
    ensure = merged.ensure
    pruned = merged.with_value(remove_items(merged.schema, merged.ref, merged.value,
                                            ensure(last.set)))
    # fields someone still owns come back (every version reads the same object here)
    owned = fp.FieldSet()
    for vs in managers.values():
        owned = owned.union(vs.set)
    merged_set = ensure(merged.field_set())
    keep = ensure(pruned.field_set()).union(ensure(owned))
    pruned = merged.with_value(remove_items(merged.schema, merged.ref, merged.value,
                                            merged_set.difference(keep)))
    # what the applier owned and nobody owns any more goes, with what hangs below it
    dangling = merged_set.difference(ensure(pruned.field_set())).intersection(ensure(last.set))
    return merged.with_value(remove_items(merged.schema, merged.ref, merged.value, dangling))
