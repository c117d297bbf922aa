"""The crawl's database, as a Scrapy extension: opened once (embedded or DSN, migrated), shared by the stages.

It is also the one place a page's outcome is recorded: a page that leaves the pipeline with a named outcome
(newscorpus.crawler.outcomes, raised by a stage) is stored without an article and counted as
``newscorpus/outcome/<outcome>`` when Scrapy signals the drop; a page that comes out of the pipeline is counted
under its outcome (``article``) once stored.

When Postgres stays away longer than the retry window (newscorpus.store.retry), the crawl stops cleanly with the
finish reason ``database_unavailable``: every page fetched but not saved is named in one log line, counted
(``newscorpus/storage/pages_unsaved``), and left unseen for the next run, which fetches it again (a JOBDIR
keeps its crash marker, newscorpus.crawler.extensions.jobdir_guard; a Redis run is finished,
newscorpus.crawler.distributed.worker).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import Future
from datetime import datetime

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.utils.defer import deferred_from_coro

from newscorpus.crawler.outcomes import PageOutcome
from newscorpus.crawler.stage_settings import stage_config
from newscorpus.store.connection import connect, error_line, redact_dsn, resolve_dsn
from newscorpus.store.corpus_store import CorpusWriter
from newscorpus.store.errors import DatabaseError
from newscorpus.store.migrations import migrate_if_needed
from newscorpus.store.retry import RETRYABLE, RetryPolicy, configure

logger = logging.getLogger(__name__)

DATABASE_UNAVAILABLE = "database_unavailable"  # the finish reason of a crawl stopped by a database outage


def migrate_database(dsn: str) -> list[str]:
    """The migrations applied now (none when the schema is at the latest version: one lock-free read of
    schema_migrations, newscorpus.store.migrations.migrate_if_needed)."""
    with connect(dsn) as connection:
        return [f"{m.version:04d}_{m.name}" for m in migrate_if_needed(connection)]


def prepare_database(dsn: str | None, data_dir: str | None) -> tuple[str, list[str]]:
    """The resolved DSN (an embedded server started when none is configured) and the migrations applied now."""
    resolved = resolve_dsn(dsn, data_dir)
    return resolved, migrate_database(resolved)


_started: dict[tuple[str | None, str | None], Future] = {}  # started by the crawl command, not yet taken


def prepare_in_background(dsn: str | None, data_dir: str | None, keep: bool = True) -> Future:
    """:func:`prepare_database` in a thread of its own, started now; its result or error in the future returned
    (and, with `keep`, handed to the first CrawlDatabase of these settings). The thread is not a daemon: a
    migration under way is finished, not cut off, when the process exits."""
    future: Future = Future()
    if keep:
        _started[(dsn, data_dir)] = future

    def run() -> None:
        if future.set_running_or_notify_cancel():
            try:
                future.set_result(prepare_database(dsn, data_dir))
            except BaseException as error:  # handed to CrawlDatabase.open, which logs it and fails the stage
                future.set_exception(error)

    threading.Thread(target=run, name="newscorpus-database-prepare").start()
    return future


class CrawlDatabase:
    """Owns the crawl's connection: the storage stage calls :meth:`record`, dropped pages are recorded on the
    item_dropped signal; pages and articles are written in batches."""

    def __init__(self, crawler: Crawler, dsn: str | None, data_dir: str, batch_size: int, retry_attempts: int = 8):
        if retry_attempts < 1:
            raise ValueError(f"NEWSCORPUS_DB_RETRY_ATTEMPTS must be >= 1, not {retry_attempts}")
        configure(RetryPolicy(attempts=retry_attempts))
        self.crawler = crawler
        self.configured_dsn = dsn
        self.data_dir = data_dir
        self.batch_size = batch_size
        self.writer: CorpusWriter | None = None
        self.dsn: str | None = None     # the resolved DSN, set by open()
        self.crawl_run_id: int | None = None
        self.unsaved: set[str] = set()  # URLs of items a database outage kept from being saved
        self.stopping = False
        self._open_lock = asyncio.Lock()
        self._prepared: Future | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlDatabase:
        settings = crawler.settings
        extension = cls(
            crawler,
            dsn=settings.get("NEWSCORPUS_DB_DSN"),
            data_dir=settings.get("NEWSCORPUS_DB_DATA_DIR"),
            batch_size=stage_config(settings, "STORAGE").batch_size,
            retry_attempts=settings.getint("NEWSCORPUS_DB_RETRY_ATTEMPTS"),
        )
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(extension.item_error, signal=signals.item_error)
        crawler.signals.connect(extension.item_dropped, signal=signals.item_dropped)
        crawler.signals.connect(extension.item_scraped, signal=signals.item_scraped)
        # Scrapy builds extensions just before the engine, its middlewares and the stages (a large part of the start):
        # the database is resolved and migrated meanwhile, in a thread, instead of after the spider opens.
        extension.prepare()
        return extension

    @staticmethod
    def of(crawler: Crawler) -> CrawlDatabase:
        database = crawler.get_extension(CrawlDatabase)
        if database is None:
            raise RuntimeError("newscorpus.crawler.extensions.crawl_database.CrawlDatabase is not in EXTENSIONS")
        return database

    def prepare(self) -> Future:
        """Resolve and migrate the database in a thread (once; the one `scrapy crawl site` started for the same
        settings, if any: prepare_in_background); :meth:`open` waits for it and raises its error."""
        if self._prepared is None:
            self._prepared = (_started.pop((self.configured_dsn, self.data_dir), None)
                              or prepare_in_background(self.configured_dsn, self.data_dir, keep=False))
        return self._prepared

    async def open(self, site: str) -> None:
        async with self._open_lock:
            if self.writer is not None:
                return
            try:
                dsn, applied = await asyncio.wrap_future(self.prepare())
            except DatabaseError as error:
                logger.error("%s", error)
                raise
            logger.info("database %s ready (migrations applied now: %s)", redact_dsn(dsn), applied or "none")
            self.dsn = dsn
            writer = CorpusWriter(dsn, batch_size=self.batch_size)
            self.crawl_run_id = await writer.start_crawl_run(site)
            self.writer = writer

    @property
    def is_open(self) -> bool:
        return self.writer is not None

    async def record(self, item, *, with_article: bool) -> None:
        if self.writer is None:
            raise RuntimeError("CrawlDatabase.record before open")
        await self.writer.add(item, self.crawl_run_id, with_article=with_article)

    async def site_id(self, site: str) -> int:
        """The id of ``site`` in the sites table (added when new)."""
        if self.writer is None:
            raise RuntimeError("CrawlDatabase.site_id before open")
        return await self.writer.site_id(site)

    async def flush(self) -> bool:
        """Write the pages and articles waiting in the current batch; False when they could not be."""
        return True if self.writer is None else await self.writer.flush()

    async def item_dropped(self, item, exception) -> None:
        """A stage dropped ``item`` with a named outcome: the page is stored with it, and the outcome counted."""
        if not isinstance(exception, PageOutcome):
            return
        item.outcome = exception.outcome
        if exception.detail is not None:
            item.outcome_detail = exception.detail
        self.crawler.stats.inc_value(f"newscorpus/outcome/{item.outcome}")
        try:
            await self.record(item, with_article=False)
        except RETRYABLE as error:
            self.not_saved(getattr(item, "url", "?"), error)

    def item_scraped(self, item) -> None:
        """``item`` came out of the pipeline (the storage stage has recorded it): counted under its outcome."""
        if getattr(item, "outcome", None):
            self.crawler.stats.inc_value(f"newscorpus/outcome/{item.outcome}")

    def item_error(self, item, response, spider, failure) -> None:
        """A stage failed on ``item``: when the database is away past the retry window, the page is not saved
        (one line, its URL and the reason; the log formatter leaves out the traceback) and the crawl stops."""
        if failure.check(*RETRYABLE):
            self.not_saved(getattr(item, "url", None) or getattr(response, "url", "?"), failure.value)

    def not_saved(self, url: str, error: BaseException) -> None:
        if url not in self.unsaved and (self.writer is None or url not in self.writer.unsaved):  # logged once
            logger.error("not saved, the database is unavailable (%s): %s", error_line(error), url)
        self.unsaved.add(url)
        self.stop_for_outage()

    def stop_for_outage(self) -> None:
        if self.stopping:
            return
        self.stopping = True
        logger.error("the database has been unavailable for longer than the retry window: stopping the crawl; the "
                     "pages not saved are counted (newscorpus/storage/pages_unsaved) and fetched by the next run")
        deferred_from_coro(self.crawler.engine.close_spider_async(reason=DATABASE_UNAVAILABLE))

    async def spider_closed(self, spider, reason: str) -> None:
        writer, self.writer = self.writer, None
        if writer is None:
            return
        stats = self.crawler.stats
        await writer.close()  # a batch it could not write is in writer.unsaved
        unsaved = self.unsaved | writer.unsaved
        if unsaved:
            reason = DATABASE_UNAVAILABLE  # also when only the last batch failed, after the crawl had finished
            stats.set_value("newscorpus/storage/pages_unsaved", len(unsaved))
            stats.set_value("finish_reason", reason)
            logger.error("%d fetched page(s) not saved because the database was unavailable; the next run fetches "
                         "them again", len(unsaved))
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
            logger.warning("could not record the crawl run summary: %s", error_line(error))
