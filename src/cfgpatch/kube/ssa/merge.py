"""The apply merge: the applied configuration laid over the live object, by type.

structured-merge-diff's ``TypedValue.Merge`` with its keep-the-right-hand-side rule: a
scalar, an atomic list or an atomic map from the configuration replaces the live one;
granular maps and structs merge key by key; associative lists merge item by item (by key
or, for sets, by value) in an order that keeps the configuration's order for its items
and puts live-only items where they were; a ``null`` in the configuration stays a
``null`` where it is a leaf.  Two empty (or null) sides are one leaf.  Duplicate items of
the live list are allowed (they collapse into the configuration's item); the
configuration's are errors.

Both sides are values the field manager has validated against the type (the live object
with duplicates allowed), which allows short cuts with the same result: merged with
nothing, such a value is itself (a side alone is returned as it is); a scalar of the
configuration is a leaf whatever the type; a merged value identical to the live one
(:func:`.value.identical`) is the live value itself.  The result shares those parts
with its inputs (copy it before changing it); the comparison that follows skips them at
once (``lhs is rhs``).
"""

from __future__ import annotations

import json
from typing import Any

from . import fieldpath as fp
from .schema import ATOMIC, ListType, MapType, Schema, TypeRef
from .twosided import TwoSidedWalk, zip_keys
from .typed import Errors, ItemError, item_element, resolve, with_prefix
from .value import ABSENT, identical


def merge(schema: Schema, ref: TypeRef, lhs: Any, rhs: Any) -> tuple[Any, Errors]:
    """``rhs`` (the applied configuration) merged into ``lhs`` (the live object).

    Returns the merged value (:data:`ABSENT` when nothing is left) and the errors.
    """
    w = _Walker(schema)
    return w.merge(ref, lhs, rhs)


_SCALARS = (str, int, float, bool)


def same_text(a: Any, b: Any) -> bool:
    """True when two equal (``==``) JSON values are also :func:`.value.identical` (checked
    at C speed as their JSON texts where it can)."""
    try:
        return json.dumps(a) == json.dumps(b)
    except (TypeError, ValueError):
        return identical(a, b)


class _State:
    __slots__ = ("lhs", "rhs", "in_leaf", "out")

    def __init__(self, lhs: Any, rhs: Any) -> None:
        self.lhs = lhs
        self.rhs = rhs
        self.in_leaf = False
        self.out: Any = ABSENT


