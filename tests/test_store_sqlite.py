"""SQLiteStore against a real file: the shared store contract, WAL durability,
migrations, append-only history and URL parsing."""

from __future__ import annotations

import itertools
import sqlite3

import pytest

import store_contract
from cfgpatch.errors import StoreError
from cfgpatch.store import open_store
from cfgpatch.store.migrations import MIGRATIONS
from cfgpatch.store.sqlite import SQLiteStore


@pytest.fixture
def store(tmp_path):
    opened = SQLiteStore(tmp_path / "cfg.db")
    yield opened
    opened.close()


def test_round_trip(store):
    store_contract.check_round_trip(store)


def test_stale_heads_refused(store):
    store_contract.check_stale_heads_refused(store)


def test_lone_surrogates_refused(store):
    store_contract.check_lone_surrogates_refused(store)



def test_deltas_read_back_whole(store):
    store_contract.check_deltas_read_back_whole(store)


def test_tombstones_and_paging(store):
    store_contract.check_tombstones_and_paging(store)


def test_prune_and_retention(store):
    store_contract.check_prune_and_retention(store)

def test_racing_writers(store):
    store_contract.check_racing_writers(store)


def test_matches_memory_model(tmp_path):
    counter = itertools.count()
    store_contract.check_matches_memory_model(
        lambda: SQLiteStore(tmp_path / f"model{next(counter)}.db")
    )


def test_history_survives_reopen(tmp_path):
    path = tmp_path / "cfg.db"
    first = SQLiteStore(path)
    first.append("cfg", '{"a":1}', expected_head=None, author="alice")
    first.close()
    again = SQLiteStore(path)
    assert again.get("cfg", 1).text == '{"a":1}'
    assert again.versions("cfg")[0].author == "alice"
    assert again.integrity_check() == "ok"
    again.close()


def test_wal_and_full_sync(store):
    store.append("cfg", "1", expected_head=None)
    conn = store._connect()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_history_is_append_only_in_the_database(store):
    store.append("cfg", "1", expected_head=None)
    conn = sqlite3.connect(store.path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE versions SET body = '2'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM versions")
    conn.close()
    assert store.get("cfg", 1).text == "1"


def test_migrations_apply_in_order_and_once(tmp_path):
    path = tmp_path / "old.db"
    old = SQLiteStore(path, schema=MIGRATIONS[:1])
    assert old.schema_version() == 1
    old.close()
    conn = sqlite3.connect(path)  # a row as the first schema's code wrote it
    conn.execute("INSERT INTO versions VALUES ('cfg', 1, '0', '2026-01-01T00:00:00Z', 'a', 'm')")
    conn.execute("UPDATE versions SET body = '1'")  # no trigger before migration 2
    conn.commit()
    conn.close()
    new = SQLiteStore(path)
    assert new.schema_version() == len(MIGRATIONS)
    assert new.migrate() == len(MIGRATIONS)
    rows = new._read("SELECT number FROM cfgpatch_migrations ORDER BY number", ())
    assert rows == [(m.number,) for m in MIGRATIONS]
    assert new.get("cfg", 1).text == "1"
    new.close()


def test_prefix_keeps_stores_apart(tmp_path):
    path = tmp_path / "shared.db"
    a = SQLiteStore(path, prefix="a_")
    b = SQLiteStore(path, prefix="b_")
    a.append("cfg", "1", expected_head=None)
    assert b.head_version("cfg") is None
    a.close()
    b.close()


@pytest.mark.parametrize("bad", ["A-", "x;drop", "1abc", "a" * 60])
def test_bad_prefix_refused(tmp_path, bad):
    with pytest.raises(ValueError, match="prefix"):
        SQLiteStore(tmp_path / "x.db", prefix=bad)


def test_from_url(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rel = open_store("sqlite:///rel.db?prefix=t_")
    assert rel.path == "rel.db" and rel.prefix == "t_"
    rel.close()
    absolute = open_store(f"sqlite:///{tmp_path}/abs.db")
    assert absolute.path == f"{tmp_path}/abs.db"
    absolute.close()
    for bad in ("sqlite://host/x.db", "sqlite:///", "sqlite:x.db"):
        with pytest.raises(ValueError, match="SQLite URL"):
            SQLiteStore.from_url(bad)


def test_unopenable_file_is_a_store_error(tmp_path):
    with pytest.raises(StoreError) as caught:
        SQLiteStore(tmp_path / "missing-dir" / "x.db")
    assert "cannot open SQLite database" in caught.value.message


def test_closed_store_refuses(store):
    store.close()
    with pytest.raises(StoreError) as caught:
        store.head_version("cfg")
    assert "closed" in caught.value.message


def _increment(path: str, rounds: int) -> int:
    """One worker process: ``rounds`` read-modify-write increments through a Service."""
    import json as json_module

    from cfgpatch.errors import PreconditionFailed
    from cfgpatch.preconditions import Preconditions, TagList
    from cfgpatch.service import Service

    service = Service(SQLiteStore(path))
    done = 0
    while done < rounds:
        head = service.head("counter")
        n = service.get_value("counter", head)["n"]
        when = Preconditions(if_match=TagList(strong=frozenset({head})))
        try:
            service.apply("counter", json_module.dumps(
                [{"op": "replace", "path": "/n", "value": n + 1}]), when=when)
        except PreconditionFailed:
            continue
        done += 1
    service.store.close()
    return done


def test_worker_processes_share_one_file_without_losing_a_write(tmp_path):
    """WAL and BEGIN IMMEDIATE: four processes increment one counter through their own
    services (own connections, own caches); every increment lands once, and every
    version, most of them deltas, reads back whole."""
    import multiprocessing

    from cfgpatch.service import Service

    path = tmp_path / "shared.db"
    pad = "x" * 100  # so that a version is kept as a delta (shorter than the text)
    Service(SQLiteStore(path)).put("counter", f'{{"n":0,"pad":"{pad}"}}')
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        assert pool.starmap(_increment, [(str(path), 25)] * 4) == [25] * 4
    store = SQLiteStore(path)
    assert store.head_version("counter") == 101
    assert [store.get("counter", v).text for v in range(1, 102)] == [
        f'{{"n":{n},"pad":"{pad}"}}' for n in range(101)]
    kinds = [row.kind for row in store.chain("counter", 96)]
    assert kinds == [0] + [1] * 31  # version 65 whole, 66..96 deltas
    store.close()
