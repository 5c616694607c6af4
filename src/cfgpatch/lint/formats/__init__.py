"""Output formats of ``cfgpatch lint``: human, json, sarif, github.

Each module has ``render(report, **options) -> str``; :data:`FORMATS` names them.
"""

from __future__ import annotations

from ..report import Report

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

FORMATS = ("human", "json", "sarif", "github")


def renderer(name: str) -> Callable[..., str]:
    """The ``render`` function of format ``name``."""
    render: Callable[..., str]
    if name == "human":
        from .human import render
    elif name == "json":
        from .jsonout import render
    elif name == "sarif":
        from .sarif import render
    elif name == "github":
        from .github import render
    else:
        raise ValueError(f"unknown format {name!r} (choose from {', '.join(FORMATS)})")
    return render


__all__ = ["FORMATS", "Report", "renderer"]
