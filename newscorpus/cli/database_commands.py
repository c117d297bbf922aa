"""`newscorpus db migrate|status|start|stop`: apply the SQL migrations, show what is applied, start or stop the
embedded server."""

from __future__ import annotations

import os

from newscorpus.cli.database_options import DATA_DIR_VARIABLE, add_database_options, require_existing_corpus
from newscorpus.cli.groups import get_or_add_group
from newscorpus.cli.main import CommandError


def register(subparsers) -> None:
    group = get_or_add_group(subparsers, "db", help="the database: migrations, status, start/stop the embedded server")
    migrate_parser = group.add_parser("migrate", help="apply the migrations not yet applied")
    add_database_options(migrate_parser)
    migrate_parser.set_defaults(func=run_migrate)
    status_parser = group.add_parser("status", help="show applied migrations and row counts")
    add_database_options(status_parser)
    status_parser.set_defaults(func=run_status)
    start_parser = group.add_parser(
        "start", help="start the embedded server now (it stops after $NEWSCORPUS_DB_IDLE_SECONDS without a user)")
    start_parser.add_argument("--data-dir", help="embedded Postgres data directory (default: $NEWSCORPUS_DB_DATA_DIR, "
                                                 "else .newscorpus/pg)")
    start_parser.set_defaults(func=run_start)
    stop_parser = group.add_parser("stop", help="stop the embedded server now")
    stop_parser.add_argument("--data-dir", help="embedded Postgres data directory (default: $NEWSCORPUS_DB_DATA_DIR, "
                                                "else .newscorpus/pg)")
    stop_parser.add_argument("--force", action="store_true", help="stop it even while a crawl or command uses it")
    stop_parser.set_defaults(func=run_stop)


def _dsn(args) -> str:
    from newscorpus.store.connection import resolve_dsn
    from newscorpus.store.errors import DatabaseError

    try:
        return resolve_dsn(args.dsn, args.data_dir)
    except DatabaseError as error:
        raise CommandError(str(error)) from None


def _data_dir(args) -> str | None:
    return args.data_dir or os.environ.get(DATA_DIR_VARIABLE)


def run_migrate(args) -> int:
    from newscorpus.store.connection import connect, redact_dsn
    from newscorpus.store.errors import DatabaseError
    from newscorpus.store.migrations import available_migrations, migrate

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
    import psycopg

    from newscorpus.store.connection import connect
    from newscorpus.store.corpus_reader import count_rows
    from newscorpus.store.errors import DatabaseError
    from newscorpus.store.migrations import applied_versions, available_migrations

    require_existing_corpus(args)
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
                counts = count_rows(connection)
                print(f"sites: {counts[0]}  pages: {counts[1]}  articles: {counts[2]}")
            else:
                print("run `newscorpus db migrate` (a crawl also migrates when it opens)")
    except DatabaseError as error:
        raise CommandError(str(error)) from None
    return 0


def run_start(args) -> int:
    from newscorpus.store.connection import embedded_data_dir, embedded_dsn
    from newscorpus.store.embedded_server import idle_seconds_from_environment
    from newscorpus.store.errors import DatabaseError

    data_dir = _data_dir(args)
    try:
        dsn = embedded_dsn(data_dir)
        idle = idle_seconds_from_environment()
    except DatabaseError as error:
        raise CommandError(str(error)) from None
    until = "the last process using it exits" if idle == 0 else f"{idle:g} s without a user"
    print(f"embedded Postgres running in {embedded_data_dir(data_dir)} ({dsn}); it stops after {until}, "
          "or with `newscorpus db stop`")
    return 0


def run_stop(args) -> int:
    from newscorpus.store.connection import embedded_data_dir
    from newscorpus.store.embedded_server import stop_server

    data_dir = embedded_data_dir(_data_dir(args))
    if not (data_dir / "PG_VERSION").exists():
        raise CommandError(f"no embedded database in {data_dir}")
    stopped, users = stop_server(data_dir, force=args.force)
    if users and not stopped and not args.force:
        raise CommandError(f"the embedded server in {data_dir} is in use by process(es) "
                           f"{', '.join(map(str, users))}; --force stops it anyway")
    print(f"embedded Postgres in {data_dir} {'stopped' if stopped else 'was not running'}")
    return 0
