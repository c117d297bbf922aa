"""The --dsn / --data-dir options every database command takes, and opening the database they name.

Nothing here imports psycopg or the embedded server at module level: the parser is built for every command,
`--help` included, and must stay fast (benchmarks/cli_latency.py); the database modules load when a command opens
one."""

from __future__ import annotations

import argparse
import os

from newscorpus.cli.main import CommandError

DATA_DIR_VARIABLE = "NEWSCORPUS_DB_DATA_DIR"
DSN_VARIABLE = "NEWSCORPUS_DB_DSN"
HOW_TO_MAKE_A_CORPUS = ("`newscorpus demo` makes one from the bundled demo site, "
                        "`scrapy crawl site -a site=NAME` from a real site")


def add_database_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dsn", help="Postgres DSN (default: $NEWSCORPUS_DB_DSN, else the embedded server)")
    parser.add_argument("--data-dir", help="embedded Postgres data directory (default: $NEWSCORPUS_DB_DATA_DIR, "
                                           "else .newscorpus/pg)")


def uses_embedded_server(args: argparse.Namespace) -> bool:
    return not (getattr(args, "dsn", None) or os.environ.get(DSN_VARIABLE))


def require_existing_corpus(args: argparse.Namespace) -> None:
    """A command that reads the corpus must not create an empty embedded database (40 MB) where there is none:
    a CommandError saying how to make one instead."""
    if not uses_embedded_server(args):
        return
    from newscorpus.store.connection import embedded_data_dir

    data_dir = embedded_data_dir(args.data_dir or os.environ.get(DATA_DIR_VARIABLE))
    if not (data_dir / "PG_VERSION").exists():
        shown = os.path.relpath(data_dir) if data_dir.is_relative_to(os.getcwd()) else str(data_dir)
        raise CommandError(f"no corpus in {shown} yet: {HOW_TO_MAKE_A_CORPUS} "
                           "(or point --dsn / --data-dir at an existing one)")


def open_database(args: argparse.Namespace, *, create: bool = False) -> str:
    """The DSN named by the options, with every migration applied; a CommandError if it cannot be used.
    ``create``: an embedded database may be made here (demo, build); otherwise it must exist already."""
    from newscorpus.store.connection import connect, resolve_dsn
    from newscorpus.store.errors import DatabaseError
    from newscorpus.store.migrations import migrate_if_needed

    if not create:
        require_existing_corpus(args)
    try:
        dsn = resolve_dsn(args.dsn, args.data_dir)
        with connect(dsn) as connection:
            migrate_if_needed(connection)
    except DatabaseError as error:
        raise CommandError(str(error)) from None
    return dsn


def site_names(dsn: str) -> list[str]:
    from newscorpus.store import corpus_reader
    from newscorpus.store.errors import DatabaseError

    try:
        return corpus_reader.site_names(dsn)
    except DatabaseError as error:
        raise CommandError(str(error)) from None


def check_site(dsn: str, site: str | None) -> None:
    """A CommandError when ``site`` is given and no site of that name is stored (an empty answer would look
    like a site with nothing in it)."""
    if site is None:
        return
    names = site_names(dsn)
    if site not in names:
        raise CommandError(no_such_site(site, names))


def no_such_site(site: str, names: list[str]) -> str:
    known = ", ".join(names[:20]) + (", ..." if len(names) > 20 else "") if names else "none yet"
    return f"no site named {site!r} in the corpus (sites: {known})"
