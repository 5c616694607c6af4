"""The ASGI application: the REST API of the config service over a :class:`Service`.

Routes (all JSON; errors as described in :mod:`.problems`):

* ``GET /v1/documents``: names the caller may read;
* ``PUT /v1/documents/{name}``: create or replace (``If-Match: "n"`` makes it
  conditional, ``If-None-Match: *`` create-only); answers ``{"version": n}``;
* ``GET /v1/documents/{name}[?version=n]``: canonical text, version as ``ETag``;
* ``GET /v1/documents/{name}/versions``: the history with authors and messages;
* ``PATCH /v1/documents/{name}``: JSON Patch or Merge Patch by content type;
  ``If-Match`` with an older version rebases a JSON Patch onto the head;
* ``POST /v1/documents/{name}/rebase?base=n``: the rebased patch, nothing stored;
* ``GET /v1/diff?from=a[@v]&to=b[@w][&stats=1]``: patch (or stats) from a to b;
* ``GET /v1/openapi.json``, ``GET /healthz``.

The service and stores are synchronous; each call runs in the thread pool so
the event loop keeps serving other clients.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route

from ..errors import (
    INTERNAL_ERROR,
    INVALID_ARGUMENTS,
    INVALID_PATCH,
    UNKNOWN_VERSION,
    CfgPatchError,
    InvalidInput,
)
from ..jsonvalue import JSON, canonical, parse
from ..mergepatch import apply_merge_patch
from ..service import Service
from ..store.base import ConcurrentUpdate
from . import openapi
from .auth import EVERYONE, AuthError, Principal, TokenTable
from .inputs import (
    JSON_PATCH,
    JSON_TYPE,
    MERGE_PATCH,
    RawPathGuard,
    check_message,
    check_name,
    entity_tags,
    etag,
    parse_if_match,
    parse_version,
    require_type,
)
from .limits import Limits
from .problems import (
    FORBIDDEN,
    METHOD_NOT_ALLOWED,
    NOT_FOUND,
    PRECONDITION_FAILED,
    HttpProblem,
    problem_response,
)
from .static import StaticSite


class Api:
    """The request handlers, bound to one service, token table and set of limits."""

    def __init__(self, service: Service, tokens: TokenTable | None, limits: Limits) -> None:
        self.service = service
        self.tokens = tokens
        self.limits = limits

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

    def message(self, request: Request) -> str | None:
        return check_message(request.query_params.get("message"), self.limits.max_message)

    async def json_body(self, request: Request) -> tuple[JSON, str]:
        """The parsed body and its text, within the size and depth limits."""
        data = await self.limits.read_body(request)
        value = parse(data)
        self.limits.check_depth(value)
        return value, data.decode("utf-8")

    def append_if_head(self, name: str, head: int | None, value: JSON, who: Principal,
                       message: str | None) -> int:
        """Store ``value`` as ``head + 1`` only if ``head`` is still the head (else 412)."""
        try:
            return self.service.store.append(name, canonical(value), expected_head=head,
                                             value=value, author=who.name, message=message)
        except ConcurrentUpdate:
            now = self.service.store.head_version(name)
            raise HttpProblem(
                f"{name!r} is at version {now}, not {head}" if now and head
                else f"{name!r} already exists" if now else f"{name!r} does not exist",
                code=PRECONDITION_FAILED,
            ) from None

    # -- handlers ---------------------------------------------------------------
    async def list_documents(self, request: Request) -> Response:
        who = self.principal(request)
        names = await run_in_threadpool(self.service.names)
        return JSONResponse({"documents": [n for n in names if who.may_read(n)]})

    async def put_document(self, request: Request) -> Response:
        who, name = self.document(request, write=True)
        require_type(request, (JSON_TYPE,))
        message = self.message(request)
        if_match = parse_if_match(request.headers.get("if-match"))
        create_only = request.headers.get("if-none-match", "").strip() == "*"
        value, _ = await self.json_body(request)
        if if_match is not None or create_only:
            version = await run_in_threadpool(
                self.append_if_head, name, None if create_only else if_match, value, who, message
            )
        else:
            version = await run_in_threadpool(
                lambda: self.service.put_value(name, value, author=who.name, message=message)
            )
        status = 201 if version == 1 else 200
        return JSONResponse({"version": version}, status_code=status, headers=etag(version))

    async def get_document(self, request: Request) -> Response:
        _, name = self.document(request, write=False)
        raw = request.query_params.get("version")
        version = None if raw is None else parse_version(raw, "version")

        def read() -> tuple[str, int]:
            number = self.service.head(name) if version is None else version
            return self.service.get(name, number), number

        text, number = await run_in_threadpool(read)
        if f'"{number}"' in entity_tags(request.headers.get("if-none-match")):
            return Response(status_code=304, headers=etag(number))
        return Response(text, media_type=JSON_TYPE, headers=etag(number))

    async def list_versions(self, request: Request) -> Response:
        _, name = self.document(request, write=False)
        infos = await run_in_threadpool(self.service.versions, name)
        body = {"name": name, "head": infos[-1].version, "versions": [i.to_dict() for i in infos]}
        return JSONResponse(body, headers=etag(infos[-1].version))

    async def patch_document(self, request: Request) -> Response:
        who, name = self.document(request, write=True)
        kind = require_type(request, (JSON_PATCH, MERGE_PATCH))
        message = self.message(request)
        base = parse_if_match(request.headers.get("if-match"))
        patch, text = await self.json_body(request)
        if kind == JSON_PATCH:
            self.limits.check_patch(patch)
            version = await run_in_threadpool(self._apply_json_patch, name, text, base, who,
                                              message)
        else:
            version = await run_in_threadpool(self._apply_merge_patch, name, patch, base, who,
                                              message)
        return JSONResponse({"version": version}, headers=etag(version))

    def _check_base(self, name: str, base: int) -> None:
        head = self.service.head(name)
        if not 1 <= base <= head:
            raise HttpProblem(f"If-Match names version {base}, but {name!r} has 1..{head}",
                              code=PRECONDITION_FAILED)

    def _apply_json_patch(self, name: str, text: str, base: int | None, who: Principal,
                          message: str | None) -> int:
        if base is not None:
            self._check_base(name, base)
        return self.service.apply(name, text, base, author=who.name, message=message)

    def _apply_merge_patch(self, name: str, patch: JSON, base: int | None, who: Principal,
                           message: str | None) -> int:
        if base is None:
            return self.service.apply_merge_patch(name, canonical(patch), author=who.name,
                                                  message=message)
        self._check_base(name, base)
        merged = apply_merge_patch(self.service.get_value(name, base), patch)
        return self.append_if_head(name, base, merged, who, message)

    async def rebase(self, request: Request) -> Response:
        _, name = self.document(request, write=False)
        require_type(request, (JSON_PATCH, JSON_TYPE))
        raw = request.query_params.get("base")
        if raw is None:
            raise InvalidInput("rebase needs ?base=<version the patch was written against>",
                               code=INVALID_ARGUMENTS)
        base = parse_version(raw, "base")
        patch, text = await self.json_body(request)
        if type(patch) is not list:
            raise InvalidInput("a JSON Patch must be an array of operations", code=INVALID_PATCH)
        self.limits.check_patch(patch)
        result = await run_in_threadpool(self.service.rebase, name, text, base)
        return Response(result, media_type=JSON_PATCH)

    async def diff(self, request: Request) -> Response:
        who = self.principal(request)
        sides = []
        for key in ("from", "to"):
            raw = request.query_params.get(key)
            if not raw:
                raise InvalidInput(f"diff needs ?{key}=<name>[@<version>]", code=INVALID_ARGUMENTS)
            name, at, version = raw.partition("@")
            check_name(name)
            self.require(who, name, write=False)
            sides.append((name, parse_version(version, f"{key} version") if at else None))
        (name_a, version_a), (name_b, version_b) = sides
        stats = request.query_params.get("stats", "0") not in ("0", "", "false")
        if stats:
            result = await run_in_threadpool(self.service.diff_stats, name_a, name_b,
                                             version_a, version_b)
            return JSONResponse(result)
        text = await run_in_threadpool(self.service.diff, name_a, name_b, version_a, version_b)
        return Response(text, media_type=JSON_PATCH)

    async def health(self, request: Request) -> Response:
        """Up, and the store answers (a store error makes it a 503, for load balancers)."""
        await run_in_threadpool(self.service.store.head_version, "healthz")
        return JSONResponse({"ok": True, "store": type(self.service.store).__name__})

    async def openapi_document(self, request: Request) -> Response:
        return JSONResponse(openapi.document())


def _guard(handler: Callable) -> Callable:
    """Turn every :class:`CfgPatchError` raised by ``handler`` into its JSON answer."""

    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except CfgPatchError as error:
            if error.code == UNKNOWN_VERSION and request.method == "PATCH":
                return problem_response(error, 412)
            return problem_response(error)

    endpoint.__name__ = getattr(handler, "__name__", "endpoint")
    return endpoint


async def _http_error(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 500)
    code = {404: NOT_FOUND, 405: METHOD_NOT_ALLOWED}.get(status, "bad request")
    return problem_response(HttpProblem(f"{request.method} {request.url.path}: {code}",
                                        code=code), status)


async def _internal_error(request: Request, exc: Exception) -> Response:
    # Starlette re-raises after this answer, so uvicorn logs the traceback.
    return problem_response(HttpProblem("internal server error (logged on the server)",
                                        code=INTERNAL_ERROR), 500)


def index_page(static_dir: Path | None) -> Route | Mount:
    """The web page when it is built, else a small page listing the API."""
    if static_dir is not None:  # precompressed files and cache headers: see .static
        return Mount("/", app=StaticSite(static_dir), name="web")

    async def index(request: Request) -> Response:
        return HTMLResponse(openapi.index_html())

    return Route("/", index, methods=["GET"])


def create_app(
    service: Service,
    *,
    tokens: TokenTable | None = None,
    limits: Limits | None = None,
    static_dir: Path | None = None,
    close_store: bool = True,
) -> Starlette:
    """The ASGI app serving ``service`` (closing its store on shutdown if ``close_store``)."""
    api = Api(service, tokens, limits or Limits())
    doc = "/v1/documents/{name}"
    routes = [
        Route("/healthz", _guard(api.health), methods=["GET"]),
        Route("/v1/openapi.json", _guard(api.openapi_document), methods=["GET"]),
        Route("/v1/documents", _guard(api.list_documents), methods=["GET"]),
        Route(doc, _guard(api.get_document), methods=["GET"]),
        Route(doc, _guard(api.put_document), methods=["PUT"]),
        Route(doc, _guard(api.patch_document), methods=["PATCH"]),
        Route(doc + "/versions", _guard(api.list_versions), methods=["GET"]),
        Route(doc + "/rebase", _guard(api.rebase), methods=["POST"]),
        Route("/v1/diff", _guard(api.diff), methods=["GET"]),
        index_page(static_dir),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        if close_store:
            service.store.close()

    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: _http_error, Exception: _internal_error},
        lifespan=lifespan,
    )
    app.add_middleware(RawPathGuard)
    return app
