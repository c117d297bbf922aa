"""Make Scrapy's JOBDIR resume safe after a crash (SIGKILL, power loss).

Scrapy persists the queue (``requests.queue``) and the duplicate filter (``requests.seen``) of a job, both
through buffered file writes that only a graceful close completes. A killed process leaves in
``requests.seen`` the requests it had taken off the queue but not finished, and queue files that are cut
short: a queue file still 0 bytes on disk (less than a write buffer was pushed) makes every push to it on
resume raise ``struct.error``, so the request is dropped while the filter keeps it as seen (most of a killed
crawl's articles would never be stored, tests/reliability/test_kill_resume.py). This extension writes a marker
when the crawl opens and removes it when the crawl closes (any close: Scrapy then saves its state), unless pages
were fetched but not saved (the database was away: newscorpus.crawler.extensions.crawl_database), which the saved
filter would hide from the next run. Finding the marker at start means the last run did not close (or left pages
unsaved): the duplicate filter is reset and the disk queue discarded, so the seeds and listing pages are fetched
again and rediscover every article; the articles already stored are not fetched again
(newscorpus.crawler.middlewares.refetch).
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from scrapy import signals
from scrapy.exceptions import NotConfigured

logger = logging.getLogger(__name__)

MARKER = "newscorpus.running"
SEEN_FILE = "requests.seen"  # scrapy.dupefilters.RFPDupeFilter's file in the JOBDIR
QUEUE_DIR = "requests.queue"  # scrapy.core.scheduler.Scheduler's disk queues in the JOBDIR


class JobdirCrashGuard:
    def __init__(self, crawler, jobdir: Path):
        self.crawler = crawler
        self.marker = jobdir / MARKER
        if self.marker.exists():
            (jobdir / SEEN_FILE).unlink(missing_ok=True)
            queue = jobdir / QUEUE_DIR
            if queue.is_dir():
                discarded = sum(1 for path in queue.rglob("*") if path.is_file())
                shutil.rmtree(queue)
                crawler.stats.set_value("newscorpus/jobdir/queue_files_discarded", discarded)
            crawler.stats.set_value("newscorpus/jobdir/recovered_from_crash", 1)
            logger.warning("the last crawl in %s did not close (killed?): its duplicate filter and request queue "
                           "are reset, so the requests it had queued or in flight are found and fetched again "
                           "(stored articles are not)", jobdir)

    @classmethod
    def from_crawler(cls, crawler):
        jobdir = crawler.settings.get("JOBDIR")
        if not jobdir:
            raise NotConfigured  # nothing to guard; no message, so Scrapy logs no warning
        guard = cls(crawler, Path(jobdir))
        crawler.signals.connect(guard.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(guard.spider_closed, signal=signals.spider_closed)
        return guard

    def spider_opened(self, spider) -> None:
        self.marker.parent.mkdir(parents=True, exist_ok=True)
        self.marker.write_text("a crawl is running in this JOBDIR\n", encoding="utf-8")

    def spider_closed(self, spider, reason) -> None:
        if self.crawler.stats.get_value("newscorpus/storage/pages_unsaved"):
            # Pages fetched but not saved (the database was away) are in the saved duplicate filter: the next run
            # must not trust it, as after a crash.
            self.marker.write_text("the last crawl stopped with pages not saved\n", encoding="utf-8")
            return
        self.marker.unlink(missing_ok=True)
