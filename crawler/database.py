"""The crawl's database, as a Scrapy extension: opened once (embedded or DSN, migrated), shared by the stages."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from scrapy import signals
from scrapy.crawler import Crawler

from migrations.runner import migrate
from pipelines.db.connection import DatabaseError, connect, redact_dsn, resolve_dsn
from pipelines.db.corpus_store import CorpusWriter

logger = logging.getLogger(__name__)


def migrate_database(dsn: str) -> list[str]:
    with connect(dsn) as connection:
        return [f"{m.version:04d}_{m.name}" for m in migrate(connection)]


class CrawlDatabase:
    """Owns the crawl's connection: stages call :meth:`record`; pages and articles are written in batches."""

    def __init__(self, crawler: Crawler, dsn: str | None, data_dir: str, batch_size: int):
        if batch_size < 1:
            raise ValueError(f"NEWSCORPUS_STORAGE_BATCH_SIZE must be >= 1, not {batch_size}")
        self.crawler = crawler
        self.configured_dsn = dsn
        self.data_dir = data_dir
        self.batch_size = batch_size
        self.writer: CorpusWriter | None = None
        self.dsn: str | None = None     # the resolved DSN, set by open()
        self.crawl_run_id: int | None = None
        self._open_lock = asyncio.Lock()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlDatabase:
        settings = crawler.settings
        extension = cls(
            crawler,
            dsn=settings.get("NEWSCORPUS_DB_DSN"),
            data_dir=settings.get("NEWSCORPUS_DB_DATA_DIR"),
            batch_size=settings.getint("NEWSCORPUS_STORAGE_BATCH_SIZE"),
        )
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    @staticmethod
    def of(crawler: Crawler) -> CrawlDatabase:
        database = crawler.get_extension(CrawlDatabase)
        if database is None:
            raise RuntimeError("crawler.database.CrawlDatabase is not in EXTENSIONS")
        return database

    async def open(self, site: str) -> None:
        async with self._open_lock:
            if self.writer is not None:
                return
            try:
                dsn = await asyncio.to_thread(resolve_dsn, self.configured_dsn, self.data_dir)
                applied = await asyncio.to_thread(migrate_database, dsn)
            except DatabaseError as error:
                logger.error("%s", error)
                raise
            logger.info("database %s ready (migrations applied now: %s)", redact_dsn(dsn), applied or "none")
            self.dsn = dsn
            writer = CorpusWriter(dsn, batch_size=self.batch_size)
            self.crawl_run_id = await writer.start_crawl_run(site)
            self.writer = writer

    async def record(self, item, *, with_article: bool) -> None:
        if self.writer is None:
            raise RuntimeError("CrawlDatabase.record before open")
        await self.writer.add(item, self.crawl_run_id, with_article=with_article)

    async def spider_closed(self, spider, reason: str) -> None:
        writer, self.writer = self.writer, None
        if writer is None:
            return
        stats = self.crawler.stats
        try:
            await writer.close()
        finally:
            for name, value in writer.counters.items():
                stats.set_value(f"newscorpus/storage/{name}", value)
            counters = {
                key: (value.isoformat() if isinstance(value, datetime) else value)
                for key, value in stats.get_stats().items()
            }
            try:
                await writer.finish_crawl_run(self.crawl_run_id, reason, counters)
                await writer.close()
            except Exception as error:  # the pages are written; a missing run summary must not fail the crawl
                logger.warning("could not record the crawl run summary: %s", error)
