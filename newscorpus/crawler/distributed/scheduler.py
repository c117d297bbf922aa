"""scrapy-redis's scheduler for Scrapy 2.19, on the per-site, per-run keys of the site's current run.

What 0.9.1 needs on Scrapy 2.19 (it predates 2.16), and what this subclass changes:
- the run is joined (or started) when the spider opens, off the reactor (``open`` returns a Deferred, which
  the 2.19 engine awaits); queue and duplicate filter then use that run's keys, not ``%(spider)s:*``;
- persistence: closing one worker never flushes the shared queue or filter (``SCHEDULER_PERSIST`` is forced);
- stats without the deprecated ``spider=`` argument;
- a run-wide page budget (``max_pages``) counted in Redis, since each worker only sees its own requests;
- :func:`wake_engine`: 2.19 has no public call to make the engine poll the scheduler before its 5 s heartbeat.

The Scrapy scheduler interface is synchronous (the engine calls ``next_request()`` and uses the result), so
enqueue and pop stay single Redis round trips on the reactor (< 1 ms on a LAN), as in scrapy-redis; every
other Redis call of a worker (join, heartbeat, finishing) runs in a thread.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time

import redis
from scrapy.utils.defer import deferred_from_coro
from scrapy.utils.misc import load_object
from scrapy_redis.scheduler import Scheduler

from newscorpus.crawler.distributed.connection import persistence_warning, redis_from_settings
from newscorpus.crawler.distributed.dupefilter import RunDupeFilter
from newscorpus.crawler.distributed.keys import KEY_PREFIX, RUN_TTL_SECONDS, SiteKeys
from newscorpus.crawler.distributed.ledger import LedgeredPriorityQueue
from newscorpus.crawler.distributed.runs import Run, join_or_start_run, new_worker_id

logger = logging.getLogger(__name__)

# While Redis is unreachable every engine tick fails to pop: one warning per this many seconds, all counted.
FRONTIER_WARNING_INTERVAL = 5.0
FRONTIER_ERRORS = (redis.ConnectionError, redis.TimeoutError)   # Redis away or restarting (siblings in redis-py)
# The queue whose pops go through the worker's ledger (newscorpus.crawler.distributed.ledger); another
# SCHEDULER_QUEUE_CLASS (scrapy-redis's FIFO or LIFO lists) pops without acknowledgement.
QUEUE_CLASS = f"{LedgeredPriorityQueue.__module__}.{LedgeredPriorityQueue.__qualname__}"


def wake_engine(crawler) -> None:
    """Ask the engine to pull from the scheduler now (requests other workers pushed, or a close decision).

    Scrapy 2.19 only re-polls an idle scheduler on its slot heartbeat (every 5 s); this schedules the
    engine's own next call early. If a later Scrapy renames the slot, the heartbeat still does it, later."""
    nextcall = getattr(getattr(crawler.engine, "_slot", None), "nextcall", None)
    if nextcall is not None:
        nextcall.schedule()


