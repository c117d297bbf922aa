"""Line-noise stage: count the article's lines in the site's statistics (Postgres, shared by all workers) and
remove the lines the site repeats (newscorpus.core.line_noise). An article left empty, or with no text
(punctuation, braces), is dropped as EmptyAfterCleaning (and recorded by newscorpus.crawler.extensions.crawl_database).
At the end of the crawl every article is cleaned again with the site's final statistics, counted again in URL order
(newscorpus.store.derivation, run by the extraction stage's close), so its cleaning does not depend on when it
arrived."""

from __future__ import annotations

import logging

from scrapy.exceptions import NotConfigured

from newscorpus.core.line_noise import LineNoiseConfig, article_hashes, body_lines, clean_body, is_text
from newscorpus.core.text import body_hash, without_nul
from newscorpus.crawler.extensions.crawl_database import CrawlDatabase
from newscorpus.crawler.outcomes import EmptyAfterCleaning
from newscorpus.crawler.stage_settings import stage_config, stage_enabled
from newscorpus.store.line_noise import LineNoiseStore

logger = logging.getLogger(__name__)


def config_from_settings(settings) -> LineNoiseConfig:
    """The filter's parameters from NEWSCORPUS_LINE_NOISE_* in Scrapy settings (or any mapping of setting names);
    errors name the setting."""
    return stage_config(settings, "LINE_NOISE")


class LineNoisePipeline:
    def __init__(self, crawler, database: CrawlDatabase, config: LineNoiseConfig):
        self.crawler = crawler
        self.database = database
        self.config = config
        self.store: LineNoiseStore | None = None

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        if not stage_enabled(settings, "LINE_NOISE"):
            raise NotConfigured("NEWSCORPUS_LINE_NOISE_ENABLED is off")
        return cls(crawler, CrawlDatabase.of(crawler), config_from_settings(settings))

    async def open_spider(self) -> None:
        await self.database.open(self.crawler.spider.site_config.name)
        self.store = LineNoiseStore(self.database.dsn, self.config)

    async def process_item(self, item):
        if item.outcome != "article":
            return item
        stats = self.crawler.stats
        body = without_nul(item.body) or ""
        lines = body_lines(body)
        hashes, samples = article_hashes(lines)
        site_id = await self.database.site_id(item.site)
        kinds = item.line_kinds if item.line_kinds is not None and len(item.line_kinds) == len(lines) else None
        counted = await self.store.count_article(site_id, item.article_url, body_hash(body), hashes, samples, kinds)
        cleaning = clean_body(body, counted.counts, counted.articles_seen, self.config, counted.allowed, lines,
                              kinds)
        item.clean_body = cleaning.body
        item.noise_hashes = cleaning.noise_hashes
        item.noise_lines = len(cleaning.removed)
        item.cleaned_with_articles_seen = counted.articles_seen
        stats.inc_value(f"newscorpus/line_noise/articles_{counted.status}")
        stats.inc_value("newscorpus/line_noise/lines_seen", sum(1 for _, digest in lines if digest))
        stats.inc_value("newscorpus/line_noise/lines_removed", len(cleaning.removed))
        if cleaning.guarded:
            stats.inc_value("newscorpus/line_noise/lines_guarded", cleaning.guarded)
        if counted.pruned:
            stats.inc_value("newscorpus/line_noise/lines_pruned", counted.pruned)
        if not is_text(cleaning.body):  # nothing left, or no text left (`}\n}`, "——"): not an article
            raise EmptyAfterCleaning(item.url, len(cleaning.removed), nothing_left=not cleaning.body.strip())
        return item

    async def close_spider(self) -> None:
        if self.store is not None:
            if self.store.batches:  # transactions that counted the crawl's articles (group batches)
                self.crawler.stats.set_value("newscorpus/line_noise/batches", self.store.batches)
                self.crawler.stats.set_value("newscorpus/line_noise/largest_batch", self.store.largest_batch)
            if self.store.retries:
                self.crawler.stats.set_value("newscorpus/line_noise/db_retries", self.store.retries)
            await self.store.close()
