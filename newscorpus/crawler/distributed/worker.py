"""A worker's presence in its run: heartbeats, and the rule for when a worker may close.

A worker whose own queue view is empty must not close while another worker may still push requests. Every
``NEWSCORPUS_REDIS_HEARTBEAT_SECONDS`` each worker reports its last activity (now, if it has requests in
flight or items in its pipeline) and reads the run's state; on ``spider_idle`` it raises ``DontCloseSpider``
until the run's queue is empty and no worker has been active for ``NEWSCORPUS_REDIS_IDLE_SECONDS``
(:func:`newscorpus.crawler.distributed.runs.may_close`) and no other worker holds unacknowledged requests. The
first worker to close marks the run finished. A worker killed with SIGKILL stops its heartbeat; after the lease
(``NEWSCORPUS_REDIS_IDLE_SECONDS``) a live worker puts the requests of its ledger back in the queue
(:mod:`newscorpus.crawler.distributed.ledger`), so the others finish the run without a re-seed.

The site's articles are derived again at the close (newscorpus.pipelines.extraction) once per run, not once per
worker: the first worker to close a finished run derives them, the others wait until it has written them
(:meth:`RunWorker.derives_the_run`).
"""

from __future__ import annotations

import asyncio
import logging
import time

from scrapy import signals
from scrapy.exceptions import DontCloseSpider, NotConfigured

from newscorpus.crawler.distributed.ledger import (
    LEDGER_ID,
    acknowledge,
    clear_ledger,
    heartbeat_and_reclaim,
    leave,
)
from newscorpus.crawler.distributed.runs import (
    DERIVATION_DONE,
    claim_derivation,
    derivation_done,
    finish_run,
    may_close,
    report_activity,
)
from newscorpus.crawler.distributed.scheduler import FRONTIER_ERRORS, RunScheduler, wake_engine
from newscorpus.crawler.extensions.crawl_database import DATABASE_UNAVAILABLE, CrawlDatabase

logger = logging.getLogger(__name__)


