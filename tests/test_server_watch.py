"""Long polls: ``GET /v1/documents/NAME?wait=s`` with ``If-None-Match`` answers when the
next version is committed, by this process or by another one, and 304 on timeout."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import httpx
import pytest

from cfgpatch.server.watch import Watcher
from server_support import JSON, JSON_PATCH, ServerProcess, client_for, put_document


def _bump(url: str, value: int) -> None:
    body = json.dumps([{"op": "replace", "path": "/n", "value": value}])
    assert httpx.patch(url + "/v1/documents/cfg", content=body, headers=JSON_PATCH).status_code == 200


def _poll_after(url: str, tag: str, wait: int, out: list) -> None:
    start = time.monotonic()
    answer = httpx.get(url + "/v1/documents/cfg", params={"wait": str(wait)},
                       headers={"if-none-match": tag}, timeout=wait + 10)
    out.append((answer, time.monotonic() - start))


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """Two server processes on one SQLite file: commits on one, polls on the other."""
    db = tmp_path_factory.mktemp("watch") / "w.db"
    a = ServerProcess(f"sqlite:///{db}", "--poll-interval", "0.3")
    b = ServerProcess(f"sqlite:///{db}", "--poll-interval", "0.3")
    httpx.put(a.url + "/v1/documents/cfg", content=b'{"n":0}', headers=JSON)
    yield a, b
    a.stop()
    b.stop()


def _head(url: str) -> str:
    return httpx.get(url + "/v1/documents/cfg").headers["etag"]


def test_a_commit_in_the_same_process_answers_at_once(pair):
    a, _ = pair
    tag, out = _head(a.url), []
    poll = threading.Thread(target=_poll_after, args=(a.url, tag, 20, out))
    poll.start()
    time.sleep(0.6)
    committed = time.monotonic()
    _bump(a.url, 1)
    poll.join(25)
    answer, _ = out[0]
    assert answer.status_code == 200 and answer.json()["n"] == 1
    assert answer.headers["etag"] != tag
    assert time.monotonic() - committed < 0.5


def test_a_commit_by_another_process_answers_within_the_interval(pair):
    a, b = pair
    tag, out = _head(a.url), []
    poll = threading.Thread(target=_poll_after, args=(a.url, tag, 20, out))
    poll.start()
    time.sleep(0.6)
    committed = time.monotonic()
    _bump(b.url, 2)
    poll.join(25)
    answer, took = out[0]
    assert answer.status_code == 200 and answer.json()["n"] == 2
    assert time.monotonic() - committed < 1.5 and took > 0.5


def test_no_new_version_is_a_304_after_the_wait(pair):
    a, _ = pair
    tag, out = _head(a.url), []
    _poll_after(a.url, tag, 1, out)
    answer, took = out[0]
    assert answer.status_code == 304 and answer.headers["etag"] == tag
    assert 1.0 <= took < 2.5


def test_a_stale_tag_or_no_tag_answers_at_once(tmp_path):
    with client_for(tmp_path) as client:
        put_document(client, "cfg", {"n": 0})
        put_document(client, "cfg", {"n": 1})
        for headers in ({"if-none-match": '"1"'}, {}):
            start = time.monotonic()
            answer = client.get("/v1/documents/cfg?wait=30", headers=headers)
            assert answer.status_code == 200 and time.monotonic() - start < 1
        assert client.get("/v1/documents/nope?wait=5",
                          headers={"if-none-match": '"1"'}).status_code == 404


@pytest.mark.parametrize("wait", ["-1", "61", "1.5", "x", "", "٣"])
def test_bad_waits_are_refused(tmp_path, wait):
    with client_for(tmp_path) as client:
        put_document(client, "cfg", {"n": 0})
        answer = client.get("/v1/documents/cfg", params={"wait": wait},
                            headers={"if-none-match": '"1"'})
        assert answer.status_code == 400 and answer.json()["code"] == "invalid arguments"


def test_many_polls_of_one_document_share_one_head_read_per_interval():
    reads = []

    async def read_head(name):
        reads.append(name)
        return 7

    async def run():
        watcher = Watcher(read_head, interval=0.2)
        results = await asyncio.gather(*(watcher.wait("cfg", lambda head: head == 7, 1.0)
                                         for _ in range(50)))
        return results, watcher.following()

    results, following = asyncio.run(run())
    assert results == [False] * 50 and following == 0
    assert 4 <= len(reads) <= 8  # about one read per 0.2 s, not 50 of them


def test_a_local_commit_wakes_the_polls():
    head = {"cfg": 1}

    async def read_head(name):
        return head[name]

    async def run():
        watcher = Watcher(read_head, interval=30)

        async def commit():
            await asyncio.sleep(0.1)
            head["cfg"] = 2
            watcher.committed("cfg")

        start = asyncio.get_running_loop().time()
        woke, _ = await asyncio.gather(watcher.wait("cfg", lambda h: h == 1, 10), commit())
        return woke, asyncio.get_running_loop().time() - start

    woke, took = asyncio.run(run())
    assert woke and took < 1


def test_a_poll_whose_client_hangs_up_stops_waiting():
    from cfgpatch.server.watch import unless_gone

    async def read_head(name):
        return 1

    async def run():
        watcher = Watcher(read_head, interval=0.1)
        messages = asyncio.Queue()
        messages.put_nowait({"type": "http.request", "body": b"", "more_body": False})

        async def hang_up():
            await asyncio.sleep(0.3)
            messages.put_nowait({"type": "http.disconnect"})

        start = asyncio.get_running_loop().time()
        result, _ = await asyncio.gather(
            unless_gone(watcher.wait("cfg", lambda h: h == 1, 30), messages.get), hang_up())
        return result, asyncio.get_running_loop().time() - start, watcher.following()

    result, took, following = asyncio.run(run())
    assert result is None and took < 1 and following == 0


def test_a_real_poll_whose_client_hangs_up_leaves_no_waiter(pair):
    import socket

    from test_server_metrics import value

    a, _ = pair
    tag = _head(a.url)
    with socket.create_connection(("127.0.0.1", a.port)) as sock:
        sock.sendall(b"GET /v1/documents/cfg?wait=30 HTTP/1.1\r\nHost: localhost\r\n"
                     b"If-None-Match: " + tag.encode() + b"\r\n\r\n")
        time.sleep(0.5)
        assert value(httpx.get(a.url + "/metrics").text, "cfgpatch_long_polls_waiting") == 1
    time.sleep(0.5)
    assert value(httpx.get(a.url + "/metrics").text, "cfgpatch_long_polls_waiting") == 0
