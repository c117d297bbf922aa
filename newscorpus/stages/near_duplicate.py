"""Near-duplicate stage: features of the article's title and cleaned body, in the language the extraction found
(newscorpus.core.near_duplicate), the decision against the Postgres index, the link to the cluster's canonical
article (newscorpus.store.near_duplicate_records).

Duplicates are stored like any article (nothing is dropped or deleted); the corpus_articles view leaves them
out. The item carries the outcome in ``item.annotations["near_duplicate"]``. The work runs in one dedicated
thread with its own connection, so the reactor is never blocked on the database. With
NEWSCORPUS_NEAR_DUPLICATE_WORKERS = 1 the features (keywords with jieba, fingerprint, sketch) are computed in a
process of their own, off the reactor's core (issue 18); a worker that fails is counted
(newscorpus/near_duplicate/worker_errors), replaced, and the batch's features computed in the thread: no article
is lost.

Group batching: the articles that arrive while a batch is being decided wait and go together in the next one
(at most NEWSCORPUS_NEAR_DUPLICATE_BATCH_SIZE), one transaction each. A lone article goes alone at once, so
batching adds no wait; under load the per-transaction costs are shared (benchmarks/dedup_throughput.py).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

import psycopg
from scrapy.exceptions import NotConfigured

from newscorpus.core.near_duplicate import DocumentFeatures, NearDuplicateConfig, build_features_batch
from newscorpus.core.text import source_hash, without_nul
from newscorpus.crawl.database import CrawlDatabase
from newscorpus.crawl.stage_settings import stage_config, stage_enabled
from newscorpus.store.connection import DatabaseUnavailableError, connect
from newscorpus.store.near_duplicate_records import ArticleToRecord, DedupOutcome, record_articles
from newscorpus.store.retry import retry_sync

logger = logging.getLogger(__name__)


def config_from_settings(settings) -> NearDuplicateConfig:
    """The detector's and the stage's parameters from NEWSCORPUS_NEAR_DUPLICATE_* in Scrapy settings (or any
    mapping of setting names); errors name the setting."""
    return stage_config(settings, "NEAR_DUPLICATE")


@dataclass(frozen=True)
class _Waiting:
    url: str
    site_id: int
    title: str
    body: str
    language: str | None  # as the extraction found it; None: detected from the body
    outcome: asyncio.Future  # DedupOutcome, None (too short) or the exception


class NearDuplicatePipeline:
    def __init__(self, crawler, database: CrawlDatabase, config: NearDuplicateConfig):
        self.crawler = crawler
        self.database = database
        self.config = config
        self.batch_size = config.batch_size
        self.workers = config.workers
        self.pool: ProcessPoolExecutor | None = None  # used only from the executor's one thread
        self.worker_errors = 0
        self.executor: ThreadPoolExecutor | None = None
        self.connection: psycopg.Connection | None = None  # used only in the executor's one thread
        self.retries = 0  # decisions repeated after a lost connection (newscorpus.store.retry)
        self.waiting: list[_Waiting] = []
        self.batcher: asyncio.Task | None = None

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        if not stage_enabled(settings, "NEAR_DUPLICATE"):
            raise NotConfigured("NEWSCORPUS_NEAR_DUPLICATE_ENABLED is off")
        return cls(crawler, CrawlDatabase.of(crawler), config_from_settings(settings))

    async def open_spider(self) -> None:
        await self.database.open(self.crawler.spider.site_config.name)
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="near_duplicate")
        if self.workers:  # started (and its imports done) before the first batch
            await asyncio.get_running_loop().run_in_executor(self.executor, self._features, [("", "start", None, None)])

    async def close_spider(self) -> None:
        if self.batcher is not None:
            await self.batcher
        if self.retries:
            self.crawler.stats.set_value("newscorpus/near_duplicate/db_retries", self.retries)
        if self.worker_errors:
            self.crawler.stats.set_value("newscorpus/near_duplicate/worker_errors", self.worker_errors)
        if self.executor is not None:
            await asyncio.get_running_loop().run_in_executor(self.executor, self._close_connection)
            self.executor.shutdown(wait=True)
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None

    def _features(self, articles: list[tuple[str, str, int | None, str | None]]) -> list[DocumentFeatures]:
        """In the executor's thread: the batch's features, in the worker process when there is one."""
        if not self.workers:
            return build_features_batch(articles, self.config)
        if self.pool is None:
            self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        try:
            return self.pool.submit(build_features_batch, articles, self.config).result()
        except (BrokenProcessPool, OSError) as error:  # the worker died (killed, out of memory): a new one next
            self.worker_errors += 1
            logger.error("near-duplicate worker failed (%s): features of %d article(s) computed in the crawl "
                         "process", error, len(articles))
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
            return build_features_batch(articles, self.config)

    def _close_connection(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def decide(self, waiting: list[_Waiting]) -> list[DedupOutcome | None]:
        """In the executor's thread: features, then one transaction for the batch; None for a body too short."""
        outcomes: list[DedupOutcome | None] = [None] * len(waiting)
        articles, positions = [], []
        built = self._features([(entry.title, entry.body, entry.site_id, entry.language) for entry in waiting])
        for position, (entry, features) in enumerate(zip(waiting, built, strict=True)):
            if features.token_count >= self.config.min_simhash_tokens:
                articles.append(ArticleToRecord(entry.url, entry.site_id, source_hash(entry.title, entry.body),
                                                features))
                positions.append(position)
        if not articles:
            return outcomes

        def record() -> list[DedupOutcome]:
            if self.connection is None or self.connection.closed:
                self.connection = connect(self.database.dsn, autocommit=True)
            return record_articles(self.connection, articles, self.config)

        def drop_connection(error: Exception) -> None:
            self.retries += 1
            self._close_connection()

        # record_articles is idempotent per URL and text: retried with back-off while the server is away.
        what = f"the near-duplicate check of {len(articles)} article(s) from {articles[0].url[:200]}"
        for position, outcome in zip(positions, retry_sync(record, what, on_retry=drop_connection), strict=True):
            outcomes[position] = outcome
        return outcomes

    async def _run_batches(self) -> None:
        """Decide waiting articles, a batch at a time, until none wait; a failed batch is retried one article at
        a time, so one article the database refuses does not fail the others."""
        loop = asyncio.get_running_loop()
        stats = self.crawler.stats
        try:
            while self.waiting:
                batch, self.waiting = self.waiting[:self.batch_size], self.waiting[self.batch_size:]
                stats.inc_value("newscorpus/near_duplicate/batches")
                stats.max_value("newscorpus/near_duplicate/largest_batch", len(batch))
                groups = [batch]
                while groups:
                    group = groups.pop(0)
                    try:
                        outcomes = await loop.run_in_executor(self.executor, self.decide, group)
                    except (psycopg.Error, DatabaseUnavailableError) as error:
                        await loop.run_in_executor(self.executor, self._close_connection)
                        if len(group) > 1:
                            groups.extend([entry] for entry in group)
                            continue
                        outcomes = [error]
                    except Exception as error:  # a fault of ours: each item's own error, not a silent hang
                        for entry in group:
                            entry.outcome.set_exception(error)
                        continue
                    for entry, outcome in zip(group, outcomes, strict=True):
                        entry.outcome.set_result(outcome)
        finally:
            self.batcher = None

    async def process_item(self, item):
        if item.outcome != "article":
            return item
        stats = self.crawler.stats
        title = without_nul(item.title) or ""
        body = without_nul(item.clean_body if item.clean_body is not None else item.body) or ""
        site_id = await self.database.site_id(item.site)
        waiting = _Waiting(item.article_url, site_id, title, body, item.language,
                           asyncio.get_running_loop().create_future())
        self.waiting.append(waiting)
        if self.batcher is None:
            self.batcher = asyncio.ensure_future(self._run_batches())
        outcome = await waiting.outcome
        # Retries exhausted or another database error: the article is still stored (as canonical), and
        # resolution can catch up.
        if isinstance(outcome, Exception):
            logger.error("near-duplicate check failed for %s: %s", item.article_url, outcome)
            stats.inc_value("newscorpus/near_duplicate/failed")
            return item
        if outcome is None:
            stats.inc_value("newscorpus/near_duplicate/skipped_short")
            item.annotations["near_duplicate"] = {"status": "skipped_short"}
            return item
        item.annotations["near_duplicate"] = {"status": outcome.status, "canonical_url": outcome.canonical_url,
                                              "method": outcome.method, "score": outcome.score}
        if outcome.status == "unchanged":
            stats.inc_value("newscorpus/near_duplicate/unchanged")
        elif outcome.status == "duplicate":
            stats.inc_value(f"newscorpus/near_duplicate/duplicate/{outcome.method}")
        else:
            stats.inc_value("newscorpus/near_duplicate/canonical")
            if outcome.promoted:
                stats.inc_value("newscorpus/near_duplicate/promoted")
        return item
