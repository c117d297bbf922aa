"""Extraction stage: decode the page and pick its article (pipelines.core.extraction); pages without one
are recorded with their outcome and dropped as NotAnArticle."""

from __future__ import annotations

from scrapy.exceptions import NotConfigured

from crawler.database import CrawlDatabase
from crawler.exceptions import NotAnArticle
from pipelines.core.extraction import extract

# Extraction reasons that have another name among page outcomes.
OUTCOME_OF_REASON = {"listing_page": "listing"}


class ExtractionPipeline:
    def __init__(self, crawler, database: CrawlDatabase, max_seconds: float):
        if max_seconds <= 0:
            raise ValueError(f"NEWSCORPUS_EXTRACTION_MAX_SECONDS must be > 0, not {max_seconds}")
        self.crawler = crawler
        self.database = database
        self.max_seconds = max_seconds

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        if not settings.getbool("NEWSCORPUS_EXTRACTION_ENABLED"):
            raise NotConfigured("NEWSCORPUS_EXTRACTION_ENABLED is off")
        return cls(crawler, CrawlDatabase.of(crawler), settings.getfloat("NEWSCORPUS_EXTRACTION_MAX_SECONDS"))

    async def open_spider(self) -> None:
        await self.database.open(self.crawler.spider.site_config.name)

    async def process_item(self, item):
        stats = self.crawler.stats
        if item.outcome is None:
            result = extract(item.raw_body, item.final_url, content_type=item.content_type,
                             max_seconds=self.max_seconds)
            item.encoding = result.encoding
            item.title, item.author, item.published_at = result.title, result.author, result.published_at
            item.body, item.language = result.body, result.language
            item.extraction_method, item.confidence = result.method, result.confidence
            if result.is_article:
                item.outcome = "article"
                stats.inc_value(f"newscorpus/extraction/method/{result.method}")
            else:
                item.outcome = OUTCOME_OF_REASON.get(result.reason, result.reason)
        stats.inc_value(f"newscorpus/outcome/{item.outcome}")
        if item.outcome != "article":
            await self.database.record(item, with_article=False)
            raise NotAnArticle(item.outcome, item.url)
        return item
