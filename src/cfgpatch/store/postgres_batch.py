"""A batch of appends written to PostgreSQL in one statement, from a thread or from an
event loop.

A batch (the rows the group commit gathered, one per document) is one statement:
each row is inserted only if its document's head is still the row's expected head,
and the statement answers which rows went in.  Its outcomes and what each failure
means are the same whoever writes it:

* a row the statement skipped (another writer moved the head, or took the same
  version: the primary key) is ``False``, a ``ConcurrentUpdate`` for its writer;
* a row PostgreSQL cannot take (text that is not UTF-8, a value out of range) fails
  alone: the batch is written again one row at a time, so the others still commit;
* a lost connection or database raises ``StoreError`` for the whole batch, so the
  writes queued behind it fail at once too (none of them was written);
* any other database error fails every row of the batch with ``StoreError``.

:func:`write` runs a batch on a connection of the store's pool (the thread group
commit of ``append``).  :class:`LoopWriter` runs it on the event loop itself, on
connections of its own: a batch of the PATCHes a worker computes on its loop no
longer goes to a thread and back, which cost the
worker's interpreter lock two hand-overs and the thread's turn at it per batch
(``docs/server.md``, "Cost").
"""

from __future__ import annotations

import struct
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg.adapt import Dumper
from psycopg.pq import Format

from ..errors import StoreError
from . import deltas

#: One row to append: name, version, body, author, message, kind, expected head.
Row = tuple[str, int, str, str | None, str | None, int, int | None]
#: A row's outcome: inserted or not, or the error its writer gets.
Outcome = bool | BaseException
_COLUMNS = ("name", "version", "body", "author", "message", "kind", "head")


def make_row(name: str, text: str, expected_head: int | None, author: str | None,
             message: str | None, delta: str | None, deleted: bool) -> Row:
    """The row appending ``text`` (or its ``delta``) after ``expected_head``."""
    version = (expected_head or 0) + 1
    kind, body = deltas.row_kind(version, text, delta, deleted)
    return (name, version, body, author, message, kind, expected_head)


def write_failed(error: psycopg.Error) -> StoreError:
    return StoreError(f"PostgreSQL write failed: {error}".strip())


class Statements:
    """The two insert statements of a versions table: one row, and a batch of rows."""

    def __init__(self, table: str) -> None:
        # One statement, one round trip: insert only if the head is still the expected
        # one; a racing insert of the same version hits the primary key.  A batch does
        # the same for each row; its arrays go in binary (as text, psycopg escapes every
        # body with a regular expression and PostgreSQL parses it back: 20 times the
        # time for four 4 KB bodies, measured).
        self.one = (
            f"INSERT INTO {table} (name, version, body, author, message, kind)"
            " SELECT %(name)s, %(version)s, %(body)s, %(author)s, %(message)s, %(kind)s"
            f" WHERE (SELECT max(version) FROM {table} WHERE name = %(name)s)"
            " IS NOT DISTINCT FROM %(head)s")
        self.many = (
            f"INSERT INTO {table} (name, version, body, author, message, kind)"
            " SELECT r.name, r.version, r.body, r.author, r.message, r.kind"
            " FROM unnest(%b::text[], %b::int[], %b::text[], %b::text[], %b::text[],"
            " %b::smallint[], %b::int[]) AS r(name, version, body, author, message, kind, head)"
            f" WHERE (SELECT max(version) FROM {table} WHERE name = r.name)"
            " IS NOT DISTINCT FROM r.head ON CONFLICT DO NOTHING RETURNING name")

    def query(self, rows: list[Row]) -> tuple[str, Any]:
        """The statement writing ``rows`` and its parameters."""
        if len(rows) == 1:
            return self.one, dict(zip(_COLUMNS, rows[0], strict=True))
        names, versions, bodies, authors, messages, kinds, heads = zip(*rows, strict=True)
        return self.many, (Texts(names), Ints(versions), Texts(bodies), Texts(authors),
                           Texts(messages), SmallInts(kinds), Ints(heads))


# -- the batch's columns in PostgreSQL's binary array format -------------------------
# psycopg's own list dumpers look at every element's type in Python to choose its
# dumper; a batch's columns have one type each, so these write them in one pass.

class Texts(tuple):
    """A column of texts (or NULLs), sent as ``text[]``."""


class Ints(tuple):
    """A column of 32-bit integers (or NULLs), sent as ``int4[]``."""


class SmallInts(tuple):
    """A column of 16-bit integers, sent as ``int2[]``."""


_HEAD = struct.Struct("!IIIII")  # dimensions, has NULLs, element type, length, lower bound
_LENGTH = struct.Struct("!i")
_NULL = _LENGTH.pack(-1)
_INT = struct.Struct("!ii")  # length 4, value
_SMALL = struct.Struct("!ih")  # length 2, value


class _ArrayDumper(Dumper):
    format = Format.BINARY
    element_oid, element_name = 0, ""

    def dump(self, obj: Any) -> bytes:
        parts = [b""]
        nulls = 0
        try:
            for item in obj:
                if item is None:
                    parts.append(_NULL)
                    nulls = 1
                else:
                    parts.append(self.element(item))
        except struct.error as error:  # an integer out of the column's range
            raise psycopg.DataError(f"{item!r} does not fit a {self.element_name}: {error}"
                                    ) from None
        parts[0] = _HEAD.pack(1, nulls, self.element_oid, len(obj), 1)
        return b"".join(parts)

    def element(self, item: Any) -> bytes:
        raise NotImplementedError


