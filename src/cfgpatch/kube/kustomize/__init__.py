"""kustomize, exactly: its strategic merge (``merge``: :func:`apply_strategic`), its
schema (``schema``: :class:`KustomizeSchema`) and, from the build engineer,
``kube build`` (``build``, ``kustomization``, ``selectors``, ...).

``cfgpatch.kube.patch(as_="kustomize")`` (the single-object view) and ``kube build``
run the same :func:`apply_strategic`.
"""

from __future__ import annotations

from .merge import apply_strategic
from .schema import KustomizeSchema

__all__ = ["KustomizeSchema", "apply_strategic"]
