"""SQLite store: the default durable backend of ``cfgpatch serve``.

One file holds every version of every document (table ``versions``, primary
key ``(name, version)``).  The database runs in WAL mode with
``synchronous=FULL``, so a commit that returned has reached the disk and a
killed process never leaves half a version behind.  Writers take SQLite's
write lock up front (``BEGIN IMMEDIATE``), read the head and insert the next
version in the same transaction: that is the ``expected_head`` check of
:meth:`cfgpatch.store.base.Store.append`.  Appends made at the same time by
threads of one process share one transaction, one row per document, each
checked on its own head (:mod:`.group_commit`): one flush to the disk for all,
and no thread is answered before the commit.  Each thread uses its own
connection, so a threaded web server can read in parallel.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from ..errors import StoreError
from . import deltas, migrations
from .base import (
    RetentionPolicy,
    StoredVersion,
    VersionInfo,
    not_utf8,
    row_name,
    utf8_only,
)
from .group_appends import GroupAppends
from .group_commit import GroupCommit, LoopGroupCommit, PerLoop

#: One row to append: name, version, body, created_at, author, message, kind, expected head.
Row = tuple[str, int, str, str, str | None, str | None, int, int | None]
#: How long a writer waits for another writer's lock before giving up (seconds).
BUSY_TIMEOUT = 30.0


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _row(name: str, text: str, expected_head: int | None, author: str | None,
         message: str | None, delta: str | None, deleted: bool) -> Row:
    version = (expected_head or 0) + 1
    kind, body = deltas.row_kind(version, text, delta, deleted)
    return (name, version, body, _now(), author, message, kind, expected_head)


@contextmanager
def _sqlite_errors() -> Iterator[None]:
    """Within it, SQLite's own errors become a ``StoreError`` (a write that failed)."""
    try:
        yield
    except sqlite3.Error as exc:
        raise StoreError(f"SQLite write failed: {exc}") from None


