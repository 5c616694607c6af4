"""A batch of appends written to PostgreSQL (cfgpatch.store.postgres_batch): the binary
array dumpers of a batch's columns, how a statement's errors become outcomes, and the
event loop's ``LoopWriter`` (its connections opened, kept, replaced and closed) on a real
server, alone and inside ``PostgresStore.append_async``."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import psycopg
import pytest
import uvloop

import pg_support
from cfgpatch.errors import StoreError
from cfgpatch.store import postgres_batch
from cfgpatch.store.postgres import PostgresStore, _fail_fast
from cfgpatch.store.postgres_batch import (
    Ints,
    LoopWriter,
    SmallInts,
    Statements,
    Texts,
    failed,
    make_row,
)

TEXTS = [None, "", "plain", "é", "日本", "emoji 🙂", "x" * 5000 + "é", "{a,\"b\"} NULL \\ '"]
INTS = [None, 0, 1, -1, -(2**31), 2**31 - 1, 123456]
SMALLS = [None, 0, -1, -(2**15), 2**15 - 1]


def row(name: str, head: int | None, text: str = '"v"', **fields: Any) -> postgres_batch.Row:
    return make_row(name, text, head, fields.get("author"), fields.get("message"), None,
                    fields.get("deleted", False))


class Tracking(LoopWriter):
    """A LoopWriter keeping every connection it opened (to look at them)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.connections: list[psycopg.AsyncConnection] = []

    async def _open(self) -> psycopg.AsyncConnection:
        connection = await super()._open()
        self.connections.append(connection)
        return connection


# -- the dumpers and failed(): no store ---------------------------------------------------

@pytest.fixture
def conn():
    pg_support.require_postgres()
    with psycopg.connect(pg_support.PG_URL, autocommit=True) as connection:
        yield connection


def test_columns_round_trip(conn):
    sql = "SELECT %b::text[], %b::int[], %b::smallint[], %b::text[], %b::int[]"
    got = conn.execute(sql, (Texts(TEXTS), Ints(INTS), SmallInts(SMALLS), Texts([None]),
                             Ints([]))).fetchone()
    assert got == (TEXTS, INTS, SMALLS, [None], [])


def test_columns_zip_in_unnest(conn):
    rows = conn.execute("SELECT * FROM unnest(%b::text[], %b::int[], %b::smallint[])"
                        " WITH ORDINALITY", (Texts(["a", None]), Ints([None, 7]),
                                             SmallInts([2, None]))).fetchall()
    assert rows == [("a", None, 2, 1), (None, 7, None, 2)]


@pytest.mark.parametrize("column", [Ints([1, 2**31]), Ints([-(2**31) - 1]),
                                    SmallInts([2**15]), SmallInts([0, -(2**15) - 1])])
def test_an_integer_out_of_range_is_a_data_error(conn, column):
    with pytest.raises(psycopg.DataError):
        conn.execute("SELECT %b", (column,))
    assert conn.execute("SELECT 1").fetchone() == (1,)  # refused before it was sent


def test_a_lone_surrogate_is_a_unicode_encode_error(conn):
    with pytest.raises(UnicodeEncodeError):
        conn.execute("SELECT %b::text[]", (Texts(["ok", "a\ud800"]),))


def test_texts_follow_the_connection_s_client_encoding():
    """As psycopg's own text dumpers: a client_encoding of the URL (or PGCLIENTENCODING)
    is the encoding the server reads the bytes in (sending UTF-8 bytes stored "Ã©")."""
    pg_support.require_postgres()
    with psycopg.connect(pg_support.PG_URL, autocommit=True, client_encoding="LATIN1") as latin:
        assert latin.execute("SELECT %b::text[]", (Texts(["é", "ü", None]),)
                             ).fetchone() == (["é", "ü", None],)
        with pytest.raises(UnicodeEncodeError):  # as psycopg's own dumper
            latin.execute("SELECT %b::text[]", (Texts(["日本"]),))


def test_failed_maps_errors_to_outcomes():
    two, one = [row("a", None), row("b", None)], [row("a", None)]
    assert failed(psycopg.errors.UniqueViolation("taken"), two) == [False, False]
    surrogate = UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed")
    assert failed(surrogate, two) is None and failed(psycopg.DataError("x"), two) is None
    assert failed(surrogate, one) == [surrogate]
    [data] = failed(psycopg.DataError("out of range"), one)
    assert isinstance(data, StoreError) and "out of range" in data.message
    with pytest.raises(StoreError):
        failed(psycopg.OperationalError("gone"), two)
    others = failed(psycopg.ProgrammingError("no table"), two)
    assert len(others) == 2 and all(isinstance(o, StoreError) for o in others)
    with pytest.raises(KeyError):
        failed(KeyError("not ours"), two)


# -- LoopWriter on a real store -----------------------------------------------------------

@pytest.fixture
def store():
    pg_support.require_postgres()
    prefix = pg_support.unique_prefix()
    opened = PostgresStore.from_url(pg_support.url_with_prefix(prefix, pool_max="4"))
    yield opened
    opened.close()
    pg_support.drop_prefix(prefix)


