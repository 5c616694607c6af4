"""The OpenAPI 3.1 description of the HTTP API, and the small index page.

The document is built from plain dicts here (no framework introspection), so
what it says is exactly what :mod:`.app` routes; ``tests/test_server_openapi.py``
checks the two against each other.
"""

from __future__ import annotations

import html

from .problems import STATUS

_NAME = {
    "name": "name", "in": "path", "required": True,
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$"},
    "description": "Document name.",
}
_MESSAGE = {
    "name": "message", "in": "query", "required": False, "schema": {"type": "string"},
    "description": "A note recorded with the new version.",
}
_IF_MATCH = {
    "name": "If-Match", "in": "header", "required": False, "schema": {"type": "string"},
    "description": 'The version the request was written against, in quotes: "3".',
}
_ETAG = {"ETag": {"description": 'The version, in quotes ("3").', "schema": {"type": "string"}}}
_ANY_JSON: dict = {}


def _json(schema: dict, media: str = "application/json") -> dict:
    return {"content": {media: {"schema": schema}}}


def _ok(description: str, schema: dict, media: str = "application/json",
        with_etag: bool = False) -> dict:
    answer = {"description": description, **_json(schema, media)}
    if with_etag:
        answer["headers"] = _ETAG
    return answer


def _errors(*statuses: int) -> dict:
    ref = {"$ref": "#/components/schemas/Error"}
    return {str(s): {"description": _STATUS_TEXT[s], **_json(ref)} for s in statuses}


_STATUS_TEXT = {
    400: "Malformed request: invalid JSON, patch, pointer, name or limit exceeded.",
    401: "Missing or unknown bearer token.",
    403: "The token may not read or write this document.",
    404: "Unknown document or version.",
    409: "A test operation failed, or the rebase found a conflict (pointer in the body).",
    412: "If-Match / If-None-Match precondition does not hold.",
    413: "Body larger than the server's limit.",
    415: "Wrong Content-Type.",
    422: "The patch is well formed but cannot be applied to this document.",
    503: "Storage unavailable or too many concurrent writers.",
}
_VERSION = {"type": "object", "properties": {"version": {"type": "integer"}},
            "required": ["version"]}
_PATCH = {"type": "array", "items": {"type": "object"}}


