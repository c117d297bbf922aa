"""Progress while a crawl runs: every NEWSCORPUS_PROGRESS_SECONDS one line of pages fetched, articles stored and
pages per second, as a log line (Scrapy's own LogStats line comes once a minute and counts every page as an item)."""

from __future__ import annotations

import logging
import time

from scrapy import signals
from scrapy.exceptions import NotConfigured
from twisted.internet import task

logger = logging.getLogger(__name__)


class CrawlProgress:
    def __init__(self, crawler, interval: float):
        self.crawler = crawler
        self.interval = interval
        self.loop: task.LoopingCall | None = None
        self.started = time.monotonic()

    @classmethod
    def from_crawler(cls, crawler):
        interval = crawler.settings.getfloat("NEWSCORPUS_PROGRESS_SECONDS")
        if interval <= 0:
            raise NotConfigured
        extension = cls(crawler, interval)
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_opened(self, spider) -> None:
        self.started = time.monotonic()
        self.loop = task.LoopingCall(self.report)
        self.loop.start(self.interval, now=False)

    def report(self) -> None:
        stats = self.crawler.stats
        pages = stats.get_value("response_received_count", 0)
        articles = stats.get_value("newscorpus/outcome/article", 0)
        found = stats.get_value("scheduler/enqueued", 0)
        rate = pages / max(time.monotonic() - self.started, 1e-9)
        logger.info("progress: %d pages of %d found, %d articles, %.1f pages/s", pages, found, articles, rate)

    def spider_closed(self, spider) -> None:
        if self.loop is not None and self.loop.running:
            self.loop.stop()