@pytest.fixture
def writer(store):
    """A writer on ``store``'s table, as ``PostgresStore._loop_commit`` makes one."""
    made = Tracking(store._conninfo, store._connection_options, store._statements)
    yield made
    made.close()


async def wait_for_lock(writer: Tracking) -> psycopg.AsyncConnection:
    """Until one of ``writer``'s connections waits for a lock (its statement is blocked);
    that connection."""
    while not writer.connections:
        await asyncio.sleep(0.01)
    pids = {c.info.backend_pid: c for c in writer.connections if not c.closed}
    with psycopg.connect(pg_support.PG_URL, autocommit=True) as watcher:
        for _ in range(250):
            found = watcher.execute("SELECT pid FROM pg_stat_activity WHERE pid = ANY(%s)"
                                    " AND wait_event_type = 'Lock'", (list(pids),)).fetchone()
            if found:
                return pids[found[0]]
            await asyncio.sleep(0.02)
    raise AssertionError(f"no backend of {list(pids)} waited for a lock")


def test_batches_are_written_on_one_kept_connection(store, writer):
    async def main() -> list:
        return [await writer.insert([row("a", None, '"1"', author="ann", message="m"),
                                     row("b", None, '"日本 🙂"'),
                                     row("c", None, deleted=True)]),
                await writer.insert([row("a", 1, '"2"'), row("b", None), row("c", 5)]),
                await writer.insert([row("b", 1, '"b2"')]),
                await writer.insert([row("b", 1, '"again"')]),
                (await (await writer.connections[0].execute("SHOW statement_timeout")
                        ).fetchone())[0]]  # the store's FAIL_FAST options

    *outcomes, timeout = asyncio.run(main())
    assert outcomes == [[True] * 3, [True, False, False], [True], [False]]
    assert writer.opened == 1 and timeout == "10s"
    assert [store.get("a", v).text for v in (1, 2)] == ['"1"', '"2"']
    assert [store.get("b", v).text for v in (1, 2)] == ['"日本 🙂"', '"b2"']
    assert store.head_state("c") == (1, True) and store.head_version("b") == 2
    first = store.versions("a")[0]
    assert (first.author, first.message) == ("ann", "m")


@pytest.mark.parametrize("bad", [
    row("bad", None, '"\ud800"'),            # UnicodeEncodeError, in our dumper
    row("bad", 2**31 - 1),                   # version 2**31: DataError, in our dumper
    row("bad", None, '"a\x00b"'),            # DataError from the server (NUL in text)
], ids=["surrogate", "version-out-of-range", "nul"])
def test_one_bad_row_fails_alone(store, writer, bad):
    good, bad_outcome, other = asyncio.run(writer.insert([row("a", None), bad, row("b", None)]))
    assert good is True and other is True
    assert isinstance(bad_outcome, UnicodeEncodeError if "\ud800" in bad[2] else StoreError)
    assert store.head_version("bad") is None and store.head_version("b") == 1
    assert writer.opened == 1  # the connection survived the rewrite


def test_any_other_database_error_fails_the_whole_batch(store, writer):
    no_body = ("b", 1, None, None, None, 0, None)  # body NOT NULL
    outcomes = asyncio.run(writer.insert([row("a", None), no_body]))
    assert len(outcomes) == 2 and all(isinstance(o, StoreError) for o in outcomes)
    assert store.names() == []


@pytest.mark.parametrize("rows", [[row("a", None)], [row("a", None), row("b", None)]],
                         ids=["one-row", "batch"])
def test_a_row_racing_for_the_same_version_is_false(store, writer, rows):
    """Another transaction inserts ``a`` version 1 uncommitted: the writer's statement
    waits on the primary key, then loses (UniqueViolation, or ON CONFLICT DO NOTHING)."""
    other = psycopg.connect(pg_support.PG_URL)
    other.execute(f"INSERT INTO {store.prefix}versions (name, version, body) VALUES"
                  " ('a', 1, '\"theirs\"')")

    async def main() -> list:
        task = asyncio.ensure_future(writer.insert(rows))
        await wait_for_lock(writer)
        other.commit()
        return await task

    try:
        assert asyncio.run(main()) == [False, True][:len(rows)]
    finally:
        other.close()
    assert store.get("a", 1).text == '"theirs"'


# -- a lost connection, a lost database, closing ------------------------------------------

@pytest.mark.parametrize("run", [asyncio.run, uvloop.run], ids=["asyncio", "uvloop"])
def test_a_terminated_connection_fails_one_batch_then_a_new_one_is_opened(store, writer, run):

    async def main() -> None:
        assert await writer.insert([row("a", None)]) == [True]
        lost = writer.connections[0]
        with psycopg.connect(pg_support.PG_URL, autocommit=True) as admin:
            assert admin.execute("SELECT pg_terminate_backend(%s, 5000)",
                                 (lost.info.backend_pid,)).fetchone() == (True,)
        with pytest.raises(StoreError):
            await writer.insert([row("a", 1), row("b", None)])
        assert lost.closed
        assert await writer.insert([row("a", 1), row("b", None)]) == [True, True]
        assert writer.opened == 2 and not writer.connections[1].closed

    run(main())
    assert store.head_version("a") == 2 and store.head_version("b") == 1


