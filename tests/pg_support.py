"""Reaching the test PostgreSQL server (127.0.0.1:5432, database ``test``).

``CFGPATCH_TEST_PG`` overrides the URL.  Without a server the tests skip, unless
``CI=true``, where a missing PostgreSQL is a failure.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

PG_URL = os.environ.get("CFGPATCH_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def require_postgres() -> None:
    """Skip (or, under CI=true, fail) when the PostgreSQL server cannot be reached."""
    try:
        import psycopg

        psycopg.connect(PG_URL, connect_timeout=5).close()
    except Exception as exc:  # driver missing or server down
        message = f"PostgreSQL not reachable at {PG_URL}: {exc}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


def unique_prefix() -> str:
    """A table prefix no other test run uses."""
    return f"t{uuid.uuid4().hex[:12]}_"


def url_with_prefix(prefix: str, **params: str) -> str:
    query = "&".join(f"{k}={v}" for k, v in {"prefix": prefix, **params}.items())
    sep = "&" if "?" in PG_URL else "?"
    return f"{PG_URL}{sep}{query}"


def drop_prefix(prefix: str) -> None:
    """Drop every table and function a store with ``prefix`` created."""
    import psycopg

    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {prefix}versions")
        conn.execute(f"DROP TABLE IF EXISTS {prefix}retention")
        conn.execute(f"DROP FUNCTION IF EXISTS {prefix}versions_append_only()")
        conn.execute(f"DROP TABLE IF EXISTS {prefix}cfgpatch_migrations")


@contextmanager
def durable_store(kind: str, folder: Path, **params: str) -> Iterator:
    """A SQLite store in ``folder`` (``kind`` "sqlite") or a PostgreSQL store under a
    fresh prefix (``params``: its URL's), closed after (the prefix dropped)."""
    if kind == "sqlite":
        from cfgpatch.store.sqlite import SQLiteStore

        store = SQLiteStore(folder / "store.db")
        try:
            yield store
        finally:
            store.close()
        return
    from cfgpatch.store.postgres import PostgresStore

    require_postgres()
    prefix = unique_prefix()
    store = PostgresStore.from_url(url_with_prefix(prefix, **params))
    try:
        yield store
    finally:
        store.close()
        drop_prefix(prefix)
