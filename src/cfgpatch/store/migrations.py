"""Versioned schema migrations for the durable stores (SQLite and PostgreSQL).

Each :class:`Migration` has a number, a description and the SQL statements
for each dialect.  A store applies, in one transaction per migration, every
migration whose number is above the highest one recorded in its
``cfgpatch_migrations`` table, and records it there.  Migrations only ever
add: history rows are never rewritten, so an old server can keep reading
while a newer one migrates.

Table names may carry a prefix (``{prefix}``), so several independent stores
can share one database (tests use this to keep parallel runs apart).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PREFIX = re.compile(r"^[a-z_][a-z0-9_]{0,40}$")


@dataclass(frozen=True)
class Migration:
    """One step of the schema: statements per dialect, ``{prefix}`` filled in."""

    number: int
    description: str
    sqlite: tuple[str, ...]
    postgres: tuple[str, ...]

    def statements(self, dialect: str, prefix: str) -> list[str]:
        """The SQL for ``dialect`` (``"sqlite"`` or ``"postgres"``) with table names filled in."""
        source = self.sqlite if dialect == "sqlite" else self.postgres
        return [statement.format(prefix=prefix) for statement in source]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "version history: one row per (name, version), append-only",
        sqlite=(
            """CREATE TABLE {prefix}versions (
                name TEXT NOT NULL,
                version INTEGER NOT NULL CHECK (version >= 1),
                body TEXT NOT NULL,
                created_at TEXT NOT NULL,
                author TEXT,
                message TEXT,
                PRIMARY KEY (name, version)
            ) WITHOUT ROWID""",
        ),
        postgres=(
            """CREATE TABLE {prefix}versions (
                name TEXT NOT NULL,
                version INTEGER NOT NULL CHECK (version >= 1),
                body TEXT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
                author TEXT,
                message TEXT,
                PRIMARY KEY (name, version)
            )""",
        ),
    ),
    Migration(
        2,
        "refuse UPDATE and DELETE on the history (append-only enforced by the database)",
        sqlite=(
            """CREATE TRIGGER {prefix}versions_no_update BEFORE UPDATE ON {prefix}versions
               BEGIN SELECT RAISE(ABORT, 'cfgpatch history is append-only'); END""",
            """CREATE TRIGGER {prefix}versions_no_delete BEFORE DELETE ON {prefix}versions
               BEGIN SELECT RAISE(ABORT, 'cfgpatch history is append-only'); END""",
        ),
        postgres=(
            """CREATE FUNCTION {prefix}versions_append_only() RETURNS trigger
               LANGUAGE plpgsql AS $$
               BEGIN RAISE EXCEPTION 'cfgpatch history is append-only'; END $$""",
            """CREATE TRIGGER {prefix}versions_no_change BEFORE UPDATE OR DELETE
               ON {prefix}versions FOR EACH ROW
               EXECUTE FUNCTION {prefix}versions_append_only()""",
        ),
    ),
    Migration(
        3,
        "deltas and tombstones: a row keeps a whole text (0), a JSON Patch from the version "
        "before (1) or a deletion (2); existing rows are whole texts",
        sqlite=("ALTER TABLE {prefix}versions ADD COLUMN kind INTEGER NOT NULL DEFAULT 0",),
        postgres=("ALTER TABLE {prefix}versions ADD COLUMN kind SMALLINT NOT NULL DEFAULT 0",),
    ),
    Migration(
        4,
        "retention: policies per name prefix, and DELETE allowed only to retention's own "
        "transaction (SQLite: a row in prune_gate; PostgreSQL: SET LOCAL cfgpatch.prune)",
        sqlite=(
            "CREATE TABLE {prefix}prune_gate (open INTEGER NOT NULL)",
            "DROP TRIGGER {prefix}versions_no_delete",
            """CREATE TRIGGER {prefix}versions_no_delete BEFORE DELETE ON {prefix}versions
               WHEN NOT EXISTS (SELECT 1 FROM {prefix}prune_gate)
               BEGIN SELECT RAISE(ABORT, 'cfgpatch history is append-only'); END""",
            """CREATE TABLE {prefix}retention (
                prefix TEXT PRIMARY KEY, keep_last INTEGER, keep_seconds INTEGER)""",
        ),
        postgres=(
            """CREATE OR REPLACE FUNCTION {prefix}versions_append_only() RETURNS trigger
               LANGUAGE plpgsql AS $$
               BEGIN
                 IF TG_OP = 'DELETE' AND current_setting('cfgpatch.prune', true) = 'on' THEN
                   RETURN OLD;
                 END IF;
                 RAISE EXCEPTION 'cfgpatch history is append-only';
               END $$""",
            """CREATE TABLE {prefix}retention (
                prefix TEXT PRIMARY KEY, keep_last INTEGER, keep_seconds INTEGER)""",
        ),
    ),
)


def check_prefix(prefix: str) -> str:
    """Return ``prefix`` if it is a safe table-name prefix, else raise ``ValueError``."""
    if prefix and not _PREFIX.match(prefix):
        raise ValueError(
            f"table prefix {prefix!r} must be lower-case letters, digits and '_' "
            "(starting with a letter or '_', at most 41 characters)"
        )
    return prefix


def pending(applied: int, migrations: tuple[Migration, ...] = MIGRATIONS) -> list[Migration]:
    """The migrations above number ``applied``, in order."""
    numbers = [m.number for m in migrations]
    if numbers != sorted(set(numbers)):
        raise ValueError("migration numbers must be unique and increasing")
    return [m for m in migrations if m.number > applied]


def latest(migrations: tuple[Migration, ...] = MIGRATIONS) -> int:
    """The number of the newest migration."""
    return max((m.number for m in migrations), default=0)


def ledger_sql(dialect: str, prefix: str) -> str:
    """SQL creating the table that records applied migrations (idempotent)."""
    stamp = "TEXT NOT NULL" if dialect == "sqlite" else "TIMESTAMPTZ NOT NULL DEFAULT now()"
    return (
        f"CREATE TABLE IF NOT EXISTS {prefix}cfgpatch_migrations ("
        f"number INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at {stamp})"
    )
