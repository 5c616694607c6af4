"""No lost update: real uvicorn servers, 16 concurrent clients, hundreds of
guarded patches each; the history must replay to the head exactly.  And the
classic lost-update load: 16 clients doing read-modify-write increments with
If-Match (retrying on 412), on SQLite and on two PostgreSQL replicas: the
counter must equal the number of acknowledged increments."""

from __future__ import annotations

import os

import pytest

import pg_support
from cfgpatch.store.postgres import PostgresStore
from cfgpatch.store.sqlite import SQLiteStore
from load_support import run_increments, run_load, verify_history, verify_increments
from server_support import ServerProcess

CLIENTS = 16
pytestmark = pytest.mark.timeout(240)
ATTEMPTS = int(os.environ.get("CFGPATCH_LOAD_ATTEMPTS", "200"))
INCREMENTS = int(os.environ.get("CFGPATCH_LOAD_INCREMENTS", "20"))


def test_if_match_increments_on_sqlite_lose_nothing(tmp_path):
    db = tmp_path / "inc.db"
    server = ServerProcess(f"sqlite:///{db}", log=tmp_path / "server.log")
    try:
        outcome = run_increments([server.url], "ctr", clients=CLIENTS, each=INCREMENTS)
    finally:
        server.stop()
    store = SQLiteStore(db)
    try:
        summary = verify_increments(store, "ctr", outcome)
    finally:
        store.close()
    assert summary["increments"] == CLIENTS * INCREMENTS, summary
    assert summary["retries_on_412"] > 0, summary  # the clients really raced
    print(summary)


def test_if_match_increments_on_two_postgresql_replicas_lose_nothing(tmp_path):
    pg_support.require_postgres()
    prefix = pg_support.unique_prefix()
    url = pg_support.url_with_prefix(prefix)
    servers = []
    try:
        servers = [ServerProcess(url, log=tmp_path / f"server{i}.log") for i in range(2)]
        outcome = run_increments([s.url for s in servers], "ctr", clients=CLIENTS,
                                 each=INCREMENTS)
        for s in servers:
            s.stop()
        store = PostgresStore.from_url(url)
        try:
            summary = verify_increments(store, "ctr", outcome)
        finally:
            store.close()
    finally:
        for s in servers:
            s.stop()
        pg_support.drop_prefix(prefix)
    assert summary["increments"] == CLIENTS * INCREMENTS, summary
    assert summary["retries_on_412"] > 0, summary
    print(summary)


def test_one_server_on_sqlite(tmp_path):
    db = tmp_path / "load.db"
    server = ServerProcess(f"sqlite:///{db}", log=tmp_path / "server.log")
    try:
        outcome = run_load([server.url], "load", clients=CLIENTS, attempts=ATTEMPTS)
    finally:
        server.stop()
    store = SQLiteStore(db)
    try:
        summary = verify_history(store, "load", outcome, CLIENTS)
        assert store.integrity_check() == "ok"
    finally:
        store.close()
    assert summary["acks"] >= ATTEMPTS, summary  # the rebasing half always commits
    assert summary["refused"] > 0, summary  # the test-guarded half really raced
    print(summary)


def test_two_servers_sharing_postgresql(tmp_path):
    pg_support.require_postgres()
    prefix = pg_support.unique_prefix()
    url = pg_support.url_with_prefix(prefix)
    servers = []
    try:
        servers = [ServerProcess(url, log=tmp_path / f"server{i}.log") for i in range(2)]
        outcome = run_load([s.url for s in servers], "load", clients=CLIENTS, attempts=ATTEMPTS)
        for s in servers:
            s.stop()
        store = PostgresStore.from_url(url)
        try:
            summary = verify_history(store, "load", outcome, CLIENTS)
        finally:
            store.close()
    finally:
        for s in servers:
            s.stop()
        pg_support.drop_prefix(prefix)
    assert summary["acks"] >= ATTEMPTS and summary["refused"] > 0, summary
    print(summary)


@pytest.mark.parametrize("clients", [16])
def test_racing_puts_on_one_new_name(tmp_path, clients):
    """Many clients creating one document with If-None-Match: * -> exactly one 201."""
    import threading

    import httpx

    server = ServerProcess(f"sqlite:///{tmp_path / 'create.db'}")
    statuses: list[int] = []
    barrier = threading.Barrier(clients)

    def create(i: int) -> None:
        barrier.wait()
        answer = httpx.put(f"{server.url}/v1/documents/new", content=f'{{"by":{i}}}',
                           headers={"content-type": "application/json", "if-none-match": "*"})
        statuses.append(answer.status_code)

    try:
        threads = [threading.Thread(target=create, args=(i,)) for i in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(statuses) == [201] + [412] * (clients - 1)
        assert httpx.get(f"{server.url}/v1/documents/new/versions").json()["head"] == 1
    finally:
        server.stop()
