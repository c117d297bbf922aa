"""Downloader middleware: an article already stored and seen less than NEWSCORPUS_REFETCH_AFTER_HOURS ago is
not fetched again. Postgres answers (not a per-machine file), so every worker of a distributed crawl, and the
next build after a crash, agree on what is stored."""

from __future__ import annotations

import logging

from scrapy import signals
from scrapy.exceptions import IgnoreRequest, NotConfigured

from newscorpus.crawler.extensions.crawl_database import CrawlDatabase
from newscorpus.crawler.url_classes import ARTICLE
from newscorpus.store.connection import error_line
from newscorpus.store.stored_articles import StoredArticles

logger = logging.getLogger(__name__)


class AlreadyStored(IgnoreRequest):
    """The article is in the corpus and was seen recently: not fetched (counted, not an error)."""


class StoredArticleSkipMiddleware:
    """Asks Postgres about article requests only; listing pages, sitemaps and feeds are always fetched.

    A failed lookup is logged and counted, and the page is fetched: a re-fetch is cheaper than a gap."""

    def __init__(self, crawler, refetch_after_hours: float):
        if refetch_after_hours < 0:
            raise ValueError(f"NEWSCORPUS_REFETCH_AFTER_HOURS must be >= 0, not {refetch_after_hours}")
        if refetch_after_hours == 0:
            raise NotConfigured("NEWSCORPUS_REFETCH_AFTER_HOURS = 0: every article is fetched again")
        self.crawler = crawler
        self.refetch_after_hours = refetch_after_hours
        self.articles: StoredArticles | None = None

    @classmethod
    def from_crawler(cls, crawler):
        middleware = cls(crawler, crawler.settings.getfloat("NEWSCORPUS_REFETCH_AFTER_HOURS"))
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def _stored_articles(self) -> StoredArticles | None:
        if self.articles is None:
            dsn = CrawlDatabase.of(self.crawler).dsn
            if dsn is not None:
                self.articles = StoredArticles(dsn)
        return self.articles

    async def process_request(self, request):
        if request.meta.get("url_kind") != ARTICLE:
            return None
        stats = self.crawler.stats
        articles = self._stored_articles()
        if articles is None:  # the database is not open (storage off): nothing to compare with
            return None
        try:
            stored = await articles.seen_within(request.url, self.refetch_after_hours)
        except Exception as error:
            stats.inc_value("newscorpus/skipped/lookup_errors")
            logger.warning("stored-article lookup failed for %s, fetching it: %s", request.url, error_line(error))
            return None
        if stored:
            stats.inc_value("newscorpus/skipped/already_stored")
            raise AlreadyStored(f"stored less than {self.refetch_after_hours:g} h ago: {request.url}")
        return None

    async def spider_closed(self, spider) -> None:
        if self.articles is not None:
            await self.articles.close()
