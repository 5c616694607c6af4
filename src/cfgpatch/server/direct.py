"""The document route's requests, straight to their layers (a shorter way in).

Every GET, PUT and PATCH of a document (``/v1/documents/{name}``) is most of what a
server answers.  Through Starlette each passes ten coroutines (Starlette's error
middleware, the front, the Host and raw path checks, Starlette's exception
middleware, its router, the route) before its resource; :class:`App` hands those
requests to a chain of the same layers of ours (:class:`~.front.Front`,
:class:`~.hosts.HostGuard`, :class:`~.inputs.RawPathGuard`) ending in
:class:`Routed`, which gives the scope what the router would (route, endpoint,
path parameters) and calls the route's resource.  Starlette's layers do nothing
else for these requests: the front answers whatever escapes a handler.  Every
other request takes Starlette's whole stack, as before.  A PATCH of a document
goes shorter still (:mod:`.short_patch`, which hands everything else to the chain).
"""

from __future__ import annotations

import re
from typing import Any

from starlette.applications import Starlette
from starlette.routing import Route

#: The paths of the document route (Starlette's pattern for ``/v1/documents/{name}``).
DOCUMENT_PATH = re.compile(r"/v1/documents/([^/]+)")


class App(Starlette):
    """The app: Starlette, but the requests of the document route (every GET, PUT and
    PATCH of a document) go straight to that route's chain of the same layers (front,
    Host check, raw path check, the route's resource), without the coroutines of
    Starlette's error and exception middleware and router in between, whose only work
    for that route is to pass the request on (the front already answers what escapes
    the handlers).  Everything else takes the whole stack."""

    #: The document route's chain, set by :func:`create_app`.
    direct: Any = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if (self.direct is not None and scope["type"] == "http" and not scope.get("root_path")
                and DOCUMENT_PATH.fullmatch(scope["path"])):
            scope["app"] = self
            await self.direct(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


class Routed:
    """The last layer of the direct chain: the scope the router would give ``route``."""

    def __init__(self, route: Route, router: Any) -> None:
        self.route = route
        self.router = router

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        match = DOCUMENT_PATH.fullmatch(scope["path"])
        assert match is not None  # App sends only such paths here
        scope.setdefault("router", self.router)
        scope["route"], scope["endpoint"] = self.route, self.route.endpoint
        scope["path_params"] = {"name": match.group(1)}
        await self.route.app(scope, receive, send)
