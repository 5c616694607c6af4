"""The REST API in process (Starlette test client over a real SQLite file):
documents, versions, ETags, JSON Patch, Merge Patch, stale-base rebase, diff."""

from __future__ import annotations

import json

import pytest

from server_support import JSON, JSON_PATCH, client_for
from server_support import patch_document as patch
from server_support import put_document as put


@pytest.fixture
def api(tmp_path):
    with client_for(tmp_path) as client:
        yield client


def test_put_get_and_etag(api):
    created = put(api, "cfg", {"b": [1, 2], "a": "é"})
    assert created.status_code == 201
    assert created.json() == {"version": 1}
    # RFC 9110 section 9.3.4: no validator, the body was not stored as sent (json.dumps
    # wrote spaces and key order the canonical text does not keep)
    assert "etag" not in created.headers
    replaced = api.put("/v1/documents/cfg", content=b'{"a":1.0}', headers=JSON)
    assert replaced.status_code == 200 and replaced.json() == {"version": 2}
    assert replaced.headers["etag"] == '"2"'  # stored byte for byte: its validator
    head = api.get("/v1/documents/cfg")
    assert head.status_code == 200
    assert head.text == '{"a":1.0}'
    assert head.headers["etag"] == '"2"'
    assert head.headers["content-type"].startswith("application/json")
    old = api.get("/v1/documents/cfg", params={"version": 1})
    assert old.content.decode("utf-8") == '{"a":"é","b":[1,2]}'
    assert old.headers["etag"] == '"1"'


def test_versions_record_author_and_message(api):
    put(api, "cfg", {"a": 1})
    api.patch("/v1/documents/cfg", params={"message": "raise a"},
              content='[{"op":"replace","path":"/a","value":2}]', headers=JSON_PATCH)
    body = api.get("/v1/documents/cfg/versions").json()
    assert body["name"] == "cfg" and body["head"] == 2
    assert [(v["version"], v["author"], v["message"]) for v in body["versions"]] == [
        (1, "anonymous", None),
        (2, "anonymous", "raise a"),
    ]
    assert api.get("/v1/documents").json() == {"documents": ["cfg"]}


def test_json_patch_worked_example(api):
    put(api, "cfg", {"service": "gateway", "routes": ["a", "b"], "limits": {"rps": 100}})
    ops = [{"op": "add", "path": "/routes/1", "value": "x"},
           {"op": "replace", "path": "/limits/rps", "value": 250},
           {"op": "test", "path": "/routes/1", "value": "x"}]
    answer = patch(api, "cfg", ops)
    assert answer.status_code == 200 and answer.json() == {"version": 2}
    assert answer.headers["etag"] == '"2"'
    assert api.get("/v1/documents/cfg").text == (
        '{"limits":{"rps":250},"routes":["a","x","b"],"service":"gateway"}'
    )


def test_failed_patch_names_op_and_changes_nothing(api):
    put(api, "cfg", {"a": 1})
    failed = patch(api, "cfg", [{"op": "add", "path": "/b", "value": 1},
                                {"op": "test", "path": "/a", "value": True}])
    assert failed.status_code == 409
    body = failed.json()
    assert body["code"] == "test failed" and body["op_index"] == 1
    assert body["error"] == "test failed at op 1"
    missing = patch(api, "cfg", [{"op": "remove", "path": "/nope"}])
    assert missing.status_code == 422 and missing.json()["error"] == "path not found at op 0"
    bad_op = patch(api, "cfg", [{"op": "frobnicate", "path": "/a"}])
    assert bad_op.status_code == 400 and bad_op.json()["code"] == "invalid operation"
    not_list = patch(api, "cfg", {"op": "add"})
    assert not_list.status_code == 400 and not_list.json()["code"] == "invalid patch"
    assert api.get("/v1/documents/cfg/versions").json()["head"] == 1


def test_merge_patch(api):
    put(api, "cfg", {"a": 1, "b": {"c": 2, "d": 3}})
    merged = patch(api, "cfg", {"a": None, "b": {"c": 5}}, merge=True)
    assert merged.status_code == 200 and merged.json() == {"version": 2}
    assert api.get("/v1/documents/cfg").text == '{"b":{"c":5,"d":3}}'


def test_merge_patch_if_match(api):
    put(api, "cfg", {"a": 1})
    patch(api, "cfg", {"a": 2}, merge=True)
    stale = patch(api, "cfg", {"b": 1}, merge=True, **{"if-match": '"1"'})
    assert stale.status_code == 412 and stale.json()["code"] == "precondition failed"
    fresh = patch(api, "cfg", {"b": 1}, merge=True, **{"if-match": '"2"'})
    assert fresh.status_code == 200 and fresh.json() == {"version": 3}


