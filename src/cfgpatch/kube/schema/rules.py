"""How a schema says a list merges, and the lookup every explanation uses.

A :class:`ListRule` is ``keyed`` (merged by its ``keys``), ``set`` (a union of scalars)
or ``atomic`` (replaced whole).  :class:`Shapes` answers by *shape*: a path of object
keys with ``"[]"`` for "each element of a list".
"""

from __future__ import annotations

from dataclasses import dataclass

KEYED = "keyed"
SET = "set"
ATOMIC = "atomic"


@dataclass(frozen=True)
class ListRule:
    """How a list field is merged: ``keyed`` (with ``keys``), ``set`` or ``atomic``."""

    kind: str
    keys: tuple[str, ...] = ()


ATOMIC_RULE = ListRule(ATOMIC)


class Shapes:
    """What a schema says about the field at a *shape*: a path of object keys with
    ``"[]"`` standing for "each element of a list".  This base knows nothing (every
    list atomic, every field of unknown status); adapters over the built-in table,
    an OpenAPI document or a CRD override the three methods.
    """

    def list_rule(self, shape: tuple[str, ...]) -> ListRule | None:
        """How the list at ``shape`` merges, or ``None`` when unknown."""
        return None

    def retains_keys(self, shape: tuple[str, ...]) -> bool:
        """Whether the map at ``shape`` is governed by ``retainKeys``."""
        return False

    def field_known(self, shape: tuple[str, ...]) -> bool | None:
        """Whether the last key of ``shape`` is a field of its parent (None: cannot tell)."""
        return None


NO_SHAPES = Shapes()

