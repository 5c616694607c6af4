"""The resources of a build in order, as kustomize's ResMap holds them.

Order is the order resources were added (files in the order ``resources:`` lists them,
documents in file order); ids are unique by kustomize's ``ResId.Equals`` (group,
version, kind, name, and the namespace with "" read as ``default``).  What it
refuses is a :class:`~cfgpatch.kube.problems.Kustomize` record.
"""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR
from ..problems import Kustomize, ProblemError
from .resources import ResId, Resource
from .transformer_config import TransformerConfig

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from .selectors import Selector


def same_id(a: ResId, b: ResId) -> bool:
    """kustomize's ResId.Equals."""
    return a.gvk == b.gvk and a.name == b.name and a.same_namespace(b)


def id_key(rid: ResId) -> tuple:
    """What :func:`same_id` compares, as one hashable value."""
    return rid.gvk, rid.name, rid.effective_namespace()


class ResMap:
    """An ordered list of :class:`Resource` with kustomize's id rules."""

    def __init__(self, resources: list[Resource] | None = None) -> None:
        self.resources: list[Resource] = list(resources or [])
        #: the transformer configuration of this kustomization and the ones below it
        #: (empty until :meth:`~.build._Target.accumulate` merges the defaults in)
        self.config = TransformerConfig()
        #: the ``vars`` of this kustomization and the ones below it, by name
        self.vars: dict[str, Any] = {}

    def __iter__(self) -> Iterator[Resource]:
        return iter(list(self.resources))

    def __len__(self) -> int:
        return len(self.resources)

    def append(self, resource: Resource) -> None:
        self.append_all([resource])

    def append_all(self, resources: list[Resource]) -> None:
        """Add ``resources`` in order; an id already present is kustomize's error.

        (Ids are computed when adding: transformers rename resources in place.)"""
        if not resources:
            return
        taken = {id_key(r.cur_id()) for r in self.resources}
        for resource in resources:
            cur = resource.cur_id()
            key = id_key(cur)
            if key in taken:
                raise ProblemError(Kustomize("already-registered", id=str(cur)),
                                   code=KUSTOMIZE_ERROR)
            taken.add(key)
            self.resources.append(resource)

    def by_any_id(self, wanted: ResId) -> list[Resource]:
        """Resources whose current or any previous id equals ``wanted``."""
        return [r for r in self.resources
                if any(same_id(i, wanted) for i in [*r.prev_ids(), r.cur_id()])]

    def get_by_id(self, wanted: ResId) -> Resource:
        """The one resource with ``wanted`` as one of its ids (kustomize's GetById)."""
        found = self.by_any_id(wanted)
        if len(found) == 1:
            return found[0]
        raise ProblemError(Kustomize("no-unique-target", id=str(wanted), detail=(
            len(found), wanted.gvk.kind, wanted.name, wanted.namespace)), code=KUSTOMIZE_ERROR)

    def select(self, selector: Selector) -> list[Resource]:
        from .selectors import select  # (only builds with targets select)

        return select(self.resources, selector)

    def remove(self, resource: Resource) -> None:
        self.resources = [r for r in self.resources if r is not resource]

    def replace(self, old: Resource, new: Resource) -> None:
        self.resources = [new if r is old else r for r in self.resources]
