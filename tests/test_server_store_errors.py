"""Store failures and internal errors: the database's text goes to the log, never to
the client, who gets a generic message and a request id that is in the log too."""

from __future__ import annotations

import logging

import pytest
from starlette.testclient import TestClient

from cfgpatch.errors import StoreError
from cfgpatch.server import create_app
from cfgpatch.service import Service
from cfgpatch.store.memory import MemoryStore
from server_support import JSON

ROW = ('PostgreSQL write failed: new row for relation "t_versions" violates check '
       'constraint "versions_text_check" DETAIL: Failing row contains (cfg, 2, {"password":'
       '"hunter2"}).')


class FailingStore(MemoryStore):
    """Appends fail the way a database refusing a row does."""

    def append(self, *args, **kwargs):
        raise StoreError(ROW)


class BrokenService(Service):
    def names(self):
        raise RuntimeError("cursor state: SELECT name FROM t_versions /* internal detail */")


@pytest.fixture
def client():
    app = create_app(Service(FailingStore()), close_store=False)
    return TestClient(app, base_url="http://localhost", raise_server_exceptions=False)


def test_store_error_text_is_logged_not_sent(client, caplog):
    caplog.set_level(logging.ERROR, logger="cfgpatch.server")
    answer = client.put("/v1/documents/cfg", content='{"password":"hunter2"}', headers=JSON)
    assert answer.status_code == 503
    body = answer.json()
    assert body["code"] == "store error" and body["error"] == "store error"
    for secret in ("hunter2", "DETAIL", "versions_text_check", "t_versions", "PostgreSQL"):
        assert secret not in answer.text
    request_id = body["request_id"]
    assert request_id in body["message"] and answer.headers["x-request-id"] == request_id
    logged = [r.getMessage() for r in caplog.records if request_id in r.getMessage()]
    assert logged and "Failing row contains" in logged[0]


def test_internal_errors_get_a_request_id_too(caplog):
    caplog.set_level(logging.ERROR, logger="cfgpatch.server")
    app = create_app(BrokenService(MemoryStore()), close_store=False)
    client = TestClient(app, base_url="http://localhost", raise_server_exceptions=False)
    answer = client.get("/v1/documents")
    assert answer.status_code == 500 and answer.json()["code"] == "internal error"
    assert "cursor" not in answer.text and "t_versions" not in answer.text
    request_id = answer.json()["request_id"]
    assert any(request_id in r.getMessage() and "t_versions" in r.getMessage()
               for r in caplog.records)


def test_other_errors_keep_their_messages(client):
    answer = client.get("/v1/documents/nope")
    assert answer.status_code == 404 and "nope" in answer.json()["message"]
    assert "request_id" not in answer.json()
