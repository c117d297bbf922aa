"""`newscorpus db migrate|status`: apply the SQL migrations, show what is applied."""

from __future__ import annotations

import psycopg

from crawler.cli.database_options import add_database_options
from crawler.cli.groups import get_or_add_group
from crawler.cli.main import CommandError
from migrations.runner import applied_versions, available_migrations, migrate
from pipelines.db.connection import DatabaseError, connect, redact_dsn, resolve_dsn
from pipelines.db.named_queries import query


def register(subparsers) -> None:
    group = get_or_add_group(subparsers, "db", help="database schema")
    migrate_parser = group.add_parser("migrate", help="apply the migrations not yet applied")
    add_database_options(migrate_parser)
    migrate_parser.set_defaults(func=run_migrate)
    status_parser = group.add_parser("status", help="show applied migrations and row counts")
    add_database_options(status_parser)
    status_parser.set_defaults(func=run_status)


def _dsn(args) -> str:
    try:
        return resolve_dsn(args.dsn, args.data_dir)
    except DatabaseError as error:
        raise CommandError(str(error)) from None


def run_migrate(args) -> int:
    dsn = _dsn(args)
    try:
        with connect(dsn) as connection:
            applied = migrate(connection)
    except DatabaseError as error:
        raise CommandError(str(error)) from None
    for migration in applied:
        print(f"applied {migration.version:04d}_{migration.name}")
    print(f"database {redact_dsn(dsn)} is up to date ({len(available_migrations())} migrations)")
    return 0


def run_status(args) -> int:
    dsn = _dsn(args)
    try:
        with connect(dsn, autocommit=True) as connection:
            try:
                done = applied_versions(connection)
            except psycopg.errors.UndefinedTable:
                done = set()
            migrations = available_migrations()
            for migration in migrations:
                mark = "applied" if migration.version in done else "pending"
                print(f"{migration.version:04d}_{migration.name}: {mark}")
            if done >= {migration.version for migration in migrations}:
                counts = connection.execute(query("count_rows")).fetchone()
                print(f"sites: {counts[0]}  pages: {counts[1]}  articles: {counts[2]}")
            else:
                print("run `newscorpus db migrate` (a crawl also migrates when it opens)")
    except DatabaseError as error:
        raise CommandError(str(error)) from None
    return 0
