"""What changed between two typed values: fields added, modified and removed.

structured-merge-diff's ``TypedValue.Compare``: leaves (scalars, atomic lists and maps,
and two empty sides) are compared by value; granular maps and associative lists are walked
key by key and item by item.  An associative list item that appears several times on one
side is compared as a whole.  The same value on both sides (``lhs is rhs``: the merge
hands back the live value where an apply leaves it as it was) is skipped at once: both
sides are validated values, so it has neither changes nor errors.  The API server
compares the live object with the new one to learn which managers lose fields
(conflicts, and fields taken away by an update).
"""

from __future__ import annotations

from typing import Any

from ...records import dataclass, field
from . import fieldpath as fp
from .schema import ATOMIC, ListType, MapType, Schema, TypeRef
from .twosided import TwoSidedWalk, zip_keys
from .typed import Errors, ItemError, item_element, resolve, with_prefix
from .value import ABSENT, equals


@dataclass
class Comparison:
    """The fields added, modified and removed from the left value to the right one."""

    added: fp.FieldSet = field(default_factory=fp.FieldSet)
    modified: fp.FieldSet = field(default_factory=fp.FieldSet)
    removed: fp.FieldSet = field(default_factory=fp.FieldSet)

    def is_same(self) -> bool:
        """True when nothing changed."""
        return self.added.empty() and self.modified.empty() and self.removed.empty()


def compare(schema: Schema, ref: TypeRef, lhs: Any, rhs: Any) -> tuple[Comparison, Errors]:
    """Compare ``lhs`` (before) with ``rhs`` (after)."""
    c = Comparison()
    errs = _Walker(schema, c).compare(ref, lhs, rhs, ())
    return c, errs


class _State:
    __slots__ = ("lhs", "rhs", "path", "in_leaf")

    def __init__(self, lhs: Any, rhs: Any, path: tuple) -> None:
        self.lhs = lhs
        self.rhs = rhs
        self.path = path
        self.in_leaf = False


class _Walker(TwoSidedWalk):
    def __init__(self, schema: Schema, c: Comparison) -> None:
        self.schema = schema
        self.c = c

    def compare(self, ref: TypeRef, lhs: Any, rhs: Any, path: tuple) -> Errors:
        if lhs is rhs:  # (one validated value on both sides: nothing changed)
            if lhs is ABSENT:
                return [("", "at least one of lhs and rhs must be provided")]
            return []
        if self.schema.resolve(ref) is None:
            return [("", f"schema error: no type found matching: {ref.named}")]
        alhs, _ = resolve(self.schema, ref, lhs)
        arhs, _ = resolve(self.schema, ref, rhs)
        st = _State(lhs, rhs, path)
        errs: Errors = []
        if rhs is ABSENT:
            errs += self.handle(alhs, ref, st)
        elif lhs is ABSENT or (alhs is not None and arhs is not None and alhs.same(arhs)):
            errs += self.handle(arhs, ref, st)
        else:
            scratch = _State(lhs, rhs, path)
            errs += self.handle(alhs, ref, scratch)
            errs += self.handle(arhs, ref, st)
        if not st.in_leaf:
            if lhs is ABSENT:
                self.c.added.insert(path)
            elif rhs is ABSENT:
                self.c.removed.insert(path)
        return errs

    def leaf(self, st: _State) -> None:
        if st.in_leaf:
            return
        st.in_leaf = True
        if st.lhs is ABSENT:
            self.c.added.insert(st.path)
        elif st.rhs is ABSENT:
            self.c.removed.insert(st.path)
        elif not equals(st.rhs, st.lhs):
            self.c.modified.insert(st.path)

    def do_map(self, mt: MapType, st: _State) -> Errors:
        lhs = st.lhs if isinstance(st.lhs, dict) else None
        rhs = st.rhs if isinstance(st.rhs, dict) else None
        if mt.relationship == ATOMIC or (not lhs and not rhs):
            self.leaf(st)
            return []
        errs: Errors = []
        for k in zip_keys(lhs, rhs):
            sf = mt.fields.get(k)
            ref = sf.type if sf is not None else mt.element_type
            lv = lhs.get(k, ABSENT) if lhs is not None else ABSENT
            rv = rhs.get(k, ABSENT) if rhs is not None else ABSENT
            errs += with_prefix(self.compare(ref, lv, rv, st.path + (fp.field(k),)), "." + k)
        return errs

    def do_list(self, lt: ListType, st: _State) -> Errors:
        lhs = st.lhs if isinstance(st.lhs, list) else None
        rhs = st.rhs if isinstance(st.rhs, list) else None
        if lt.relationship == ATOMIC or (not lhs and not rhs):
            self.leaf(st)
            return []
        return self.list_items(lt, lhs or [], rhs or [], st)

    def _group(self, lt: ListType, items: list, errs: Errors) -> dict:
        groups: dict = {}
        for i, child in enumerate(items):
            try:
                pe = item_element(self.schema, lt, child)
            except ItemError as exc:
                errs.append(("", f"element {i}: {exc}"))
                continue
            groups.setdefault(pe, []).append(child)
        return groups

    def list_items(self, lt: ListType, lhs: list, rhs: list, st: _State) -> Errors:
        errs: Errors = []
        lvals = self._group(lt, lhs, errs)
        rvals = self._group(lt, rhs, errs)
        order = list(lvals) + [pe for pe in rvals if pe not in lvals]
        et = lt.element_type
        for pe in order:
            ll = lvals.get(pe, [])
            rl = rvals.get(pe, [])
            here = st.path + (pe,)
            if len(ll) <= 1 and len(rl) <= 1:
                lv = ll[0] if ll else ABSENT
                rv = rl[0] if rl else ABSENT
                inner = self.compare(et, lv, rv, here)
                if inner:
                    errs += with_prefix(inner, str(pe))
            elif len(ll) >= 2 and len(rl) >= 2:
                if len(ll) != len(rl) or not all(equals(a, b) for a, b in zip(ll, rl)):
                    self.c.modified.insert(here)
            elif len(ll) >= 2:
                if rl:
                    errs += with_prefix(self.compare(et, ABSENT, rl[0], here), str(pe))
                self.c.removed.insert(here)
            else:
                if ll:
                    errs += with_prefix(self.compare(et, ll[0], ABSENT, here), str(pe))
                self.c.added.insert(here)
        return errs
