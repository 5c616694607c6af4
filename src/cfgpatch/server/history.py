"""The HTTP routes of a document's life: history pages, deletion, restore, retention.

* ``GET /v1/documents/{name}/versions[?after=v][&limit=n]``: the history, oldest
  first; with ``limit`` (1 to :data:`MAX_PAGE`) at most that many entries after
  version ``after``, and, when more follow, a ``Link: <...?after=..&limit=n>;
  rel="next"`` header (RFC 8288).  Without either, every version, as before.
* ``DELETE /v1/documents/{name}``: a tombstone version (``If-Match`` honoured);
  answers ``{"version": n, "deleted": true}``.  The history stays readable by
  version; the name can be written again.
* ``POST /v1/documents/{name}/restore?version=n``: version n written again as the
  newest one (undoes a deletion or any later change); ``?force=1`` commits even
  when it is already the head.
* ``GET /v1/retention``: the policies whose prefix the caller may read;
  ``PUT /v1/retention`` with ``{"prefix", "keep_last", "keep_seconds"}`` sets
  one (both ``null``: removes it) and needs write access to the prefix.
* ``POST /v1/retention/run[?prefix=p]``: apply the policies now to every document
  (under ``p``) the caller may write, instead of waiting for each document's next
  block of versions; answers ``{"removed": {name: versions}, "versions": total}``.
  Schedule it (a cron job) where ``keep_seconds`` policies cover documents that are
  rarely written.

The handlers parse, call the service (:mod:`cfgpatch.lifecycle`) and render, as
the handlers of :mod:`.app` do.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..errors import INVALID_ARGUMENTS, CfgPatchError, InvalidInput
from ..jsonvalue import parse
from ..store.base import RetentionPolicy
from .auth import AuthError
from .inputs import JSON_TYPE, etag, parse_version, preconditions, query, require_type
from .problems import FORBIDDEN

if TYPE_CHECKING:
    from ..service import Service
    from .app import Api

#: The most entries one page of history may ask for.
MAX_PAGE = 1000
_log = logging.getLogger("cfgpatch.retention")


class History:
    """The handlers of this module, over one :class:`~.app.Api`."""

    def __init__(self, api: Api) -> None:
        self.api = api

    async def list_versions(self, request: Request) -> Response:
        api = self.api
        _, name = api.document(request, write=False)
        after = _number(query(request, "after"), "after", 0)
        raw_limit = query(request, "limit")
        limit = None if raw_limit is None else _number(raw_limit, "limit", 1, MAX_PAGE)
        head, infos = await api.call(api.service.versions, name, preconditions(request),
                                     after=after, limit=limit)
        if infos is None:  # the head that was judged, never a later one
            return Response(status_code=304, headers=etag(head))
        body = {"name": name, "head": head, "versions": [i.to_dict() for i in infos]}
        headers = etag(head)
        if limit is not None and len(infos) == limit and infos[-1].version < head:
            url = request.url.include_query_params(after=infos[-1].version, limit=limit)
            headers["Link"] = f'<{url.path}?{url.query}>; rel="next"'
        return JSONResponse(body, headers=headers)

    async def delete_document(self, request: Request) -> Response:
        api = self.api
        who, name = api.document(request, write=True)
        message, when = api.message(request), preconditions(request)
        version = await api.call(api.service.delete, name, author=who.name, message=message,
                                 when=when)
        api.committed(name, version)
        return JSONResponse({"version": version, "deleted": True})

    async def restore(self, request: Request) -> Response:
        api = self.api
        who, name = api.document(request, write=True)
        raw = query(request, "version")
        if raw is None:
            raise InvalidInput("restore needs ?version=<the version to write again>",
                               code=INVALID_ARGUMENTS)
        version = parse_version(raw, "version")
        message, when, force = api.message(request), preconditions(request), api.force(request)
        new = await api.call(api.service.restore, name, version, author=who.name,
                             message=message, when=when, force=force)
        api.committed(name, new)
        return JSONResponse({"version": new}, headers=etag(new))

    async def get_retention(self, request: Request) -> Response:
        api = self.api
        who = api.principal(request)
        policies = await api.call(api.service.retention)
        return JSONResponse({"policies": [p.to_dict() for p in policies
                                          if who.may_read(p.prefix)]})

    async def put_retention(self, request: Request) -> Response:
        api = self.api
        who = api.principal(request)
        require_type(request, (JSON_TYPE,))
        policy = _policy(parse(await api.limits.read_body(request)))
        if not who.may_write(policy.prefix):
            raise AuthError(f"token {who.name!r} may not write every name under "
                            f"{policy.prefix!r}", code=FORBIDDEN)
        await api.call(api.service.set_retention, policy)
        return JSONResponse(policy.to_dict())


    async def run_retention(self, request: Request) -> Response:
        api = self.api
        who = api.principal(request)
        prefix = query(request, "prefix") or ""
        removed = await api.call(api.service.sweep, prefix, who.may_write)
        return JSONResponse({"removed": removed, "versions": sum(removed.values())})


async def sweep_every(service: Service, seconds: float) -> None:
    """Apply the retention policies to every document every ``seconds`` (``serve
    --retention-sweep``), until cancelled; a failed sweep is logged and retried later."""
    while True:
        await asyncio.sleep(seconds)
        try:
            removed = await anyio.to_thread.run_sync(service.sweep)
        except CfgPatchError as error:
            _log.warning("retention sweep failed: %s", error.describe())
            continue
        except Exception:  # a bug: logged, the next sweep still runs
            _log.exception("retention sweep failed")
            continue
        if removed:
            _log.info("retention sweep removed %d versions of %d documents",
                      sum(removed.values()), len(removed))


def _number(raw: str | None, what: str, default: int, top: int | None = None) -> int:
    if raw is None:
        return default
    if raw == "0" and default == 0:
        return 0
    number = parse_version(raw, what)
    if top is not None and number > top:
        raise InvalidInput(f"{what} may be at most {top}, not {number}", code=INVALID_ARGUMENTS)
    return number


def _policy(body: Any) -> RetentionPolicy:
    """A retention policy from a request body (``invalid arguments`` naming the member)."""
    if type(body) is not dict or type(body.get("prefix")) is not str:
        raise InvalidInput('a retention policy is an object with a string "prefix"',
                           code=INVALID_ARGUMENTS)
    unknown = sorted(set(body) - {"prefix", "keep_last", "keep_seconds"})
    if unknown:
        raise InvalidInput(f"unknown member {unknown[0]!r} in a retention policy",
                           code=INVALID_ARGUMENTS, pointer="/" + unknown[0])
    rules = {}
    for key in ("keep_last", "keep_seconds"):
        value = body.get(key)
        if value is not None and (type(value) is not int or not 1 <= value <= 10**12):
            raise InvalidInput(f"{key} must be a positive integer or null", code=INVALID_ARGUMENTS,
                               pointer="/" + key)
        rules[key] = value
    return RetentionPolicy(body["prefix"], **rules)


def routes(history: History, doc: str) -> dict[str, dict[str, Any]]:
    """The paths this module adds, with their handlers by method."""
    return {doc + "/restore": {"POST": history.restore},
            "/v1/retention": {"GET": history.get_retention, "PUT": history.put_retention},
            "/v1/retention/run": {"POST": history.run_retention}}
