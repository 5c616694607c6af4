"""What the merge and the comparison walk share: two values (``lhs``, ``rhs``) walked
together against one type, dispatched on the type's atom (structured-merge-diff walks
both with one walker parameterized by its rule; here each walk subclasses this one)."""

from __future__ import annotations

from typing import Any

from .schema import Atom, ListType, MapType, TypeRef
from .typed import Errors
from .validate import scalar_errors


class TwoSidedWalk:
    """Dispatch on an atom; subclasses say what a leaf, a map and a list do."""

    def handle(self, atom: Atom | None, ref: TypeRef, st: Any) -> Errors:
        if atom is None or atom.is_empty():
            name = "named type: " + ref.named if ref.named is not None else "inlined"
            return [("", f"schema error: invalid atom: {name}")]
        if atom.map is not None:
            return self.do_map(atom.map, st)
        if atom.scalar is not None:
            lerrs = scalar_errors(atom.scalar, st.lhs, "lhs: ")
            rerrs = scalar_errors(atom.scalar, st.rhs, "rhs: ")
            if lerrs and rerrs:
                return lerrs + rerrs
            self.leaf(st)
            return []
        assert atom.list is not None
        return self.do_list(atom.list, st)

    def leaf(self, st: Any) -> None:
        raise NotImplementedError

    def do_map(self, mt: MapType, st: Any) -> Errors:
        raise NotImplementedError

    def do_list(self, lt: ListType, st: Any) -> Errors:
        raise NotImplementedError


def zip_keys(lhs: dict | None, rhs: dict | None) -> list[str]:
    """The keys of both maps: ``lhs``'s in order, then those only ``rhs`` has."""
    keys = list(lhs) if lhs else []
    if rhs:
        if lhs:
            keys.extend(k for k in rhs if k not in lhs)
        else:
            keys = list(rhs)
    return keys
