"""PostgresStore against the real PostgreSQL server: the shared store contract,
racing writers on separate connections, migrations and append-only history."""

from __future__ import annotations

import threading

import pytest

import pg_support
import store_contract
from cfgpatch.errors import StoreError
from cfgpatch.store import ConcurrentUpdate, open_store
from cfgpatch.store.migrations import MIGRATIONS
from cfgpatch.store.postgres import PostgresStore, split_url


@pytest.fixture(autouse=True)
def _postgres():
    pg_support.require_postgres()


@pytest.fixture
def prefix():
    value = pg_support.unique_prefix()
    yield value
    pg_support.drop_prefix(value)


@pytest.fixture
def store(prefix):
    opened = PostgresStore.from_url(pg_support.url_with_prefix(prefix, pool_max="12"))
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


def test_racing_writers_from_two_stores(prefix):
    """Two pools (as two replicas would have): one winner per head."""
    url = pg_support.url_with_prefix(prefix)
    a, b = PostgresStore.from_url(url), PostgresStore.from_url(url)
    a.append("cfg", "0", expected_head=None)
    results: list[str] = []

    def write(store: PostgresStore, tag: str) -> None:
        for _ in range(30):
            head = store.head_version("cfg")
            try:
                store.append("cfg", f"{tag}{head}", expected_head=head)
                results.append(tag)
            except ConcurrentUpdate:
                pass

    workers = [threading.Thread(target=write, args=(s, t)) for s, t in ((a, "a"), (b, "b"))]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    versions = [i.version for i in a.versions("cfg")]
    assert versions == list(range(1, len(results) + 2))
    for version in versions[1:]:
        assert a.get("cfg", version).text[1:] == str(version - 1)
    a.close()
    b.close()


def test_matches_memory_model():
    prefixes: list[str] = []

    def fresh() -> PostgresStore:
        prefixes.append(pg_support.unique_prefix())
        return PostgresStore.from_url(pg_support.url_with_prefix(prefixes[-1]))

    try:
        store_contract.check_matches_memory_model(fresh)
    finally:
        for value in prefixes:
            pg_support.drop_prefix(value)


def test_history_is_append_only_in_the_database(store, prefix):
    import psycopg

    store.append("cfg", "1", expected_head=None)
    with psycopg.connect(pg_support.PG_URL, autocommit=True) as conn:
        for sql in (f"UPDATE {prefix}versions SET body = '2'", f"DELETE FROM {prefix}versions"):
            with pytest.raises(psycopg.Error, match="append-only"):
                conn.execute(sql)
    assert store.get("cfg", 1).text == "1"


def test_migrations_apply_in_order_and_once(prefix):
    url = pg_support.url_with_prefix(prefix)
    conninfo, _ = split_url(url)
    old = PostgresStore(conninfo, prefix=prefix, schema=MIGRATIONS[:1])
    assert old.schema_version() == 1
    old._run(lambda conn: conn.execute(  # a row as the first schema's code wrote it
        f"INSERT INTO {prefix}versions (name, version, body) VALUES ('cfg', 1, '1')"), "write")
    old.close()
    stores = []
    threads = [
        threading.Thread(target=lambda: stores.append(PostgresStore.from_url(url)))
        for _ in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(stores) == 3 and all(s.schema_version() == len(MIGRATIONS) for s in stores)
    numbers = stores[0]._run(
        lambda conn: conn.execute(f"SELECT number FROM {prefix}cfgpatch_migrations").fetchall(),
        "read",
    )
    assert sorted(numbers) == [(m.number,) for m in MIGRATIONS]
    assert stores[0].get("cfg", 1).text == "1"
    for s in stores:
        s.close()


def test_split_url_keeps_libpq_parameters():
    conninfo, ours = split_url(
        "postgres://u@h:5/db?prefix=p_&sslmode=disable&pool_max=4&application_name=x"
    )
    assert conninfo == "postgresql://u@h:5/db?sslmode=disable&application_name=x"
    assert ours == {"prefix": "p_", "pool_max": "4"}


def test_open_store_url(prefix):
    opened = open_store(pg_support.url_with_prefix(prefix))
    assert isinstance(opened, PostgresStore) and opened.prefix == prefix
    opened.close()


def test_bad_pool_sizes_refused():
    with pytest.raises(ValueError, match="pool"):
        PostgresStore.from_url(pg_support.url_with_prefix("x_", pool_min="3", pool_max="2"))


def test_unreachable_server_is_a_store_error():
    with pytest.raises(StoreError) as caught:
        PostgresStore(
            "postgresql://postgres@127.0.0.1:1/test?connect_timeout=1", max_size=1, open_timeout=1
        )
    assert "cannot connect to PostgreSQL" in caught.value.message


def test_service_history_through_deltas_and_a_migrated_database(prefix):
    """A database written by the first schema migrates in place; new versions are
    deltas; every version reads back byte for byte, with and without a cache."""
    import json

    from cfgpatch.service import Service
    from cfgpatch.store.deltas import DELTA, FULL

    url = pg_support.url_with_prefix(prefix)
    conninfo, _ = split_url(url)
    old = PostgresStore(conninfo, prefix=prefix, schema=MIGRATIONS[:2])
    texts = [json.dumps({"items": list(range(60)), "n": n}, separators=(",", ":"))
             for n in range(3)]
    old._run(lambda conn: [conn.execute(
        f"INSERT INTO {prefix}versions (name, version, body) VALUES ('cfg', %s, %s)",
        (n, text)) for n, text in enumerate(texts, 1)], "write")
    old.close()
    store = PostgresStore.from_url(url)
    service, model = Service(store), Service()
    for text in texts:
        model.put("cfg", text)
    for n in range(3, 70):
        patch = json.dumps([{"op": "replace", "path": "/n", "value": n},
                            {"op": "add", "path": "/items/-", "value": n}])
        assert service.apply("cfg", patch) == model.apply("cfg", patch)
    service.put("cfg", model.get("cfg").replace('"n":69', '"n":"whole"'))
    model.put("cfg", model.get("cfg").replace('"n":69', '"n":"whole"'))
    kinds = dict(store._query(f"SELECT version, kind FROM {prefix}versions"))
    assert kinds[1] == kinds[33] == kinds[65] == FULL and kinds[4] == kinds[71] == DELTA
    fresh = Service(PostgresStore.from_url(url))
    for version in range(1, model.head("cfg") + 1):
        assert fresh.get("cfg", version) == model.get("cfg", version)
        assert service.get("cfg", version) == model.get("cfg", version)
    fresh.store.close()
    store.close()
