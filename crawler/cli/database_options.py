"""The --dsn / --data-dir options every database command takes, and opening the database they name."""

from __future__ import annotations

import argparse

from crawler.cli.main import CommandError
from migrations.runner import migrate
from pipelines.db.connection import DatabaseError, connect, resolve_dsn


def add_database_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dsn", help="Postgres DSN (default: $NEWSCORPUS_DB_DSN, else the embedded server)")
    parser.add_argument("--data-dir", help="embedded Postgres data directory (default: .newscorpus/pg)")


def open_database(args: argparse.Namespace) -> str:
    """The DSN named by the options, with every migration applied; a CommandError if it cannot be used."""
    try:
        dsn = resolve_dsn(args.dsn, args.data_dir)
        with connect(dsn) as connection:
            migrate(connection)
    except DatabaseError as error:
        raise CommandError(str(error)) from None
    return dsn
