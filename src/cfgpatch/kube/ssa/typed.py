"""Walking a value against its type: validation, field sets, list item names.

* :func:`validate`: the checks the API server runs when it turns an object into a typed
  value (``duplicate entries for key [name="app"]``, ``element 0: associative list with
  keys has an element that omits key field "name" (and doesn't have default value)``,
  ``field not declared in schema``, ``expected string, got ...``), with its words and
  paths (``.spec.template.spec.containers: duplicate entries for key [name="app"]``);
* :func:`to_field_set`: the fields a value sets (an applier's fields): leaves, atomic lists
  and maps as one field, associative list items by key, empty maps and nulls as fields;
* :func:`item_element`: the path element naming an item of an associative list.

Values are plain JSON data; :data:`~.value.ABSENT` is "not there".
"""

from __future__ import annotations

from typing import Any

from . import fieldpath as fp
from .schema import (
    ASSOCIATIVE,
    ATOMIC,
    BOOLEAN,
    NUMERIC,
    STRING,
    UNTYPED,
    UNTYPED_ATOMIC,
    UNTYPED_DEDUCED,
    Atom,
    ListType,
    MapType,
    Schema,
    TypeRef,
)
from .value import ABSENT, is_number

Errors = list  # a list of (path, message) pairs, Go's ValidationErrors


class ItemError(ValueError):
    """An item of an associative list that has no name (missing key, null, wrong kind)."""


def errors_text(errs: Errors) -> str:
    """Go's ``ValidationErrors.Error()``."""
    def one(e: tuple[str, str]) -> str:
        return f"{e[0]}: {e[1]}" if e[0] else e[1]
    if len(errs) == 1:
        return one(errs[0])
    return "\n".join(["errors:"] + ["  " + one(e) for e in errs])


def with_prefix(errs: Errors, prefix: str) -> Errors:
    """The errors with ``prefix`` before each path."""
    return [(prefix + p, m) for p, m in errs] if errs else errs


def deduce(atom: Atom, v: Any) -> Atom:
    """The part of an atom a value uses (Go's ``deduceAtom``)."""
    if v is ABSENT or v is None:
        return atom
    if isinstance(v, (str, bool, int, float)):
        return _part(atom, "s") if atom.scalar is not None else atom
    if isinstance(v, list):
        return _part(atom, "l") if atom.list is not None else atom
    if isinstance(v, dict) and atom.map is not None:
        return _part(atom, "m")
    return atom


def _part(atom: Atom, which: str) -> Atom:
    cache = atom.__dict__.setdefault("_parts", {})
    part = cache.get(which)
    if part is None:
        if which == "s":
            part = Atom(scalar=atom.scalar)
        elif which == "l":
            part = Atom(list=atom.list)
        else:
            part = Atom(map=atom.map)
        if part.same(atom):
            part = atom
        cache[which] = part
    return part


_KINDS = {dict: 3, list: 2, str: 1, int: 1, float: 1, bool: 1, type(None): 0}


def resolve(schema: Schema, ref: TypeRef, v: Any) -> tuple[Atom | None, tuple]:
    """The deduced atom of a value's type, or the schema error (cached per type and kind)."""
    kind = 0 if v is ABSENT else _KINDS.get(type(v))
    if kind is None:
        kind = 3 if isinstance(v, dict) else 2 if isinstance(v, list) else 1
    cache = schema.deduced
    hit = cache.get((ref, kind))
    if hit is None:
        hit = cache[(ref, kind)] = _resolve(schema, ref, v)
    return hit


def _resolve(schema: Schema, ref: TypeRef, v: Any) -> tuple[Atom | None, tuple]:
    atom = schema.resolve(ref)
    if atom is None:
        name = ref.named if ref.named is not None else "inlined type"
        return None, (("", f"schema error: no type found matching: {name}"),)
    atom = deduce(atom, v)
    if atom.is_empty():
        name = "named type: " + ref.named if ref.named is not None else "inlined"
        return None, (("", f"schema error: invalid atom: {name}"),)
    return atom, ()


_ITEMS: dict[tuple[int, int], tuple[Any, Any]] = {}  # (id(item), id(list type)) -> (item, pe)


def forget_items() -> None:
    """Drop the item-name cache (the field manager does, before and after each operation:
    the cache holds the items, so their ids cannot be reused while it lives)."""
    _ITEMS.clear()


def item_element(schema: Schema, lt: ListType, child: Any) -> fp.PathElement:
    """The element naming an item of an associative list (raises :class:`ItemError`)."""
    if not isinstance(child, dict):
        return _item_element(schema, lt, child)
    memo = (id(child), id(lt))
    hit = _ITEMS.get(memo)
    if hit is None or hit[0] is not child:
        try:
            hit = (child, _item_element(schema, lt, child))
        except ItemError as exc:
            hit = (child, exc)
        if len(_ITEMS) < 200_000:
            _ITEMS[memo] = hit
    if isinstance(hit[1], ItemError):
        raise hit[1]
    return hit[1]


def _item_element(schema: Schema, lt: ListType, child: Any) -> fp.PathElement:
    if lt.relationship != ASSOCIATIVE:
        raise ItemError("invalid indexing of non-associative list")
    if lt.keys:
        return _keyed(schema, lt, child)
    if isinstance(child, dict):
        raise ItemError("associative list without keys has an element that's a map type")
    if isinstance(child, list):
        raise ItemError("not supported: associative list with lists as elements")
    if child is None:
        raise ItemError("associative list without keys has an element that's an explicit null")
    return fp.value(child)


