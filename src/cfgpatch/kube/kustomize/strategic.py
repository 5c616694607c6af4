"""The one place ``kube build`` applies a strategic merge patch to a resource.

It calls the kyaml-exact merge (:func:`.merge.apply_strategic`) with kustomize's
schema the build holds at that moment (:class:`.openapi.SchemaState`: the built-in one,
or the ``openapi:`` document).  :func:`apply` returns the merged resource, or ``None``
when the patch deletes it.
"""

from __future__ import annotations

from .merge import apply_strategic
from .schema import KustomizeSchema

#: Which engine answers (reported by ``--explain`` and the docs).
ENGINE = "kyaml"


def apply(resource: dict, patch: dict, schema: KustomizeSchema | None = None) -> dict | None:
    """``resource`` with ``patch`` merged as kustomize merges it (``None``: deleted)."""
    return apply_strategic(resource, patch, schema or KustomizeSchema.builtin())
