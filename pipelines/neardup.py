"""Near-duplicate stage: features of the article's title and cleaned body (pipelines.core.near_duplicate), the
decision against the Postgres index, the link to the cluster's canonical article (pipelines.db.dedup_index_store).

Duplicates are stored like any article (nothing is dropped or deleted); the corpus_articles view leaves them
out. The item carries the outcome in ``item.annotations["near_duplicate"]``. The work runs in one dedicated
thread with its own connection, so the reactor is never blocked on the database.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

import psycopg
from scrapy.exceptions import NotConfigured

from crawler.database import CrawlDatabase
from pipelines.core.keywords import detect_language
from pipelines.core.near_duplicate import DedupConfig, build_features
from pipelines.db.connection import DatabaseUnavailableError, connect
from pipelines.db.corpus_store import without_nul
from pipelines.db.dedup_index_store import DedupOutcome, record_article, source_hash
from pipelines.db.retry import retry_sync

logger = logging.getLogger(__name__)

# DedupConfig field <- setting, type, check (defaults and their sources in crawler/settings.py).
SETTINGS = {
    "window": ("NEWSCORPUS_DEDUP_WINDOW", int, lambda v: v >= 1, "must be >= 1"),
    "min_cooccurrence": ("NEWSCORPUS_DEDUP_M", int, lambda v: v >= 1, "must be >= 1"),
    "tau": ("NEWSCORPUS_DEDUP_TAU", float, lambda v: 0 <= v <= 1, "must be in [0, 1]"),
    "body_tau": ("NEWSCORPUS_DEDUP_BODY_TAU", float, lambda v: 0 <= v <= 1, "must be in [0, 1]"),
    "simhash_distance": ("NEWSCORPUS_DEDUP_SIMHASH_DISTANCE", int, lambda v: 1 <= v <= 15, "must be in 1..15"),
}


def config_from_settings(settings) -> DedupConfig:
    """The detector's parameters from Scrapy settings (or any mapping); errors name the setting."""
    values = {}
    for field_name, (setting, kind, check, rule) in SETTINGS.items():
        raw = settings.get(setting)
        if raw is None:
            continue
        try:
            value = kind(raw)
        except (TypeError, ValueError):
            raise ValueError(f"{setting} must be a {kind.__name__}, not {raw!r}") from None
        if not check(value):
            raise ValueError(f"{setting} {rule}, not {value!r}")
        values[field_name] = value
    return DedupConfig(**values)


class NearDuplicatePipeline:
    def __init__(self, crawler, database: CrawlDatabase, config: DedupConfig):
        self.crawler = crawler
        self.database = database
        self.config = config
        self.executor: ThreadPoolExecutor | None = None
        self.connection: psycopg.Connection | None = None  # used only in the executor's one thread
        self.retries = 0  # decisions repeated after a lost connection (pipelines.db.retry)

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        if not settings.getbool("NEWSCORPUS_DEDUP_ENABLED"):
            raise NotConfigured("NEWSCORPUS_DEDUP_ENABLED is off")
        return cls(crawler, CrawlDatabase.of(crawler), config_from_settings(settings))

    async def open_spider(self) -> None:
        await self.database.open(self.crawler.spider.site_config.name)
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="neardup")

    async def close_spider(self) -> None:
        if self.retries:
            self.crawler.stats.set_value("newscorpus/dedup/db_retries", self.retries)
        if self.executor is not None:
            await asyncio.get_running_loop().run_in_executor(self.executor, self._close_connection)
            self.executor.shutdown(wait=True)

    def _close_connection(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def decide(self, url: str, site_id: int, title: str, body: str) -> DedupOutcome | None:
        """In the executor's thread: features, then the transaction; None when the body is too short."""
        features = build_features(title, body, detect_language(body), self.config)
        if features.token_count < self.config.min_simhash_tokens:
            return None

        def record() -> DedupOutcome:
            if self.connection is None or self.connection.closed:
                self.connection = connect(self.database.dsn, autocommit=True)
            return record_article(self.connection, url, site_id, source_hash(title, body), features, self.config)

        def drop_connection(error: Exception) -> None:
            self.retries += 1
            self._close_connection()

        # record_article is idempotent per URL and text: retried with back-off while the server is away.
        return retry_sync(record, f"the near-duplicate check of {url[:200]}", on_retry=drop_connection)

    async def process_item(self, item):
        if item.outcome != "article":
            return item
        stats = self.crawler.stats
        title = without_nul(item.title) or ""
        body = without_nul(item.clean_body if item.clean_body is not None else item.body) or ""
        site_id = await self.database.writer.site_id(item.site)
        loop = asyncio.get_running_loop()
        try:
            outcome = await loop.run_in_executor(self.executor, self.decide, item.article_url, site_id, title, body)
        # Retries exhausted or another database error: the article is still stored (as canonical), and
        # resolution can catch up.
        except (psycopg.Error, DatabaseUnavailableError) as error:
            logger.error("near-duplicate check failed for %s: %s", item.article_url, error)
            stats.inc_value("newscorpus/dedup/failed")
            self._close_connection()
            return item
        if outcome is None:
            stats.inc_value("newscorpus/dedup/skipped_short")
            item.annotations["near_duplicate"] = {"status": "skipped_short"}
            return item
        item.annotations["near_duplicate"] = {"status": outcome.status, "canonical_url": outcome.canonical_url,
                                              "method": outcome.method, "score": outcome.score}
        if outcome.status == "unchanged":
            stats.inc_value("newscorpus/dedup/unchanged")
        elif outcome.status == "duplicate":
            stats.inc_value(f"newscorpus/dedup/duplicate/{outcome.method}")
        else:
            stats.inc_value("newscorpus/dedup/canonical")
            if outcome.promoted:
                stats.inc_value("newscorpus/dedup/promoted")
        return item
