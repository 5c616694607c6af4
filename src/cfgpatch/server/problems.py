"""Errors as HTTP answers: one table from error code to status, one JSON shape.

Every error body is ``{"error": "<wire form>", "code": ..., "message": ...}``
plus ``op_index``, ``pointer``, ``token`` and ``hint`` when known, so a script
can branch on ``code`` and a person can read ``message``.

Storage failures and internal errors are different: their text can hold the
database's own words (constraint names, ``DETAIL: Failing row contains (...)``
with a whole row).  It is logged (logger ``cfgpatch.server``) under the
request's id (:data:`REQUEST_ID`, set by :mod:`.front`; a fresh one outside a
request), and the client gets a generic message with that id (also in the
``request_id`` member and the ``X-Request-Id`` header), to find the log line.

Every 503 carries ``Retry-After`` (seconds): the store or the server is
expected back, so clients and load balancers should try again, not give up.
"""

from __future__ import annotations

import logging
import random
from contextvars import ContextVar

from starlette.responses import JSONResponse

from ..errors import (
    BODY_TOO_LARGE,
    CANNOT_REMOVE_ROOT,
    CONCURRENT_UPDATE,
    CONFLICT,
    FORBIDDEN,
    INTERNAL_ERROR,
    INVALID_MOVE,
    LIMIT_EXCEEDED,
    METHOD_NOT_ALLOWED,
    MISDIRECTED_REQUEST,
    NOT_FOUND,
    OVERLOADED,
    PATH_NOT_FOUND,
    PRECONDITION_FAILED,
    REQUEST_TIMEOUT,
    STORE_ERROR,
    TEST_FAILED,
    UNAUTHORIZED,
    UNKNOWN_DOCUMENT,
    UNKNOWN_VERSION,
    UNSUPPORTED_MEDIA_TYPE,
    CfgPatchError,
)

LOG = logging.getLogger("cfgpatch.server")
#: The id of the request being answered (``None`` outside a request).
REQUEST_ID: ContextVar[str | None] = ContextVar("cfgpatch_request_id", default=None)
_IDS = random.Random()
#: Seconds a 503 answer asks the client to wait before trying again.
RETRY_AFTER = "1"
#: Codes whose messages are logged, never sent.
HIDDEN_CODES = frozenset({STORE_ERROR, INTERNAL_ERROR})
_GENERIC = {STORE_ERROR: "the store failed", INTERNAL_ERROR: "internal server error"}

#: HTTP status of each error code; any other code of a CfgPatchError is a 400.
STATUS: dict[str, int] = {
    UNAUTHORIZED: 401,
    FORBIDDEN: 403,
    UNKNOWN_DOCUMENT: 404,
    UNKNOWN_VERSION: 404,
    NOT_FOUND: 404,
    METHOD_NOT_ALLOWED: 405,
    TEST_FAILED: 409,
    CONFLICT: 409,
    REQUEST_TIMEOUT: 408,
    PRECONDITION_FAILED: 412,
    MISDIRECTED_REQUEST: 421,
    BODY_TOO_LARGE: 413,
    UNSUPPORTED_MEDIA_TYPE: 415,
    PATH_NOT_FOUND: 422,
    CANNOT_REMOVE_ROOT: 422,
    INVALID_MOVE: 422,
    LIMIT_EXCEEDED: 400,
    CONCURRENT_UPDATE: 503,
    STORE_ERROR: 503,
    OVERLOADED: 503,
}


class HttpProblem(CfgPatchError):
    """An error of the HTTP layer itself (bad name, content type, precondition...)."""

    default_code = "bad request"


def status_of(error: CfgPatchError) -> int:
    """The HTTP status for ``error``."""
    return STATUS.get(error.code, 400)


def error_body(error: CfgPatchError) -> dict:
    """The JSON body describing ``error``."""
    return {"error": error.wire(), **error.to_dict()}


def problem_response(error: CfgPatchError, status: int | None = None,
                     headers: dict[str, str] | None = None) -> JSONResponse:
    """A JSON error response for ``error`` (status from the table unless given)."""
    status = status or status_of(error)
    headers = dict(headers or {})
    if status == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="cfgpatch"'
    if status == 503:
        headers.setdefault("Retry-After", RETRY_AFTER)
    if error.code in HIDDEN_CODES:
        body = _logged(error, headers)
    else:
        body = error_body(error)
    return JSONResponse(body, status_code=status, headers=headers or None)


def _logged(error: CfgPatchError, headers: dict[str, str],
            exc_info: BaseException | None = None) -> dict:
    """Log ``error`` under the request's id; the generic body the client gets instead."""
    request_id = REQUEST_ID.get() or new_request_id()
    LOG.error("request %s: %s: %s", request_id, error.code, error.message,
              exc_info=exc_info or error.__cause__ or None)
    headers["X-Request-Id"] = request_id
    message = f"{_GENERIC[error.code]} (logged on the server as request {request_id})"
    return {"error": error.code, "code": error.code, "message": message,
            "request_id": request_id}


def new_request_id() -> str:
    """A fresh request id (16 hex digits).

    From the ``random`` generator (seeded from the system's randomness when the
    process starts): ids need to be unique, not secret, and reading the system's
    randomness for every request was measured at 0.17 ms a call on the
    development machine's virtual machine.
    """
    return f"{_IDS.getrandbits(64):016x}"


def internal_error_response(exc: BaseException) -> JSONResponse:
    """The 500 answer to an unexpected exception (logged with its traceback)."""
    headers: dict[str, str] = {}
    error = CfgPatchError(f"{type(exc).__name__}: {exc}", code=INTERNAL_ERROR)
    body = _logged(error, headers, exc_info=exc)
    return JSONResponse(body, status_code=500, headers=headers)
