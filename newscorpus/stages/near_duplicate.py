"""Near-duplicate stage: features of the article's title and cleaned body (newscorpus.core.near_duplicate), the
decision against the Postgres index, the link to the cluster's canonical article
(newscorpus.store.near_duplicate_recorder: group batches, one thread with its own connection, so the reactor is
never blocked on the database; NEWSCORPUS_DEDUP_BATCH_SIZE articles at most per transaction).

Duplicates are stored like any article (nothing is dropped or deleted); the corpus_articles view leaves them
out. The item carries the outcome in ``item.annotations["near_duplicate"]``. With NEWSCORPUS_DEDUP_WORKERS
= 1 the features (keywords with jieba, fingerprint, sketch) are computed in a process of their own, off the
reactor's core (issue 18); a worker that fails is counted (newscorpus/dedup/worker_errors), replaced, and the
batch's features computed in the recorder's thread: no article is lost.
"""

from __future__ import annotations

import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from scrapy.exceptions import NotConfigured

from newscorpus.core.near_duplicate import DedupConfig, DocumentFeatures, build_features_batch
from newscorpus.core.text import without_nul
from newscorpus.crawl.database import CrawlDatabase
from newscorpus.store.near_duplicate_recorder import NearDuplicateRecorder

logger = logging.getLogger(__name__)

# DedupConfig field <- setting, type, check (defaults and their sources in newscorpus/crawl/settings.py).
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
    def __init__(self, crawler, database: CrawlDatabase, config: DedupConfig, batch_size: int, workers: int = 0):
        if workers not in (0, 1):
            raise ValueError(f"NEWSCORPUS_DEDUP_WORKERS must be 0 or 1, not {workers}")
        self.crawler = crawler
        self.database = database
        self.config = config
        self.batch_size = batch_size
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None  # used only from the recorder's one thread
        self.worker_errors = 0
        self.recorder: NearDuplicateRecorder | None = None

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        if not settings.getbool("NEWSCORPUS_DEDUP_ENABLED"):
            raise NotConfigured("NEWSCORPUS_DEDUP_ENABLED is off")
        batch_size = settings.getint("NEWSCORPUS_DEDUP_BATCH_SIZE")
        if batch_size < 1:
            raise ValueError(f"NEWSCORPUS_DEDUP_BATCH_SIZE must be >= 1, not {batch_size}")
        return cls(crawler, CrawlDatabase.of(crawler), config_from_settings(settings), batch_size,
                   settings.getint("NEWSCORPUS_DEDUP_WORKERS"))

    async def open_spider(self) -> None:
        await self.database.open(self.crawler.spider.site_config.name)
        await self.open_recorder()

    async def open_recorder(self) -> None:
        """The store that batches and records the decisions, on the crawl's (opened) database."""
        stats = self.crawler.stats

        def counted(size: int) -> None:
            stats.inc_value("newscorpus/dedup/batches")
            stats.max_value("newscorpus/dedup/largest_batch", size)

        self.recorder = NearDuplicateRecorder(self.database.dsn, self.config, self.batch_size,
                                              features=self._features, on_batch=counted)
        if self.workers:  # started (and its imports done) before the first batch
            await self.recorder.call(self._features, [("", "start", None)])

    async def close_spider(self) -> None:
        if self.recorder is not None:
            await self.recorder.close()
            if self.recorder.retries:
                self.crawler.stats.set_value("newscorpus/dedup/db_retries", self.recorder.retries)
        if self.worker_errors:
            self.crawler.stats.set_value("newscorpus/dedup/worker_errors", self.worker_errors)
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None

    def _features(self, articles: list[tuple[str, str, int | None]]) -> list[DocumentFeatures]:
        """In the recorder's thread: the batch's features, in the worker process when there is one."""
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

    async def process_item(self, item):
        if item.outcome != "article":
            return item
        stats = self.crawler.stats
        title = without_nul(item.title) or ""
        body = without_nul(item.clean_body if item.clean_body is not None else item.body) or ""
        site_id = await self.database.writer.site_id(item.site)
        outcome = await self.recorder.decide(item.article_url, site_id, title, body)
        # Retries exhausted or another database error: the article is still stored (as canonical), and
        # resolution can catch up.
        if isinstance(outcome, Exception):
            logger.error("near-duplicate check failed for %s: %s", item.article_url, outcome)
            stats.inc_value("newscorpus/dedup/failed")
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
