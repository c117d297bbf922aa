from __future__ import annotations

import re
from importlib import resources

import psycopg

from migrations.runner import available_migrations, migrate

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
    schema_sql = resources.files("migrations").joinpath("schema.sql").read_text("utf-8")
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