class _TextsDumper(_ArrayDumper):
    oid, element_oid, element_name = 1009, 25, "text"

    def __init__(self, cls: type, context: Any = None) -> None:
        super().__init__(cls, context)
        # The bytes are read in the connection's client encoding (UTF-8 unless the URL's
        # client_encoding or PGCLIENTENCODING says otherwise), as psycopg's own dumpers.
        encoding = self.connection.info.encoding if self.connection else "utf-8"
        self._encoding = "utf-8" if encoding == "ascii" else encoding

    def element(self, item: str) -> bytes:
        data = item.encode(self._encoding)  # a lone surrogate: UnicodeEncodeError
        return _LENGTH.pack(len(data)) + data


class _IntsDumper(_ArrayDumper):
    oid, element_oid, element_name = 1007, 23, "int4"

    def element(self, item: int) -> bytes:
        return _INT.pack(4, item)


class _SmallIntsDumper(_ArrayDumper):
    oid, element_oid, element_name = 1005, 21, "int2"

    def element(self, item: int) -> bytes:
        return _SMALL.pack(2, item)


psycopg.adapters.register_dumper(Texts, _TextsDumper)
psycopg.adapters.register_dumper(Ints, _IntsDumper)
psycopg.adapters.register_dumper(SmallInts, _SmallIntsDumper)


def outcomes(rows: list[Row], answered: int | list[tuple]) -> list[Outcome]:
    """Which of ``rows`` the statement inserted, from what it answered: the one-row
    statement's row count, or the names a batch returned."""
    if isinstance(answered, int):
        return [answered == 1]
    inserted = {name for (name,) in answered}
    return [row[0] in inserted for row in rows]


def failed(error: Exception, rows: list[Row]) -> list[Outcome] | None:
    """The outcomes of ``rows`` whose statement raised ``error``; ``None`` when they are
    to be written again one at a time.  A lost connection raises (module docstring)."""
    if isinstance(error, pg_errors.UniqueViolation):  # the one-row statement only
        return [False] * len(rows)
    if isinstance(error, UnicodeEncodeError | psycopg.DataError):
        if len(rows) > 1:
            return None
        return [error if isinstance(error, UnicodeEncodeError) else write_failed(error)]
    if isinstance(error, psycopg.OperationalError):
        raise write_failed(error) from None
    if isinstance(error, psycopg.Error):
        return [write_failed(error)] * len(rows)
    raise error


def write(connection: Any, statements: Statements, rows: list[Row]) -> list[Outcome]:
    """Write ``rows`` on ``connection`` (autocommit: committed on return)."""
    try:
        cursor = connection.execute(*statements.query(rows))
        return outcomes(rows, cursor.rowcount if len(rows) == 1 else cursor.fetchall())
    except (psycopg.Error, UnicodeEncodeError) as error:
        answer = failed(error, rows)
    if answer is None:
        return [write(connection, statements, [row])[0] for row in rows]
    return answer


class LoopWriter:
    """The connections one event loop writes its batches on (one per batch in flight,
    opened when first needed, kept while they work): ``await insert(rows)``.

    Only the loop that made it may use it.  A connection that fails or whose
    statement is abandoned (the flight's task cancelled) is closed, and the next
    batch opens a new one; ``close()`` closes them all (the server's shutdown, or a
    loop that ended)."""

    def __init__(self, conninfo: str, options: dict[str, Any], statements: Statements) -> None:
        self._conninfo = conninfo
        self._options = options
        self._statements = statements
        self._idle: list[psycopg.AsyncConnection] = []
        self._busy: set[psycopg.AsyncConnection] = set()
        self.opened = 0  # connections opened (for tests)

    async def insert(self, rows: list[Row]) -> list[Outcome]:
        """Write ``rows`` in one statement; their outcomes (module docstring)."""
        connection = self._idle.pop() if self._idle else await self._open()
        self._busy.add(connection)
        try:
            answer = await self._write(connection, rows)
        except BaseException:  # lost, or left in the middle of a statement
            self._busy.discard(connection)
            connection.pgconn.finish()
            raise
        self._busy.discard(connection)
        if not connection.closed:
            self._idle.append(connection)
        return answer

    async def _write(self, connection: psycopg.AsyncConnection, rows: list[Row]
                     ) -> list[Outcome]:
        try:
            cursor = await connection.execute(*self._statements.query(rows))
            return outcomes(rows, cursor.rowcount if len(rows) == 1
                            else await cursor.fetchall())
        except (psycopg.Error, UnicodeEncodeError) as error:
            answer = failed(error, rows)
        if answer is None:
            return [(await self._write(connection, [row]))[0] for row in rows]
        return answer

    async def _open(self) -> psycopg.AsyncConnection:
        try:
            connection = await psycopg.AsyncConnection.connect(
                self._conninfo, **self._options)
        except psycopg.Error as error:
            raise write_failed(error) from None
        self.opened += 1
        return connection

    def close(self) -> None:
        """Close every connection (a statement still running fails)."""
        for connection in [*self._idle, *self._busy]:
            connection.pgconn.finish()  # what AsyncConnection.close does, without a loop
        self._idle.clear()
        self._busy.clear()
