"""kustomize, exactly: its strategic merge (``merge``), its schema (``schema``) and, from
the build engineer, ``kube build`` (``build``, ``kustomization``, ``selectors``, ...).

``strategic_merge`` and ``KustomizeShapes`` are the single-object view used by
``cfgpatch.kube.patch(as_="kustomize")``.
"""

from __future__ import annotations

from .approx import LIST_MAP_KEYS, KustomizeShapes, strategic_merge

__all__ = ["LIST_MAP_KEYS", "KustomizeShapes", "strategic_merge"]
