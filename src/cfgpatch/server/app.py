"""The ASGI application: the REST API of the config service over a :class:`Service`.

Routes (all JSON; errors as described in :mod:`.problems`):

* ``GET /v1/documents``: names the caller may read;
* ``PUT /v1/documents/{name}``: create or replace; answers ``{"version": n}``;
* ``GET /v1/documents/{name}[?version=n]``: canonical text, version as ``ETag``;
* ``GET /v1/documents/{name}/versions``: the history with authors and messages;
* ``PATCH /v1/documents/{name}``: JSON Patch or Merge Patch by content type;
  ``Cfgpatch-Rebase-From: n`` rebases a patch written against version n;
* ``POST /v1/documents/{name}/rebase?base=n``: the rebased patch, nothing stored;
* ``GET /v1/diff?from=a[@v]&to=b[@w][&stats=1]``: patch (or stats) from a to b;
* ``GET /v1/openapi.json``, ``GET /healthz``, ``GET /metrics`` (Prometheus).

``GET /v1/documents/{name}?wait=s`` with ``If-None-Match`` is a long poll
(:mod:`.watch`).  Every request passes :mod:`.front` first (request id, body
deadline, concurrency slots, access log, metrics); :mod:`.routing` turns each
path's handlers into an ASGI app answering JSON (405s, 404s and errors included);
the history routes (pages, deletion, restore, retention) are :mod:`.history`'s.

``If-Match`` and ``If-None-Match`` work as RFC 9110 says on every document
route: the handlers parse them (:mod:`.inputs`) and the service decides them
(:mod:`cfgpatch.preconditions`), like every other domain rule: a handler
parses, calls the service and renders.

The service and stores are synchronous; each call runs in a pool of threads so
the event loop keeps serving other clients, within ``timeouts.request`` seconds
(``timeouts.health`` for ``/healthz``): past it the client gets a 503 ``store
error`` while the call finishes on its own (a write may still commit, as when a
connection is lost; ``If-Match`` makes the retry safe).
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from functools import partial
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import INVALID_ARGUMENTS, InvalidInput, StoreError
from ..service import Service, Written
from . import history, metrics, openapi
from .auth import EVERYONE, AuthError, Principal, TokenTable
from .direct import App, Routed
from .front import ROUTE_KEY, SLOT_KEY, Front, Slots
from .hosts import HostGuard, host_policy
from .inputs import (
    JSON_PATCH,
    JSON_TYPE,
    MERGE_PATCH,
    RawPathGuard,
    check_message,
    check_name,
    etag,
    parse_flag,
    parse_side,
    parse_version,
    parse_wait,
    preconditions,
    query,
    rebase_from,
    require_type,
)
from .limits import Limits, Timeouts
from .loop_writes import write_on_loop
from .problems import FORBIDDEN
from .routing import EXCEPTION_HANDLERS, NoApiRoute, index_page, resource
from .short_patch import ShortPatch, version_body
from .watch import Watcher, unless_gone

#: Service calls answered at once by one worker process (anyio's default, which the
#: server used before); more wait for a thread.
SERVICE_THREADS = 40
#: The metrics route label of long polls (kept apart from ordinary reads).
LONG_POLL_ROUTE = "/v1/documents/{name}?wait"
def version_answer(version: int, *, status: int = 200, tagged: bool = True) -> Response:
    """``{"version":n}``, with the version as ``ETag`` when ``tagged``: the bytes a
    ``JSONResponse`` would send, without the JSON encoder (every commit answers it)."""
    response = Response(status_code=status)
    response.body, response.raw_headers = version_body(version, tagged=tagged)
    return response


class Api:
    """The request handlers, bound to one service, token table and set of limits."""

    def __init__(self, service: Service, tokens: TokenTable | None, limits: Limits,
                 timeouts: Timeouts) -> None:
        self.service = service
        self.tokens = tokens
        self.limits = limits
        self.timeouts = timeouts
        #: The threads the service's calls run on, made on the first call (a plain
        #: executor: anyio's ``to_thread`` costs about 40 us more per call).
        self._threads: ThreadPoolExecutor | None = None
        self.watcher = Watcher(lambda name: self.call(service.store.head_version, name),
                               timeouts.poll_interval)

    async def call(self, func: Callable, *args: Any, timeout: float | None = None,
                   **kwargs: Any) -> Any:
        """``func(*args, **kwargs)`` in the thread pool, within ``timeout`` seconds
        (``timeouts.request`` by default; past it, a 503 ``store error``)."""
        seconds = timeout or self.timeouts.request
        # The call sees the request's context variables (its request id), in a copy.
        work = partial(contextvars.copy_context().run, func, *args, **kwargs)
        try:
            async with asyncio.timeout(seconds):  # past it the thread is left to finish
                return await asyncio.get_running_loop().run_in_executor(self.threads(), work)
        except TimeoutError:
            raise StoreError(f"{getattr(func, '__name__', 'the call')} did not finish within "
                             f"{seconds:g} s (is the store reachable?)") from None

    def threads(self) -> ThreadPoolExecutor:
        if self._threads is None:
            self._threads = ThreadPoolExecutor(SERVICE_THREADS, thread_name_prefix="cfgpatch")
        return self._threads

    def stop_threads(self) -> None:
        """Let the threads end once their calls are done (a later call makes new ones)."""
        if self._threads is not None:
            self._threads.shutdown(wait=False)
            self._threads = None

    def committed(self, name: str, written: Written) -> None:
        """Count a write that committed a version and wake the long polls of ``name``
        (a no-op answered with the head is neither)."""
        if written.changed:
            metrics.COMMITS.inc()
            self.watcher.committed(name)

    # -- shared steps -----------------------------------------------------------
    def principal(self, request: Request) -> Principal:
        if self.tokens is None:
            return EVERYONE
        return self.tokens.authenticate(request.headers.get("authorization"))

    def document(self, request: Request, *, write: bool) -> tuple[Principal, str]:
        """The caller and the checked document name of a ``/v1/documents/{name}`` request."""
        who = self.principal(request)
        name = check_name(request.path_params["name"])
        self.require(who, name, write=write)
        return who, name

    @staticmethod
    def require(who: Principal, name: str, *, write: bool) -> None:
        allowed = who.may_write(name) if write else who.may_read(name)
        if not allowed:
            verb = "write" if write else "read"
            raise AuthError(f"token {who.name!r} may not {verb} {name!r}", code=FORBIDDEN)

    @staticmethod
    def force(request: Request) -> bool:
        """``?force=1``: commit even a write that changes nothing (by default such a
        write stores nothing and answers the head)."""
        return parse_flag(query(request, "force"), "force")

    def message(self, request: Request) -> str | None:
        return check_message(query(request, "message"), self.limits.max_message)

    # -- handlers ---------------------------------------------------------------
    async def list_documents(self, request: Request) -> Response:
        who = self.principal(request)
        names = await self.call(self.service.names)
        return JSONResponse({"documents": [n for n in names if who.may_read(n)]})

    async def put_document(self, request: Request) -> Response:
        who, name = self.document(request, write=True)
        require_type(request, (JSON_TYPE,))
        message, when, force = self.message(request), preconditions(request), self.force(request)
        data = await self.limits.read_body(request)
        version, stored = await self.call(self.service.put_text, name, data, author=who.name,
                                          message=message, when=when, force=force)
        self.committed(name, version)
        # 201 when the PUT made the document (a new name, or a deleted one written
        # again); a PUT that changes nothing answers the head with 200.
        status = 201 if version.created else 200
        # RFC 9110 section 9.3.4: a validator only if the body was stored unchanged (the
        # service keeps canonical text); the version is in the answer's body either way.
        unchanged = stored.encode("utf-8") == data
        return version_answer(version, status=status, tagged=unchanged)

    async def get_document(self, request: Request) -> Response:
        _, name = self.document(request, write=False)
        raw = query(request, "version")
        version = None if raw is None else parse_version(raw, "version")
        when = preconditions(request)
        wait = parse_wait(query(request, "wait"), self.timeouts.max_wait)
        if wait and version is None and when.if_none_match is not None:
            await self.follow(request, name, when.if_none_match.matches_weakly, wait)
        number, text = await self.call(self.service.read, name, version, when)
        if text is None:
            return Response(status_code=304, headers=etag(number))
        return Response(text, media_type=JSON_TYPE, headers=etag(number))

    async def follow(self, request: Request, name: str, still: Callable[[int | None], bool],
                     wait: int) -> None:
        """A long poll: wait (without a concurrency slot) while ``still(head)``, and not
        after the client has hung up."""
        request.scope[ROUTE_KEY] = LONG_POLL_ROUTE
        held = request.scope.get(SLOT_KEY)
        if held is not None:
            held.release()
        metrics.LONG_POLLS.inc()
        try:
            await unless_gone(
                self.watcher.wait(name, lambda head: head is not None and still(head), wait),
                request.receive)
        finally:
            metrics.LONG_POLLS.dec()

    async def patch_document(self, request: Request) -> Response:
        return version_answer(await self.patched(request))

    async def patched(self, request: Request) -> Written:
        """The PATCH of a document: the version it answers."""
        who, name = self.document(request, write=True)
        kind = require_type(request, (JSON_PATCH, MERGE_PATCH))
        message, when, base = self.message(request), preconditions(request), rebase_from(request)
        force = self.force(request)
        data: Any = await self.limits.read_body(request)  # bytes: read as UTF-8 JSON text
        options: dict[str, Any] = {"author": who.name, "message": message, "when": when,
                                   "force": force}
        if kind == JSON_PATCH:
            options["tests_on_head"] = True
        service = self.service
        method, steps = ((service.apply, service.applying) if kind == JSON_PATCH
                         else (service.apply_merge_patch, service.merging))

        async def on_thread(guess: bool) -> Written:
            unguessed = getattr(method, "__wrapped__", None)  # guessing's own method
            call = method if guess or unguessed is None else partial(unguessed, service)
            return await self.call(call, name, data, base, **options)

        if base is None:  # a rebase reads its base version: always on a thread
            version = await write_on_loop(service, name, partial(steps, name, data, **options),
                                          on_thread, self.call, self.timeouts.request,
                                          len(data))
        else:
            version = await on_thread(True)
        self.committed(name, version)
        return version

    async def rebase(self, request: Request) -> Response:
        _, name = self.document(request, write=False)
        require_type(request, (JSON_PATCH, JSON_TYPE))
        raw = query(request, "base")
        if raw is None:
            raise InvalidInput("rebase needs ?base=<version the patch was written against>",
                               code=INVALID_ARGUMENTS)
        base = parse_version(raw, "base")
        when = preconditions(request)
        data = await self.limits.read_body(request)
        head, result = await self.call(self.service.rebase, name, data, base,
                                       tests_on_head=True, when=when)
        # The ETag names the head the patch was rebased onto: send the patch with
        # If-Match: that tag and it applies only if nobody wrote in between.
        return Response(result, media_type=JSON_PATCH, headers=etag(head))

    async def diff(self, request: Request) -> Response:
        who = self.principal(request)
        sides = []
        for key in ("from", "to"):
            name, version = parse_side(query(request, key), key)
            self.require(who, name, write=False)
            sides.append((name, version))
        (name_a, version_a), (name_b, version_b) = sides
        stats = query(request, "stats")
        stats = "0" if stats is None else stats
        if stats not in ("0", "1"):
            raise InvalidInput(f"stats must be 0 or 1, not {stats[:40]!r}", code=INVALID_ARGUMENTS)
        if stats == "1":
            result = await self.call(self.service.diff_stats, name_a, name_b, version_a,
                                     version_b)
            return JSONResponse(result)
        text = await self.call(self.service.diff, name_a, name_b, version_a, version_b)
        return Response(text, media_type=JSON_PATCH)

    async def health(self, request: Request) -> Response:
        """Up, and the store answers within ``timeouts.health`` seconds (else a 503,
        for load balancers and probes)."""
        await self.call(self.service.store.head_version, "healthz",
                        timeout=self.timeouts.health)
        return JSONResponse({"ok": True, "store": type(self.service.store).__name__})

    async def metrics(self, request: Request) -> Response:
        """The Prometheus exposition text (every worker's, summed)."""
        metrics.observe_cache(getattr(self.service, "cache_bytes", None))
        return Response(metrics.render(), media_type=metrics.CONTENT_TYPE)

    async def openapi_document(self, request: Request) -> Response:
        return JSONResponse(openapi.document())


def create_app(
    service: Service,
    *,
    tokens: TokenTable | None = None,
    limits: Limits | None = None,
    static_dir: Path | None = None,
    close_store: bool = True,
    allowed_hosts: Iterable[str] | None = None,
    timeouts: Timeouts | None = None,
    limit_concurrency: int | None = None,
    access_log: bool = True,
) -> Starlette:
    """The ASGI app serving ``service`` (closing its store on shutdown if ``close_store``).

    ``allowed_hosts``: ``Host`` names answered besides the loopback names (see
    :mod:`.hosts`; without tokens only loopback names are answered by default).
    ``limit_concurrency``: requests answered at once (beyond: 503; see :mod:`.front`).
    """
    limits = limits or Limits()
    timeouts = timeouts or Timeouts()
    api = Api(service, tokens, limits, timeouts)
    doc = "/v1/documents/{name}"
    hist = history.History(api)  # history pages, deletion, restore, retention
    documents = resource(doc, {"GET": api.get_document, "PUT": api.put_document,
                               "PATCH": api.patch_document, "DELETE": hist.delete_document})
    routes = [
        resource("/healthz", {"GET": api.health}),
        resource("/metrics", {"GET": api.metrics}),
        resource("/v1/openapi.json", {"GET": api.openapi_document}),
        resource("/v1/documents", {"GET": api.list_documents}),
        documents,
        resource(doc + "/versions", {"GET": hist.list_versions}),
        *(resource(path, methods) for path, methods in history.routes(hist, doc).items()),
        resource(doc + "/rebase", {"POST": api.rebase}),
        resource("/v1/diff", {"GET": api.diff}),
        Route("/v1", NoApiRoute()),
        Route("/v1/{rest:path}", NoApiRoute()),
        index_page(static_dir),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette):
        sweeper = None
        if timeouts.retention_sweep is not None:
            sweeper = asyncio.create_task(history.sweep_every(service,
                                                              timeouts.retention_sweep))
        yield
        if sweeper is not None:
            sweeper.cancel()
            with suppress(asyncio.CancelledError):
                await sweeper
        api.stop_threads()
        if close_store:
            service.store.close()

    app = App(
        routes=routes,
        exception_handlers=EXCEPTION_HANDLERS,
        lifespan=lifespan,
    )
    app.state.service = service
    app.add_middleware(RawPathGuard)
    direct: Any = RawPathGuard(Routed(documents, app.router))
    policy = host_policy(allowed_hosts, tokens=tokens is not None)
    if policy is not None:
        app.add_middleware(HostGuard, policy=policy)
        direct = HostGuard(direct, policy=policy)
    front: dict[str, Any] = {"limits": limits, "timeouts": timeouts,
                             "slots": Slots(limit_concurrency), "access_log": access_log,
                             "cache_bytes": getattr(service, "cache_bytes", None)}
    app.add_middleware(Front, **front)
    # The same slots for every way in: one count.  A document PATCH takes the short way.
    app.direct = ShortPatch(api, Front(direct, **front), policy, documents.path)
    return app