class RunWorker:
    """Extension, on when ``NEWSCORPUS_REDIS_URL`` is set (the add-on enables it)."""

    def __init__(self, crawler, idle_seconds: float, heartbeat_seconds: float):
        if heartbeat_seconds <= 0:
            raise ValueError(f"NEWSCORPUS_REDIS_HEARTBEAT_SECONDS must be > 0, not {heartbeat_seconds}")
        if idle_seconds <= heartbeat_seconds:
            raise ValueError(f"NEWSCORPUS_REDIS_IDLE_SECONDS ({idle_seconds}) must be longer than "
                             f"NEWSCORPUS_REDIS_HEARTBEAT_SECONDS ({heartbeat_seconds})")
        self.crawler = crawler
        self.idle_seconds = idle_seconds
        self.heartbeat_seconds = heartbeat_seconds
        self.scheduler: RunScheduler | None = None
        self.last_active = time.time()
        self.closable = False
        self._beating: asyncio.Task | None = None
        # (ledger id, the storage's batches_taken when the request's page left the pipeline), oldest first
        self._completed: list[tuple[str, int]] = []

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        if not settings.get("NEWSCORPUS_REDIS_URL"):
            raise NotConfigured("NEWSCORPUS_REDIS_URL is not set")
        worker = cls(crawler, settings.getfloat("NEWSCORPUS_REDIS_IDLE_SECONDS"),
                     settings.getfloat("NEWSCORPUS_REDIS_HEARTBEAT_SECONDS"))
        crawler.signals.connect(worker.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(worker.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(worker.spider_closed, signal=signals.spider_closed)
        for signal in (signals.item_scraped, signals.item_dropped, signals.item_error):
            crawler.signals.connect(worker.page_done, signal=signal)
        return worker

    def _writer(self):
        try:
            return CrawlDatabase.of(self.crawler).writer
        except RuntimeError:   # no database extension: nothing is ever acknowledged before the close
            return None

    def page_done(self, response=None, **kwargs) -> None:
        """The page's item left the pipeline (stored, dropped with an outcome, or failed): acknowledged once the
        storage batch it went into is written."""
        request = getattr(response, "request", None)
        ledger_id = request.meta.get(LEDGER_ID) if request is not None else None
        writer = self._writer()
        if ledger_id is not None and writer is not None:
            self._completed.append((ledger_id, writer.batches_taken))

    def _durable_ids(self) -> list[str]:
        writer = self._writer()
        if writer is None:
            return []
        durable = [ledger_id for ledger_id, taken in self._completed if taken < writer.batches_durable]
        self._completed = [entry for entry in self._completed if entry[1] >= writer.batches_durable]
        return durable

    def _holds_nothing(self) -> bool:
        """No download, no item in the pipeline, no page waiting for its batch: every popped request is done."""
        writer = self._writer()
        return self._hands_empty() and (writer is None or (not writer.pending and writer.all_durable))

    def _hands_empty(self) -> bool:
        engine = self.crawler.engine
        slot = getattr(engine, "_slot", None)
        return (not engine.downloader.active and engine.scraper.slot.is_idle()
                and not getattr(slot, "inprogress", None))

    def spider_opened(self, spider) -> None:
        scheduler = self.crawler.engine.scheduler
        if not isinstance(scheduler, RunScheduler):
            logger.warning("NEWSCORPUS_REDIS_URL is set but SCHEDULER is %s: no shared run", type(scheduler))
            self.closable = True
            return
        self.scheduler = scheduler
        self._beating = asyncio.ensure_future(self._beat_forever())

    async def _beat_forever(self) -> None:
        while True:
            try:
                await self.beat()
            except Exception as error:  # Redis away for a moment: counted, the crawl goes on, no close
                self.crawler.stats.inc_value("newscorpus/redis/heartbeat_errors")
                logger.warning("heartbeat to Redis failed: %s", error)
            await asyncio.sleep(self.heartbeat_seconds)

    async def beat(self) -> None:
        engine = self.crawler.engine
        busy = not engine.spider_is_idle()
        if busy:
            self.last_active = time.time()
        scheduler = self.scheduler
        server, keys, worker_id = scheduler.server, scheduler.run.keys, scheduler.worker_id
        writer = self._writer()
        if writer is not None and writer.pending and self._hands_empty():
            # a partial batch written now, not at the close: else two idle workers, each holding one, would each
            # wait for the other's ledger to empty
            await CrawlDatabase.of(self.crawler).flush()
        if self._holds_nothing():
            self._completed.clear()
            await asyncio.to_thread(clear_ledger, server, keys, worker_id)
        else:
            await asyncio.to_thread(acknowledge, server, keys, worker_id, self._durable_ids())
        state = await asyncio.to_thread(report_activity, server, keys, worker_id, self.last_active,
                                        scheduler.ttl_seconds)
        scheduler.queued_estimate = state.queued
        ledgers = await asyncio.to_thread(heartbeat_and_reclaim, server, keys, worker_id, time.time(),
                                          self.idle_seconds, scheduler.ttl_seconds)
        if ledgers.reclaimed:
            self.crawler.stats.inc_value("newscorpus/redis/reclaimed", ledgers.reclaimed)
            logger.warning("put back %d request(s) of a worker not heard of for %.0fs", ledgers.reclaimed,
                           self.idle_seconds)
            wake_engine(self.crawler)
        self.closable = (not busy and not ledgers.reclaimed and not ledgers.elsewhere
                         and may_close(state, time.time(), self.idle_seconds))
        # Woken when the run's queue holds requests and nothing of this worker's is downloading (so no finished
        # download will make the engine ask). Not "not busy": Scrapy's spider_is_idle() counts the shared queue as
        # this worker's pending requests, so a worker with nothing in flight while the others filled the queue would
        # never be woken, its engine asking only on its 5 s heartbeat, and on a short crawl it would fetch nothing
        # at all (benchmarks/worker_scaling.py).
        if self.closable or (state.queued and not engine.downloader.active):
            wake_engine(self.crawler)

    async def derives_the_run(self) -> bool:
        """Whether this worker derives the site's articles at its close. Outside a shared run, yes. In one, a
        single worker does, once the run is done (the close rule: its queue empty, every worker's pages stored);
        a worker stopped before then leaves it to the one that finishes the run. The others wait until it is
        written, so that their close (and a build's next phase) comes after it; when its holder stops beating,
        a waiting worker takes it over. Redis away: this worker derives (twice is only slower)."""
        scheduler = self.scheduler
        if scheduler is None:
            return True
        stats = self.crawler.stats
        if not self.closable:
            stats.set_value("newscorpus/derivation/left_to_the_run", 1)
            logger.info("the run is not finished: the worker that finishes it derives the site's articles")
            return False
        server, keys, worker_id = scheduler.server, scheduler.run.keys, scheduler.worker_id
        waited = False
        while True:
            try:
                holder = await asyncio.to_thread(claim_derivation, server, keys, worker_id, time.time(),
                                                 self.idle_seconds, scheduler.ttl_seconds)
            except FRONTIER_ERRORS as error:
                logger.warning("cannot agree on who derives the run (%s): deriving here", error)
                return True
            if holder == worker_id:
                return True
            if holder == DERIVATION_DONE:
                stats.set_value("newscorpus/derivation/by_another_worker", 1)
                return False
            if not waited:
                logger.info("worker %s derives the run's articles; waiting for it", holder)
                waited = True
            await asyncio.sleep(self.heartbeat_seconds)

    async def derivation_written(self) -> None:
        """The articles derived (or the attempt over): the waiting workers may close."""
        scheduler = self.scheduler
        if scheduler is None:
            return
        try:
            await asyncio.to_thread(derivation_done, scheduler.server, scheduler.run.keys, scheduler.ttl_seconds)
        except FRONTIER_ERRORS as error:  # the waiting workers take it over once this one stops beating
            logger.warning("cannot record the run's derivation as done: %s", error)

    def spider_idle(self, spider) -> None:
        if not self.closable:
            raise DontCloseSpider("other workers of the run may still push requests")

    async def spider_closed(self, spider, reason: str) -> None:
        if self._beating is not None:
            self._beating.cancel()
        scheduler = self.scheduler
        # A run stopped by a database outage is finished too: its filter holds pages not saved, so the next
        # seed or worker starts a new run that fetches them again (stored articles are not fetched).
        if scheduler is not None:   # the pipelines have closed: every page this worker fetched is written
            await asyncio.to_thread(leave, scheduler.server, scheduler.run.keys, scheduler.worker_id)
        if scheduler is not None and reason in ("finished", DATABASE_UNAVAILABLE):
            await asyncio.to_thread(finish_run, scheduler.server, scheduler.run.keys, scheduler.ttl_seconds)
            logger.info("run %s finished: queue empty, no worker active for %.0fs", scheduler.run.run_id,
                        self.idle_seconds)
