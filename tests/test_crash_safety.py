"""Crash safety: SIGKILL the server in the middle of the concurrent load,
restart it, and check that every acknowledged commit is there, that nothing is
half-written, and (SQLite) that the file passes ``PRAGMA integrity_check``."""

from __future__ import annotations

import threading
import time

import pytest

import pg_support
from cfgpatch.store.postgres import PostgresStore
from cfgpatch.store.sqlite import SQLiteStore
from load_support import Outcome, run_load, verify_history
from server_support import ServerProcess

CLIENTS = 16
pytestmark = pytest.mark.timeout(240)


def load_until_killed(servers: list[ServerProcess], victims: list[ServerProcess], name: str,
                      kill_after_acks: int):
    """Run the load, SIGKILL ``victims`` once ``kill_after_acks`` commits were acknowledged."""
    outcome = Outcome()
    thread = threading.Thread(
        target=run_load,
        args=([s.url for s in servers], name),
        kwargs={"clients": CLIENTS, "attempts": 100_000, "outcome": outcome},
    )
    thread.start()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(outcome.acks) < kill_after_acks:
        time.sleep(0.02)
    for victim in victims:
        victim.kill()
    if len(victims) < len(servers):  # the survivors keep serving: stop the clients
        time.sleep(0.5)
        for server in servers:
            server.kill()
    thread.join(60)
    assert not thread.is_alive(), "clients did not stop after the kill"
    return outcome


def test_sigkill_sqlite_server_mid_load(tmp_path):
    db = tmp_path / "crash.db"
    url = f"sqlite:///{db}"
    log = tmp_path / "server.log"
    for round_no in range(2):
        server = ServerProcess(url, log=log)
        outcome = load_until_killed([server], [server], f"doc{round_no}", kill_after_acks=150)
        assert server.proc.returncode == -9
        restarted = ServerProcess(url, log=log)  # recovery happens on open
        try:
            store = SQLiteStore(db)
            try:
                assert store.integrity_check() == "ok"
                summary = verify_history(store, f"doc{round_no}", outcome, CLIENTS,
                                         allow_in_doubt=True)
            finally:
                store.close()
            assert summary["acks"] >= 150, summary
            print(summary)
            check_still_writable(restarted, f"after{round_no}")
        finally:
            restarted.stop()


def test_sigkill_one_postgresql_replica_mid_load(tmp_path):
    pg_support.require_postgres()
    prefix = pg_support.unique_prefix()
    url = pg_support.url_with_prefix(prefix)
    servers = []
    try:
        servers = [ServerProcess(url, log=tmp_path / f"s{i}.log") for i in range(2)]
        outcome = load_until_killed(servers, servers[:1], "doc", kill_after_acks=150)
        store = PostgresStore.from_url(url)
        try:
            summary = verify_history(store, "doc", outcome, CLIENTS, allow_in_doubt=True)
        finally:
            store.close()
        assert summary["acks"] >= 150, summary
        again = ServerProcess(url, log=tmp_path / "again.log")
        try:
            check_still_writable(again, "after")
        finally:
            again.stop()
    finally:
        for s in servers:
            s.stop()
        pg_support.drop_prefix(prefix)


def check_still_writable(server: ServerProcess, name: str) -> None:
    outcome = run_load([server.url], name, clients=4, attempts=5)
    assert len(outcome.acks) >= 10 and not outcome.unexpected
