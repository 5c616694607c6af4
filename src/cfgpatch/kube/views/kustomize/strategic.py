"""The one place ``kube build`` applies a strategic merge patch to a resource.

Until the kyaml-exact merge (``merge.apply_strategic``) lands, this adapter calls the
single-object approximation of :mod:`.approx`; switching is this module only.
:func:`apply` returns the merged resource, or ``None`` when the patch deletes it.
"""

from __future__ import annotations

from typing import Any

from ....errors import KUSTOMIZE_DELETES, KubeError
from .approx import KustomizeShapes, strategic_merge

#: Which engine answers (reported by ``--explain`` and the docs).
ENGINE = "approx"


def _shapes(resource: dict) -> Any:
    from ...schema.node import builtin_schema, node_shapes

    api_version = resource.get("apiVersion")
    kind = resource.get("kind")
    node = builtin_schema().for_kind(api_version if isinstance(api_version, str) else "",
                                     kind if isinstance(kind, str) else "")
    return KustomizeShapes(node, node_shapes(node)) if node is not None else None


def apply(resource: dict, patch: dict) -> dict | None:
    """``resource`` with ``patch`` merged as kustomize merges it (``None``: deleted)."""
    try:
        return strategic_merge(resource, patch, _shapes(resource))
    except KubeError as err:
        if err.code == KUSTOMIZE_DELETES:
            return None
        raise