def test_an_unreachable_database_fails_fast():
    conninfo = "postgresql://postgres@127.0.0.1:1/test"
    writer = LoopWriter(conninfo, {"autocommit": True, **_fail_fast(conninfo)},
                        Statements("t_versions"))
    started = time.monotonic()
    with pytest.raises(StoreError):
        asyncio.run(writer.insert([row("a", None)]))
    assert time.monotonic() - started < 3 and writer.opened == 0


@pytest.mark.parametrize("run", [asyncio.run, uvloop.run], ids=["asyncio", "uvloop"])
def test_an_abandoned_statement_closes_its_connection(store, writer, run):
    locker = psycopg.connect(pg_support.PG_URL)
    locker.execute(f"LOCK TABLE {store.prefix}versions IN ACCESS EXCLUSIVE MODE")

    async def main() -> None:
        task = asyncio.ensure_future(writer.insert([row("a", None)]))
        await wait_for_lock(writer)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert writer.connections[0].closed
        locker.rollback()
        assert await writer.insert([row("b", None)]) == [True]
        assert writer.opened == 2

    try:
        run(main())
    finally:
        locker.close()


@pytest.mark.parametrize("run", [asyncio.run, uvloop.run], ids=["asyncio", "uvloop"])
def test_close_closes_idle_and_busy_connections(store, writer, run):
    locker = psycopg.connect(pg_support.PG_URL)

    async def main() -> None:
        await asyncio.gather(writer.insert([row("a", None)]), writer.insert([row("b", None)]))
        assert writer.opened == 2 and not any(c.closed for c in writer.connections)
        locker.execute(f"LOCK TABLE {store.prefix}versions IN ACCESS EXCLUSIVE MODE")
        task = asyncio.ensure_future(writer.insert([row("c", None)]))
        busy = await wait_for_lock(writer)
        writer.close()
        assert busy.closed and all(c.closed for c in writer.connections)
        with pytest.raises(StoreError):  # the running statement fails, soon
            await asyncio.wait_for(task, 5)

    try:
        run(main())
    finally:
        locker.close()


def test_store_close_closes_the_writers_of_every_loop(store, monkeypatch):
    writers: list[Tracking] = []

    def tracking(*args: Any) -> Tracking:
        writers.append(Tracking(*args))
        return writers[-1]

    monkeypatch.setattr(postgres_batch, "LoopWriter", tracking)

    async def append(name: str) -> int:
        return await store.append_async(name, '"v"', expected_head=None)

    assert asyncio.run(append("a")) == 1
    first = writers[0].connections[0]
    assert not first.closed
    assert uvloop.run(append("b")) == 1  # a new loop: the ended loop's writer is closed
    assert first.closed and len(writers) == 2
    second = writers[1].connections[0]
    assert not second.closed and store.get("b", 1).text == '"v"'
    store.close()
    assert second.closed


# -- the thread group commit's flush (postgres_batch.write on a pooled connection) --------
# (stale heads and racing writers through store.append: tests/store_contract.py)

def test_the_thread_flush_fails_bad_rows_alone(store):
    store.append("a", '"1"', expected_head=None)
    outcomes = store._insert([row("a", 1, '"2"'), row("s", None, '"\ud800"'), row("z", 3),
                              row("big", 2**31 - 1), row("n", None, '"\x00"')])
    assert outcomes[0] is True and outcomes[2] is False
    assert isinstance(outcomes[1], UnicodeEncodeError)
    assert isinstance(outcomes[3], StoreError) and isinstance(outcomes[4], StoreError)
    assert store.names() == ["a"] and store.head_version("a") == 2


def test_the_thread_flush_fails_a_batch_on_a_lost_connection_then_recovers(store):
    with store._pool.connection() as pooled:
        pid = pooled.info.backend_pid
    with psycopg.connect(pg_support.PG_URL, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,))
    with pytest.raises(StoreError):
        store._insert([row("a", None), row("b", None)])
    assert store._insert([row("a", None), row("b", None)]) == [True, True]


def test_a_store_whose_url_sets_client_encoding_keeps_its_texts():
    prefix = pg_support.unique_prefix()
    store = PostgresStore.from_url(pg_support.url_with_prefix(prefix, client_encoding="LATIN1"))

    async def main() -> list:
        return await asyncio.gather(store.append_async("a", '"é"', expected_head=None),
                                    store.append_async("b", '"ü"', expected_head=None))

    try:
        assert asyncio.run(main()) == [1, 1]
        assert store._insert([row("c", None, '"à"'), row("d", None, '"ö"')]) == [True, True]
        assert [store.get(n, 1).text for n in "abcd"] == ['"é"', '"ü"', '"à"', '"ö"']
    finally:
        store.close()
        pg_support.drop_prefix(prefix)
