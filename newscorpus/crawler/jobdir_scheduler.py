"""Scrapy's scheduler, stopping the crawl when a write to its JOBDIR fails (a full disk, a read-only mount).

Scrapy's scheduler lets an ``OSError`` from its disk queue or duplicate filter escape into the engine: a push
that fails leaves the request's fingerprint in ``requests.seen`` with the request nowhere, and a pop from a queue
file cut short fails again at every engine tick, so the crawl neither goes on nor ends (a full JOBDIR,
tests/reliability/test_jobdir_full.py). Here the first failed write stops the crawl with the finish reason
``jobdir_write_failed`` (exit code 1, newscorpus.crawler.commands.crawl), logged in one line with its cause; the
requests in flight are finished and their items stored; nothing more is queued or taken from the queue. The
failure is counted (``newscorpus/jobdir/write_failed``), which tells newscorpus.crawler.extensions.jobdir_guard not
to mark the JOBDIR closed cleanly: the next run resets its duplicate filter and queue, and finds again every
request this one could not keep. Without a JOBDIR it is Scrapy's scheduler unchanged.
"""

from __future__ import annotations

import logging

from scrapy import Request
from scrapy.core.scheduler import Scheduler
from scrapy.utils.defer import deferred_from_coro

from newscorpus.store.connection import error_line

logger = logging.getLogger(__name__)

JOBDIR_WRITE_FAILED = "jobdir_write_failed"  # the finish reason of a crawl stopped by a failed JOBDIR write
WRITE_FAILED_STAT = "newscorpus/jobdir/write_failed"


class JobdirScheduler(Scheduler):
    write_error: OSError | None = None

    def enqueue_request(self, request: Request) -> bool:
        if self.write_error is not None:
            return False  # stopping: the next run (its JOBDIR reset) finds this request again
        try:
            return super().enqueue_request(request)
        except OSError as error:
            self._write_failed(error, stop=True)
            return False

    def next_request(self) -> Request | None:
        if self.write_error is not None:
            return None  # a queue file a write failed on may be cut short: nothing more is read from it
        try:
            return super().next_request()
        except OSError as error:
            self._write_failed(error, stop=True)
            return None

    def close(self, reason: str):
        # Scrapy's close writes the queues' state, then closes the duplicate filter: each is tried alone, so a
        # failed queue write does not leave the filter's file open.
        if self.dqs is not None:
            try:
                state = self.dqs.close()
                self._write_dqs_state(self.dqdir, state)
            except OSError as error:
                self._write_failed(error, stop=False)
        try:
            return self.df.close(reason)
        except OSError as error:
            self._write_failed(error, stop=False)
            return None

    def _write_failed(self, error: OSError, *, stop: bool) -> None:
        self.stats.inc_value(WRITE_FAILED_STAT)
        if self.write_error is not None:
            return  # logged and stopping already
        self.write_error = error
        jobdir = self.crawler.settings.get("JOBDIR")
        logger.error("cannot write to the JOBDIR %s (%s): stopping the crawl (%s); the items in hand are stored, "
                     "the next run resets the JOBDIR and fetches the rest", jobdir, error_line(error),
                     JOBDIR_WRITE_FAILED)
        if stop:
            deferred_from_coro(self.crawler.engine.close_spider_async(reason=JOBDIR_WRITE_FAILED))
