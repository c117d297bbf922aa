"""Storage stage: the page and its article go to Postgres, in batches (see newscorpus.store.corpus_store). Off
(NEWSCORPUS_STORAGE_ENABLED=False), articles are extracted, cleaned and checked but not stored."""

from __future__ import annotations

from scrapy.exceptions import NotConfigured

from newscorpus.crawler.extensions.crawl_database import CrawlDatabase
from newscorpus.crawler.stage_settings import stage_enabled


class StoragePipeline:
    def __init__(self, crawler, database: CrawlDatabase):
        self.crawler = crawler
        self.database = database

    @classmethod
    def from_crawler(cls, crawler):
        if not stage_enabled(crawler.settings, "STORAGE"):
            raise NotConfigured("NEWSCORPUS_STORAGE_ENABLED is off")
        return cls(crawler, CrawlDatabase.of(crawler))

    async def open_spider(self) -> None:
        await self.database.open(self.crawler.spider.site_config.name)

    async def process_item(self, item):
        await self.database.record(item, with_article=item.outcome == "article")
        self.crawler.stats.inc_value("newscorpus/storage/articles_sent")
        return item
