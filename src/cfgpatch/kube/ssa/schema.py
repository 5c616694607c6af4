"""The schema model of structured-merge-diff: atoms, element relationships, list keys.

A type is an :class:`Atom`: a scalar (``numeric``, ``string``, ``boolean`` or
``untyped``), a list, a map, or several of these at once (an untyped value, an
int-or-string, a deduced type).  A :class:`ListType` is ``atomic`` (replaced whole) or
``associative`` (a *set* of scalars without keys, or a *map* list whose items are named by
their ``keys``; a key field the schema defaults, such as a port's ``protocol``, counts with
its default).  A :class:`MapType` is a struct (``fields``) and/or a map of
``element_type``; it is ``atomic`` or granular (``separable``, or no relationship).
A :class:`TypeRef` names a type (``named``), holds one inline, and may override the
relationship of the list or map it resolves to (``x-kubernetes-map-type`` on a
``$ref``).

Two names are always there: ``__untyped_atomic_`` (anything, replaced whole) and
``__untyped_deduced_`` (anything; maps granular, lists atomic), which
``x-kubernetes-preserve-unknown-fields`` and unknown keys of open maps use.

The compact table form (:func:`schema_from_table`) is what ``data/builtin.json`` holds:
``{"types": {NAME: ATOM}}`` with ``ATOM = {"s": scalar, "l": LIST, "m": MAP}``,
``LIST = {"e": REF, "r": relationship, "k": [keys]}``,
``MAP = {"f": {field: [REF] or [REF, default]}, "e": REF, "r": relationship}`` and
``REF`` a type name, or ``{"n": name, "r": relationship}``, or ``{"a": ATOM}``.
"""

from __future__ import annotations

import json

from ...records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ATOMIC = "atomic"
ASSOCIATIVE = "associative"
SEPARABLE = "separable"

NUMERIC, STRING, BOOLEAN, UNTYPED = "numeric", "string", "boolean", "untyped"

UNTYPED_ATOMIC = "__untyped_atomic_"
UNTYPED_DEDUCED = "__untyped_deduced_"

_NO_DEFAULT: Any = object()


@dataclass(eq=False)
class TypeRef:
    """A reference to a type: by name, inline, with an optional relationship override."""

    named: str | None = None
    inlined: Atom | None = None
    relationship: str | None = None

    def is_empty(self) -> bool:
        """True for the empty reference (a struct's unknown fields are not allowed)."""
        return self.named is None and self.inlined is None and self.relationship is None

    def same(self, other: TypeRef) -> bool:
        """Structural equality (Go's ``TypeRef.Equals``) for the cases the walkers meet."""
        return (self.named == other.named and self.relationship == other.relationship
                and self.inlined is other.inlined)


@dataclass(eq=False)
class StructField:
    """A declared field of a struct: its type and the default the schema gives it."""

    type: TypeRef
    default: Any = _NO_DEFAULT

    def has_default(self) -> bool:
        """True when the schema gives the field a default value."""
        return self.default is not _NO_DEFAULT and self.default is not None


@dataclass(eq=False)
class ListType:
    """A list: ``atomic`` or ``associative`` (a set when ``keys`` is empty)."""

    element_type: TypeRef = field(default_factory=TypeRef)
    relationship: str = ""
    keys: tuple[str, ...] = ()


@dataclass(eq=False)
class MapType:
    """A map or struct: declared ``fields``, the type of other keys, its relationship;
    ``has_fields``: Go's ``Fields != nil`` (a struct, even with no field)."""

    fields: dict[str, StructField] = field(default_factory=dict)
    element_type: TypeRef = field(default_factory=TypeRef)
    relationship: str = ""
    has_fields: bool = False


@dataclass(eq=False)
class Atom:
    """A type: a scalar kind, a list, a map, or a mix of them (untyped values)."""

    scalar: str | None = None
    list: ListType | None = None
    map: MapType | None = None

    def is_empty(self) -> bool:
        """True for the atom with no part (an invalid type)."""
        return self.scalar is None and self.list is None and self.map is None

    def same(self, other: Atom) -> bool:
        """Go's ``Atom.Equals`` for atoms derived from one resolved type."""
        return (self.scalar == other.scalar and self.list is other.list
                and self.map is other.map)


