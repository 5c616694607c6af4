"""The OpenAPI 3.1 description of the HTTP API, and the small index page.

The document is built from plain dicts here (no framework introspection), so
what it says is exactly what :mod:`.app` routes and :mod:`.inputs` enforces:
name, version and ``from``/``to`` patterns, the entity-tag syntax of
``If-Match``/``If-None-Match``, the rebase header, every status a route can
answer.  ``tests/test_server_openapi.py`` checks it against the routes and
``tests/test_server_contract.py`` fuzzes the server with it (schemathesis).
"""

from __future__ import annotations

import html

from .inputs import NAME_PATTERN, REBASE_FROM
from .problems import STATUS

#: Versions: what ``inputs.parse_version`` accepts (at most 18 digits).
MAX_VERSION = 10**18 - 1
_VERSION_TEXT = "[1-9][0-9]{0,17}"
#: One entity tag as clients should send it (visible ASCII, no quote inside).
_TAG = r'(W/)?"[!#-~]*"'
#: ``*`` or a list of entity tags (RFC 9110 section 13.1.1; empty elements allowed).
TAG_LIST_PATTERN = rf"^[ \t]*(\*|({_TAG})?([ \t]*,[ \t]*({_TAG})?)*)[ \t]*$"

_NAME = {
    "name": "name", "in": "path", "required": True,
    "schema": {"type": "string", "pattern": f"^{NAME_PATTERN}$"},
    "description": "Document name.",
}
_FORCE = {
    "name": "force", "in": "query", "required": False,
    "schema": {"type": "string", "enum": ["0", "1"]},
    "description": "1: commit a new version even when the write changes nothing (by "
                   "default such a write stores nothing and answers the head's version).",
}
_MESSAGE = {
    "name": "message", "in": "query", "required": False,
    "schema": {"type": "string", "maxLength": 1000, "pattern": "^[^\\x00-\\x08\\x0b-\\x1f\\x7f]*$"},
    "description": "A note recorded with the new version (tab and newline allowed).",
}


def _tag_header(name: str, description: str) -> dict:
    return {"name": name, "in": "header", "required": False,
            "schema": {"type": "string", "pattern": TAG_LIST_PATTERN},
            "description": description}


_IF_MATCH = _tag_header(
    "If-Match", 'Go ahead only if the current version is one of these strong tags ("3"), '
    "or, for *, if the document exists; else 412. W/ tags never match (strong comparison).")
_IF_NONE_MATCH_WRITE = _tag_header(
    "If-None-Match", "Go ahead only if the current version is none of these tags (weak "
    "comparison: W/\"3\" matches 3), or, for *, if the document does not exist; else 412.")
_IF_NONE_MATCH_READ = _tag_header(
    "If-None-Match", "304 Not Modified if the version read is one of these tags (weak "
    "comparison), or, for *, if the document exists.")
_REBASE = {
    "name": REBASE_FROM, "in": "header", "required": False,
    "schema": {"type": "string", "pattern": f"^{_VERSION_TEXT}$"},
    "description": "The version the patch was written against (a bare number): it is "
                   "rebased onto the head (replay, three-way merge) and each test operation "
                   "must also hold against the head. Without it, the patch applies to the "
                   "head as it is.",
}
_VERSION_QUERY = {"type": "integer", "minimum": 1, "maximum": MAX_VERSION}
_ETAG = {"ETag": {"description": 'The version, in quotes ("3").',
                  "schema": {"type": "string", "pattern": f'^"{_VERSION_TEXT}"$'}}}
_ANY_JSON: dict = {}


def _json(schema: dict, media: str = "application/json") -> dict:
    return {"content": {media: {"schema": schema}}}


def _ok(description: str, schema: dict, media: str = "application/json",
        with_etag: bool = False) -> dict:
    answer = {"description": description, **_json(schema, media)}
    if with_etag:
        answer["headers"] = _ETAG
    return answer


