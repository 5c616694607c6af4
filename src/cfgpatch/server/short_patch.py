"""The short way of a document PATCH: from the parsed request to the written answer.

A ``PATCH /v1/documents/{name}`` is what a busy server answers most, and each took
a dozen coroutines besides its handler (the front, the ``Host`` and raw path checks,
the route, the resource, the guard, Starlette's ``Response`` and the front's
``send``), about a fifth of its CPU.  :class:`ShortPatch` answers it with fewer: the
:class:`~.front.Front`'s :meth:`~.front.Front.serve` (request id, body, slot, access
line, metrics: the same code as every request's) around the handler's own steps
(:meth:`~.app.Api.patched`), its refusals answered by :func:`.routing.refused` as a
guarded handler's are, and the answer's bytes made once (:func:`version_body`).

It takes only the requests the longer way would hand to the handler: one whose
``Host`` the server refuses, or whose raw target holds what :func:`.inputs.
raw_target_error` refuses, goes the longer way (``fallback``), which answers it
as before; so does every other method of the route.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import Request

from ..errors import CfgPatchError
from .direct import DOCUMENT_PATH
from .front import ROUTE_KEY, Answer, Front
from .hosts import HostPolicy, host_header
from .inputs import raw_target_error
from .routing import refused

if TYPE_CHECKING:
    from .app import Api

_JSON = b"application/json"


def version_body(version: int, *, tagged: bool = True) -> tuple[bytes, list[tuple[bytes, bytes]]]:
    """The body ``{"version":n}`` and the raw headers of its answer (the version as
    ``ETag`` when ``tagged``), in the order Starlette's ``Response`` gives them."""
    body = b'{"version":%d}' % version
    headers = [(b"etag", b'"%d"' % version)] if tagged else []
    headers += [(b"content-length", b"%d" % len(body)), (b"content-type", _JSON)]
    return body, headers


class ShortPatch:
    """The ASGI app of the document route: a PATCH the short way (module docstring),
    anything else ``fallback`` (the front and the route's whole chain)."""

    def __init__(self, api: Api, fallback: Front, policy: HostPolicy | None,
                 route: str) -> None:
        self.api = api
        self.fallback = fallback
        self.policy = policy
        self.route = route

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["method"] != "PATCH" or not self.admits(scope):
            await self.fallback(scope, receive, send)
            return
        await self.fallback.serve(scope, receive, send, self.respond)

    def admits(self, scope: dict) -> bool:
        """Whether the request passes the ``Host`` and raw target checks (else the longer
        way refuses it, its body read first as for every request)."""
        policy = self.policy
        if policy is not None and not policy.allows(host_header(scope)):
            return False
        return raw_target_error(scope) is None

    async def respond(self, scope: dict, receive: Callable, body: bytes,
                      answer: Answer) -> None:
        match = DOCUMENT_PATH.fullmatch(scope["path"])
        assert match is not None  # the app sends only such paths here
        scope[ROUTE_KEY] = self.route
        scope["path_params"] = {"name": match.group(1)}
        try:
            version = await self.api.patched(Request(scope, receive))
        except CfgPatchError as error:
            response: Any = refused(error)
            await response(scope, receive, answer.send)
            return
        content, headers = version_body(version)
        await answer.reply(200, headers, content)
