"""The near-duplicate stage's store: articles are decided and recorded in group batches, in one dedicated thread with
its own held connection, so the reactor is never blocked on the database.

Group batching: the articles that arrive while a batch is being decided wait and go together in the next one (at
most ``batch_size``), one transaction each (newscorpus.store.near_duplicate_records). A lone article goes alone at
once, so batching adds no wait; under load the per-transaction costs are shared
(benchmarks/near_duplicate_throughput.py).
A batch the database refuses is tried again one article at a time, so one article does not fail the others.

With ``in_process=True`` the thread only hands each batch to the decision's process of its own
(newscorpus.store.near_duplicate_process) and waits for it, so the features and the decision hold the crawl
process's GIL no more; a batch that process dies on twice is decided in this thread.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

import psycopg

from newscorpus.core.near_duplicate import NearDuplicateConfig
from newscorpus.core.near_duplicate_batch import NearDuplicateOutcome
from newscorpus.store.connection import DatabaseUnavailableError
from newscorpus.store.held_connection import HeldConnection
from newscorpus.store.near_duplicate_process import ChildDied, DecisionProcess
from newscorpus.store.near_duplicate_records import decide_batch

logger = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class _Waiting:
    url: str
    site_id: int
    title: str
    body: str
    language: str | None  # as the extraction found it; None: detected from the body
    outcome: asyncio.Future  # NearDuplicateOutcome, None (too short) or the exception


class NearDuplicateRecorder:
    """``await decide(url, site_id, title, body, language)``: the article's NearDuplicateOutcome, None when its
    body is too short to compare, or the database error that stopped it (retries exhausted: the caller counts
    and logs it).

    ``in_process``: batches decided in a process of their own (started by :meth:`start`); ``on_batch``: called
    on the event loop with each batch's size (the stage counts them)."""

    def __init__(self, dsn: str, config: NearDuplicateConfig, batch_size: int, *, in_process: bool = False,
                 on_batch: Callable[[int], None] | None = None):
        self.config = config
        self.batch_size = batch_size
        self.on_batch = on_batch
        self.held = HeldConnection(dsn)  # used only in the executor's one thread
        self.process = DecisionProcess(dsn, config) if in_process else None  # likewise
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="near_duplicate")
        self.waiting: list[_Waiting] = []
        self.batcher: asyncio.Task | None = None

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
        waiting = _Waiting(url, site_id, title, body, language, asyncio.get_running_loop().create_future())
        self.waiting.append(waiting)
        if self.batcher is None:
            self.batcher = asyncio.ensure_future(self._run_batches())
        return await waiting.outcome

    async def close(self) -> None:
        if self.batcher is not None:
            await self.batcher
        await self.call(self.held.close)
        if self.process is not None:
            await self.call(self.process.close)
        self.executor.shutdown(wait=True)

    def _decide(self, waiting: list[_Waiting]) -> list[NearDuplicateOutcome | None]:
        """In the executor's thread: features, then one transaction for the batch; None for a body too short."""
        batch = [(entry.url, entry.site_id, entry.title, entry.body, entry.language) for entry in waiting]
        if self.process is not None:
            try:
                return self.process.decide(batch)
            except ChildDied as error:  # decided here; the next batch goes to a new process
                logger.error("%s: decided in the crawl process", error)
        return decide_batch(self.held, batch, self.config)

    async def _run_batches(self) -> None:
        """Decide waiting articles, a batch at a time, until none wait; a failed batch is retried one article at
        a time, so one article the database refuses does not fail the others."""
        try:
            while self.waiting:
                batch, self.waiting = self.waiting[:self.batch_size], self.waiting[self.batch_size:]
                if self.on_batch is not None:
                    self.on_batch(len(batch))
                groups = [batch]
                while groups:
                    group = groups.pop(0)
                    try:
                        outcomes = await self.call(self._decide, group)
                    except (psycopg.Error, DatabaseUnavailableError) as error:
                        await self.call(self.held.close)
                        if len(group) > 1:
                            groups.extend([entry] for entry in group)
                            continue
                        outcomes = [error]
                    except Exception as error:  # a fault of ours: each item's own error, not a silent hang
                        for entry in group:
                            entry.outcome.set_exception(error)
                        continue
                    for entry, outcome in zip(group, outcomes, strict=True):
                        entry.outcome.set_result(outcome)
        finally:
            self.batcher = None