class _Walker(TwoSidedWalk):
    def __init__(self, schema: Schema) -> None:
        self.schema = schema

    def merge(self, ref: TypeRef, lhs: Any, rhs: Any) -> tuple[Any, Errors]:
        if rhs is ABSENT:
            if lhs is ABSENT:
                return ABSENT, [("", "at least one of lhs and rhs must be provided")]
            return lhs, []  # (a validated value merged with nothing is itself)
        if lhs is ABSENT:
            return rhs, []
        trhs = type(rhs)
        if trhs in _SCALARS:  # (a leaf whatever the type: the configuration's value wins)
            return (lhs if identical(lhs, rhs) else rhs), []
        if trhs is type(lhs) and lhs == rhs and same_text(lhs, rhs):
            return lhs, []  # (the live value, as the walk below would find it)
        atom = self.schema.resolve(ref)
        if atom is None:
            return ABSENT, [("", f"schema error: no type found matching: {ref.named}")]
        alhs, _ = resolve(self.schema, ref, lhs)
        arhs, _ = resolve(self.schema, ref, rhs)
        st = _State(lhs, rhs)
        errs: Errors = []
        if alhs is not None and arhs is not None and alhs.same(arhs):
            errs += self.handle(arhs, ref, st)
        else:
            scratch = _State(lhs, rhs)
            errs += self.handle(alhs, ref, scratch)
            errs += self.handle(arhs, ref, st)
        return st.out, errs

    @staticmethod
    def leaf(st: _State) -> None:
        if st.in_leaf:
            return
        st.in_leaf = True
        lhs, rhs = st.lhs, st.rhs
        st.out = lhs if rhs is ABSENT or identical(lhs, rhs) else rhs

    def do_map(self, mt: MapType, st: _State) -> Errors:
        lhs = st.lhs if isinstance(st.lhs, dict) else None
        rhs = st.rhs if isinstance(st.rhs, dict) else None
        if mt.relationship == ATOMIC or (not lhs and not rhs):
            self.leaf(st)
            return []
        out: dict = {}
        errs: Errors = []
        same = lhs is not None
        fields = mt.fields
        for k in zip_keys(lhs, rhs):
            sf = fields.get(k)
            ref = sf.type if sf is not None else mt.element_type
            lv = lhs.get(k, ABSENT) if lhs is not None else ABSENT
            rv = rhs.get(k, ABSENT) if rhs is not None else ABSENT
            child, cerrs = self.merge(ref, lv, rv)
            if cerrs:
                errs += with_prefix(cerrs, "." + k)
            if child is not ABSENT:
                out[k] = child
            if child is not lv:
                same = False
        if same and len(out) == len(lhs):  # type: ignore[arg-type]
            st.out = lhs  # (every field the live one: the live map itself)
        elif out:
            st.out = out
        return errs

    def do_list(self, lt: ListType, st: _State) -> Errors:
        lhs = st.lhs if isinstance(st.lhs, list) else None
        rhs = st.rhs if isinstance(st.rhs, list) else None
        if lt.relationship == ATOMIC or (not lhs and not rhs):
            self.leaf(st)
            return []
        return self.list_items(lt, lhs or [], rhs or [], st)

    def index(self, lt: ListType, items: list, allow_duplicates: bool) -> tuple[list, dict, Errors]:
        errs: Errors = []
        pes: list[fp.PathElement] = []
        observed: dict = {}
        for i, child in enumerate(items):
            try:
                pe = item_element(self.schema, lt, child)
            except ItemError as exc:
                errs.append(("", f"element {i}: {exc}"))
                continue
            if pe in observed:
                if not allow_duplicates:
                    errs.append(("", f"duplicate entries for key {pe}"))
                    continue
                observed[pe] = None
            else:
                observed[pe] = child
            pes.append(pe)
        return pes, observed, errs

    def list_items(self, lt: ListType, lhs: list, rhs: list, st: _State) -> Errors:
        rpes, robs, rerrs = self.index(lt, rhs, False)
        lpes, lobs, lerrs = self.index(lt, lhs, True)
        errs = rerrs + lerrs
        if errs:
            return errs
        shared = [pe for pe in rpes if pe in lobs]
        shared.reverse()
        next_shared = shared.pop() if shared else None
        merged_rhs: set = set()
        out: list = []
        li = ri = 0
        ll, rl = len(lpes), len(rpes)
        et = lt.element_type
        while li < ll or ri < rl:
            if li < ll and ri < rl:
                pe = lpes[li]
                if pe == rpes[ri]:
                    merged_rhs.add(pe)
                    self._item(et, lobs[pe], robs[pe], out)
                    li += 1
                    ri += 1
                    next_shared = shared.pop() if shared else None
                    continue
                if pe in robs and next_shared is not None and next_shared != pe:
                    li += 1
                    continue
            if li < ll:
                pe = lpes[li]
                if pe not in robs:
                    self._item(et, lhs[li], ABSENT, out)
                    li += 1
                    continue
                if pe in merged_rhs:
                    li += 1
            if ri < rl:
                pe = rpes[ri]
                merged_rhs.add(pe)
                self._item(et, lobs.get(pe, ABSENT), robs[pe], out)
                ri += 1
                if next_shared is not None and next_shared == pe:
                    next_shared = shared.pop() if shared else None
        if out and len(out) == len(lhs) and all(a is b for a, b in zip(out, lhs)):
            st.out = lhs  # (every item the live one: the live list itself)
        elif out:
            st.out = out
        return []  # (item errors are dropped, as structured-merge-diff does)

    def _item(self, ref: TypeRef, lv: Any, rv: Any, out: list) -> None:
        child, _ = self.merge(ref, lv, rv)
        if child is not ABSENT:
            out.append(child)
