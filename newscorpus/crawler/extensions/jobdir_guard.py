"""Make Scrapy's JOBDIR resume safe after a crash (SIGKILL, power loss) or a failed write (a full disk).

Scrapy persists the queue (``requests.queue``) and the duplicate filter (``requests.seen``) of a job, both
through buffered file writes that only a graceful close completes. A killed process leaves in
``requests.seen`` the requests it had taken off the queue but not finished, and queue files that are cut
short: a queue file still 0 bytes on disk (less than a write buffer was pushed) makes every push to it on
resume raise ``struct.error``, so the request is dropped while the filter keeps it as seen (most of a killed
crawl's articles would never be stored, tests/reliability/test_kill_resume.py). A write that fails (a full disk)
leaves the same: fingerprints of requests that were never queued (tests/reliability/test_jobdir_full.py).

So the saved state is trusted only with proof that it is whole: a marker written, after the state files are
synced to disk, when the crawl closes with nothing lost: no JOBDIR write failed
(newscorpus.crawler.jobdir_scheduler) and every page fetched was saved (the database was away:
newscorpus.crawler.extensions.crawl_database). The marker is removed when a crawl starts (removing a file needs
no free space), and a marker that cannot be written is no marker: the state of a crawl that did not close, or
closed with something lost, is never trusted. Without the marker at start, the duplicate filter is reset and the
disk queue discarded, so the seeds and listing pages are fetched again and rediscover every article; the
articles already stored are not fetched again (newscorpus.crawler.middlewares.refetch).
"""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

from scrapy import signals
from scrapy.exceptions import NotConfigured

from newscorpus.crawler.jobdir_scheduler import WRITE_FAILED_STAT

logger = logging.getLogger(__name__)

CLOSED_MARKER = "newscorpus.closed"    # written last by a crawl that closed with its state whole
RUNNING_MARKER = "newscorpus.running"  # the former marker of a running crawl: found, the state is not trusted
SEEN_FILE = "requests.seen"  # scrapy.dupefilters.RFPDupeFilter's file in the JOBDIR
QUEUE_DIR = "requests.queue"  # scrapy.core.scheduler.Scheduler's disk queues in the JOBDIR


def _sync_tree(root: Path) -> None:
    """fsync the state files and their folders, so that the marker written after them never outlives them."""
    paths = [root, *root.rglob("*")] if root.is_dir() else [root] if root.exists() else []
    for path in paths:
        descriptor = os.open(path, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


class JobdirCrashGuard:
    def __init__(self, crawler, jobdir: Path):
        self.crawler = crawler
        self.jobdir = jobdir
        self.marker = jobdir / CLOSED_MARKER
        saved = (jobdir / SEEN_FILE).exists() or (jobdir / QUEUE_DIR).exists()
        if saved and (not self.marker.exists() or (jobdir / RUNNING_MARKER).exists()):
            (jobdir / SEEN_FILE).unlink(missing_ok=True)
            queue = jobdir / QUEUE_DIR
            if queue.is_dir():
                discarded = sum(1 for path in queue.rglob("*") if path.is_file())
                shutil.rmtree(queue)
                crawler.stats.set_value("newscorpus/jobdir/queue_files_discarded", discarded)
            crawler.stats.set_value("newscorpus/jobdir/recovered_from_crash", 1)
            logger.warning("the last crawl in %s did not close with its state whole (killed, a failed write, pages "
                           "not saved): its duplicate filter and request queue are reset, so the requests it had "
                           "queued or in flight are found and fetched again (stored articles are not)", jobdir)
        # From here until a clean close the state on disk is not trusted.
        self.marker.unlink(missing_ok=True)
        (jobdir / RUNNING_MARKER).unlink(missing_ok=True)

    @classmethod
    def from_crawler(cls, crawler):
        jobdir = crawler.settings.get("JOBDIR")
        if not jobdir:
            raise NotConfigured  # nothing to guard; no message, so Scrapy logs no warning
        guard = cls(crawler, Path(jobdir))
        crawler.signals.connect(guard.spider_closed, signal=signals.spider_closed)
        return guard

    def spider_closed(self, spider, reason) -> None:
        stats = self.crawler.stats
        if stats.get_value(WRITE_FAILED_STAT) or stats.get_value("newscorpus/storage/pages_unsaved"):
            # Requests not queued, or pages fetched but not saved, are in the saved duplicate filter: the next run
            # must not trust it, as after a crash.
            return
        try:
            _sync_tree(self.jobdir / SEEN_FILE)
            _sync_tree(self.jobdir / QUEUE_DIR)
            partial = self.marker.with_suffix(".partial")
            with partial.open("w", encoding="utf-8") as out:
                out.write("the last crawl in this JOBDIR closed with its state whole\n")
                out.flush()
                os.fsync(out.fileno())
            partial.replace(self.marker)
            _sync_tree(self.jobdir)
        except OSError as error:
            stats.inc_value(WRITE_FAILED_STAT)
            self.marker.unlink(missing_ok=True)
            logger.error("cannot write to the JOBDIR %s (%s): its state is not kept, the next run resets it",
                         self.jobdir, error)
