"""Errors as HTTP answers: one table from error code to status, one JSON shape.

Every error body is ``{"error": "<wire form>", "code": ..., "message": ...}``
plus ``op_index``, ``pointer``, ``token`` and ``hint`` when known, so a script
can branch on ``code`` and a person can read ``message``.
"""

from __future__ import annotations

from starlette.responses import JSONResponse

from ..errors import (
    BODY_TOO_LARGE,
    CANNOT_REMOVE_ROOT,
    CONCURRENT_UPDATE,
    CONFLICT,
    FORBIDDEN,
    INVALID_MOVE,
    LIMIT_EXCEEDED,
    METHOD_NOT_ALLOWED,
    MISDIRECTED_REQUEST,
    NOT_FOUND,
    PATH_NOT_FOUND,
    PRECONDITION_FAILED,
    STORE_ERROR,
    TEST_FAILED,
    UNAUTHORIZED,
    UNKNOWN_DOCUMENT,
    UNKNOWN_VERSION,
    UNSUPPORTED_MEDIA_TYPE,
    CfgPatchError,
)

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
    return JSONResponse(error_body(error), status_code=status, headers=headers or None)
