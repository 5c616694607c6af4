"""The config service over HTTP (Starlette on uvicorn).

:func:`~.app.create_app` builds the ASGI app over a :class:`~cfgpatch.service.Service`;
``cfgpatch serve`` (:mod:`cfgpatch.cli.serve`) runs it.  This package is not part
of the standard-library-only core.
"""

from __future__ import annotations

from .app import create_app
from .auth import TokenTable, load_tokens, parse_tokens
from .limits import Limits, service_limits

__all__ = ["Limits", "TokenTable", "create_app", "load_tokens", "parse_tokens", "service_limits"]
