"""Apply the numbered plain-SQL migrations of migrations/ (shipped as the data package newscorpus.migrations),
once each, recorded in ``schema_migrations``."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from importlib import resources

import psycopg
from psycopg import sql

logger = logging.getLogger(__name__)

MIGRATION_FILE = re.compile(r"^(?P<version>\d{4})_(?P<name>[a-z0-9_]+)\.sql$")
# Serialises concurrent runners (several crawl workers opening at once); any fixed 64-bit key will do.
MIGRATION_LOCK_KEY = 0x6E657773_636F7270  # "newscorp"

CREATE_MIGRATIONS_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version     integer PRIMARY KEY,
    name        text NOT NULL,
    applied_at  timestamptz NOT NULL DEFAULT now()
)
"""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def available_migrations() -> list[Migration]:
    migrations = []
    for entry in resources.files("newscorpus.migrations").iterdir():
        match = MIGRATION_FILE.match(entry.name)
        if match:
            migrations.append(Migration(int(match["version"]), match["name"], entry.read_text("utf-8")))
    migrations.sort(key=lambda migration: migration.version)
    versions = [migration.version for migration in migrations]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"two migrations share a version number: {versions}")
    return migrations


def applied_versions(connection: psycopg.Connection) -> set[int]:
    return {row[0] for row in connection.execute("SELECT version FROM schema_migrations")}


def migrate_if_needed(connection: psycopg.Connection) -> list[Migration]:
    """:func:`migrate`, after a lock-free look whether anything is pending: a database command on an up-to-date
    database (the usual case) reads one table instead of taking the migration lock."""
    connection.autocommit = True
    if connection.execute("SELECT to_regclass('schema_migrations')").fetchone()[0] is not None:
        if {migration.version for migration in available_migrations()} <= applied_versions(connection):
            return []
    return migrate(connection)


def applying(migration: Migration) -> sql.Composed:
    """The migration and its row in schema_migrations as one query of several statements, which Postgres runs as
    one transaction (an autocommit connection adds no BEGIN): one round trip instead of four (BEGIN, the migration,
    the row, COMMIT). A crawl migrates in a thread while its main thread imports and builds the stages, and each
    round trip waits for the GIL again: the fewer trips, the sooner a fresh schema is ready. The newline ends a
    last line that is a comment."""
    return sql.Composed([
        sql.SQL(migration.sql),
        sql.SQL("\n;\nINSERT INTO schema_migrations (version, name) VALUES ({}, {})").format(
            sql.Literal(migration.version), sql.Literal(migration.name)),
    ])


def migrate(connection: psycopg.Connection) -> list[Migration]:
    """Apply every migration not yet applied, each in its own transaction (all of a migration or none of it:
    :func:`applying`); return those applied."""
    applied: list[Migration] = []
    connection.autocommit = True
    connection.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK_KEY,))
    try:
        connection.execute(CREATE_MIGRATIONS_TABLE)
        done = applied_versions(connection)
        for migration in available_migrations():
            if migration.version in done:
                continue
            connection.execute(applying(migration))
            logger.info("applied migration %04d_%s", migration.version, migration.name)
            applied.append(migration)
    finally:
        connection.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))
    return applied
