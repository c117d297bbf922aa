"""Make Scrapy's JOBDIR resume safe after a crash (SIGKILL, power loss).

Scrapy persists the queue and the duplicate filter (``requests.seen``) of a job. A killed process leaves in
``requests.seen`` the requests it had taken off the queue but not finished: on resume they are neither queued
nor fetched again, and their articles are missing. This extension writes a marker when the crawl opens and
removes it when the crawl closes (any close: Scrapy then saves its state). Finding the marker at start means
the last run did not close: the duplicate filter is reset, so the seeds and listing pages are fetched again
and rediscover every article; the articles already stored are not fetched again (crawler.refetch), and the
queue saved on disk is still worked off (its duplicates are dropped by the new filter).
"""

from __future__ import annotations

import logging
from pathlib import Path

from scrapy import signals
from scrapy.exceptions import NotConfigured

logger = logging.getLogger(__name__)

MARKER = "newscorpus.running"
SEEN_FILE = "requests.seen"  # scrapy.dupefilters.RFPDupeFilter's file in the JOBDIR


class JobdirCrashGuard:
    def __init__(self, crawler, jobdir: Path):
        self.crawler = crawler
        self.marker = jobdir / MARKER
        if self.marker.exists():
            seen = jobdir / SEEN_FILE
            if seen.exists():
                seen.unlink()
            crawler.stats.set_value("newscorpus/jobdir/recovered_from_crash", 1)
            logger.warning("the last crawl in %s did not close (killed?): its duplicate filter is reset so that "
                           "requests it had in flight are found and fetched again", jobdir)

    @classmethod
    def from_crawler(cls, crawler):
        jobdir = crawler.settings.get("JOBDIR")
        if not jobdir:
            raise NotConfigured("no JOBDIR")
        guard = cls(crawler, Path(jobdir))
        crawler.signals.connect(guard.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(guard.spider_closed, signal=signals.spider_closed)
        return guard

    def spider_opened(self, spider) -> None:
        self.marker.parent.mkdir(parents=True, exist_ok=True)
        self.marker.write_text("a crawl is running in this JOBDIR\n", encoding="utf-8")

    def spider_closed(self, spider, reason) -> None:
        self.marker.unlink(missing_ok=True)
