"""The fields a value sets: an applier's fields, as structured-merge-diff computes them.

* :func:`to_field_set`: leaves, atomic lists and maps as one field, associative list
  items by key, empty maps and nulls as fields, undeclared fields of a struct as fields;
* :func:`validated_field_set`: :func:`~.validate.validate` and :func:`to_field_set` in one
  walk (the field manager needs both of an applied configuration).
"""

from __future__ import annotations

from typing import Any

from . import fieldpath as fp
from .schema import ASSOCIATIVE, ATOMIC, Atom, ListType, MapType, Schema, TypeRef
from .typed import Errors, ItemError, item_element, resolve, with_prefix
from .validate import (
    ANYTHING,
    SCALARS,
    scalar_errors,
    scalar_fits,
    validate,
    validate_list,
    validate_map,
)


def to_field_set(schema: Schema, ref: TypeRef, v: Any) -> fp.FieldSet:
    """The fields a (valid) value sets."""
    root = fp.FieldSet()
    atom, _ = resolve(schema, ref, v)
    if atom is not None:
        _inside(schema, atom, v, root)
    return root


def _into(schema: Schema, ref: TypeRef, v: Any, parent: fp.FieldSet, pe: fp.PathElement) -> None:
    """Add the fields of ``v`` (at ``pe`` below ``parent``) to ``parent``."""
    atom, _ = resolve(schema, ref, v)
    if atom is None:
        return
    if atom.map is not None:  # (Go's order: map, scalar, list)
        rel = atom.map.relationship
    elif atom.scalar is not None or atom.list is None:
        parent.members.add(pe)
        return
    else:
        rel = atom.list.relationship
    if rel == ATOMIC:
        parent.members.add(pe)
        return
    existing = parent.children.get(pe)
    node = existing if existing is not None else fp.FieldSet()
    _inside(schema, atom, v, node)
    if existing is None and (node.members or node.children):
        parent.children[pe] = node


def _inside(schema: Schema, atom: Atom, v: Any, node: fp.FieldSet) -> None:
    if atom.map is not None:
        mt = atom.map
        if mt.relationship == ATOMIC or not isinstance(v, dict):
            return
        fields = mt.fields
        for k, child in v.items():
            sf = fields.get(k)
            pe = fp.field(k)
            _into(schema, sf.type if sf is not None else mt.element_type, child, node, pe)
            if child is None or (isinstance(child, dict) and not child) or sf is None:
                node.members.add(pe)
    elif atom.scalar is None and atom.list is not None:
        lt = atom.list
        if lt.relationship == ATOMIC or not isinstance(v, list):
            return
        pes = [_element_or_blank(schema, lt, child) for child in v]
        seen: set = set()
        dups: set = set()
        for pe in pes:
            if pe in seen:
                if pe not in dups:
                    node.members.add(pe)
                    dups.add(pe)
            else:
                seen.add(pe)
        for pe, child in zip(pes, v):
            if pe in dups:
                continue
            _into(schema, lt.element_type, child, node, pe)
            node.members.add(pe)


_BLANK = fp.PathElement(-1, None, (-1,))  # Go's zero PathElement (an item with no name)


def _element_or_blank(schema: Schema, lt: ListType, child: Any) -> fp.PathElement:
    try:
        return item_element(schema, lt, child)
    except ItemError:
        return _BLANK


# ----------------------------------------------------------------- validated, in one walk


def validated_field_set(schema: Schema, ref: TypeRef, v: Any) -> tuple[Errors, fp.FieldSet]:
    """``validate(schema, ref, v)`` (duplicates refused) and, when it finds nothing, the
    fields ``v`` sets (:func:`to_field_set`), in one walk.  The set is meaningless when
    there are errors."""
    root = fp.FieldSet()
    if ref.named in ANYTHING and ref.named in schema.types:
        return [], to_field_set(schema, ref, v)
    atom, errs = resolve(schema, ref, v)
    if atom is None:
        return list(errs), root
    mt, lt = atom.map, atom.list
    if mt is not None:
        if mt.relationship != ATOMIC:
            return _check_map(schema, mt, v, root), root
    elif atom.scalar is None and lt is not None and lt.relationship == ASSOCIATIVE:
        return _check_list(schema, lt, v, root), root
    return validate(schema, ref, v), to_field_set(schema, ref, v)


def _check(schema: Schema, ref: TypeRef, v: Any, parent: fp.FieldSet,
           pe: fp.PathElement) -> Errors:
    """Validate ``v``; add its fields (at ``pe`` below ``parent``) to ``parent``."""
    if ref.named in ANYTHING and ref.named in schema.types:
        _into(schema, ref, v, parent, pe)
        return []
    atom, problems = resolve(schema, ref, v)
    if atom is None:
        return list(problems)
    errs: Errors
    mt = atom.map
    if mt is not None:  # (the order of validate and _into: map, scalar, list)
        if mt.relationship == ATOMIC:
            parent.members.add(pe)
            return validate(schema, ref, v)
        node = fp.FieldSet()
        errs = _check_map(schema, mt, v, node)
    elif atom.scalar is not None:
        parent.members.add(pe)
        return scalar_errors(atom.scalar, v, "")
    else:
        lt = atom.list
        assert lt is not None
        if lt.relationship != ASSOCIATIVE:
            errs = validate(schema, ref, v)
            _into(schema, ref, v, parent, pe)
            return errs
        node = fp.FieldSet()
        errs = _check_list(schema, lt, v, node)
    if node.members or node.children:
        parent.children[pe] = node
    return errs


def _check_map(schema: Schema, mt: MapType, v: Any, node: fp.FieldSet) -> Errors:
    if v is None:
        return []
    if not isinstance(v, dict):
        return validate_map(schema, mt, v)  # (the error)
    errs: Errors = []
    fields = mt.fields
    for k, child in v.items():
        sf = fields.get(k)
        pe = fp.field(k)
        if sf is not None:
            tc = type(child)
            if tc in SCALARS and scalar_fits(schema, sf.type, tc):
                node.members.add(pe)  # (a scalar that fits: a leaf)
                continue
            inner = _check(schema, sf.type, child, node, pe)
            if child is None or (isinstance(child, dict) and not child):
                node.members.add(pe)
        elif mt.element_type.is_empty():
            errs.append(("." + k, "field not declared in schema"))
            return errs
        else:
            inner = _check(schema, mt.element_type, child, node, pe)
            node.members.add(pe)
        if inner:
            errs.extend(with_prefix(inner, "." + k))
    return errs


def _check_list(schema: Schema, lt: ListType, v: Any, node: fp.FieldSet) -> Errors:
    if v is None or not isinstance(v, list):
        return validate_list(schema, lt, v)  # (nothing, or the error)
    errs: Errors = []
    seen: set = set()
    et = lt.element_type
    for i, child in enumerate(v):
        try:
            pe = item_element(schema, lt, child)
        except ItemError as exc:
            errs.append(("", f"element {i}: {exc}"))
            return errs
        if pe in seen:
            errs.append(("", f"duplicate entries for key {pe}"))
        seen.add(pe)
        inner = _check(schema, et, child, node, pe)
        if inner:
            errs.extend(with_prefix(inner, str(pe)))
        node.members.add(pe)
    return errs