_STATUS_TEXT = {
    400: "Malformed request (invalid JSON, patch, pointer, name, header) or limit exceeded.",
    401: "Missing or unknown bearer token.",
    403: "The token may not read or write this document.",
    404: "Unknown document or version (also a rebase base that does not exist).",
    405: "Method not allowed here; Allow lists the methods.",
    409: "A test operation failed (on the base, or against the head when rebasing), or the "
         "rebase found a conflict (pointer in the body).",
    412: "If-Match / If-None-Match does not hold; nothing was written.",
    408: "The request body did not arrive within the body timeout; the connection is closed.",
    413: "Body larger than the server's limit.",
    415: "Wrong Content-Type.",
    421: "The Host header does not name this server (DNS rebinding guard, --allowed-host).",
    422: "The patch is well formed but cannot be applied to this document.",
    500: "Internal error (logged on the server under request_id).",
    503: "Storage failed or did not answer in time (logged under request_id), too many "
         "concurrent writers, or more requests in progress than the server takes "
         "(overloaded); Retry-After says when to try again.",
}
#: Statuses every route may answer.
_ALWAYS = (405, 408, 421, 500, 503)


def _errors(*statuses: int) -> dict:
    ref = {"$ref": "#/components/schemas/Error"}
    out = {}
    for status in sorted(set(statuses) | set(_ALWAYS)):
        answer: dict = {"description": _STATUS_TEXT[status], **_json(ref)}
        if status == 503:
            answer["headers"] = {"Retry-After": {"schema": {"type": "string"},
                                                 "description": "Seconds to wait."}}
        if status == 405:
            answer["headers"] = {"Allow": {"schema": {"type": "string"},
                                           "description": "The methods of this path."}}
        out[str(status)] = answer
    return out


_VERSION = {"type": "object", "properties": {"version": {"type": "integer", "minimum": 1}},
            "required": ["version"]}
_PATCH = {"type": "array", "items": {"type": "object"}}
_NOT_MODIFIED = {"description": "Not modified (If-None-Match matched).", "headers": _ETAG}
_SIDE = {"type": "string", "pattern": f"^{NAME_PATTERN}(@{_VERSION_TEXT})?$"}


_RULE = {"type": ["integer", "null"], "minimum": 1, "maximum": 10**12}
_RETENTION = {"type": "object", "required": ["prefix"], "additionalProperties": False,
              "properties": {"prefix": {"type": "string"}, "keep_last": _RULE,
                             "keep_seconds": _RULE}}


def _history_paths(doc_errors: tuple[int, ...]) -> dict:
    """The routes of :mod:`.history`: deletion, restore, retention (the history pages
    are documented with the versions route)."""
    deleted = {"type": "object", "required": ["version", "deleted"],
               "properties": {"version": {"type": "integer", "minimum": 1},
                              "deleted": {"const": True}}}
    return {
        "delete": {
            "summary": "Delete the document: a tombstone version (the history stays "
                       "readable with ?version=n; the name can be written again).",
            "parameters": [_MESSAGE, _IF_MATCH, _IF_NONE_MATCH_WRITE],
            "responses": {"200": _ok("Deleted; the tombstone's version.", deleted),
                          **_errors(*doc_errors, 503)},
        },
        "/v1/documents/{name}/restore": {"post": {
            "summary": "Write version ?version=n again as the newest version (undoes a "
                       "deletion or any later change).",
            "parameters": [_NAME, {"name": "version", "in": "query", "required": True,
                                   "schema": _VERSION_QUERY},
                           _MESSAGE, _FORCE, _IF_MATCH, _IF_NONE_MATCH_WRITE],
            "responses": {"200": _ok("Restored.", _VERSION, with_etag=True),
                          **_errors(*doc_errors, 503)},
        }},
        "/v1/retention": {
            "get": {"summary": "The retention policies whose prefix the caller may read.",
                    "responses": {"200": _ok("Policies.", {"type": "object"}),
                                  **_errors(401, 503)}},
            "put": {"summary": "Set the retention policy of a name prefix (both rules null: "
                               "remove it); needs write access to the prefix.",
                    "requestBody": {"required": True, **_json(_RETENTION)},
                    "responses": {"200": _ok("The policy set.", _RETENTION),
                                  **_errors(400, 401, 403, 413, 415, 503)}},
        },
        "/v1/retention/run": {"post": {
            "summary": "Apply the retention policies now to every document (under "
                       "?prefix) the caller may write; the versions removed, by document.",
            "parameters": [{"name": "prefix", "in": "query", "required": False,
                            "schema": {"type": "string"}}],
            "responses": {"200": _ok("Removed.", {
                "type": "object", "required": ["removed", "versions"],
                "properties": {"removed": {"type": "object", "additionalProperties": {
                    "type": "integer", "minimum": 1}},
                               "versions": {"type": "integer", "minimum": 0}}}),
                          **_errors(400, 401, 503)},
        }},
    }