class RunScheduler(Scheduler):
    def __init__(self, server: redis.Redis, *, crawler=None, key_prefix: str = KEY_PREFIX,
                 idle_seconds: float = 10.0, ttl_seconds: int = RUN_TTL_SECONDS, worker_id: str | None = None,
                 queue_cls: str = QUEUE_CLASS, debug: bool = False):
        super().__init__(server, persist=True, queue_cls=queue_cls)
        self.crawler = crawler
        self.stats = crawler.stats if crawler is not None else None
        self.key_prefix = key_prefix
        self.idle_seconds = idle_seconds
        self.ttl_seconds = ttl_seconds
        self.worker_id = worker_id or new_worker_id()
        self.debug = debug
        self.run: Run | None = None
        self.max_pages: int | None = None
        self._last_frontier_warning = float("-inf")
        self._ledger_ids = itertools.count(1)
        # The run's queue length as last read (each heartbeat), counted on between reads by this worker's own
        # pushes and pops: what the spider's queue bound reads, without a Redis round trip per link.
        self.queued_estimate = 0

    @classmethod
    def from_settings(cls, settings):
        raise TypeError("build RunScheduler with from_crawler (Scrapy 2.19 has no from_settings)")

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        idle_seconds = settings.getfloat("NEWSCORPUS_REDIS_IDLE_SECONDS")
        if idle_seconds <= 0:
            raise ValueError(f"NEWSCORPUS_REDIS_IDLE_SECONDS must be > 0, not {idle_seconds}")
        SiteKeys("check", settings.get("NEWSCORPUS_REDIS_KEY_PREFIX"))  # a bad prefix names its setting
        return cls(
            redis_from_settings(settings), crawler=crawler,
            key_prefix=settings.get("NEWSCORPUS_REDIS_KEY_PREFIX"), idle_seconds=idle_seconds,
            queue_cls=settings.get("SCHEDULER_QUEUE_CLASS") or QUEUE_CLASS,
            debug=settings.getbool("DUPEFILTER_DEBUG"),
        )

    # --- opening: join the site's current run ---------------------------------------------------------
    def open(self, spider):
        return deferred_from_coro(self._join_and_open(spider))

    async def _join_and_open(self, spider) -> None:
        site = SiteKeys(spider.site_config.name, self.key_prefix)
        run = await asyncio.to_thread(join_or_start_run, self.server, site, self.worker_id, self.idle_seconds,
                                      self.ttl_seconds)
        self.open_run(spider, run)
        warning = await asyncio.to_thread(persistence_warning, self.server)
        if warning:
            logger.warning("%s", warning.removeprefix("WARNING: "))
        logger.info("%s run %s of site %s (worker %s)", "started" if run.started_now else "joined",
                    run.run_id, site.site, self.worker_id)
        if self.stats:
            self.stats.set_value("newscorpus/redis/run", run.run_id)
            self.stats.set_value("newscorpus/redis/run_started_here", run.started_now)

    def open_run(self, spider, run: Run) -> None:
        """Use ``run``'s queue and duplicate filter (also how `newscorpus seed` pushes, with a spider not crawling)."""
        self.run = run
        self.queue_key = run.keys.requests
        self.df = RunDupeFilter(self.server, run.keys.dupefilter, self.ttl_seconds, debug=self.debug)
        self.max_pages = getattr(spider, "max_pages", None)
        self.spider = spider
        self.queue = load_object(self.queue_cls)(server=self.server, spider=spider, key=run.keys.requests,
                                                 serializer=self.serializer)
        # (scrapy-redis's open() would also log the resume through the deprecated Spider.log)
        queued = self.queued_estimate = len(self.queue)
        if queued:
            logger.info("run %s: %d request(s) already queued", run.run_id, queued)

    def close(self, reason):
        """Persist: the queue and the filter belong to the run, which other workers may still be crawling."""

    # --- requests -----------------------------------------------------------------------------------------
    def enqueue_request(self, request) -> bool:
        try:
            return self._enqueue(request)
        except FRONTIER_ERRORS as error:  # Redis restarting: the request is lost to this run, and found
            self._frontier_error("enqueue", error)  # again by the next seed (articles stored are not refetched)
            return False

    def _frontier_error(self, operation: str, error: Exception) -> None:
        self._inc(f"newscorpus/redis/frontier_errors/{operation}")
        now = time.monotonic()
        if now - self._last_frontier_warning > FRONTIER_WARNING_INTERVAL:
            self._last_frontier_warning = now
            logger.warning("Redis frontier unavailable (%s): %s; going on, retrying on the next tick",
                           operation, error)

    def _enqueue(self, request) -> bool:
        if not request.dont_filter and self.df.request_seen(request):
            self.df.log(request, self.spider)
            return False
        if self.max_pages is not None and self._counts_as_page(request):
            admitted = self.server.incr(self.run.keys.pages)
            if admitted > self.max_pages:
                self._inc("newscorpus/spider/over_page_limit")
                return False
        self._inc("scheduler/enqueued/redis")
        self.queue.push(request)
        self.queued_estimate += 1
        return True

    @staticmethod
    def _counts_as_page(request) -> bool:
        # the spider's page requests (not sitemaps, feeds, retries or redirects), as its own page budget counts
        meta = request.meta
        return "url_kind" in meta and not request.dont_filter and "redirect_times" not in meta

    def has_pending_requests(self) -> bool:
        """The engine asks on every tick; while Redis is away the answer is unknown: "yes", so that the worker
        neither closes nor finishes the run meanwhile (scrapy-redis's own raised, a traceback per tick)."""
        try:
            return len(self) > 0
        except FRONTIER_ERRORS as error:
            self._frontier_error("length", error)
            return True

    def next_request(self):
        try:
            if isinstance(self.queue, LedgeredPriorityQueue):
                request = self.queue.pop_into(self.run.keys.inflight(self.worker_id), str(next(self._ledger_ids)),
                                              self.ttl_seconds)
            else:
                request = self.queue.pop()
        except FRONTIER_ERRORS as error:
            self._frontier_error("pop", error)
            return None
        if request is not None:
            self._inc("scheduler/dequeued/redis")
            self.queued_estimate = max(0, self.queued_estimate - 1)
        return request

    def _inc(self, key: str) -> None:
        if self.stats:
            self.stats.inc_value(key)
