"""One connection held by a store: opened on first use, dropped when lost, opened again on the next call; a call
run through :meth:`run` is retried with the process's back-off (newscorpus.store.retry) while the server is away.

The one shape of the crawl's stores (CorpusWriter, LineNoiseStore, StoredArticles, NearDuplicateRecorder): a
class built from plain values (a DSN, a config) that holds one of these, so no store writes its own reconnect.
:class:`AsyncHeldConnection` for stores on the reactor's event loop, :class:`HeldConnection` for a store whose
calls run in a worker thread (the near-duplicate index's synchronous protocol). Every call run with retries must
be idempotent (see newscorpus.store.retry).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

import psycopg

from newscorpus.store.connection import connect, connect_async
from newscorpus.store.retry import RETRYABLE, RetryPolicy, retry_async, retry_sync

T = TypeVar("T")


class AsyncHeldConnection:
    """An autocommit ``psycopg.AsyncConnection`` to ``dsn``; ``session``: a statement run on each new connection."""

    def __init__(self, dsn: str, *, session: str | None = None, policy: RetryPolicy | None = None):
        self.dsn = dsn
        self.session = session
        self.policy = policy  # None: the process's policy
        self.retries = 0      # calls repeated after a lost connection
        self._connection: psycopg.AsyncConnection | None = None
        self._connecting = asyncio.Lock()

    async def connected(self) -> psycopg.AsyncConnection:
        async with self._connecting:
            if self._connection is None or self._connection.closed:
                connection = await connect_async(self.dsn, autocommit=True)
                if self.session:
                    await connection.execute(self.session)
                self._connection = connection
            return self._connection

    async def run(self, work: Callable[[psycopg.AsyncConnection], Awaitable[T]], what: str) -> T:
        """``await work(connection)``, retried on a new connection while the server is away."""
        async def lost(error: Exception) -> None:
            self.retries += 1
            await self.close()

        async def attempt() -> T:
            return await work(await self.connected())

        return await retry_async(attempt, what, policy=self.policy, on_retry=lost)

    async def run_once(self, work: Callable[[psycopg.AsyncConnection], Awaitable[T]]) -> T:
        """``await work(connection)`` without retries; a lost connection is dropped (the next call opens one)."""
        try:
            return await work(await self.connected())
        except RETRYABLE:
            await self.close()
            raise

    async def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            await connection.close()


class HeldConnection:
    """The blocking twin of :class:`AsyncHeldConnection`, for calls made from one worker thread."""

    def __init__(self, dsn: str, *, policy: RetryPolicy | None = None):
        self.dsn = dsn
        self.policy = policy
        self.retries = 0
        self._connection: psycopg.Connection | None = None

    def connected(self) -> psycopg.Connection:
        if self._connection is None or self._connection.closed:
            self._connection = connect(self.dsn, autocommit=True)
        return self._connection

    def run(self, work: Callable[[psycopg.Connection], T], what: str) -> T:
        def lost(error: Exception) -> None:
            self.retries += 1
            self.close()

        return retry_sync(lambda: work(self.connected()), what, policy=self.policy, on_retry=lost)

    def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()