def test_rebase_request_rebases_and_conflicts_name_the_pointer(api):
    put(api, "cfg", {"a": 1, "b": {"x": 1}, "l": [1]})
    patch(api, "cfg", [{"op": "replace", "path": "/b/x", "value": 2}])
    mine = [{"op": "replace", "path": "/a", "value": 5},
            {"op": "add", "path": "/c", "value": {"k": 1}}]
    preview = api.post("/v1/documents/cfg/rebase", params={"base": 1},
                       content=json.dumps(mine), headers=JSON_PATCH)
    assert preview.status_code == 200
    assert json.loads(preview.text) == mine
    assert api.get("/v1/documents/cfg/versions").json()["head"] == 2
    assert patch(api, "cfg", mine, **{"if-match": '"1"'}).status_code == 412  # stale
    applied = patch(api, "cfg", mine, **{"cfgpatch-rebase-from": "1"})
    assert applied.status_code == 200 and applied.json() == {"version": 3}
    assert api.get("/v1/documents/cfg").text == '{"a":5,"b":{"x":2},"c":{"k":1},"l":[1]}'
    conflict = patch(api, "cfg", [{"op": "replace", "path": "/b/x", "value": 3}],
                     **{"cfgpatch-rebase-from": "1"})
    assert conflict.status_code == 409
    assert conflict.json()["code"] == "conflict"
    assert conflict.json()["pointer"] == "/b/x"
    assert conflict.json()["error"] == "conflict at /b/x"
    assert api.get("/v1/documents/cfg/versions").json()["head"] == 3


def test_if_match_bad_or_unknown_version(api):
    put(api, "cfg", {"a": 1})
    unknown = patch(api, "cfg", [], **{"if-match": '"7"'})
    assert unknown.status_code == 412
    weak_or_other = patch(api, "cfg", [], **{"if-match": "W/\"1\", \"2\""})
    assert weak_or_other.status_code == 412  # strong comparison: W/"1" is not "1"
    garbled = patch(api, "cfg", [], **{"if-match": "1"})
    assert garbled.status_code == 400 and garbled.json()["code"] == "invalid arguments"
    star = patch(api, "cfg", [], **{"if-match": "*"})  # goes ahead, changes nothing
    assert star.status_code == 200 and star.json() == {"version": 1}
    star = patch(api, "cfg", [{"op": "add", "path": "/b", "value": 2}], **{"if-match": "*"})
    assert star.status_code == 200 and star.json() == {"version": 2}


def test_conditional_put(api):
    assert put(api, "cfg", {"a": 1}, **{"if-none-match": "*"}).status_code == 201
    again = put(api, "cfg", {"a": 2}, **{"if-none-match": "*"})
    assert again.status_code == 412
    assert put(api, "cfg", {"a": 2}, **{"if-match": '"1"'}).json() == {"version": 2}
    stale = put(api, "cfg", {"a": 3}, **{"if-match": '"1"'})
    assert stale.status_code == 412 and "version 2" in stale.json()["message"]
    assert api.get("/v1/documents/cfg").text == '{"a":2}'


def test_diff_and_stats(api):
    put(api, "a", {"name": "edge", "ttl": 30, "tags": ["a"], "old": True})
    put(api, "b", {"name": "edge", "ttl": 60, "tags": ["a", "b"], "region": "eu"})
    answer = api.get("/v1/diff", params={"from": "a", "to": "b"})
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/json-patch+json")
    assert json.loads(answer.text) == [
        {"op": "remove", "path": "/old"},
        {"op": "add", "path": "/region", "value": "eu"},
        {"op": "add", "path": "/tags/1", "value": "b"},
        {"op": "replace", "path": "/ttl", "value": 60},
    ]
    stats = api.get("/v1/diff", params={"from": "a@1", "to": "b@1", "stats": "1"}).json()
    assert stats["ops"] == 4 and stats["roundtrip"] is True and len(stats["digest"]) == 12
    put(api, "a", {"x": 1})
    older = api.get("/v1/diff", params={"from": "a@2", "to": "a@1"})
    assert json.loads(older.text)[0]["op"] in ("add", "remove", "replace")


@pytest.mark.parametrize(
    ("params", "status", "code"),
    [
        ({"to": "a"}, 400, "invalid arguments"),
        ({"from": "a", "to": "a@0"}, 400, "invalid arguments"),
        ({"from": "a", "to": "a@x"}, 400, "invalid arguments"),
        ({"from": "a", "to": "zz"}, 404, "unknown document"),
        ({"from": "a@9", "to": "a"}, 404, "unknown version"),
        ({"from": "../etc", "to": "a"}, 400, "invalid name"),
    ],
)
def test_diff_bad_arguments(api, params, status, code):
    put(api, "a", {"x": 1})
    answer = api.get("/v1/diff", params=params)
    assert (answer.status_code, answer.json()["code"]) == (status, code)


