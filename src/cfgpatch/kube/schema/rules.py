"""How a schema says a list merges, and the one lookup every explanation uses.

A :class:`ListRule` is ``keyed`` (merged by its ``keys``), ``set`` (a union of scalars)
or ``atomic`` (replaced whole).  :class:`Shapes` answers by *shape*: a path of object
keys with ``"[]"`` for "each element of a list".  Its implementations sit beside the
schema they read: :class:`~cfgpatch.kube.schema.node.NodeShapes` (the built-in table
or a ``--schema`` OpenAPI document, through the engine's ``Node``),
:class:`~cfgpatch.kube.schema.crd.CrdShapes` (a CRD's structural schema) and
kustomize's own schema (``cfgpatch.kube.kustomize``).  :func:`strategic_rule` is
the one place that turns strategic-merge tags into a rule.
"""

from __future__ import annotations

from ...records import namedtuple

KEYED = "keyed"
SET = "set"
ATOMIC = "atomic"


class ListRule(namedtuple("ListRule", "kind keys", defaults=((),))):
    """How a list field is merged: ``keyed`` (with ``keys``), ``set`` or ``atomic``.

    An immutable record (a named tuple: ``dataclasses`` is left out of the start-up)."""

    __slots__ = ()
    kind: str
    keys: tuple[str, ...]


ATOMIC_RULE = ListRule(ATOMIC)


def strategic_rule(strategy: str, merge_key: str, element: str) -> ListRule:
    """The rule of a list field tagged ``patchStrategy=strategy`` and
    ``patchMergeKey=merge_key`` whose elements are ``element`` ("struct", "scalar" or
    anything else): keyed lists of structs, sets of scalars, otherwise atomic."""
    if strategy != "merge":
        return ATOMIC_RULE
    if element == "struct" and merge_key:
        return ListRule(KEYED, (merge_key,))
    if element == "scalar":
        return ListRule(SET)
    return ATOMIC_RULE


class Shapes:
    """What a schema says about the field at a *shape*: a path of object keys with
    ``"[]"`` standing for "each element of a list".  This base knows nothing (every
    list atomic, every field of unknown status); the implementations over the built-in
    table, an OpenAPI document, a CRD or kustomize's schema override what they know.
    """

    def list_rule(self, shape: tuple[str, ...]) -> ListRule | None:
        """How the list at ``shape`` merges, or ``None`` when unknown."""
        return None

    def retains_keys(self, shape: tuple[str, ...]) -> bool:
        """Whether the map at ``shape`` is governed by ``retainKeys``."""
        return False

    def map_atomic(self, shape: tuple[str, ...]) -> bool:
        """Whether the map at ``shape`` is replaced whole (``x-kubernetes-map-type: atomic``)."""
        return False

    def field_known(self, shape: tuple[str, ...]) -> bool | None:
        """Whether the last key of ``shape`` is a field of its parent (None: cannot tell)."""
        return None


NO_SHAPES = Shapes()

