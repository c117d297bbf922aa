"""Scheduled builds in Postgres (queries in store/sql/builds.sql): the build lock, the build rows, the counters of
their crawl runs, the snapshot's rows and the corpus statistics. Each function takes a DSN and opens its own
connection (autocommit for the build rows, so each write stands alone); the lock holds a connection of its own."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from newscorpus.store.connection import connect
from newscorpus.store.errors import DatabaseError
from newscorpus.store.sql import query

BUILD_LOCK_CLASS = 0x6E636275  # "ncbu"; with hashtext(current_schema()) as the second key (see store/sql/builds.sql)


class BuildLock:
    """The advisory lock of one build, held by a connection of its own: closing it (or a restart of the
    server, which ends it) frees the lock."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.connection: psycopg.Connection | None = None

    @property
    def held(self) -> bool:
        return self.connection is not None

    def take(self) -> bool:
        """Open the connection and try the lock: True when this build has it now."""
        self.connection = connect(self.dsn, autocommit=True)
        return bool(self.connection.execute(query("builds.try_build_lock"),
                                            {"lock_class": BUILD_LOCK_CLASS}).fetchone()[0])

    def take_again(self) -> bool | None:
        """:meth:`take` after the connection was lost: None (and no connection) when the server cannot be reached."""
        try:
            return self.take()
        except (DatabaseError, psycopg.Error):
            self.release_quietly()
            return None

    def alive(self) -> bool:
        """The connection still answers (one round trip)."""
        try:
            self.connection.execute("SELECT 1")
        except psycopg.Error:
            return False
        return True

    def release(self) -> None:
        if self.connection is not None:
            self.connection.close()  # releases the advisory lock
            self.connection = None

    def release_quietly(self) -> None:
        try:
            self.release()
        except psycopg.Error:
            self.connection = None


def _execute(dsn: str, name: str, params: dict | None = None) -> list[dict]:
    with connect(dsn, autocommit=True) as connection:
        cursor = connection.cursor(row_factory=dict_row).execute(query(name), params or {})
        return cursor.fetchall() if cursor.description else []


def running_build(dsn: str) -> dict | None:
    """The newest build row still marked running, if any."""
    rows = _execute(dsn, "builds.running_build")
    return rows[0] if rows else None


def build_row(dsn: str, build_id: int) -> dict:
    return _execute(dsn, "builds.build_row", {"build_id": build_id})[0]


def insert_build(dsn: str, *, sites: list[str], site_configs: dict[str, str], since: date | None, out_dir: str,
                 pid: int, hostname: str) -> dict:
    """A new running build row (its key is set once its id is known); returns its id and started_at."""
    return _execute(dsn, "builds.insert_build", {
        "sites": sites, "site_configs": Jsonb(site_configs), "since": since, "out_dir": out_dir, "pid": pid,
        "hostname": hostname,
    })[0]


def set_build_key(dsn: str, build_id: int, build_key: str) -> None:
    _execute(dsn, "builds.set_build_key", {"build_id": build_id, "build_key": build_key})


def resume_build(dsn: str, build_id: int, *, pid: int, hostname: str) -> None:
    _execute(dsn, "builds.resume_build", {"build_id": build_id, "pid": pid, "hostname": hostname})


def abandon_build(dsn: str, build_id: int, error: str) -> None:
    _execute(dsn, "builds.abandon_build", {"build_id": build_id, "error": error})


def set_build_phase(dsn: str, build_id: int, phase: str, report: dict) -> None:
    _execute(dsn, "builds.set_build_phase", {"build_id": build_id, "phase": phase, "report": Jsonb(report)})


def add_build_crawl_runs(dsn: str, build_id: int, ids: list[int]) -> None:
    _execute(dsn, "builds.add_build_crawl_runs", {"build_id": build_id, "ids": ids})


def finish_build(dsn: str, build_id: int, *, status: str, phase: str, report: dict, error: str | None) -> None:
    _execute(dsn, "builds.finish_build", {"build_id": build_id, "status": status, "phase": phase,
                                          "report": Jsonb(report), "error": error})


def crawl_run_counters(dsn: str, ids: list[int]) -> list[dict]:
    """The crawl_runs rows (site, times, finish reason, counters) of ``ids``, by id."""
    with connect(dsn) as connection:
        return connection.cursor(row_factory=dict_row).execute(query("builds.crawl_run_counters"),
                                                               {"ids": ids}).fetchall()


@contextmanager
def snapshot_batches(dsn: str, sites: list[str], since: date | None, *, cursor_name: str,
                     batch_rows: int) -> Iterator[Iterator[list[tuple]]]:
    """The snapshot's rows (the published corpus of ``sites``, first seen or published on or after ``since``)
    in batches of ``batch_rows``, streamed through a server-side cursor that lives as long as the ``with``."""
    with connect(dsn) as connection, connection.cursor(name=cursor_name) as cursor:
        cursor.itersize = batch_rows
        cursor.execute(query("builds.snapshot_articles"), {"sites": sites, "since": since})
        yield iter(lambda: cursor.fetchmany(batch_rows), [])


@dataclass
class CorpusCounts:
    """The rows of `newscorpus stats`: (site, day, articles), (site, articles, distinct bodies,
    near-duplicates) and (site, cleaned articles, noise lines, body lines)."""

    per_site_day: list[tuple]
    duplicates: list[tuple]
    noise: list[tuple]


def fold_corpus_counts(connection: psycopg.Connection) -> int:
    """Add the writes' count changes since the last fold to the totals, in a transaction; how many changes."""
    with connection.transaction():
        return connection.execute(query("builds.fold_corpus_counts")).fetchone()[0]


def corpus_counts(dsn: str, site: str | None = None, since: date | None = None,
                  until: date | None = None) -> CorpusCounts:
    """The counts of `newscorpus stats`, kept on write (migrations/0018_corpus_counts.sql): the same numbers as
    the queries over every article (tests/store/test_corpus_counts.py), read from a few small tables."""
    with connect(dsn) as connection:
        fold_corpus_counts(connection)
        per_day = connection.execute(query("builds.articles_per_site_day"),
                                     {"site": site, "since": since, "until": until}).fetchall()
        duplicates = connection.execute(query("builds.duplicate_counts"), {"site": site}).fetchall()
        noise = connection.execute(query("builds.noise_counts"), {"site": site}).fetchall()
    return CorpusCounts(per_day, duplicates, noise)