def _paths() -> dict:
    doc_errors = (400, 401, 403, 404)
    return {
        "/v1/documents": {"get": {
            "summary": "Names of the documents the caller may read.",
            "responses": {"200": _ok("Names, sorted.", {"type": "object"}), **_errors(401)},
        }},
        "/v1/documents/{name}": {
            "parameters": [_NAME],
            "get": {
                "summary": "The head (or ?version=n) as canonical JSON text.",
                "parameters": [{"name": "version", "in": "query", "required": False,
                                "schema": {"type": "integer", "minimum": 1}},
                               {"name": "If-None-Match", "in": "header", "required": False,
                                "schema": {"type": "string"},
                                "description": 'A version the caller holds ("3"): 304 if '
                                               "it is still the one asked for."}],
                "responses": {"200": _ok("The document.", _ANY_JSON, with_etag=True),
                              "304": {"description": "Not modified.", "headers": _ETAG},
                              **_errors(*doc_errors)},
            },
            "put": {
                "summary": "Create or replace the document; answers the new version.",
                "parameters": [_MESSAGE, _IF_MATCH, {
                    "name": "If-None-Match", "in": "header", "required": False,
                    "schema": {"type": "string", "enum": ["*"]},
                    "description": "'*' creates the document only if it does not exist."}],
                "requestBody": {"required": True, **_json(_ANY_JSON)},
                "responses": {"200": _ok("Replaced.", _VERSION, with_etag=True),
                              "201": _ok("Created.", _VERSION, with_etag=True),
                              **_errors(400, 401, 403, 412, 413, 415, 503)},
            },
            "patch": {
                "summary": "Apply a JSON Patch (RFC 6902) or a JSON Merge Patch (RFC 7386).",
                "description": "With If-Match naming an older version, a JSON Patch is rebased "
                               "onto the head (three-way merge); a conflict is a 409 naming "
                               "the pointer. A merge patch with an old If-Match is a 412.",
                "parameters": [_MESSAGE, _IF_MATCH],
                "requestBody": {"required": True, "content": {
                    "application/json-patch+json": {"schema": _PATCH},
                    "application/merge-patch+json": {"schema": _ANY_JSON}}},
                "responses": {"200": _ok("Committed.", _VERSION, with_etag=True),
                              **_errors(400, 401, 403, 404, 409, 412, 413, 415, 422, 503)},
            },
        },
        "/v1/documents/{name}/versions": {"get": {
            "parameters": [_NAME],
            "summary": "Every version, oldest first, with time, author (token name) and message.",
            "responses": {"200": _ok("History.", {"type": "object"}, with_etag=True),
                          **_errors(*doc_errors)},
        }},
        "/v1/documents/{name}/rebase": {"post": {
            "parameters": [_NAME, {"name": "base", "in": "query", "required": True,
                                   "schema": {"type": "integer", "minimum": 1}}],
            "summary": "The patch that carries a patch written against ?base onto the head. "
                       "Stores nothing.",
            "requestBody": {"required": True, **_json(_PATCH, "application/json-patch+json")},
            "responses": {"200": _ok("Rebased patch.", _PATCH, "application/json-patch+json"),
                          **_errors(400, 401, 403, 404, 409, 413, 415, 422)},
        }},
        "/v1/diff": {"get": {
            "summary": "The JSON Patch turning one document version into another.",
            "parameters": [
                {"name": "from", "in": "query", "required": True, "schema": {"type": "string"},
                 "description": "name or name@version"},
                {"name": "to", "in": "query", "required": True, "schema": {"type": "string"}},
                {"name": "stats", "in": "query", "required": False,
                 "schema": {"type": "string", "enum": ["0", "1"]},
                 "description": "1: answer the statistics (counts, digest, roundtrip)."}],
            "responses": {"200": _ok("Patch or stats.", _ANY_JSON),
                          **_errors(*doc_errors)},
        }},
        "/v1/openapi.json": {"get": {"summary": "This document.",
                                     "responses": {"200": _ok("OpenAPI.", {"type": "object"})}}},
        "/healthz": {"get": {"summary": "Up and the store answers.",
                             "responses": {"200": _ok("Up.", {"type": "object"}),
                                           **_errors(503)}}},
    }


def document() -> dict:
    """The OpenAPI document (a fresh dict)."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "cfgpatch config service",
            "version": "1",
            "description": "Versioned JSON documents: append-only history, JSON Patch and "
                           "Merge Patch, stale-base rebase, diff. Error codes and their "
                           "statuses: " + ", ".join(f"{c} {s}" for c, s in sorted(STATUS.items())),
        },
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {"Error": {
                "type": "object", "required": ["error", "code", "message"],
                "properties": {
                    "error": {"type": "string", "description": "Wire form: 'test failed at op 1'."},
                    "code": {"type": "string"}, "message": {"type": "string"},
                    "op_index": {"type": "integer"}, "pointer": {"type": "string"},
                    "token": {"type": "string"}, "hint": {"type": "string"},
                },
            }},
        },
        "security": [{"bearer": []}, {}],
        "paths": _paths(),
    }


def index_html() -> str:
    """A small page listing the API (shown when the web page is not built)."""
    rows = []
    for path, item in _paths().items():
        for method, op in item.items():
            if method != "parameters":
                rows.append(f"<tr><td>{method.upper()}</td><td><code>{html.escape(path)}"
                            f"</code></td><td>{html.escape(op['summary'])}</td></tr>")
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>cfgpatch</title></head>"
        "<body><h1>cfgpatch config service</h1>"
        "<p>The web page is not built (<code>make web</code>); the API is up. "
        "Machine-readable description: <a href='/v1/openapi.json'>/v1/openapi.json</a>.</p>"
        "<table>" + "".join(rows) + "</table></body></html>"
    )
