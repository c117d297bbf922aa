"""The near-duplicate stage's store: articles are decided and recorded in group batches, in one dedicated thread with
its own held connection, so the reactor is never blocked on the database.

Group batching (newscorpus.store.group_batches): the articles that arrive while a batch is being decided wait and go
together in the next one (at most ``batch_size``), one transaction each (newscorpus.store.near_duplicate.records). A
lone article goes alone at once, so batching adds no wait; under load the per-transaction costs are shared
(benchmarks/near_duplicate_throughput.py).
A batch the database refuses is tried again one article at a time, so one article does not fail the others.

The thread holds the connection and waits on the database; the batch's pure steps (the features, the matching, the
links: most of its CPU) it hands back to the event loop's thread and waits for them (``compute``). Run in the
recorder's thread, they would hold the GIL against the reactor's: every socket call of the reactor would hand the
GIL over and wait to get it back, across the two cores. On the loop they are the reactor's own work, as the
extraction is, for less CPU per page and more pages/s (benchmarks/crawl_rate.py). If the loop is gone (the crawl
stopping) while the thread waits, the thread does the step itself.

With ``in_process=True`` the thread only hands each batch to the decision's process of its own
(newscorpus.store.near_duplicate.process) and waits for it, so the features and the decision hold the crawl
process's GIL no more; a batch that process dies on twice is decided in this thread.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import psycopg

from newscorpus.core.near_duplicate.batch import NearDuplicateOutcome
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.store.errors import DatabaseUnavailableError
from newscorpus.store.group_batches import GroupBatches
from newscorpus.store.held_connection import HeldConnection
from newscorpus.store.near_duplicate.process import ChildDied, DecisionProcess
from newscorpus.store.near_duplicate.records import ArticleToDecide, decide_batch

logger = logging.getLogger(__name__)
T = TypeVar("T")
# What the database (or the server away past the retry window) answers a batch it refuses.
REFUSED = (psycopg.Error, DatabaseUnavailableError)


class NearDuplicateRecorder:
    """``await decide(url, site_id, title, body, language)``: the article's NearDuplicateOutcome, None when its
    body is too short to compare, or the database error that stopped it (retries exhausted: the caller counts
    and logs it).

    ``in_process``: batches decided in a process of their own (started by :meth:`start`); ``on_batch``: called
    on the event loop with each batch's size (the stage counts them)."""

    def __init__(self, dsn: str, config: NearDuplicateConfig, batch_size: int, *, in_process: bool = False,
                 on_batch: Callable[[int], None] | None = None):
        self.config = config
        self.held = HeldConnection(dsn)  # used only in the executor's one thread
        self.process = DecisionProcess(dsn, config) if in_process else None  # likewise
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="near_duplicate")
        self._batches = GroupBatches(self._run, batch_size, split_on=REFUSED, on_batch=on_batch)

    @property
    def retries(self) -> int:
        """Decisions repeated after a lost connection (newscorpus.store.retry)."""
        return self.held.retries + (self.process.retries if self.process is not None else 0)

    @property
    def process_deaths(self) -> int:
        """Decision processes that died under a batch (each batch was decided again)."""
        return self.process.deaths if self.process is not None else 0

    async def call(self, function: Callable[..., T], *args) -> T:
        """``function(*args)`` in the recorder's thread."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, function, *args)

    async def start(self) -> None:
        """Start the decision's process, if any: it imports while the crawl goes on (nothing waits for it)."""
        if self.process is not None:
            await self.call(self.process.start)

    async def decide(self, url: str, site_id: int, title: str, body: str,
                     language: str | None = None) -> NearDuplicateOutcome | None | Exception:
        try:
            return await self._batches.submit((url, site_id, title, body, language))
        except REFUSED as error:  # refused alone, or the server away past the retry window
            return error

    async def close(self) -> None:
        await self._batches.close()
        await self.call(self.held.close)
        if self.process is not None:
            await self.call(self.process.close)
        self.executor.shutdown(wait=True)

    def _decide(self, batch: list[ArticleToDecide],
                loop: asyncio.AbstractEventLoop) -> list[NearDuplicateOutcome | None]:
        """In the executor's thread: features, then one transaction for the batch, the pure steps on ``loop``; None
        for a body too short."""
        if self.process is not None:
            try:
                return self.process.decide(batch)
            except ChildDied as error:  # decided here; the next batch goes to a new process
                logger.error("%s: decided in the crawl process", error)
        return decide_batch(self.held, batch, self.config,
                            compute=lambda function, *args: on_loop(loop, function, *args))

    async def _run(self, batch: list[ArticleToDecide]) -> list[NearDuplicateOutcome | None]:
        """The batch decided in the recorder's thread; a refused batch closes the connection (the next one opens
        another) before it is decided again one article at a time."""
        try:
            return await self.call(self._decide, batch, asyncio.get_running_loop())
        except REFUSED:
            await self.call(self.held.close)
            raise


# How often a thread waiting for a step on the loop looks whether the loop still runs (seconds).
LOOP_CHECK_SECONDS = 1.0


def on_loop(loop: asyncio.AbstractEventLoop, function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` run by ``loop``'s thread, waited for by this one; run here if the loop stops first."""
    try:
        if asyncio.get_running_loop() is loop:
            return function(*args)  # called on the loop's own thread: nothing to wait for
    except RuntimeError:  # no loop runs in this thread: the usual case
        pass
    done: concurrent.futures.Future = concurrent.futures.Future()

    def run() -> None:
        if done.set_running_or_notify_cancel():
            try:
                done.set_result(function(*args))
            except BaseException as error:  # noqa: BLE001 - raised again in the waiting thread
                done.set_exception(error)

    try:
        loop.call_soon_threadsafe(run)
    except RuntimeError:  # the loop is closed
        return function(*args)
    while True:
        try:
            return done.result(LOOP_CHECK_SECONDS)
        except concurrent.futures.TimeoutError:
            if not loop.is_running() and done.cancel():
                return function(*args)