class SQLiteStore(GroupAppends):
    """Versioned documents in one SQLite file (see the module docstring)."""

    _make_row = staticmethod(_row)  # (append and append_async: GroupAppends)
    _write_errors = staticmethod(_sqlite_errors)

    keeps_deltas = True

    def __init__(
        self,
        path: str | Path,
        *,
        prefix: str = "",
        schema: tuple[migrations.Migration, ...] = migrations.MIGRATIONS,
    ) -> None:
        self.path = str(path)
        self.prefix = migrations.check_prefix(prefix)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._connections: list[sqlite3.Connection] = []
        self._closed = False
        self._table = f"{self.prefix}versions"
        self._commits: GroupCommit[Row, bool] = GroupCommit(self._insert, key=row_name)
        self._loop_commits: PerLoop[Row, bool] = PerLoop(
            lambda: LoopGroupCommit(self._insert, key=row_name))
        self.migrate(schema)

    @classmethod
    def from_url(cls, url: str) -> SQLiteStore:
        """Open ``sqlite:///relative/path.db`` or ``sqlite:////absolute/path.db``.

        The query parameter ``prefix`` sets a table-name prefix.
        """
        parts = urlsplit(url)
        if parts.scheme != "sqlite" or parts.netloc or not parts.path.startswith("/"):
            raise ValueError(
                f"bad SQLite URL {url!r}: use sqlite:///relative/file.db or sqlite:////abs/file.db"
            )
        path = unquote(parts.path[1:])
        if not path:
            raise ValueError(f"bad SQLite URL {url!r}: no file name")
        prefix = parse_qs(parts.query).get("prefix", [""])[0]
        return cls(path, prefix=prefix)

    # -- connections ---------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            return conn
        if self._closed:
            raise StoreError("the store is closed")
        try:
            conn = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
            )
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT * 1000)}")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open SQLite database {self.path!r}: {exc}") from None
        with self._lock:
            self._connections.append(conn)
        self._local.conn = conn
        return conn

    def _write(self, work: Any) -> Any:
        """Run ``work(conn)`` inside ``BEGIN IMMEDIATE`` ... ``COMMIT``.

        Writers of this process queue on a lock first: SQLite's own busy handler
        polls with sleeps, which wastes most of the time when many threads write.
        The busy timeout still covers writers in other processes.
        """
        conn = self._connect()
        with self._write_lock:
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StoreError(f"SQLite write lock not obtained: {exc}") from None
            try:
                result = work(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            return result

    def _read(self, sql: str, params: tuple) -> list[tuple]:
        try:
            return self._connect().execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite read failed: {exc}") from None
        except UnicodeEncodeError:
            raise not_utf8(name=params[0]) from None

    # -- schema --------------------------------------------------------------

    def migrate(self, schema: tuple[migrations.Migration, ...] = migrations.MIGRATIONS) -> int:
        """Apply the migrations this file lacks; return the schema version now in force."""

        def work(conn: sqlite3.Connection) -> int:
            conn.execute(migrations.ledger_sql("sqlite", self.prefix))
            row = conn.execute(
                f"SELECT coalesce(max(number), 0) FROM {self.prefix}cfgpatch_migrations"
            ).fetchone()
            applied = row[0]
            for step in migrations.pending(applied, schema):
                for statement in step.statements("sqlite", self.prefix):
                    conn.execute(statement)
                conn.execute(
                    f"INSERT INTO {self.prefix}cfgpatch_migrations VALUES (?, ?, ?)",
                    (step.number, step.description, _now()),
                )
                applied = step.number
            return applied

        try:
            return self._write(work)
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite migration failed on {self.path!r}: {exc}") from None

    def schema_version(self) -> int:
        """The number of the newest migration applied to this file."""
        rows = self._read(
            f"SELECT coalesce(max(number), 0) FROM {self.prefix}cfgpatch_migrations", ()
        )
        return rows[0][0]

    # -- the Store protocol --------------------------------------------------

    def head_version(self, name: str) -> int | None:
        rows = self._read(f"SELECT max(version) FROM {self._table} WHERE name = ?", (name,))
        return rows[0][0]

    def head_state(self, name: str) -> tuple[int, bool] | None:
        rows = self._read(f"SELECT version, kind FROM {self._table} WHERE name = ?"
                          " ORDER BY version DESC LIMIT 1", (name,))
        return (rows[0][0], rows[0][1] == deltas.TOMBSTONE) if rows else None

    def get(self, name: str, version: int) -> StoredVersion | None:
        return deltas.whole(self.chain(name, version))

    def chain(self, name: str, version: int) -> list[StoredVersion]:
        rows = self._read(
            f"SELECT version, body, kind FROM {self._table} WHERE name = ?"
            " AND version BETWEEN ? AND ? ORDER BY version",
            (name, deltas.block_start(version), version))
        if not rows or rows[-1][0] != version:
            return []
        return deltas.from_block([StoredVersion(v, body, kind=kind) for v, body, kind in rows])

    def _insert(self, rows: list[Row]) -> list[bool | BaseException]:
        """Append each row whose document's head is still its expected head, all in one
        transaction (the group commit's ``flush``: committed on return)."""
        return self._write(lambda conn: [self._insert_row(conn, row) for row in rows])

    def _insert_row(self, conn: sqlite3.Connection, row: Row) -> bool | BaseException:
        name, *values, expected_head = row
        try:
            head = conn.execute(f"SELECT max(version) FROM {self._table} WHERE name = ?",
                                (name,)).fetchone()[0]
            if head != expected_head:
                return False
            conn.execute(f"INSERT INTO {self._table}"
                         " (name, version, body, created_at, author, message, kind)"
                         " VALUES (?, ?, ?, ?, ?, ?, ?)", (name, *values))
        except sqlite3.IntegrityError:
            return False
        except UnicodeEncodeError as error:  # this row only: the others go on
            return error
        return True

    def versions(self, name: str, *, after: int = 0, limit: int | None = None
                 ) -> list[VersionInfo]:
        rows = self._read(
            f"SELECT version, created_at, author, message, kind FROM {self._table}"
            " WHERE name = ? AND version > ? ORDER BY version LIMIT ?",
            (name, after, -1 if limit is None else limit),
        )
        return [VersionInfo(name, v, at, author, msg, kind == deltas.TOMBSTONE)
                for v, at, author, msg, kind in rows]

    def prune(self, name: str, before: int) -> int:
        if before != deltas.block_start(before):
            raise ValueError(f"prune below a block start, not {before}")

        def work(conn: sqlite3.Connection) -> int:
            head = conn.execute(f"SELECT max(version) FROM {self._table} WHERE name = ?",
                                (name,)).fetchone()[0]
            if head is None or before > deltas.block_start(head):
                return 0
            conn.execute(f"INSERT INTO {self.prefix}prune_gate VALUES (1)")
            gone = conn.execute(f"DELETE FROM {self._table} WHERE name = ? AND version < ?",
                                (name, before)).rowcount
            conn.execute(f"DELETE FROM {self.prefix}prune_gate")
            return gone

        try:
            return self._write(work)
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite prune failed: {exc}") from None

    def retention(self) -> list[RetentionPolicy]:
        rows = self._read(f"SELECT prefix, keep_last, keep_seconds FROM {self.prefix}retention"
                          " ORDER BY prefix", ())
        return [RetentionPolicy(*row) for row in rows]

    def set_retention(self, policy: RetentionPolicy) -> None:
        def work(conn: sqlite3.Connection) -> None:
            conn.execute(f"DELETE FROM {self.prefix}retention WHERE prefix = ?",
                         (policy.prefix,))
            if policy.keep_last is not None or policy.keep_seconds is not None:
                conn.execute(f"INSERT INTO {self.prefix}retention VALUES (?, ?, ?)",
                             (policy.prefix, policy.keep_last, policy.keep_seconds))

        with utf8_only(prefix=policy.prefix), _sqlite_errors():
            self._write(work)

    def names(self, *, include_deleted: bool = False) -> list[str]:
        # SQLite takes a bare column (kind) from the row holding the max() of its group.
        rows = self._read(f"SELECT name, kind, max(version) FROM {self._table} GROUP BY name",
                          ())
        return sorted(name for name, kind, _ in rows
                      if include_deleted or kind != deltas.TOMBSTONE)

    def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` answer (``"ok"`` when the file is sound)."""
        rows = self._read("PRAGMA integrity_check", ())
        return "; ".join(str(row[0]) for row in rows)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            connections, self._connections = self._connections, []
        for conn in connections:
            conn.close()
        self._local = threading.local()

