"""Fixtures of the store's tests: a fresh schema with every migration applied, as a DSN or as a connection."""

from __future__ import annotations

import psycopg
import pytest

from newscorpus.store.connection import connect
from newscorpus.store.migrations import migrate, migrate_if_needed


@pytest.fixture
def migrated_dsn(database_dsn):
    """The DSN of a fresh schema with every migration applied."""
    with connect(database_dsn) as connection:
        migrate_if_needed(connection)
    return database_dsn


@pytest.fixture
def migrated_connection(database_dsn):
    """An autocommit connection to a fresh schema with every migration applied."""
    with psycopg.connect(database_dsn, autocommit=True) as connection:
        migrate(connection)
        yield connection
