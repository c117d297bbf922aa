"""The crawl's database is resolved and migrated in a thread started before Scrapy builds the stages:
`scrapy crawl site` starts it after its checks and the database extension takes it; the result and the errors
are the same as opening it after the spider opened."""

from __future__ import annotations

import asyncio
import logging

import psycopg
import pytest
from scrapy.utils.test import get_crawler

from newscorpus.crawler.extensions.crawl_database import CrawlDatabase, _started, prepare_in_background
from newscorpus.store.errors import DatabaseUnavailableError
from newscorpus.store.migrations import available_migrations


def _database(dsn: str | None) -> CrawlDatabase:
    crawler = get_crawler()
    crawler.stats.open_spider()
    return CrawlDatabase(crawler, dsn=dsn, data_dir=None, batch_size=1)


async def _open_and_close(database: CrawlDatabase, site: str) -> int:
    await database.open(site)
    run_id = database.crawl_run_id
    await database.writer.close()
    return run_id


def test_the_extension_takes_the_preparation_the_command_started(database_dsn):
    started = prepare_in_background(database_dsn, None)  # what `scrapy crawl site` does after its checks
    first, second = _database(database_dsn), _database(database_dsn)
    assert first.prepare() is started and first.prepare() is started  # taken once, by the first extension
    assert second.prepare() is not started  # another crawler of the process prepares its own
    assert (database_dsn, None) not in _started
    assert asyncio.run(_open_and_close(first, "西湖日报")) > 0
    assert first.dsn == database_dsn
    asyncio.run(_open_and_close(second, "westlake"))
    with psycopg.connect(database_dsn) as connection:
        versions = [row[0] for row in connection.execute("SELECT version FROM schema_migrations ORDER BY 1")]
        sites = connection.execute("SELECT count(*) FROM crawl_runs").fetchone()[0]
    assert versions == [m.version for m in available_migrations()]  # each applied once
    assert sites == 2


def test_preparation_for_other_settings_is_not_taken(database_dsn):
    elsewhere = prepare_in_background("postgresql://postgres@127.0.0.1:1/nowhere", None)
    database = _database(database_dsn)
    assert database.prepare() is not elsewhere
    assert asyncio.run(_open_and_close(database, "demo")) > 0
    with pytest.raises(DatabaseUnavailableError):
        elsewhere.result(timeout=60)
    _started.clear()


def test_an_unreachable_database_fails_the_open_logged_once(caplog):
    database = _database("postgresql://postgres@127.0.0.1:1/nowhere")  # nothing listens on port 1
    with caplog.at_level(logging.ERROR, logger="newscorpus.crawler.extensions.crawl_database"), \
            pytest.raises(DatabaseUnavailableError, match="cannot reach the database"):
        asyncio.run(database.open("demo"))
    errors = [record.getMessage() for record in caplog.records if record.levelno == logging.ERROR]
    assert len(errors) == 1 and "cannot reach the database at postgresql://postgres@127.0.0.1:1/nowhere" in errors[0]
    assert database.writer is None
