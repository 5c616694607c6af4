"""The short way of a document PATCH answers exactly as the route's whole chain does."""

from __future__ import annotations

import json

import pytest

from cfgpatch.server.routing import Resource
from cfgpatch.server.short_patch import ShortPatch, version_body
from server_support import JSON, JSON_PATCH, MERGE_PATCH, client_for
from test_server_auth import DEPLOY, READER, TOKENS

OPS = json.dumps([{"op": "replace", "path": "/n", "value": 2}])
#: Headers no two answers share.
VARYING = {"date", "x-request-id"}


def patches(auth: dict[str, str], name: str) -> list[tuple[str, dict[str, str], str]]:
    """(path, headers, body) of PATCHes answered every way the route answers."""
    doc = f"/v1/documents/{name}"
    return [
        (doc, {**JSON_PATCH, **auth}, OPS),
        (doc, {**JSON_PATCH, **auth, "x-request-id": "mine-1"}, OPS),
        (doc, {**MERGE_PATCH, **auth}, json.dumps({"m": 1})),
        (doc, {**JSON_PATCH, **auth, "if-match": '"1"'}, OPS),
        (doc, {**JSON_PATCH, **auth, "if-match": '"3"'}, json.dumps([{"op": "remove",
                                                                     "path": "/m"}])),
        (doc, {**JSON_PATCH, **auth, "if-none-match": "*"}, OPS),
        (doc, {**JSON_PATCH, **auth, "if-match": "nonsense"}, OPS),
        (doc + "?force=1&message=again", {**JSON_PATCH, **auth}, OPS),
        (doc + "?message=a&message=b", {**JSON_PATCH, **auth}, OPS),
        (doc + "?force=2", {**JSON_PATCH, **auth}, OPS),
        (doc, {**JSON_PATCH, **auth, "cfgpatch-rebase-from": "1"}, OPS),
        (doc, {**JSON_PATCH, **auth, "cfgpatch-rebase-from": "x"}, OPS),
        (doc, {**JSON, **auth}, OPS),
        (doc, {"content-type": "application/json-patch+json; charset=latin-1", **auth}, OPS),
        (doc, {"content-type": "application/json-patch+json, application/json", **auth}, OPS),
        (doc, {**JSON_PATCH, **auth}, json.dumps([{"op": "test", "path": "/n", "value": 9}])),
        (doc, {**JSON_PATCH, **auth}, "[{"),
        (doc, {**JSON_PATCH, **auth}, json.dumps([{"op": "remove", "path": "/absent"}])),
        (doc, {**JSON_PATCH, **auth}, "[" + " " * 2000 + "]"),
        (f"/v1/documents/{name}-missing", {**JSON_PATCH, **auth}, OPS),
        ("/v1/documents/-bad", {**JSON_PATCH, **auth}, OPS),
        ("/v1/documents/a%2Fb", {**JSON_PATCH, **auth}, OPS),
        ("/v1/documents/caf%C3%A9", {**JSON_PATCH, **auth}, OPS),
        ("/v1/documents/a%FF", {**JSON_PATCH, **auth}, OPS),
        (doc, {**JSON_PATCH, **auth, "host": "rebind.example"}, OPS),
        (doc, {**JSON_PATCH}, OPS),
        (doc, {**JSON_PATCH, "authorization": f"Bearer {READER}"}, OPS),
        (doc, {**JSON_PATCH, "authorization": "Bearer wrong-token-000000000"}, OPS),
    ]


def answers(client, name: str, auth: dict[str, str]) -> list[tuple]:
    """Every answer to :func:`patches` (after a PUT), without what varies between runs."""
    put = client.put(f"/v1/documents/{name}", content=json.dumps({"n": 1}),
                     headers={**JSON, **auth})
    assert put.status_code == 201
    seen = []
    for path, headers, body in patches(auth, name):
        answer = client.patch(path, content=body, headers=headers)
        kept = sorted((k, v) for k, v in answer.headers.items() if k not in VARYING)
        echoed = answer.headers["x-request-id"] == headers.get("x-request-id", "mine-1")
        seen.append((path, answer.status_code, kept, answer.json(), echoed))
    return seen


def long_way(client) -> None:
    """Turn the app's short way off: every request takes the route's whole chain."""
    app = client.app
    assert isinstance(app.direct, ShortPatch)
    app.direct = app.direct.fallback


@pytest.mark.parametrize(("options", "auth", "name"), [
    ({}, {}, "cfg"),
    ({"tokens": TOKENS, "allowed_hosts": ["config.internal"]},
     {"authorization": f"Bearer {DEPLOY}"}, "team-a-cfg"),
])
def test_the_short_way_answers_as_the_whole_chain(tmp_path, options, auth, name):
    from cfgpatch.server import Limits

    options = {**options, "limits": Limits(max_body=1000)}
    (tmp_path / "short").mkdir()
    (tmp_path / "long").mkdir()
    with client_for(tmp_path / "short", **options) as short, \
            client_for(tmp_path / "long", **options) as long:
        long_way(long)
        got, expected = answers(short, name, auth), answers(long, name, auth)
    assert got == expected
    statuses = {status for _, status, *_ in got}
    assert {200, 400, 404, 409, 412, 413, 415, 421, 422} <= statuses
    assert ({401, 403} <= statuses) == bool(auth)


def test_a_document_patch_takes_the_short_way(tmp_path, monkeypatch):
    called = []
    through = Resource.__call__

    async def counted(self, scope, receive, send):
        called.append(scope["method"])
        await through(self, scope, receive, send)

    monkeypatch.setattr(Resource, "__call__", counted)
    with client_for(tmp_path) as api:
        assert api.put("/v1/documents/cfg", content="{}", headers=JSON).status_code == 201
        answer = api.patch("/v1/documents/cfg", content=OPS.replace("replace", "add"),
                           headers={**JSON_PATCH, "x-request-id": "abc"})
        assert answer.status_code == 200 and answer.json() == {"version": 2}
        assert answer.headers["etag"] == '"2"' and answer.headers["x-request-id"] == "abc"
        assert answer.headers["content-type"] == "application/json"
        assert api.get("/v1/documents/cfg").json() == {"n": 2}
    assert called == ["PUT", "GET"]  # the PATCH took no resource


@pytest.mark.parametrize("tagged", [True, False])
def test_version_body_is_what_starlette_would_send(tagged):
    from starlette.responses import Response

    body, headers = version_body(12, tagged=tagged)
    made = Response(b'{"version":12}', media_type="application/json",
                    headers={"ETag": '"12"'} if tagged else None)
    assert (body, headers) == (made.body, made.raw_headers)