def _keyed(schema: Schema, lt: ListType, child: Any) -> fp.PathElement:
    if child is None:
        raise ItemError("associative list with keys may not have a null element")
    if not isinstance(child, dict):
        raise ItemError("associative list with keys may not have non-map elements")
    pairs = []
    for name in lt.keys:
        if name in child:
            pairs.append((name, child[name]))
            continue
        atom = schema.resolve(lt.element_type)
        if atom is None:
            raise ItemError(f"couldn't find default value for {name}: invalid elementType for list")
        if atom.map is None:
            raise ItemError(f"couldn't find default value for {name}: "
                            "associative list may not have non-map types")
        sf = atom.map.fields.get(name)
        if sf is not None and sf.has_default():
            pairs.append((name, sf.default))
        else:
            raise ItemError(f"associative list with keys has an element that omits key field "
                            f'"{name}" (and doesn\'t have default value)')
    return fp.key(pairs)


# ----------------------------------------------------------------- validation

_ANYTHING = (UNTYPED_ATOMIC, UNTYPED_DEDUCED)


def validate(schema: Schema, ref: TypeRef, v: Any, allow_duplicates: bool = False) -> Errors:
    """The validation errors of a value (empty when it fits its type)."""
    if ref.named in _ANYTHING and ref.named in schema.types:
        return []  # (untyped, all the way down: every JSON value fits)
    atom, errs = resolve(schema, ref, v)
    if atom is None:
        return list(errs)
    if atom.map is not None:
        return _validate_map(schema, atom.map, v, allow_duplicates)
    if atom.scalar is not None:
        return scalar_errors(atom.scalar, v, "")
    assert atom.list is not None
    return _validate_list(schema, atom.list, v, allow_duplicates)


def scalar_errors(kind: str, v: Any, prefix: str) -> Errors:
    """Go's ``validateScalar``."""
    if v is ABSENT or v is None:
        return []
    if kind == NUMERIC:
        if not is_number(v):
            return [("", f"{prefix}expected numeric (int or float), got {go_type(v)}")]
    elif kind == STRING:
        if not isinstance(v, str):
            return [("", f"{prefix}expected string, got {go_value_sharp(v)}")]
    elif kind == BOOLEAN:
        if not isinstance(v, bool):
            return [("", f"{prefix}expected boolean, got {go_value(v)}")]
    elif kind == UNTYPED:
        if isinstance(v, (list, dict)):
            return [("", f"{prefix}expected any scalar, got {go_value(v)}")]
    else:
        return [("", f"{prefix}unexpected scalar type in schema: {kind}")]
    return []


def _validate_list(schema: Schema, lt: ListType, v: Any, allow_duplicates: bool) -> Errors:
    if v is None or v is ABSENT:
        return []
    if not isinstance(v, list):
        return [("", f"expected list, got {go_value(v)}")]
    errs: Errors = []
    seen: set = set()
    for i, child in enumerate(v):
        if lt.relationship != ASSOCIATIVE:
            pe = fp.index(i)
        else:
            try:
                pe = item_element(schema, lt, child)
            except ItemError as exc:
                errs.append(("", f"element {i}: {exc}"))
                return errs
            if pe in seen and not allow_duplicates:
                errs.append(("", f"duplicate entries for key {pe}"))
            seen.add(pe)
        inner = validate(schema, lt.element_type, child, allow_duplicates)
        if inner:
            errs.extend(with_prefix(inner, str(pe)))
    return errs


def _validate_map(schema: Schema, mt: MapType, v: Any, allow_duplicates: bool) -> Errors:
    if v is None:
        return []
    if v is ABSENT:
        return [("", "expected map, got nil")]
    if not isinstance(v, dict):
        return [("", f"expected map, got {go_value(v)}")]
    errs: Errors = []
    for k, child in v.items():
        sf = mt.fields.get(k)
        if sf is not None:
            ref = sf.type
        elif mt.element_type.is_empty():
            errs.append(("." + k, "field not declared in schema"))
            return errs
        else:
            ref = mt.element_type
        errs.extend(with_prefix(validate(schema, ref, child, allow_duplicates), "." + k))
    return errs


# ----------------------------------------------------------------- field sets


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


# ----------------------------------------------------------------- Go's %v and %T


def go_type(v: Any) -> str:
    """Go's ``%T`` of an unstructured value."""
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int64"
    if isinstance(v, float):
        return "float64"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "[]interface {}"
    if isinstance(v, dict):
        return "map[string]interface {}"
    return "<nil>"


def go_value(v: Any) -> str:
    """Go's ``%v`` of a ``value.Value`` holding ``v``: ``&{...}``."""
    return "&{" + _plain_v(v) + "}"


def go_value_sharp(v: Any) -> str:
    """Go's ``%#v`` of a ``value.Value`` holding ``v``."""
    return "&value.valueUnstructured{Value:" + _sharp_v(v) + "}"


def _plain_v(v: Any) -> str:
    from ..go.json import go_float_g

    if v is None:
        return "<nil>"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return go_float_g(v)
    if isinstance(v, (int, str)):
        return str(v)
    if isinstance(v, list):
        return "[" + " ".join(_plain_v(x) for x in v) + "]"
    return "map[" + " ".join(f"{k}:{_plain_v(v[k])}" for k in sorted(v)) + "]"


def _sharp_v(v: Any) -> str:
    from ..go.json import go_float_g, go_quote

    if v is None:
        return "interface {}(nil)"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return go_float_g(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return go_quote(v)
    if isinstance(v, list):
        return "[]interface {}{" + ", ".join(_sharp_v(x) for x in v) + "}"
    return "map[string]interface {}{" + ", ".join(
        f"{go_quote(k)}:{_sharp_v(v[k])}" for k in sorted(v)) + "}"


