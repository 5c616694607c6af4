"""kustomize, exactly: its strategic merge (``merge``: :func:`apply_strategic`), its
schema (``schema``: :class:`KustomizeSchema`) and, from the build engineer,
``kube build`` (``build``, ``kustomization``, ``selectors``, ...).

``cfgpatch.kube.patch(as_="kustomize")`` (the single-object view) and ``kube build``
run the same :func:`apply_strategic`.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .merge import apply_strategic
    from .schema import KustomizeSchema

__all__ = ["KustomizeSchema", "apply_strategic"]


def __getattr__(name: str) -> object:
    """The two names, imported at their first use: importing a module of this package
    (``kube build``, ``lint``) does not load the strategic merge."""
    if name == "apply_strategic":
        from .merge import apply_strategic

        return apply_strategic
    if name == "KustomizeSchema":
        from .schema import KustomizeSchema

        return KustomizeSchema
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