class Schema:
    """Named types, resolved with relationship overrides (cached)."""

    def __init__(self, types: dict[str, Atom]) -> None:
        self.types = types
        self._resolved: dict[tuple, Atom | None] = {}
        # (ref, kind of value) -> (atom, errors); (ref, scalar type) -> whether it fits
        self.deduced: dict[tuple, Any] = {}

    def resolve(self, ref: TypeRef) -> Atom | None:
        """The atom a reference stands for, or ``None`` when it names no type."""
        if ref.relationship is None:
            return self._plain(ref)
        cache_key = (ref.named, id(ref.inlined), ref.relationship)
        if cache_key in self._resolved:
            return self._resolved[cache_key]
        atom = self._plain(ref)
        result: Atom | None = None
        if atom is not None:
            if atom.map is not None:
                m = atom.map
                result = Atom(map=MapType(m.fields, m.element_type, ref.relationship, m.has_fields))
            elif atom.list is not None:
                li = atom.list
                result = Atom(list=ListType(li.element_type, ref.relationship, li.keys))
        self._resolved[cache_key] = result
        return result

    def _plain(self, ref: TypeRef) -> Atom | None:
        if ref.named is not None:
            return self.types.get(ref.named)
        return ref.inlined if ref.inlined is not None else Atom()

    def with_types(self, extra: dict[str, Atom]) -> Schema:
        """A schema holding ``extra`` and, for names ``extra`` lacks, these types."""
        if isinstance(self.types, TableTypes):
            return Schema(self.types.with_atoms(extra))
        merged = dict(self.types)
        merged.update(extra)
        return Schema(merged)


class TableTypes(dict):
    """Named types of the compact table, each converted to an :class:`Atom` when first
    looked up (a run types a few kinds out of hundreds); an entry of the table is its
    atom as a dict, or still as its JSON text (a string, parsed when looked up).  Reads
    go through ``[]``, ``get`` and ``in``; :meth:`with_atoms` adds converted types
    without converting the rest."""

    def __init__(self, table: dict[str, Any], atoms: dict[str, Atom] | None = None) -> None:
        super().__init__()
        self._table = table
        self._atoms: dict[str, Atom] = dict(atoms or {})

    def __getitem__(self, name: str) -> Atom:
        atom = self._atoms.get(name)
        if atom is None:
            entry = self._table[name]
            if isinstance(entry, str):
                entry = json.loads(entry)
            atom = self._atoms[name] = atom_from_table(entry)
        return atom

    def get(self, name: str, default: Any = None) -> Any:
        if name not in self:
            return default
        return self[name]

    def __contains__(self, name: object) -> bool:
        return name in self._atoms or name in self._table

    def __iter__(self) -> Any:
        return iter(dict.fromkeys([*self._table, *self._atoms]))

    def __len__(self) -> int:
        return len(dict.fromkeys([*self._table, *self._atoms]))

    def keys(self) -> Any:
        return dict.fromkeys(self).keys()

    def items(self) -> Any:
        return [(name, self[name]) for name in self]

    def values(self) -> Any:
        return [self[name] for name in self]

    def with_atoms(self, extra: dict[str, Atom]) -> TableTypes:
        """These types with ``extra`` taking the place of any of the same name."""
        table = {k: v for k, v in self._table.items() if k not in extra}
        atoms = {k: v for k, v in self._atoms.items() if k not in extra}
        return TableTypes(table, {**atoms, **extra})


def common_types() -> dict[str, Atom]:
    """The two untyped types every converted schema carries."""
    atomic = Atom(scalar=UNTYPED)
    atomic.list = ListType(TypeRef(UNTYPED_ATOMIC), ATOMIC)
    atomic.map = MapType(element_type=TypeRef(UNTYPED_ATOMIC), relationship=ATOMIC)
    deduced = Atom(scalar=UNTYPED)
    deduced.list = ListType(TypeRef(UNTYPED_ATOMIC), ATOMIC)
    deduced.map = MapType(element_type=TypeRef(UNTYPED_DEDUCED), relationship=SEPARABLE)
    return {UNTYPED_ATOMIC: atomic, UNTYPED_DEDUCED: deduced}


def deduced_schema() -> tuple[Schema, TypeRef]:
    """The schema of a kind without one: every map granular, every list atomic."""
    return Schema(common_types()), TypeRef(UNTYPED_DEDUCED)


# ------------------------------------------------------------------ compact table


def schema_from_table(table: dict) -> Schema:
    """A schema from the compact table form (see the module docstring); each type is
    converted when first looked up."""
    return Schema(TableTypes(table["types"]))


def atom_from_table(a: dict) -> Atom:
    """One atom of the compact table."""
    atom = Atom(scalar=a.get("s"))
    if "l" in a:
        li = a["l"]
        atom.list = ListType(ref_from_table(li.get("e")), li.get("r", ""), tuple(li.get("k", ())))
    if "m" in a:
        m = a["m"]
        fields = {}
        for name, spec in m.get("f", {}).items():
            fields[name] = StructField(ref_from_table(spec[0]),
                                       spec[1] if len(spec) > 1 else _NO_DEFAULT)
        atom.map = MapType(fields, ref_from_table(m.get("e")), m.get("r", ""), "f" in m)
    return atom


def ref_from_table(r: Any) -> TypeRef:
    """One type reference of the compact table."""
    if r is None:
        return TypeRef()
    if isinstance(r, str):
        return TypeRef(named=r)
    if "a" in r:
        return TypeRef(inlined=atom_from_table(r["a"]), relationship=r.get("r"))
    return TypeRef(named=r.get("n"), relationship=r.get("r"))
