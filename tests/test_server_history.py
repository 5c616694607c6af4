"""cfgpatch.server.history over HTTP (in process, SQLite; the ``durable_client`` tests
on PostgreSQL too): history pages with a Link header, deletion as a tombstone version,
restore, retention policies (deleted documents included), and no-op writes answered
with the head (``?force=1`` commits)."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

import pg_support
from cfgpatch.server import create_app
from cfgpatch.service import Service
from cfgpatch.store.postgres import PostgresStore
from cfgpatch.store.sqlite import SQLiteStore
from server_support import JSON, client_for, patch_document, put_document


def test_history_pages_follow_the_link_header(tmp_path):
    with client_for(tmp_path) as client:
        for n in range(7):
            put_document(client, "cfg", {"n": n})
        whole = client.get("/v1/documents/cfg/versions").json()
        assert [v["version"] for v in whole["versions"]] == list(range(1, 8))
        seen, url = [], "/v1/documents/cfg/versions?limit=3"
        while url:
            page = client.get(url)
            assert page.status_code == 200 and page.headers["etag"] == '"7"'
            seen += [v["version"] for v in page.json()["versions"]]
            link = page.headers.get("link")
            url = link[1:link.index(">")] if link else None
            assert link is None or link.endswith('>; rel="next"')
        assert seen == list(range(1, 8))
        assert client.get("/v1/documents/cfg/versions?after=5").json()["versions"][0][
            "version"] == 6
        for bad in ("limit=0", "limit=1001", "after=-1", "limit=x", "after=1&after=2"):
            answer = client.get(f"/v1/documents/cfg/versions?{bad}")
            assert answer.status_code == 400 and answer.json()["code"] == "invalid arguments"


def test_delete_is_a_tombstone_and_restore_brings_a_version_back(tmp_path):
    with client_for(tmp_path) as client:
        put_document(client, "cfg", {"a": 1})
        patch_document(client, "cfg", [{"op": "add", "path": "/b", "value": 2}])
        stale = client.delete("/v1/documents/cfg", headers={"if-match": '"1"'})
        assert stale.status_code == 412
        gone = client.delete("/v1/documents/cfg?message=retired")
        assert gone.status_code == 200 and gone.json() == {"version": 3, "deleted": True}
        assert client.get("/v1/documents/cfg").status_code == 404
        assert client.delete("/v1/documents/cfg").status_code == 404
        assert client.get("/v1/documents/cfg?version=2").json() == {"a": 1, "b": 2}
        history = client.get("/v1/documents/cfg/versions").json()["versions"]
        assert history[-1]["deleted"] is True and history[-1]["message"] == "retired"
        assert "deleted" not in history[0]
        back = client.post("/v1/documents/cfg/restore?version=1")
        assert back.status_code == 200 and back.json() == {"version": 4}
        assert client.get("/v1/documents/cfg").json() == {"a": 1}
        assert client.post("/v1/documents/cfg/restore").status_code == 400
        assert client.post("/v1/documents/cfg/restore?version=9").status_code == 404


def test_a_write_that_changes_nothing_answers_the_head(tmp_path):
    with client_for(tmp_path) as client:
        assert put_document(client, "cfg", {"a": 1}).json() == {"version": 1}
        same = put_document(client, "cfg", {"a": 1})
        assert same.status_code == 200 and same.json() == {"version": 1}
        assert patch_document(client, "cfg", []).json() == {"version": 1}
        assert patch_document(client, "cfg", {"a": 1}, merge=True).json() == {"version": 1}
        forced = client.patch("/v1/documents/cfg?force=1", content="[]",
                              headers={"content-type": "application/json-patch+json"})
        assert forced.json() == {"version": 2}
        assert len(client.get("/v1/documents/cfg/versions").json()["versions"]) == 2


def test_retention_policies_are_set_read_and_checked(tmp_path):
    tokens = json.dumps({"tokens": [
        {"name": "admin", "token": "admin-token-0123456789", "write": [""]},
        {"name": "team", "token": "team-token-0123456789", "write": ["team-"]},
    ]})
    admin = {"authorization": "Bearer admin-token-0123456789", **JSON}
    team = {"authorization": "Bearer team-token-0123456789", **JSON}
    with client_for(tmp_path, tokens=tokens, allowed_hosts=["*"]) as client:
        policy = {"prefix": "team-a-", "keep_last": 50, "keep_seconds": None}
        assert client.put("/v1/retention", content=json.dumps(policy), headers=team).json() \
            == policy
        everything = client.put("/v1/retention", headers=team,
                                content=json.dumps({"prefix": "", "keep_last": 5}))
        assert everything.status_code == 403
        assert client.put("/v1/retention", headers=admin, content=json.dumps(
            {"prefix": "", "keep_seconds": 86400})).status_code == 200
        assert client.get("/v1/retention", headers=team).json() == {"policies": [policy]}
        assert len(client.get("/v1/retention", headers=admin).json()["policies"]) == 2
        for bad in ({"prefix": "x", "keep_last": 0}, {"prefix": 1}, [],
                    {"prefix": "x", "keep": 1}, {"prefix": "x", "keep_last": 1.5}):
            answer = client.put("/v1/retention", content=json.dumps(bad), headers=admin)
            assert answer.status_code == 400, bad


def test_a_put_that_writes_a_deleted_document_again_creates_it(tmp_path):
    with client_for(tmp_path) as client:
        assert put_document(client, "cfg", {"a": 1}).status_code == 201
        assert client.delete("/v1/documents/cfg").status_code == 200
        again = put_document(client, "cfg", {"a": 1})
        assert again.status_code == 201 and again.json() == {"version": 3}
        assert put_document(client, "cfg", {"a": 2}).status_code == 200
        forced = client.put("/v1/documents/cfg?force=1", content='{"a":2}', headers=JSON)
        assert forced.status_code == 200 and forced.json() == {"version": 5}


def test_a_put_reads_the_head_at_most_once(tmp_path):
    with client_for(tmp_path) as client:
        store = client.app.state.service.store
        calls = []
        for method in ("head_version", "head_state"):
            real = getattr(store, method)
            setattr(store, method, lambda *a, _real=real, _m=method, **k: (calls.append(_m),
                                                                           _real(*a, **k))[1])
        # A new name reads the head; a write on the head this process wrote reads
        # nothing (the append checks it); a no-op is answered from a head read.
        for doc, status, reads in (({"a": 1}, 201, 1), ({"a": 2}, 200, 0),
                                   ({"a": 2}, 200, 1)):
            calls.clear()
            assert put_document(client, "cfg", doc).status_code == status
            assert calls == ["head_state"] * reads, (doc, calls)


def test_retention_runs_on_demand_over_the_documents_the_caller_may_write(tmp_path):
    tokens = json.dumps({"tokens": [
        {"name": "admin", "token": "admin-token-0123456789", "write": [""]},
        {"name": "team", "token": "team-token-0123456789", "write": ["team-"]},
    ]})
    admin = {"authorization": "Bearer admin-token-0123456789", **JSON}
    team = {"authorization": "Bearer team-token-0123456789", **JSON}
    with client_for(tmp_path, tokens=tokens, allowed_hosts=["*"]) as client:
        for name in ("team-a", "other", "team-b"):
            for n in range(40 if name != "team-b" else 3):
                assert put_document(client, name, {"n": n}, **admin).status_code in (200, 201)
        # The policy comes after the writes: no write applies it (version 40 starts no block).
        client.put("/v1/retention", headers=admin, content=json.dumps(
            {"prefix": "", "keep_last": 1}))
        first = client.get("/v1/documents/team-a/versions", headers=team).json()["versions"]
        assert first[0]["version"] == 1
        run = client.post("/v1/retention/run", headers=team)
        assert run.status_code == 200 and run.json() == {"removed": {"team-a": 32},
                                                         "versions": 32}
        kept = client.get("/v1/documents/team-a/versions", headers=team).json()["versions"]
        assert [v["version"] for v in kept] == list(range(33, 41))
        assert client.get("/v1/documents/team-a?version=1", headers=team).status_code == 404
        assert client.get("/v1/documents/team-a", headers=team).json() == {"n": 39}
        assert client.post("/v1/retention/run?prefix=team-", headers=admin).json() == {
            "removed": {}, "versions": 0}
        assert client.post("/v1/retention/run", headers=admin).json() == {
            "removed": {"other": 32}, "versions": 32}
        assert client.post("/v1/retention/run").status_code == 401


def test_the_server_sweeps_retention_in_the_background(tmp_path):
    import time

    from cfgpatch.server.limits import Timeouts

    with client_for(tmp_path, timeouts=Timeouts(retention_sweep=0.2)) as client:
        for n in range(40):
            put_document(client, "cfg", {"n": n})
        client.put("/v1/retention", headers=JSON, content=json.dumps(
            {"prefix": "", "keep_last": 2}))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            versions = client.get("/v1/documents/cfg/versions").json()["versions"]
            if versions[0]["version"] != 1:
                break
            time.sleep(0.1)
        assert versions[0]["version"] == 33 and versions[-1]["version"] == 40


@pytest.fixture(params=["sqlite", "postgres"])
def durable_client(request, tmp_path):
    """A test client over a fresh SQLite file or PostgreSQL tables (each test's own)."""
    if request.param == "sqlite":
        store = SQLiteStore(tmp_path / "api.db")
        yield TestClient(create_app(Service(store)), raise_server_exceptions=False,
                         base_url="http://localhost")
        return
    pg_support.require_postgres()
    prefix = pg_support.unique_prefix()
    try:
        store = PostgresStore.from_url(pg_support.url_with_prefix(prefix))
        yield TestClient(create_app(Service(store)), raise_server_exceptions=False,
                         base_url="http://localhost")
    finally:
        pg_support.drop_prefix(prefix)


def test_retention_sweeps_deleted_documents_and_a_put_creates_them_again(durable_client):
    with durable_client as client:
        service = client.app.state.service
        for n in range(70):  # versions 1..70 (two whole blocks and a bit)
            service.put_value("gone", {"n": n})
        service.put_value("kept", {"n": 0})
        assert client.delete("/v1/documents/gone").json() == {"version": 71, "deleted": True}
        assert client.get("/v1/documents").json() == {"documents": ["kept"]}
        client.put("/v1/retention", headers=JSON, content=json.dumps(
            {"prefix": "", "keep_last": 1}))
        # The tombstone (version 71) is the head: its block (65..71) stays, the rest goes.
        run = client.post("/v1/retention/run")
        assert run.status_code == 200, run.text
        assert run.json() == {"removed": {"gone": 64}, "versions": 64}
        history = client.get("/v1/documents/gone/versions").json()["versions"]
        assert [v["version"] for v in history] == list(range(65, 72))
        assert history[-1]["deleted"] is True
        assert client.get("/v1/documents/gone?version=64").status_code == 404
        assert client.get("/v1/documents/gone?version=70").json() == {"n": 69}
        assert client.post("/v1/retention/run").json() == {"removed": {}, "versions": 0}
        # Written again, the document is created (201), its numbering continued.
        again = put_document(client, "gone", {"n": "back"})
        assert again.status_code == 201 and again.json() == {"version": 72}
        assert put_document(client, "gone", {"n": "again"}).status_code == 200
        assert client.get("/v1/documents").json() == {"documents": ["gone", "kept"]}
