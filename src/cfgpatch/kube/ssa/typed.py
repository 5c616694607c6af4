"""Reading a value against its type: the atom it uses, the names of list items.

* :func:`resolve`: the part of a type a value uses (a map, a list or a scalar: an
  int-or-string is one or the other), cached per type and kind of value, or the schema's
  error (``schema error: no type found matching: ...``);
* :func:`item_element`: the path element naming an item of an associative list (its key
  fields, with the defaults the schema gives them, or its value in a set), or why it has
  none (:class:`ItemError`);
* :func:`errors_text`, :func:`with_prefix`: Go's ``ValidationErrors`` (path, message).

The walks built on these: :mod:`.validate` (the server's checks and words),
:mod:`.fieldsets` (the fields a value sets), :mod:`.merge`, :mod:`.compare`,
:mod:`.remove`.  Values are plain JSON data; :data:`~.value.ABSENT` is "not there".
"""

from __future__ import annotations

from typing import Any

from . import fieldpath as fp
from .schema import ASSOCIATIVE, Atom, ListType, Schema, TypeRef
from .value import ABSENT

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
