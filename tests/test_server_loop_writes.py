"""PATCH on the event loop (cfgpatch.server.loop_writes): taken when the head is known
and cached, left for the thread path otherwise, and a refusal on a stale guessed head
judged again on the store's head (two apps over one SQLite file: two processes); and
the document route's direct chain (cfgpatch.server.direct)."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from cfgpatch.server import create_app
from cfgpatch.server.loop_writes import MAX_HEAD_CHARS, MAX_PATCH_BYTES
from cfgpatch.service import Service
from cfgpatch.store.sqlite import SQLiteStore
from server_support import JSON_PATCH, put_document


def loop_items(client: TestClient) -> int:
    """Rows the app's store appended through its loops' group commits."""
    store = client.app.state.service.store  # type: ignore[attr-defined]
    return sum(commits.items for commits in store._loop_commits._commits.values())


def patch(client: TestClient, ops: list, **headers: str):
    return client.patch("/v1/documents/cfg", content=json.dumps(ops),
                        headers={**JSON_PATCH, **headers})


@pytest.fixture
def two_apps(tmp_path):
    """Two apps (as two worker processes would be) over one SQLite file."""
    clients = [TestClient(create_app(Service(SQLiteStore(tmp_path / "shared.db"))),
                          raise_server_exceptions=False, base_url="http://localhost")
               for _ in range(2)]
    with clients[0], clients[1]:
        yield clients


def test_a_patch_on_a_known_cached_head_is_appended_by_the_loop(two_apps):
    api, _ = two_apps
    assert put_document(api, "cfg", {"n": 0}).status_code == 201  # thread path: head known
    for n in (1, 2):
        answer = patch(api, [{"op": "replace", "path": "/n", "value": n}])
        assert answer.status_code == 200 and answer.json() == {"version": n + 1}
        assert answer.headers["etag"] == f'"{n + 1}"'
    assert loop_items(api) == 2
    assert api.get("/v1/documents/cfg").json() == {"n": 2}


def test_a_head_whose_value_is_not_cached_takes_the_thread_path(two_apps):
    api, _ = two_apps
    put_document(api, "cfg", {"n": 0})
    api.app.state.service.values.clear()  # type: ignore[attr-defined]
    answer = patch(api, [{"op": "replace", "path": "/n", "value": 1}])
    assert answer.status_code == 200 and answer.json() == {"version": 2}
    assert loop_items(api) == 0
    assert patch(api, [{"op": "replace", "path": "/n", "value": 2}]).status_code == 200
    assert loop_items(api) == 1  # the thread path cached the head it wrote


def test_large_writes_take_the_thread_path(two_apps):
    """A long computation would hold every request of the process on the loop."""
    api, _ = two_apps
    put_document(api, "cfg", {"n": 0, "big": "x" * (MAX_HEAD_CHARS + 1)})
    assert patch(api, [{"op": "replace", "path": "/n", "value": 1}]).status_code == 200
    assert loop_items(api) == 0  # a head over MAX_HEAD_CHARS
    assert patch(api, [{"op": "replace", "path": "/big", "value": ""}]).status_code == 200
    assert loop_items(api) == 0  # (the head this wrote is small: the next may use the loop)
    large = [{"op": "replace", "path": "/big", "value": "y" * MAX_PATCH_BYTES}]
    assert patch(api, large).status_code == 200
    assert loop_items(api) == 0  # a patch over MAX_PATCH_BYTES
    patch(api, [{"op": "replace", "path": "/big", "value": ""}])
    assert patch(api, [{"op": "replace", "path": "/n", "value": 2}]).status_code == 200
    assert loop_items(api) == 2
    assert api.get("/v1/documents/cfg").json() == {"n": 2, "big": ""}


def test_a_rebased_patch_takes_the_thread_path(two_apps):
    api, _ = two_apps
    put_document(api, "cfg", {"n": 0, "m": 0})
    patch(api, [{"op": "replace", "path": "/n", "value": 1}])
    before = loop_items(api)
    answer = patch(api, [{"op": "replace", "path": "/m", "value": 1}],
                   **{"cfgpatch-rebase-from": "1"})
    assert answer.status_code == 200 and answer.json() == {"version": 3}
    assert loop_items(api) == before
    assert api.get("/v1/documents/cfg").json() == {"n": 1, "m": 1}


def test_a_stale_guess_is_judged_again_on_the_stores_head(two_apps):
    mine, other = two_apps
    put_document(mine, "cfg", {"n": 0, "m": 0})  # mine knows head 1, cached
    assert patch(other, [{"op": "replace", "path": "/m", "value": 1}]).json() == {"version": 2}
    # on mine's guessed head 1, If-Match "1" holds; the store's head is 2: 412
    refused = patch(mine, [{"op": "replace", "path": "/n", "value": 1}], **{"if-match": '"1"'})
    assert refused.status_code == 412
    assert loop_items(mine) == 1  # the loop tried, and the append found the head moved
    answer = patch(mine, [{"op": "replace", "path": "/n", "value": 1}])
    assert answer.status_code == 200 and answer.json() == {"version": 3}
    assert mine.get("/v1/documents/cfg").json() == {"n": 1, "m": 1}


def test_a_refusal_on_the_loop_is_the_same_answer(two_apps):
    api, _ = two_apps
    put_document(api, "cfg", {"n": 0})
    failed = patch(api, [{"op": "test", "path": "/n", "value": 5}])
    assert failed.status_code == 409 and failed.json()["code"] == "test failed"
    missing = patch(api, [{"op": "remove", "path": "/nope"}])
    assert missing.status_code == 422
    merged = api.patch("/v1/documents/cfg", content=b'{"k": 1}',
                       headers={"content-type": "application/merge-patch+json"})
    assert merged.status_code == 200 and merged.json() == {"version": 2}
    assert loop_items(api) == 1


def test_document_requests_take_the_direct_chain(tmp_path):
    """GET, PUT and PATCH of a document reach their route without Starlette's router
    (emptied here: every other path answers 404), with the same layers of ours."""
    app = create_app(Service(SQLiteStore(tmp_path / "direct.db")))
    with TestClient(app, raise_server_exceptions=False, base_url="http://localhost") as api:
        app.router.routes.clear()
        assert put_document(api, "cfg", {"n": 0}).status_code == 201
        answer = patch(api, [{"op": "replace", "path": "/n", "value": 1}],
                       **{"x-request-id": "req-7"})
        assert answer.status_code == 200 and answer.headers["x-request-id"] == "req-7"
        assert api.get("/v1/documents/cfg").json() == {"n": 1}
        refused = api.get("/v1/documents/cfg", headers={"host": "rebind.example"})
        assert refused.status_code == 421 and refused.json()["code"] == "misdirected request"
        assert "x-request-id" in refused.headers
        assert api.get("/v1/documents/a%2Fb").status_code == 400  # the raw path check
        assert api.delete("/v1/documents/cfg").status_code == 200  # the route's methods
        assert api.post("/v1/documents/cfg").status_code == 405
        assert api.get("/v1/documents").status_code == 404  # not a document: the router