def test_lookup_errors(api):
    assert api.get("/v1/documents/nope").status_code == 404
    assert api.get("/v1/documents/nope").json()["code"] == "unknown document"
    put(api, "cfg", {})
    for version in ("2", "0", "-1", "1.0", "x", "01"):
        answer = api.get("/v1/documents/cfg", params={"version": version})
        assert answer.status_code in (400, 404), version
    assert api.get("/v1/documents/cfg", params={"version": "2"}).json()["code"] == (
        "unknown version"
    )
    assert patch(api, "nope", []).json()["code"] == "unknown document"
    rebase = api.post("/v1/documents/cfg/rebase", params={"base": "5"}, content="[]",
                      headers=JSON_PATCH)
    assert rebase.status_code == 404 and rebase.json()["code"] == "unknown version"
    no_base = api.post("/v1/documents/cfg/rebase", content="[]", headers=JSON_PATCH)
    assert no_base.status_code == 400


def test_unknown_route_and_method_are_json(api):
    missing = api.get("/v2/nothing")
    assert missing.status_code == 404 and missing.json()["code"] == "not found"
    wrong = api.post("/v1/documents/cfg")  # DELETE is a route (a tombstone)
    assert wrong.status_code == 405 and wrong.json()["code"] == "method not allowed"


def test_index_page_lists_the_api(api):
    page = api.get("/")
    assert page.status_code == 200
    if page.headers["content-type"].startswith("text/html") and "openapi" in page.text:
        assert "/v1/documents/{name}" in page.text


def test_conditional_get(api):
    put(api, "cfg", {"a": 1})
    same = api.get("/v1/documents/cfg", headers={"if-none-match": '"1"'})
    assert same.status_code == 304 and same.headers["etag"] == '"1"' and same.content == b""
    put(api, "cfg", {"a": 2})
    changed = api.get("/v1/documents/cfg", headers={"if-none-match": '"1"'})
    assert changed.status_code == 200 and changed.text == '{"a":2}'


def test_memory_store_is_serialized_for_the_thread_pool():
    """Racing appends through SerializedStore: exactly one winner per head."""
    import sys

    import store_contract
    from cfgpatch.server.serialized import SerializedStore
    from cfgpatch.store import MemoryStore

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often: the bare MemoryStore then fails this
    try:
        store_contract.check_racing_writers(SerializedStore(MemoryStore()), threads=8, rounds=20)
    finally:
        sys.setswitchinterval(interval)


def test_health_fails_when_the_store_does(tmp_path):
    from starlette.testclient import TestClient

    from cfgpatch.server import create_app
    from cfgpatch.service import Service
    from cfgpatch.store.sqlite import SQLiteStore

    store = SQLiteStore(tmp_path / "h.db")
    client = TestClient(create_app(Service(store), close_store=False),
                        base_url="http://localhost")
    assert client.get("/healthz").json() == {"ok": True, "store": "SQLiteStore"}
    store.close()
    broken = client.get("/healthz")
    assert broken.status_code == 503 and broken.json()["code"] == "store error"


def test_a_write_that_changes_nothing_answers_the_head(tmp_path):
    from server_support import client_for, patch_document, put_document

    with client_for(tmp_path) as client:
        assert put_document(client, "cfg", {"a": 1}).json() == {"version": 1}
        again = put_document(client, "cfg", {"a": 1})
        assert again.status_code == 200 and again.json() == {"version": 1}
        canonical = client.put("/v1/documents/cfg", content='{"a":1}',
                               headers={"content-type": "application/json"})
        assert canonical.json() == {"version": 1} and canonical.headers["etag"] == '"1"'
        assert patch_document(client, "cfg", []).json() == {"version": 1}
        assert patch_document(client, "cfg", {}, merge=True).json() == {"version": 1}
        assert patch_document(client, "cfg", [{"op": "replace", "path": "/a", "value": 1}]
                              ).json() == {"version": 1}
        assert client.get("/v1/documents/cfg/versions").json()["head"] == 1
        forced = client.put("/v1/documents/cfg?force=1", content='{"a":1}',
                            headers={"content-type": "application/json"})
        assert forced.json() == {"version": 2}
        forced = client.patch("/v1/documents/cfg?force=1", content="[]",
                              headers={"content-type": "application/json-patch+json"})
        assert forced.json() == {"version": 3}
        assert patch_document(client, "cfg", [{"op": "replace", "path": "/a", "value": 2}]
                              ).json() == {"version": 4}
        bad = client.put("/v1/documents/cfg?force=yes", content='{"a":1}',
                         headers={"content-type": "application/json"})
        assert bad.status_code == 400 and bad.json()["code"] == "invalid arguments"


def test_every_handler_of_the_api_is_routed(api):
    """A handler that no route reaches is dead code (the history routes are served by
    cfgpatch.server.history)."""
    import inspect

    from cfgpatch.server.app import Api
    from cfgpatch.server.routing import Resource

    routed = set()
    for route in api.app.routes:
        target = getattr(route, "app", None)
        if isinstance(target, Resource):
            routed |= {(type(h.__wrapped__.__self__).__name__, h.__wrapped__.__name__)
                       for h in target.handlers.values()}
    handlers = {("Api", name) for name, member in inspect.getmembers(Api)
                if inspect.iscoroutinefunction(member) and not name.startswith("_")
                and name not in ("call", "follow", "patched")}
    assert handlers - routed == set()
    assert ("History", "list_versions") in routed