def _paths() -> dict:
    doc_errors = (400, 401, 403, 404, 412)
    history = _history_paths(doc_errors)
    return {
        "/v1/documents": {"get": {
            "summary": "Names of the documents the caller may read.",
            "responses": {"200": _ok("Names, sorted.", {"type": "object"}),
                          **_errors(401, 503)},
        }},
        "/v1/documents/{name}": {
            "parameters": [_NAME],
            "get": {
                "summary": "The head (or ?version=n) as canonical JSON text.",
                "description": "With ?wait=s and If-None-Match, a long poll: the answer "
                               "comes as soon as the head no longer matches (200), or after s "
                               "seconds (304).",
                "parameters": [{"name": "version", "in": "query", "required": False,
                                "schema": _VERSION_QUERY},
                               {"name": "wait", "in": "query", "required": False,
                                "schema": {"type": "string", "pattern": "^[0-9]{1,6}$"},
                                "description": "Seconds to wait for a version other than "
                                               "If-None-Match names (at most the server's "
                                               "--max-wait, 60 by default)."},
                               _IF_MATCH, _IF_NONE_MATCH_READ],
                "responses": {"200": _ok("The document.", _ANY_JSON, with_etag=True),
                              "304": _NOT_MODIFIED, **_errors(*doc_errors, 503)},
            },
            "delete": history["delete"],
            "put": {
                "summary": "Create or replace the document; answers the new version.",
                "parameters": [_MESSAGE, _FORCE, _IF_MATCH, _IF_NONE_MATCH_WRITE],
                "requestBody": {"required": True, **_json(_ANY_JSON)},
                "responses": {"200": _ok("Replaced.", _VERSION, with_etag=True),
                              "201": _ok("Created.", _VERSION, with_etag=True),
                              **_errors(400, 401, 403, 412, 413, 415, 503)},
            },
            "patch": {
                "summary": "Apply a JSON Patch (RFC 6902) or a JSON Merge Patch (RFC 7386).",
                "description": f"Applies to the head. With {REBASE_FROM}: n, the patch was "
                               "written against version n and is rebased onto the head; a "
                               "conflict is a 409 naming the pointer, a test that fails "
                               "against the head a 409 too. If-Match / If-None-Match are "
                               "judged against the head the write replaces.",
                "parameters": [_MESSAGE, _FORCE, _IF_MATCH, _IF_NONE_MATCH_WRITE, _REBASE],
                "requestBody": {"required": True, "content": {
                    "application/json-patch+json": {"schema": _PATCH},
                    "application/merge-patch+json": {"schema": _ANY_JSON}}},
                "responses": {"200": _ok("Committed.", _VERSION, with_etag=True),
                              **_errors(400, 401, 403, 404, 409, 412, 413, 415, 422, 503)},
            },
        },
        "/v1/documents/{name}/versions": {"get": {
            "parameters": [_NAME, _IF_MATCH, _IF_NONE_MATCH_READ,
                           {"name": "after", "in": "query", "required": False,
                            "schema": {"type": "integer", "minimum": 0,
                                       "maximum": MAX_VERSION},
                            "description": "Only the versions above this one."},
                           {"name": "limit", "in": "query", "required": False,
                            "schema": {"type": "integer", "minimum": 1, "maximum": 1000},
                            "description": "At most this many versions (a page); a Link "
                                           "header names the next page."}],
            "summary": "The versions, oldest first, with time, author (token name) and "
                       "message (a tombstone: deleted true); ?after= and ?limit= page it.",
            "responses": {"200": {**_ok("History.", {"type": "object"}, with_etag=True),
                                  "headers": {**_ETAG, "Link": {
                                      "schema": {"type": "string"},
                                      "description": 'The next page: <url>; rel="next".'}}},
                          "304": _NOT_MODIFIED, **_errors(*doc_errors, 503)},
        }},
        "/v1/documents/{name}/restore": history["/v1/documents/{name}/restore"],
        "/v1/retention": history["/v1/retention"],
        "/v1/retention/run": history["/v1/retention/run"],
        "/v1/documents/{name}/rebase": {"post": {
            "parameters": [_NAME, {"name": "base", "in": "query", "required": True,
                                   "schema": _VERSION_QUERY}, _IF_MATCH, _IF_NONE_MATCH_WRITE],
            "summary": "The patch that carries a patch written against ?base onto the head "
                       "(tests judged against the head too). Stores nothing.",
            "description": "The ETag names the head the patch was rebased onto: sent with "
                           "If-Match: that tag, the rebased patch applies only if nobody "
                           "wrote in between. If-Match / If-None-Match are judged against "
                           "the head as for a write.",
            "requestBody": {"required": True, **_json(_PATCH, "application/json-patch+json")},
            "responses": {"200": _ok("Rebased patch.", _PATCH, "application/json-patch+json",
                                     with_etag=True),
                          **_errors(400, 401, 403, 404, 409, 412, 413, 415, 422, 503)},
        }},
        "/v1/diff": {"get": {
            "summary": "The JSON Patch turning one document version into another.",
            "parameters": [
                {"name": "from", "in": "query", "required": True, "schema": _SIDE,
                 "description": "name or name@version"},
                {"name": "to", "in": "query", "required": True, "schema": _SIDE},
                {"name": "stats", "in": "query", "required": False,
                 "schema": {"type": "string", "enum": ["0", "1"]},
                 "description": "1: answer the statistics (counts, digest, roundtrip)."}],
            "responses": {"200": {"description": "The patch, or with stats=1 the statistics.",
                                  "content": {"application/json-patch+json": {"schema": _PATCH},
                                              "application/json": {"schema": {
                                                  "type": "object"}}}},
                          **_errors(400, 401, 403, 404, 503)},
        }},
        "/v1/openapi.json": {"get": {"summary": "This document.",
                                     "responses": {"200": _ok("OpenAPI.", {"type": "object"}),
                                                   **_errors()}}},
        "/healthz": {"get": {"summary": "Up and the store answers (503 after the health "
                                        "timeout, 1 s by default).",
                             "responses": {"200": _ok("Up.", {"type": "object"}),
                                           **_errors(503)}}},
        "/metrics": {"get": {"summary": "Prometheus metrics (requests, latencies, commits, "
                                        "conflicts, store errors, cache bytes).",
                             "responses": {"200": _ok("Exposition text.", {"type": "string"},
                                                      "text/plain"),
                                           **_errors()}}},
    }


def document() -> dict:
    """The OpenAPI document (a fresh dict)."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "cfgpatch config service",
            "version": "1",
            "description": "Versioned JSON documents: append-only history, JSON Patch and "
                           "Merge Patch, conditional requests (RFC 9110), explicit rebase, "
                           "diff. Every answer carries X-Request-Id (the client's own, when "
                           "it sent a usable one). Error codes and their statuses: "
                           + ", ".join(f"{c} {s}" for c, s in sorted(STATUS.items())),
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
                    "request_id": {"type": "string",
                                   "description": "Store and internal errors: the id the "
                                                  "server logged the details under."},
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
