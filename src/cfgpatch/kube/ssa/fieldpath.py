"""Field paths and field sets, and their ``FieldsV1`` encoding.

A path is a tuple of :class:`PathElement`: a field name (``f:``), the key of an element of
an associative list (``k:{"name":"app"}``), the value of an element of a set (``v:"a"``)
or a position in an atomic list (``i:0``).  A :class:`FieldSet` is a tree of them: its
*members* are the paths it holds, its *children* the subtrees below a path element.

The order is structured-merge-diff's: fields first (by name), then keys, values and
indexes; :meth:`FieldSet.to_fields_v1` writes a set as the API server writes
``managedFields[].fieldsV1``, ``"."`` marking a path that is a member and has children.

>>> s = FieldSet.from_paths([(field("spec"), field("replicas"))])
>>> s.to_fields_v1()
{'f:spec': {'f:replicas': {}}}
>>> path_string((field("spec"), key([("name", "app")]), field("image")))
'.spec[name="app"].image'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .value import json_text, order_key, to_string

FIELD, KEY, VALUE, INDEX = 0, 1, 2, 3


class PathElement:
    """One step of a path: a field, an associative-list key, a set value or an index."""

    __slots__ = ("kind", "data", "sort_key", "_hash", "_text")

    def __init__(self, kind: int, data: Any, sort_key: tuple) -> None:
        self.kind = kind
        self.data = data
        self.sort_key = sort_key
        self._hash = hash(sort_key)
        self._text: str | None = None

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return isinstance(other, PathElement) and self.sort_key == other.sort_key

    def __lt__(self, other: PathElement) -> bool:
        return self.sort_key < other.sort_key

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"PathElement({self.serialize()!r})"

    def __str__(self) -> str:
        """Go's ``PathElement.String``: ``.name``, ``[k=v,...]``, ``[=v]``, ``[0]``."""
        if self.kind == FIELD:
            return "." + self.data
        if self.kind == KEY:
            return "[" + ",".join(f"{n}={to_string(v)}" for n, v in self.data) + "]"
        if self.kind == VALUE:
            return f"[={to_string(self.data)}]"
        return f"[{self.data}]"

    def serialize(self) -> str:
        """The element as a ``FieldsV1`` key (``f:name``, ``k:{...}``, ``v:...``, ``i:0``)."""
        if self._text is None:
            self._text = self._serialize()
        return self._text

    def _serialize(self) -> str:
        if self.kind == FIELD:
            return "f:" + self.data
        if self.kind == KEY:
            inner = ",".join(f"{json_text(n)}:{json_text(v)}" for n, v in self.data)
            return "k:{" + inner + "}"
        if self.kind == VALUE:
            return "v:" + json_text(self.data)
        return f"i:{self.data}"


_FIELDS: dict[str, PathElement] = {}


def field(name: str) -> PathElement:
    """The element naming a field of a map or struct."""
    pe = _FIELDS.get(name)
    if pe is None:
        pe = PathElement(FIELD, name, (FIELD, name))
        if len(_FIELDS) < 100_000:
            _FIELDS[name] = pe
    return pe


_KEYS: dict[tuple, PathElement] = {}


def key(fields: Iterable[tuple[str, Any]]) -> PathElement:
    """The element naming an associative-list item by its key fields (sorted by name)."""
    items = tuple(sorted(fields, key=lambda kv: kv[0]))
    try:  # (the type of each value is part of the cache key: 1, 1.0 and True differ)
        memo = tuple((n, type(v), v) for n, v in items)
        pe = _KEYS.get(memo)
    except TypeError:  # a list or map as a key value
        memo, pe = (), None
    if pe is None:
        pe = PathElement(KEY, items, (KEY, tuple((n, order_key(v)) for n, v in items)))
        if memo and len(_KEYS) < 100_000:
            _KEYS[memo] = pe
    return pe


def value(v: Any) -> PathElement:
    """The element naming an item of a set (a list of scalars) by its value."""
    return PathElement(VALUE, v, (VALUE, order_key(v)))


def index(i: int) -> PathElement:
    """The element naming an item of a list by its position."""
    return PathElement(INDEX, i, (INDEX, i))


Path = tuple  # a tuple of PathElement


