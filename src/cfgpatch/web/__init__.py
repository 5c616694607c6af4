"""The Kubernetes patch tester page: a static site that runs cfgpatch in the browser.

The site is built from ``web/`` in the repository (``make web``) into the
``static/`` folder next to this file; :func:`static_dir` finds it.  The Python
half of the page lives here too: :mod:`cfgpatch.web.bridge` (what the page calls
inside Pyodide), :mod:`cfgpatch.web.render` and :mod:`cfgpatch.web.command`;
they use only the standard library and cfgpatch itself.
"""

from __future__ import annotations

from pathlib import Path

_STATIC = Path(__file__).resolve().parent / "static"


def static_dir() -> Path | None:
    """The built site (a folder holding ``index.html``), or ``None`` when not built."""
    if (_STATIC / "index.html").is_file() and (_STATIC / "build.json").is_file():
        return _STATIC
    return None
