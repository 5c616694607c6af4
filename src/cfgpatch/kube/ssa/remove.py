"""Removing fields from a typed value, and field sets read against a schema.

* :func:`remove_items`: the value without the fields of a set (structured-merge-diff's
  ``RemoveItems``): a member removes the field and everything below it; a subtree
  removes inside.  A map or list left with nothing becomes ``null`` where it is walked
  into, as structured-merge-diff leaves it;
* :func:`ensure_named_fields_are_members`: a set where every struct field that has
  fields below it is also a member itself (how pruning decides that a struct the
  applier emptied goes entirely);
* :func:`reconcile_with_schema`: a manager's set brought in line with the schema (an
  atomic list or map is one field: entries below it collapse into it).
"""

from __future__ import annotations

from typing import Any

from . import fieldpath as fp
from .schema import ATOMIC, UNTYPED, UNTYPED_DEDUCED, MapType, Schema, TypeRef
from .typed import ItemError, item_element, resolve


def remove_items(schema: Schema, ref: TypeRef, v: Any, items: fp.FieldSet) -> Any:
    """``v`` without the fields of ``items``."""
    atom, _ = resolve(schema, ref, v)
    if atom is None:
        return None
    if atom.map is not None:
        return _remove_map(schema, atom.map, v, items)
    if atom.scalar is not None:
        return v
    lt = atom.list
    assert lt is not None
    if not isinstance(v, list) or not v or lt.relationship == ATOMIC:
        return None
    out = []
    for item in v:
        try:
            pe = item_element(schema, lt, item)
        except ItemError:
            pe = _BLANK
        if items.has((pe,)):
            continue
        sub = items.children.get(pe)
        if sub is not None and not sub.empty():
            item = remove_items(schema, lt.element_type, item, sub)
        out.append(item)
    return out if out else None


_BLANK = fp.PathElement(-1, None, (-1,))


def _remove_map(schema: Schema, mt: MapType, v: Any, items: fp.FieldSet) -> Any:
    if not isinstance(v, dict) or not v or mt.relationship == ATOMIC:
        return None
    out = {}
    for k, val in v.items():
        pe = fp.field(k)
        if pe in items.members:
            continue
        sub = items.children.get(pe)
        if sub is not None and not sub.empty():
            sf = mt.fields.get(k)
            val = remove_items(schema, sf.type if sf is not None else mt.element_type, val, sub)
        out[k] = val
    return out if out else None


def ensure_named_fields_are_members(schema: Schema, ref: TypeRef, s: fp.FieldSet) -> fp.FieldSet:
    """``s`` with each struct field that has a subtree also a member."""
    atom = schema.resolve(ref)
    mt = atom.map if atom is not None else None
    lt = atom.list if atom is not None else None
    members = set(s.members)
    children = {}
    for pe, child in s.children.items():
        cref = TypeRef()
        if pe.kind == fp.FIELD and mt is not None:
            sf = mt.fields.get(pe.data)
            if sf is not None:
                members.add(pe)
                cref = sf.type
            else:
                cref = mt.element_type
        elif pe.kind == fp.KEY and lt is not None:
            cref = lt.element_type
        children[pe] = ensure_named_fields_are_members(schema, cref, child)
    return fp.FieldSet(members, children)


def reconcile_with_schema(schema: Schema, ref: TypeRef, s: fp.FieldSet) -> fp.FieldSet | None:
    """The set corrected for atomic lists and maps, or ``None`` when nothing changes."""
    to_remove = fp.FieldSet()
    to_add = fp.FieldSet()
    changed = _reconcile(schema, ref, s, (), False, to_remove, to_add)
    if not changed:
        return None
    return s.recursive_difference(to_remove).union(to_add)


def _reconcile(schema: Schema, ref: TypeRef, s: fp.FieldSet | None, path: tuple,
               is_atomic: bool, to_remove: fp.FieldSet, to_add: fp.FieldSet) -> bool:
    atom = schema.resolve(ref)
    if atom is None or atom.is_empty():
        return False
    if atom.map is not None:
        mt = atom.map
        if _untyped_deduced(mt):
            return False
        if not is_atomic and mt.relationship == ATOMIC:
            if s is not None and s.size() > 0:
                to_remove.insert(path)
                to_add.insert(path)
                return True
            return False
        if s is None:
            return False

        def child_ref(pe: fp.PathElement) -> TypeRef | None:
            cref = mt.element_type
            if pe.kind == fp.FIELD:
                sf = mt.fields.get(pe.data)
                if sf is not None:
                    cref = sf.type
            return None if cref.is_empty() else cref
        return _visit(schema, s, path, child_ref, to_remove, to_add)
    if atom.scalar is not None:
        return False
    lt = atom.list
    assert lt is not None
    if not is_atomic and lt.relationship == ATOMIC:
        to_remove.insert(path)
        to_add.insert(path)
        return True
    if s is None:
        return False
    return _visit(schema, s, path, lambda pe: lt.element_type, to_remove, to_add)


def _visit(schema: Schema, s: fp.FieldSet, path: tuple, child_ref: Any,
           to_remove: fp.FieldSet, to_add: fp.FieldSet) -> bool:
    # (a member with no subtree is read as atomic and holds nothing below: it never
    # changes, so only the subtrees are visited)
    changed = False
    for pe, sub in s.children.items():
        cref = child_ref(pe)
        if cref is None:
            continue
        if _reconcile(schema, cref, sub, path + (pe,), False, to_remove, to_add):
            changed = True
    return changed


def _untyped_deduced(mt: MapType) -> bool:
    et = mt.element_type
    if et.named is not None:
        deduced = et.named == UNTYPED_DEDUCED
    else:
        deduced = et.inlined is not None and et.inlined.scalar == UNTYPED
    return deduced and not mt.has_fields


