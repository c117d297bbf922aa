"""Near-duplicate stage: features of the article's title and cleaned body, in the language the extraction found
(newscorpus.core.near_duplicate.decision), the decision against the Postgres index, the link to the cluster's canonical
article (newscorpus.store.near_duplicate.recorder: group batches of at most NEWSCORPUS_NEAR_DUPLICATE_BATCH_SIZE
articles, one transaction each, in one thread with its own connection, so the reactor is never blocked on the
database).

Duplicates are stored like any article (nothing is dropped or deleted); the corpus_articles view leaves them
out. The item carries the outcome in ``item.annotations["near_duplicate"]``. With
NEWSCORPUS_NEAR_DUPLICATE_WORKERS = 1 the features (keywords with jieba, fingerprint, sketch) and the batch's
decision are made in a process of their own (newscorpus.store.near_duplicate.process), off the crawl process's
GIL; a process that dies is counted (newscorpus/near_duplicate/worker_errors), replaced, and its batch
decided again: no article is lost.
"""

from __future__ import annotations

import logging

from scrapy.exceptions import NotConfigured

from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.text import without_nul
from newscorpus.crawler.extensions.crawl_database import CrawlDatabase
from newscorpus.crawler.stage_settings import stage_config, stage_enabled
from newscorpus.store.near_duplicate.recorder import NearDuplicateRecorder

logger = logging.getLogger(__name__)

def config_from_settings(settings) -> NearDuplicateConfig:
    """The detector's and the stage's parameters from NEWSCORPUS_NEAR_DUPLICATE_* in Scrapy settings (or any
    mapping of setting names); errors name the setting."""
    return stage_config(settings, "NEAR_DUPLICATE")


class NearDuplicatePipeline:
    def __init__(self, crawler, database: CrawlDatabase, config: NearDuplicateConfig):
        self.crawler = crawler
        self.database = database
        self.config = config
        self.batch_size = config.batch_size
        self.recorder: NearDuplicateRecorder | None = None

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        if not stage_enabled(settings, "NEAR_DUPLICATE"):
            raise NotConfigured("NEWSCORPUS_NEAR_DUPLICATE_ENABLED is off")
        return cls(crawler, CrawlDatabase.of(crawler), config_from_settings(settings))

    async def open_spider(self) -> None:
        await self.database.open(self.crawler.spider.site_config.name)
        await self.open_recorder()

    async def open_recorder(self) -> None:
        """The store that batches and records the decisions, on the crawl's (opened) database."""
        stats = self.crawler.stats

        def counted(size: int) -> None:
            stats.inc_value("newscorpus/near_duplicate/batches")
            stats.max_value("newscorpus/near_duplicate/largest_batch", size)

        self.recorder = NearDuplicateRecorder(self.database.dsn, self.config, self.batch_size,
                                              in_process=bool(self.config.workers), on_batch=counted)
        await self.recorder.start()

    async def close_spider(self) -> None:
        if self.recorder is not None:
            await self.recorder.close()
            if self.recorder.retries:
                self.crawler.stats.set_value("newscorpus/near_duplicate/db_retries", self.recorder.retries)
            if self.recorder.process_deaths:
                self.crawler.stats.set_value("newscorpus/near_duplicate/worker_errors", self.recorder.process_deaths)

    async def process_item(self, item):
        if item.outcome != "article":
            return item
        stats = self.crawler.stats
        title = without_nul(item.title) or ""
        body = without_nul(item.clean_body if item.clean_body is not None else item.body) or ""
        site_id = await self.database.site_id(item.site)
        outcome = await self.recorder.decide(item.article_url, site_id, title, body, item.language)
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
