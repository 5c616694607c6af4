"""How the API's routes become ASGI apps that always answer JSON.

* :func:`resource` mounts a :class:`Resource`: the handlers of one path by method
  (GET also answers HEAD), every other method a JSON 405 with ``Allow``; each
  handler is guarded (:func:`guard`) so a :class:`~cfgpatch.errors.CfgPatchError`
  becomes its JSON answer (counted by :mod:`.metrics` when it is a conflict or a
  store error).
* :class:`NoApiRoute` answers every ``/v1/...`` path that names no route with a
  JSON 404 (the page mounted at ``/`` never answers for the API).
* :data:`EXCEPTION_HANDLERS`: Starlette's own 404/405 and any exception no handler
  caught, as JSON (the latter a 500 logged with its request id).
* :func:`index_page`: the built web page at ``/``, or a small page listing the API.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route

from ..errors import CfgPatchError
from . import metrics, openapi
from .problems import (
    METHOD_NOT_ALLOWED,
    NOT_FOUND,
    HttpProblem,
    internal_error_response,
    problem_response,
)
from .static import StaticSite


def guard(handler: Callable) -> Callable:
    """Turn every :class:`CfgPatchError` raised by ``handler`` into its JSON answer."""

    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except CfgPatchError as error:
            return refused(error)

    endpoint.__name__ = getattr(handler, "__name__", "endpoint")
    endpoint.__wrapped__ = handler  # type: ignore[attr-defined]
    return endpoint


def refused(error: CfgPatchError) -> Response:
    """The JSON answer to a refusal by a handler (counted when it is a conflict or a
    store error)."""
    metrics.observe_error(error.code)
    return problem_response(error)


class Resource:
    """The ASGI app of one path whose methods are ``handlers`` (GET also answers HEAD).

    Any other method is a 405 with ``Allow`` listing them.  Mounted with
    :func:`resource`, it matches every method, so a page mounted at ``/``
    never sees API paths.
    """

    def __init__(self, handlers: dict[str, Callable]) -> None:
        self.handlers = {method: guard(handler) for method, handler in handlers.items()}
        if "GET" in self.handlers:
            self.handlers["HEAD"] = self.handlers["GET"]
        self.allow = ", ".join(sorted(self.handlers))

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        request = Request(scope, receive, send)
        handler = self.handlers.get(request.method)
        if handler is None:
            problem = HttpProblem(f"{request.method} is not allowed on {request.url.path}; "
                                  f"use {self.allow}", code=METHOD_NOT_ALLOWED)
            response: Response = problem_response(problem, headers={"Allow": self.allow})
        else:
            response = await handler(request)
        await response(scope, receive, send)


class NoApiRoute:
    """The ASGI app of every ``/v1/...`` path that names no route, for any method: a
    JSON 404 (the page mounted at ``/`` must not answer for the API, with a plain-text
    404 or a 405)."""

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        path = Request(scope, receive, send).url.path
        hint = " (without the trailing '/')" if path.endswith("/") and len(path) > 4 else ""
        problem = HttpProblem(f"no API route is {path}{hint}; the routes are listed at "
                              "/v1/openapi.json", code=NOT_FOUND)
        await problem_response(problem)(scope, receive, send)


def resource(path: str, handlers: dict[str, Callable]) -> Route:
    """The route of one :class:`Resource` (every method reaches it)."""
    return Route(path, Resource(handlers))


async def _http_error(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 500)
    code = {404: NOT_FOUND, 405: METHOD_NOT_ALLOWED}.get(status, "bad request")
    headers = getattr(exc, "headers", None)
    return problem_response(HttpProblem(f"{request.method} {request.url.path}: {code}",
                                        code=code), status, headers=headers)


async def _internal_error(request: Request, exc: Exception) -> Response:
    # Logged with its request id here; Starlette re-raises after this answer, so
    # uvicorn logs the traceback too.
    return internal_error_response(exc)


def index_page(static_dir: Path | None) -> Route | Mount:
    """The web page when it is built, else a small page listing the API."""
    if static_dir is not None:  # precompressed files and cache headers: see .static
        return Mount("/", app=StaticSite(static_dir), name="web")

    async def index(request: Request) -> Response:
        return HTMLResponse(openapi.index_html())

    return Route("/", index, methods=["GET"])



#: Starlette's exception handlers of the app (every answer JSON).
EXCEPTION_HANDLERS = {HTTPException: _http_error, Exception: _internal_error}
