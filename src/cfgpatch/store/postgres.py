"""PostgreSQL store: shared history for several ``cfgpatch serve`` replicas.

Versions live in one table with primary key ``(name, version)``.  An append is
one statement that inserts ``head + 1`` only if the document's head is still the
one the writer started from; when two replicas race, the primary key lets
exactly one insert win and the other gets
:class:`~cfgpatch.store.base.ConcurrentUpdate` (the service then re-reads and
retries).  Appends made at the same time by threads of one process go in one
statement, one row per document (:mod:`.group_commit`): each row is still
judged on its own head, and each thread is answered once the statement has
committed.  Connections come from a ``psycopg_pool`` pool, except that the event loop
of a server worker writes its batches on a connection of its own
(:mod:`.postgres_batch`).  PostgreSQL's
default ``synchronous_commit=on`` makes every acknowledged commit durable.
Migrations take a transaction-level advisory lock, so replicas starting
together migrate once.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool, PoolTimeout

from ..errors import StoreError
from . import deltas, migrations, postgres_batch
from .base import (
    ConcurrentUpdate,
    RetentionPolicy,
    StoredVersion,
    VersionInfo,
    not_utf8,
    row_name,
)
from .group_appends import GroupAppends
from .group_commit import GroupCommit, LoopGroupCommit, PerLoop
from .postgres_batch import Row, write_failed

#: Group commit batches one process writes at once (at most half its pool; see
#: :mod:`.group_commit`). One since stop 34: with the PATCH computed on the event loop,
#: a single batch in flight spent the least CPU per commit and committed as much as
#: four (docs/server.md, "Cost").
BATCHES_IN_FLIGHT = 1
#: Query parameters of a store URL that are ours, not libpq's.
OWN_PARAMETERS = ("prefix", "pool_min", "pool_max", "pool_timeout")
#: Seconds a request waits for a pooled connection before it fails (a lost database:
#: the pool cannot reconnect, so requests fail fast instead of waiting the pool's 30 s).
DEFAULT_POOL_TIMEOUT = 1.0
#: libpq parameters a store URL gets unless it names them: give up connecting after
#: 2 s (libpq's minimum), drop a connection whose sent data is not acknowledged within
#: 1.5 s, probe idle connections so a vanished host is noticed, and let the server
#: cancel a statement after 10 s (a migration that needs longer sets its own).
FAIL_FAST = {"connect_timeout": "2", "tcp_user_timeout": "1500", "keepalives_idle": "5",
             "keepalives_interval": "2", "keepalives_count": "2",
             "options": "-c statement_timeout=10000"}


def _iso(stamp: datetime | None) -> str | None:
    if stamp is None:
        return None
    return stamp.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def split_url(url: str) -> tuple[str, dict[str, str]]:
    """Split our own parameters (``prefix``, ``pool_min``, ``pool_max``) off a libpq URL."""
    parts = urlsplit(url)
    ours: dict[str, str] = {}
    theirs: list[tuple[str, str]] = []
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key in OWN_PARAMETERS:
            ours[key] = value
        else:
            theirs.append((key, value))
    scheme = "postgresql" if parts.scheme == "postgres" else parts.scheme
    return urlunsplit(parts._replace(scheme=scheme, query=urlencode(theirs))), ours


def _fail_fast(conninfo: str) -> dict[str, str]:
    """The :data:`FAIL_FAST` parameters ``conninfo`` does not set itself."""
    given = psycopg.conninfo.conninfo_to_dict(conninfo)
    return {key: value for key, value in FAIL_FAST.items() if key not in given}


class PostgresStore(GroupAppends):
    """Versioned documents in PostgreSQL (see the module docstring)."""

    _make_row = staticmethod(postgres_batch.make_row)  # (append and append_async: GroupAppends)

    keeps_deltas = True

    def __init__(
        self,
        conninfo: str,
        *,
        prefix: str = "",
        min_size: int = 1,
        max_size: int = 10,
        open_timeout: float = 15.0,
        pool_timeout: float = DEFAULT_POOL_TIMEOUT,
        schema: tuple[migrations.Migration, ...] = migrations.MIGRATIONS,
    ) -> None:
        self.prefix = migrations.check_prefix(prefix)
        self._conninfo = conninfo
        self._table = f"{self.prefix}versions"
        self._statements = postgres_batch.Statements(self._table)
        self._connection_options = {"autocommit": True, **_fail_fast(conninfo)}
        flights = max(1, min(BATCHES_IN_FLIGHT, max_size // 2))
        self._commits: GroupCommit[Row, bool] = GroupCommit(
            self._insert, key=row_name, flights=flights)
        self._loop_commits: PerLoop[Row, bool] = PerLoop(lambda: self._loop_commit(flights))
        self._pool = ConnectionPool(
            conninfo,
            min_size=min_size,
            max_size=max_size,
            # No check on every checkout (it costs a round trip per statement); a
            # connection found broken is discarded by the pool and the read retried.
            kwargs=self._connection_options,
            open=False,
            name="cfgpatch",
            timeout=pool_timeout,
        )
        try:
            self._pool.open(wait=True, timeout=open_timeout)
        except Exception as exc:  # psycopg_pool.PoolTimeout and connection errors
            self._pool.close()
            raise StoreError(f"cannot connect to PostgreSQL: {exc}") from None
        self.migrate(schema)

    def _loop_commit(self, flights: int) -> LoopGroupCommit[Row, bool]:
        """The running loop's group commit: batches written on connections of its own."""
        writer = postgres_batch.LoopWriter(self._conninfo, self._connection_options,
                                           self._statements)
        return LoopGroupCommit(self._insert, key=row_name, flights=flights,
                               flush_here=writer.insert, close=writer.close)

    @classmethod
    def from_url(cls, url: str) -> PostgresStore:
        """Open ``postgresql://user@host:port/db?prefix=p_&pool_max=10`` (libpq URL)."""
        conninfo, ours = split_url(url)
        try:
            min_size = int(ours.get("pool_min", "1"))
            max_size = int(ours.get("pool_max", "10"))
            pool_timeout = float(ours.get("pool_timeout", DEFAULT_POOL_TIMEOUT))
        except ValueError:
            raise ValueError(f"pool_min, pool_max and pool_timeout must be numbers in {url!r}"
                             ) from None
        if not 1 <= min_size <= max_size:
            raise ValueError("need 1 <= pool_min <= pool_max")
        if not pool_timeout > 0:
            raise ValueError("pool_timeout must be a positive number of seconds")
        return cls(conninfo, prefix=ours.get("prefix", ""), min_size=min_size, max_size=max_size,
                   pool_timeout=pool_timeout)

    def _run(self, work: Any, what: str) -> Any:
        """Run ``work(conn)`` in one transaction on a pooled connection."""
        try:
            with self._pool.connection() as conn, conn.transaction():
                return work(conn)
        except pg_errors.UniqueViolation:
            raise ConcurrentUpdate("the document changed while the patch was applied") from None
        except psycopg.Error as exc:
            raise StoreError(f"PostgreSQL {what} failed: {exc}".strip()) from None

    def _query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """One read statement in autocommit mode (one round trip, no BEGIN/COMMIT);
        retried once on a connection found broken (the pool then replaces it)."""
        for attempt in (1, 2):
            try:
                with self._pool.connection() as conn:
                    return conn.execute(sql, params).fetchall()
            except psycopg.OperationalError as exc:
                if attempt == 2 or not _broken(exc):
                    raise StoreError(f"PostgreSQL read failed: {exc}".strip()) from None
            except psycopg.Error as exc:
                raise StoreError(f"PostgreSQL read failed: {exc}".strip()) from None
            except UnicodeEncodeError:
                raise not_utf8(name=params[0] if params else None) from None
        raise AssertionError("unreachable")

    # -- schema --------------------------------------------------------------

    def migrate(self, schema: tuple[migrations.Migration, ...] = migrations.MIGRATIONS) -> int:
        """Apply the migrations this database lacks; return the schema version in force."""

        def work(conn: psycopg.Connection) -> int:
            conn.execute(
                "SELECT pg_advisory_xact_lock(hashtext(%s))", (f"cfgpatch:{self.prefix}",)
            )
            conn.execute(migrations.ledger_sql("postgres", self.prefix))
            applied = _aggregate(conn.execute(
                f"SELECT coalesce(max(number), 0) FROM {self.prefix}cfgpatch_migrations"))
            for step in migrations.pending(applied, schema):
                for statement in step.statements("postgres", self.prefix):
                    conn.execute(statement)
                conn.execute(
                    f"INSERT INTO {self.prefix}cfgpatch_migrations (number, description)"
                    " VALUES (%s, %s)",
                    (step.number, step.description),
                )
                applied = step.number
            return applied

        return self._run(work, "migration")

    def schema_version(self) -> int:
        """The number of the newest migration applied to this database."""
        sql = f"SELECT coalesce(max(number), 0) FROM {self.prefix}cfgpatch_migrations"
        return self._query(sql)[0][0]

    # -- the Store protocol --------------------------------------------------

    def head_version(self, name: str) -> int | None:
        return self._query(f"SELECT max(version) FROM {self._table} WHERE name = %s", (name,))[0][0]

    def head_state(self, name: str) -> tuple[int, bool] | None:
        rows = self._query(f"SELECT version, kind FROM {self._table} WHERE name = %s"
                           " ORDER BY version DESC LIMIT 1", (name,))
        return (rows[0][0], rows[0][1] == deltas.TOMBSTONE) if rows else None

    def get(self, name: str, version: int) -> StoredVersion | None:
        return deltas.whole(self.chain(name, version))

    def chain(self, name: str, version: int) -> list[StoredVersion]:
        rows = self._query(
            f"SELECT version, body, kind FROM {self._table} WHERE name = %s"
            " AND version BETWEEN %s AND %s ORDER BY version",
            (name, deltas.block_start(version), version))
        if not rows or rows[-1][0] != version:
            return []
        return deltas.from_block([StoredVersion(v, body, kind=kind) for v, body, kind in rows])

    def _insert(self, rows: list[Row]) -> list[bool | BaseException]:
        """Insert each row whose document's head is still its expected head; whether
        each was (the thread group commit's ``flush``: one statement, committed on
        return; :mod:`.postgres_batch`)."""
        try:
            with self._pool.connection() as conn:
                return postgres_batch.write(conn, self._statements, rows)
        except psycopg.OperationalError as exc:  # no connection within the pool's timeout
            raise write_failed(exc) from None

    def versions(self, name: str, *, after: int = 0, limit: int | None = None
                 ) -> list[VersionInfo]:
        sql = (
            f"SELECT version, created_at, author, message, kind FROM {self._table}"
            " WHERE name = %s AND version > %s ORDER BY version LIMIT %s"
        )
        rows = self._query(sql, (name, after, limit))
        return [VersionInfo(name, v, _iso(at), author, msg, kind == deltas.TOMBSTONE)
                for v, at, author, msg, kind in rows]

    def prune(self, name: str, before: int) -> int:
        if before != deltas.block_start(before):
            raise ValueError(f"prune below a block start, not {before}")

        def work(conn: psycopg.Connection) -> int:
            head = _aggregate(conn.execute(
                f"SELECT max(version) FROM {self._table} WHERE name = %s", (name,)))
            if head is None or before > deltas.block_start(head):
                return 0
            conn.execute("SET LOCAL cfgpatch.prune = 'on'")
            return conn.execute(f"DELETE FROM {self._table} WHERE name = %s AND version < %s",
                                (name, before)).rowcount

        return self._run(work, "prune")

    def retention(self) -> list[RetentionPolicy]:
        rows = self._query(f"SELECT prefix, keep_last, keep_seconds FROM {self.prefix}retention"
                           " ORDER BY prefix")
        return [RetentionPolicy(*row) for row in rows]

    def set_retention(self, policy: RetentionPolicy) -> None:
        def work(conn: psycopg.Connection) -> None:
            conn.execute(f"DELETE FROM {self.prefix}retention WHERE prefix = %s",
                         (policy.prefix,))
            if policy.keep_last is not None or policy.keep_seconds is not None:
                conn.execute(f"INSERT INTO {self.prefix}retention VALUES (%s, %s, %s)",
                             (policy.prefix, policy.keep_last, policy.keep_seconds))

        try:
            self._run(work, "retention")
        except UnicodeEncodeError:
            raise not_utf8(prefix=policy.prefix) from None

    def names(self, *, include_deleted: bool = False) -> list[str]:
        rows = self._query(f"SELECT DISTINCT ON (name) name, kind FROM {self._table}"
                           " ORDER BY name, version DESC")
        return sorted(name for name, kind in rows
                      if include_deleted or kind != deltas.TOMBSTONE)

    def drop_tables(self) -> None:
        """Remove this store's tables (tests and throw-away stores only)."""

        def work(conn: psycopg.Connection) -> None:
            conn.execute(f"DROP TABLE IF EXISTS {self._table}")
            conn.execute(f"DROP TABLE IF EXISTS {self.prefix}retention")
            conn.execute(f"DROP FUNCTION IF EXISTS {self.prefix}versions_append_only()")
            conn.execute(f"DROP TABLE IF EXISTS {self.prefix}cfgpatch_migrations")

        self._run(work, "drop")

    def close(self) -> None:
        self._loop_commits.close()
        self._pool.close()


def _broken(error: psycopg.OperationalError) -> bool:
    """True when ``error`` says a pooled connection itself was gone (worth one retry on a
    fresh one); never a pool timeout (the database is away: fail fast)."""
    if isinstance(error, PoolTimeout):
        return False
    return error.sqlstate is None or error.sqlstate.startswith("08")


def _aggregate(cursor: Any) -> Any:
    """The value of an aggregate query (``max``, ``count``): it always returns one row."""
    row = cursor.fetchone()
    assert row is not None  # an aggregate without GROUP BY answers one row
    return row[0]