def path_string(path: Iterable[PathElement]) -> str:
    """Go's ``Path.String``: ``.spec.template.spec.containers[name="app"].image``."""
    return "".join(str(pe) for pe in path)


class FieldsV1Error(ValueError):
    """A ``fieldsV1`` value that is not a field set."""


_PARSED: dict[str, PathElement | None] = {}
_FLOAT_INTS = json.JSONDecoder(parse_int=float)  # (json.loads(..., parse_int=) makes one a call)


def parse_element(text: str) -> PathElement | None:
    """A ``FieldsV1`` key back to its element (``None`` for an unknown kind, skipped)."""
    pe = _PARSED.get(text)
    if pe is None:
        pe = _parse_element(text)
        if len(_PARSED) < 100_000:
            _PARSED[text] = pe
    return pe


def _parse_element(text: str) -> PathElement | None:
    if len(text) < 2:
        raise FieldsV1Error("key must be 2 characters long:")
    if text[1] != ":":
        raise FieldsV1Error(f"missing colon: {text}")
    kind, rest = text[0], text[2:]
    try:
        if kind == "f":
            return field(rest)
        if kind == "v":  # (numbers are read as float64, as the server reads them)
            return value(_FLOAT_INTS.decode(rest))
        if kind == "k":
            obj = _FLOAT_INTS.decode(rest)
            if not isinstance(obj, dict):
                raise FieldsV1Error(f"invalid key: {text}")
            return key(obj.items())
        if kind == "i":
            return index(int(rest))
    except ValueError as exc:
        raise FieldsV1Error(str(exc)) from None
    return None


