"""Progress while a crawl runs: on a terminal, a bar (pages fetched of those found, articles stored, pages per
second) redrawn in place every second; elsewhere, every NEWSCORPUS_PROGRESS_SECONDS one log line of the same
(Scrapy's own LogStats line comes once a minute and counts every page as an item)."""

from __future__ import annotations

import logging
import shutil
import sys
import time

from scrapy import signals
from scrapy.exceptions import NotConfigured
from twisted.internet import task

logger = logging.getLogger(__name__)

BAR_SECONDS = 1.0   # a bar's redraw: often enough to look alive, rarely enough to cost nothing


class _ClearBar(logging.Filter):
    """Clears the bar's line before a log line is written under it; the bar comes back at its next redraw."""

    def __init__(self, bar):
        super().__init__()
        self.bar = bar

    def filter(self, record: logging.LogRecord) -> bool:
        self.bar.clear()
        return True


class CrawlProgress:
    def __init__(self, crawler, interval: float, terminal: bool = False):
        self.crawler = crawler
        self.interval = BAR_SECONDS if terminal else interval
        self.terminal = terminal
        self.loop: task.LoopingCall | None = None
        self.started = time.monotonic()
        self.bar = None
        self._filter: _ClearBar | None = None

    @classmethod
    def from_crawler(cls, crawler):
        interval = crawler.settings.getfloat("NEWSCORPUS_PROGRESS_SECONDS")
        if interval <= 0:
            raise NotConfigured
        extension = cls(crawler, interval, terminal=sys.stderr.isatty())
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_opened(self, spider) -> None:
        self.started = time.monotonic()
        if self.terminal and getattr(spider, "progress_line", None) is None:
            self.open_bar(spider)
        self.loop = task.LoopingCall(self.report)
        self.loop.start(self.interval, now=False)

    def open_bar(self, spider) -> None:
        from tqdm import tqdm

        # A terminal that reports no size (a bare pseudo-terminal) would give tqdm 0 rows, and a bar on row 0 of 0
        # is never drawn: shutil falls back to $COLUMNS/$LINES, then to 100 x 24.
        size = shutil.get_terminal_size((100, 24))
        self.bar = tqdm(total=0, desc=spider.site_config.name, unit=" pages", file=sys.stderr, ncols=size.columns,
                        nrows=size.lines, leave=False, mininterval=0,
                        bar_format="{desc}: {percentage:3.0f}%|{bar}| {n}/{total} [{elapsed}{postfix}]")
        self._filter = _ClearBar(self.bar)
        for handler in logging.root.handlers:
            handler.addFilter(self._filter)

    def counts(self) -> tuple[int, int, int, float]:
        stats = self.crawler.stats
        pages = stats.get_value("response_received_count", 0)
        articles = stats.get_value("newscorpus/outcome/article", 0)
        found = stats.get_value("scheduler/enqueued", 0)
        return pages, found, articles, pages / max(time.monotonic() - self.started, 1e-9)

    def report(self) -> None:
        line = getattr(self.crawler.spider, "progress_line", None)   # a spider that reads files says its own
        if line is not None:
            logger.info("%s", line())
            return
        pages, found, articles, rate = self.counts()
        if self.bar is None:
            logger.info("progress: %d pages of %d found, %d articles, %.1f pages/s", pages, found, articles, rate)
            return
        self.bar.total = max(found, pages)
        self.bar.n = pages
        self.bar.set_postfix_str(f"{articles} articles, {rate:.1f} pages/s", refresh=False)
        self.bar.refresh()

    def spider_closed(self, spider) -> None:
        if self.loop is not None and self.loop.running:
            self.loop.stop()
        if self.bar is not None:
            for handler in logging.root.handlers:
                handler.removeFilter(self._filter)
            self.bar.close()
            self.bar = None
