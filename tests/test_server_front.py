"""The front of every request: request ids, body deadlines, concurrency slots that slow
bodies cannot hold, disconnects mid-body, one Content-Type (the parser's JSON 400:
test_server_protocol.py)."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time

import httpx
import pytest
from starlette.testclient import TestClient

from cfgpatch.server import create_app
from cfgpatch.server.front import request_id_of
from cfgpatch.service import Service
from cfgpatch.store.memory import MemoryStore
from server_support import JSON, ServerProcess, client_for, put_document


@pytest.fixture
def api(tmp_path):
    with client_for(tmp_path) as client:
        yield client


# -- X-Request-Id ---------------------------------------------------------------

def test_every_answer_carries_a_request_id(api):
    answers = [put_document(api, "cfg", {"a": 1}), api.get("/v1/documents/cfg"),
               api.get("/v1/documents/nope"), api.get("/healthz"), api.get("/v1/nothing"),
               api.post("/v1/documents/cfg"), api.get("/metrics"),
               api.get("/healthz", headers={"host": "evil.example"})]
    ids = [answer.headers.get("x-request-id") for answer in answers]
    assert [a.status_code for a in answers] == [201, 200, 404, 200, 404, 405, 200, 421]
    assert all(ids) and len(set(ids)) == len(ids)
    assert all(len(i) == 16 and int(i, 16) >= 0 for i in ids)


def test_a_client_request_id_is_echoed(api):
    answer = api.get("/v1/documents/nope", headers={"x-request-id": "abc-123.x:y_z"})
    assert answer.status_code == 404 and answer.headers["x-request-id"] == "abc-123.x:y_z"
    assert answer.headers.get_list("x-request-id") == ["abc-123.x:y_z"]


@pytest.mark.parametrize("sent", [b"", b"a" * 129, b"two words", b"\xff", b"a\x00b"])
def test_an_unusable_request_id_is_replaced(sent):
    made = request_id_of({"headers": [(b"x-request-id", sent)]})
    assert made != sent.decode("latin-1") and len(made) == 16


class BrokenService(Service):
    def names(self):
        raise RuntimeError("internal detail")


def test_internal_errors_use_the_request_id_of_the_request(caplog):
    app = create_app(BrokenService(MemoryStore()), close_store=False)
    client = TestClient(app, base_url="http://localhost", raise_server_exceptions=False)
    answer = client.get("/v1/documents", headers={"x-request-id": "trace-77"})
    assert answer.status_code == 500 and answer.json()["request_id"] == "trace-77"
    assert answer.headers["x-request-id"] == "trace-77"
    logged = [r for r in caplog.records if "trace-77" in r.getMessage()]
    assert len(logged) == 1 and logged[0].exc_info is not None  # one line, one traceback


# -- Content-Type ---------------------------------------------------------------

def test_two_content_types_are_refused(tmp_path):
    with client_for(tmp_path) as client:
        put_document(client, "cfg", {"a": 1})
        for headers in ([("content-type", "application/json-patch+json"),
                         ("content-type", "application/merge-patch+json")],
                        [("content-type", "application/merge-patch+json, "
                                          "application/json-patch+json")]):
            answer = client.patch("/v1/documents/cfg", content=b'{"a": 2}', headers=headers)
            assert answer.status_code == 400, answer.text
            assert answer.json()["code"] == "invalid arguments"
            assert "Content-Type" in answer.json()["message"]
        assert client.get("/v1/documents/cfg").text == '{"a":1}'


# -- concurrency slots ----------------------------------------------------------

class SlowNames(Service):
    def names(self):
        time.sleep(0.5)
        return []


def test_beyond_the_limit_a_json_503_with_retry_after():
    app = create_app(SlowNames(MemoryStore()), close_store=False, limit_concurrency=1)

    async def both():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as c:
            return await asyncio.gather(c.get("/v1/documents"), c.get("/v1/documents"))

    answers = asyncio.run(both())
    assert sorted(a.status_code for a in answers) == [200, 503]
    refused = next(a for a in answers if a.status_code == 503)
    assert refused.json()["code"] == "overloaded" and refused.headers["retry-after"] == "1"


# -- real servers: slow bodies, disconnects, the parser ----------------------------

@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("front")
    log = folder / "server.log"
    process = ServerProcess(f"sqlite:///{folder / 's.db'}", "--limit-concurrency", "2",
                            "--body-timeout", "3", "--log-level", "info", log=log)
    httpx.put(process.url + "/v1/documents/cfg", content=b'{"n":0}', headers=JSON)
    yield process
    process.stop()


def _slow_body(port: int, stop: threading.Event, out: list) -> None:
    """A PATCH whose body comes one byte a second (what it finally gets is kept)."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"PATCH /v1/documents/cfg HTTP/1.1\r\nHost: localhost\r\n"
                     b"Content-Type: application/merge-patch+json\r\nContent-Length: 40\r\n\r\n")
        sock.settimeout(0.2)
        data = b""
        while not stop.is_set():
            try:
                sock.sendall(b" ")
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
            except TimeoutError:
                continue
            except OSError:
                break
            time.sleep(0.8)
        out.append(data)


def test_slow_bodies_do_not_hold_the_concurrency_slots(server):
    stop, out = threading.Event(), []
    slow = [threading.Thread(target=_slow_body, args=(server.port, stop, out))
            for _ in range(6)]  # three times --limit-concurrency
    for thread in slow:
        thread.start()
    try:
        time.sleep(0.8)
        for _ in range(5):
            start = time.monotonic()
            answer = httpx.get(server.url + "/v1/documents/cfg", timeout=5)
            assert answer.status_code == 200 and time.monotonic() - start < 1.0
    finally:
        time.sleep(3)  # the body deadline (3 s) ends them: 408, connection closed
        stop.set()
        for thread in slow:
            thread.join(10)
    assert len(out) == 6
    for data in out:
        head, _, body = data.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408") and b"connection: close" in head.lower()
        assert json.loads(body)["code"] == "request timeout"
    assert httpx.get(server.url + "/v1/documents/cfg").text == '{"n":0}'


def test_a_client_leaving_mid_body_is_logged_as_such(server):
    before = server.log.read_text()
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(b"PUT /v1/documents/gone HTTP/1.1\r\nHost: localhost\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\": 1")
        time.sleep(0.3)
    time.sleep(0.5)
    logged = server.log.read_text()[len(before):]
    assert "went away after 7 bytes of the body of PUT /v1/documents/gone" in logged
    assert "Traceback" not in logged and "ERROR" not in logged and "internal" not in logged
    assert httpx.get(server.url + "/v1/documents/gone").status_code == 404