class FieldSet:
    """A set of paths, as a tree (structured-merge-diff's ``fieldpath.Set``)."""

    __slots__ = ("members", "children")

    def __init__(self, members: Iterable[PathElement] = (),
                 children: dict[PathElement, FieldSet] | None = None) -> None:
        self.members: set[PathElement] = set(members)
        self.children: dict[PathElement, FieldSet] = children if children is not None else {}

    @classmethod
    def from_paths(cls, paths: Iterable[Path]) -> FieldSet:
        """The set holding these paths."""
        s = cls()
        for p in paths:
            s.insert(p)
        return s

    # ---------------------------------------------------------------- building
    def insert(self, path: Path) -> None:
        """Add a path (an empty path adds nothing)."""
        if not path:
            return
        node = self
        for pe in path[:-1]:
            node = node.descend(pe)
        node.members.add(path[-1])

    def descend(self, pe: PathElement) -> FieldSet:
        """The child set below ``pe``, created if missing."""
        child = self.children.get(pe)
        if child is None:
            child = self.children[pe] = FieldSet()
        return child

    # ---------------------------------------------------------------- queries
    def empty(self) -> bool:
        """True when the set holds no path."""
        if self.members:
            return False
        return all(c.empty() for c in self.children.values())

    def has(self, path: Path) -> bool:
        """True when ``path`` is a member."""
        if not path:
            return False
        node: FieldSet | None = self
        for pe in path[:-1]:
            node = node.children.get(pe)  # type: ignore[union-attr]
            if node is None:
                return False
        return path[-1] in node.members  # type: ignore[union-attr]

    def is_subset(self, other: FieldSet) -> bool:
        """True when every path of this set is in ``other`` (``difference`` is empty)."""
        if not self.members <= other.members:
            return False
        for pe, c in self.children.items():
            theirs = other.children.get(pe)
            if not (c.empty() if theirs is None else c.is_subset(theirs)):
                return False
        return True

    def size(self) -> int:
        """The number of paths."""
        return len(self.members) + sum(c.size() for c in self.children.values())

    def with_prefix(self, pe: PathElement) -> FieldSet:
        """The subset below ``pe`` (empty when there is none)."""
        return self.children.get(pe) or FieldSet()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FieldSet):
            return NotImplemented
        return self.members == other.members and self.children == other.children

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"FieldSet({self.to_fields_v1()!r})"

    def paths(self) -> Iterator[Path]:
        """Every path, in structured-merge-diff's order (members first, then subtrees)."""
        yield from self._paths(())

    def _paths(self, prefix: Path) -> Iterator[Path]:
        for pe in sorted(self.members):
            yield prefix + (pe,)
        for pe in sorted(self.children):
            yield from self.children[pe]._paths(prefix + (pe,))

    def __str__(self) -> str:
        return "\n".join(path_string(p) for p in self.paths())

    # ---------------------------------------------------------------- algebra
    def union(self, other: FieldSet) -> FieldSet:
        """Paths in either set."""
        children = dict(self.children)
        for pe, c in other.children.items():
            mine = children.get(pe)
            children[pe] = c if mine is None else mine.union(c)
        return FieldSet(self.members | other.members, children)

    def intersection(self, other: FieldSet) -> FieldSet:
        """Paths in both sets."""
        children = {}
        for pe, c in self.children.items():
            theirs = other.children.get(pe)
            if theirs is not None:
                both = c.intersection(theirs)
                if not both.empty():
                    children[pe] = both
        return FieldSet(self.members & other.members, children)

    def difference(self, other: FieldSet) -> FieldSet:
        """Paths of this set that are not in ``other`` (subtrees kept below removed members)."""
        children = {}
        for pe, c in self.children.items():
            theirs = other.children.get(pe)
            if theirs is None:
                children[pe] = c
            else:
                rest = c.difference(theirs)
                if not rest.empty():
                    children[pe] = rest
        return FieldSet(self.members - other.members, children)

    def recursive_difference(self, other: FieldSet) -> FieldSet:
        """Like :meth:`difference`, but a member of ``other`` also removes its subtree."""
        children = {}
        for pe, c in self.children.items():
            if pe in other.members:
                continue
            theirs = other.children.get(pe)
            if theirs is None:
                children[pe] = c
            else:
                rest = c.recursive_difference(theirs)
                if not rest.empty():
                    children[pe] = rest
        return FieldSet(self.members - other.members, children)

    def leaves(self) -> FieldSet:
        """Members that have no subtree, at every level."""
        members = {pe for pe in self.members if pe not in self.children}
        return FieldSet(members, {pe: c.leaves() for pe, c in self.children.items()})

    def filter(self, keep: Callable[[PathElement], bool]) -> FieldSet:
        """The top-level members and subtrees whose element ``keep`` accepts."""
        return FieldSet({pe for pe in self.members if keep(pe)},
                        {pe: c for pe, c in self.children.items() if keep(pe)})

    # ---------------------------------------------------------------- FieldsV1
    def to_fields_v1(self) -> dict:
        """The set as the API server writes ``fieldsV1`` (keys in its order)."""
        return self._emit(False)

    def _emit(self, include_self: bool) -> dict:
        out: dict = {}
        if include_self and (self.members or self.children):
            out["."] = {}
        for pe in sorted(self.members | set(self.children)):
            child = self.children.get(pe)
            if child is None:
                out[pe.serialize()] = {}
            else:
                out[pe.serialize()] = child._emit(pe in self.members)
        return out

    def to_json(self) -> str:
        """The ``fieldsV1`` text, byte for byte as the server stores it."""
        return _json_of(self.to_fields_v1())

    @classmethod
    def from_fields_v1(cls, data: Any) -> FieldSet:
        """A ``fieldsV1`` value (a dict, or its JSON text) back to a set."""
        if isinstance(data, (str, bytes)):
            try:
                data = json.loads(data)
            except ValueError as exc:
                raise FieldsV1Error(str(exc)) from None
        if not isinstance(data, dict):
            raise FieldsV1Error("fieldsV1 is not an object")
        found, _ = _read(data)
        return found if found is not None else cls()


def _read(data: dict) -> tuple[FieldSet | None, bool]:
    children: FieldSet | None = None
    is_member = False
    for text, sub in data.items():
        if text == ".":
            is_member = True
            continue
        pe = parse_element(text)
        if pe is None:
            continue
        grand, child_member = _read(sub) if isinstance(sub, dict) else (None, True)
        if child_member:
            if children is None:
                children = FieldSet()
            children.members.add(pe)
        if grand is not None:
            if children is None:
                children = FieldSet()
            children.children[pe] = grand
    if children is None:
        is_member = True
    return children, is_member


def _json_of(fields: dict) -> str:
    parts = []
    for k, v in fields.items():
        parts.append(json_text(k) + ":" + _json_of(v))
    return "{" + ",".join(parts) + "}"
