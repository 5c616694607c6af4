"""kustomize, exactly: its strategic merge (``merge``: :func:`apply_strategic`), its
schema (``schema``: :class:`KustomizeSchema`) and, from the build engineer,
``kube build`` (``build``, ``kustomization``, ``selectors``, ...).

``strategic_merge`` and ``KustomizeShapes`` (``approx``) are the old single-object
approximation, kept until nothing uses them.
"""

from __future__ import annotations

from .approx import LIST_MAP_KEYS, KustomizeShapes, strategic_merge
from .merge import apply_strategic
from .schema import KustomizeSchema

__all__ = ["LIST_MAP_KEYS", "KustomizeSchema", "KustomizeShapes", "apply_strategic",
           "strategic_merge"]
