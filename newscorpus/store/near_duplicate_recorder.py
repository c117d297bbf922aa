"""The near-duplicate stage's store: articles are decided and recorded in group batches, in one dedicated thread with
its own held connection, so the reactor is never blocked on the database.

Group batching: the articles that arrive while a batch is being decided wait and go together in the next one (at
most ``batch_size``), one transaction each (newscorpus.store.near_duplicate_records). A lone article goes alone at
once, so batching adds no wait; under load the per-transaction costs are shared
(benchmarks/near_duplicate_throughput.py).
A batch the database refuses is tried again one article at a time, so one article does not fail the others.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

import psycopg

from newscorpus.core.near_duplicate import DocumentFeatures, NearDuplicateConfig, build_features_batch
from newscorpus.core.near_duplicate_batch import ArticleToRecord, NearDuplicateOutcome
from newscorpus.core.text import source_hash
from newscorpus.store.connection import DatabaseUnavailableError
from newscorpus.store.held_connection import HeldConnection
from newscorpus.store.near_duplicate_records import record_articles

T = TypeVar("T")
# The features of a batch: (title, body, site id, language or None) -> DocumentFeatures, in order
# (build_features_batch's contract).
FeaturesOf = Callable[[Sequence[tuple[str, str, int | None, str | None]]], list[DocumentFeatures]]


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

    ``features``: how a batch's features are computed, in this recorder's thread (the stage may hand them to a
    worker process); ``on_batch``: called on the event loop with each batch's size (the stage counts them)."""

    def __init__(self, dsn: str, config: NearDuplicateConfig, batch_size: int, *, features: FeaturesOf | None = None,
                 on_batch: Callable[[int], None] | None = None):
        self.config = config
        self.batch_size = batch_size
        self.features = features or (lambda articles: build_features_batch(articles, config))
        self.on_batch = on_batch
        self.held = HeldConnection(dsn)  # used only in the executor's one thread
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="near_duplicate")
        self.waiting: list[_Waiting] = []
        self.batcher: asyncio.Task | None = None

    @property
    def retries(self) -> int:
        """Decisions repeated after a lost connection (newscorpus.store.retry)."""
        return self.held.retries

    async def call(self, function: Callable[..., T], *args) -> T:
        """``function(*args)`` in the recorder's thread (where the features function runs)."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, function, *args)

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
        self.executor.shutdown(wait=True)

    def _decide(self, waiting: list[_Waiting]) -> list[NearDuplicateOutcome | None]:
        """In the executor's thread: features, then one transaction for the batch; None for a body too short."""
        outcomes: list[NearDuplicateOutcome | None] = [None] * len(waiting)
        articles, positions = [], []
        built = self.features([(entry.title, entry.body, entry.site_id, entry.language) for entry in waiting])
        for position, (entry, features) in enumerate(zip(waiting, built, strict=True)):
            if features.token_count >= self.config.min_simhash_tokens:
                articles.append(ArticleToRecord(entry.url, entry.site_id, source_hash(entry.title, entry.body),
                                                features))
                positions.append(position)
        if not articles:
            return outcomes
        # record_articles is idempotent per URL and text: retried with back-off while the server is away.
        what = f"the near-duplicate check of {len(articles)} article(s) from {articles[0].url[:200]}"
        recorded = self.held.run(lambda connection: record_articles(connection, articles, self.config), what)
        for position, outcome in zip(positions, recorded, strict=True):
            outcomes[position] = outcome
        return outcomes

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
