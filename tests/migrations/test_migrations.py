from __future__ import annotations

import re
from importlib import resources

import psycopg
import pytest

from newscorpus.store.migrations import (
    CREATE_MIGRATIONS_TABLE,
    MIGRATION_LOCK_KEY,
    Migration,
    applying,
    available_migrations,
    migrate,
)

CATALOG = """
SELECT 'column', table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' '
       || coalesce(regexp_replace(column_default, 'nextval\\(''[^'']*''', 'nextval(seq'), '')
FROM information_schema.columns WHERE table_schema = current_schema()
UNION ALL
SELECT 'index', tablename || ' ' || regexp_replace(indexdef, ' ON [^ ]+\\.', ' ON ')
FROM pg_indexes WHERE schemaname = current_schema()
UNION ALL
SELECT 'constraint', conrelid::regclass::text || ' ' || pg_get_constraintdef(oid)
FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
UNION ALL
SELECT 'function', proname || '(' || pg_get_function_identity_arguments(oid) || ') '
       || coalesce(array_to_string(proconfig, ','), '') || ' ' || md5(prosrc)
FROM pg_proc WHERE pronamespace = current_schema()::regnamespace
ORDER BY 1, 2
"""


def catalog(connection: psycopg.Connection) -> list[tuple[str, str]]:
    rows = connection.execute(CATALOG).fetchall()
    return [(kind, re.sub(r"test_[0-9a-f]{12}\.", "", text)) for kind, text in rows
            if "schema_migrations" not in text]


def test_migrations_apply_to_an_empty_database_and_are_recorded(database_dsn):
    with psycopg.connect(database_dsn) as connection:
        applied = migrate(connection)
        assert [m.version for m in applied] == [m.version for m in available_migrations()]
        recorded = [row[0] for row in connection.execute("SELECT version FROM schema_migrations ORDER BY 1")]
        assert recorded == [m.version for m in available_migrations()]
        assert migrate(connection) == []  # a second run applies nothing
        tables = {row[0] for row in connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
    assert {"sites", "pages", "articles", "crawl_runs", "schema_migrations"} <= tables


def test_schema_sql_equals_all_migrations(database_dsn, postgres_server_dsn):
    with psycopg.connect(database_dsn) as connection:
        migrate(connection)
        migrated = catalog(connection)
    schema_sql = resources.files("newscorpus.migrations").joinpath("schema.sql").read_text("utf-8")
    with psycopg.connect(postgres_server_dsn, autocommit=True) as admin:
        admin.execute("CREATE SCHEMA test_000000000000")
    try:
        with psycopg.connect(postgres_server_dsn, options="-csearch_path=test_000000000000") as connection:
            connection.execute(schema_sql)
            from_schema = catalog(connection)
    finally:
        with psycopg.connect(postgres_server_dsn, autocommit=True) as admin:
            admin.execute("DROP SCHEMA test_000000000000 CASCADE")
    assert migrated == from_schema


def test_migration_files_are_numbered_uniquely():
    versions = [m.version for m in available_migrations()]
    assert versions == sorted(set(versions)) and versions[0] == 1


def _single_block_keys(unsigned: int, max_distance: int) -> list[int]:
    """The keys before migrations/0008: max_distance + 1 blocks, key i = (i << 32) | block value."""
    blocks = max_distance + 1
    widths = [64 // blocks + (1 if i < 64 % blocks else 0) for i in range(blocks)]
    shifts = [sum(widths[i + 1:]) for i in range(blocks)]
    return [(i << 32) | ((unsigned >> s) & ((1 << w) - 1)) for i, (s, w) in enumerate(zip(shifts, widths, strict=True))]


def test_0008_rebuilds_stored_block_keys_from_the_simhash(database_dsn):
    import random

    from newscorpus.core.near_duplicate.simhash import block_keys, to_signed

    rng = random.Random(8)
    # every distance the setting allows, edge fingerprints and random ones
    articles = [(d, u) for d in range(1, 16) for u in (0, 2**64 - 1, 2**63, 2**63 - 1, rng.getrandbits(64),
                                                       rng.getrandbits(64))]
    with psycopg.connect(database_dsn, autocommit=True) as connection:
        connection.execute(CREATE_MIGRATIONS_TABLE)
        for migration in available_migrations():
            if migration.version < 8:
                connection.execute(migration.sql)
                connection.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                                   (migration.version, migration.name))
        for n, (d, u) in enumerate(articles, start=1):
            connection.execute(
                "INSERT INTO near_duplicate_features (id, url, site_id, language, source_hash, body_hash, simhash, "
                "token_count, shingle_count, sketch, keywords, title_keywords) "
                "VALUES (%s, %s, 1, 'en', '', '', %s, 10, 10, '{}', '{}', '{}')", (n, f"u{n}", to_signed(u)))
            connection.execute("INSERT INTO near_duplicate_blocks (block_key, article_id) "
                               "SELECT k, %s FROM unnest(%s::bigint[]) AS k", (n, _single_block_keys(u, d)))
        connection.execute("INSERT INTO near_duplicate_features (id, url, site_id, language, source_hash, "
                           "body_hash, simhash, token_count, shingle_count, sketch, keywords, title_keywords) "
                           "VALUES (999, 'short', 1, 'en', '', '', NULL, 1, 0, '{}', '{}', '{}')")
        assert [m.version for m in migrate(connection)] == [m.version for m in available_migrations() if m.version >= 8]
        stored = {}
        for key, article in connection.execute("SELECT block_key, article_id FROM near_duplicate_blocks"):
            stored.setdefault(article, set()).add(key)
    assert stored == {n: set(block_keys(u, d)) for n, (d, u) in enumerate(articles, start=1)}


def test_a_migration_and_its_record_are_one_transaction(database_dsn):
    """applying(): the migration's statements and its schema_migrations row in one query; a statement that fails
    leaves neither the migration's tables nor its row, and a file ending in a comment is still recorded."""
    with psycopg.connect(database_dsn, autocommit=True) as connection:
        connection.execute(CREATE_MIGRATIONS_TABLE)
        broken = Migration(9998, "broken", "CREATE TABLE half_done (x integer);\nSELECT 1 / 0;")
        with pytest.raises(psycopg.errors.DivisionByZero):
            connection.execute(applying(broken))
        assert connection.execute("SELECT to_regclass('half_done')").fetchone()[0] is None
        assert connection.execute("SELECT count(*) FROM schema_migrations").fetchone()[0] == 0
        commented = Migration(9999, "commented", "CREATE TABLE whole (x integer); -- 表, no newline at the end")
        connection.execute(applying(commented))
        assert connection.execute("SELECT to_regclass('whole')").fetchone()[0] is not None
        assert connection.execute("SELECT version, name FROM schema_migrations").fetchall() == [(9999, "commented")]


def test_crawl_database_prepared_once_migrates_a_fresh_schema_then_reads_one_table(database_dsn):
    """The crawl's database preparation (started in a thread before Scrapy builds the stages): a fresh schema gets
    every migration; on a current one it applies none and takes no lock (migrate_if_needed)."""
    from newscorpus.crawler.extensions.crawl_database import prepare_in_background

    dsn, applied = prepare_in_background(database_dsn, None, keep=False).result(timeout=120)
    assert dsn == database_dsn
    assert applied == [f"{m.version:04d}_{m.name}" for m in available_migrations()]
    with psycopg.connect(database_dsn, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK_KEY,))  # a migrator elsewhere holds the lock
        try:
            assert prepare_in_background(database_dsn, None, keep=False).result(timeout=60) == (database_dsn, [])
        finally:
            other.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))
