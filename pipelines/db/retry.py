"""Retries of a database call with exponential back-off while the server is unreachable (restart, failover).

One policy for the three stages that talk to Postgres per item (storage, line noise, near-duplicates): a lost
or refused connection is retried, any other error is raised at once. Every retried call must be idempotent
(the upserts and the per-article counting functions are), since a commit may succeed and its answer be lost.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import psycopg

from pipelines.db.connection import DatabaseUnavailableError, redact

logger = logging.getLogger(__name__)

T = TypeVar("T")
# A connection lost mid-call (psycopg) or refused when reconnecting (pipelines.db.connection).
RETRYABLE = (psycopg.OperationalError, DatabaseUnavailableError)


@dataclass(frozen=True)
class RetryPolicy:
    # 8 attempts, waits 0.5, 1, 2, 4, 8, 16, 30 s: 61.5 s in all, so a restart or a 10 s outage (issue 8)
    # is survived with room to spare, and a server that is really gone fails the call within about a minute.
    attempts: int = 8
    first_delay: float = 0.5
    max_delay: float = 30.0

    def __post_init__(self) -> None:
        if self.attempts < 1 or self.first_delay < 0 or self.max_delay < 0:
            raise ValueError("RetryPolicy needs attempts >= 1 and delays >= 0")

    def delays(self) -> list[float]:
        """The waits between attempts (one fewer than the attempts)."""
        return [min(self.first_delay * 2**n, self.max_delay) for n in range(self.attempts - 1)]

    @property
    def window_seconds(self) -> float:
        return sum(self.delays())


DEFAULT_POLICY = RetryPolicy()


def _log(what: str, attempt: int, policy: RetryPolicy, delay: float, error: Exception) -> None:
    logger.warning("%s failed (attempt %d/%d), retrying in %.1fs: %s", what, attempt, policy.attempts, delay,
                   redact(str(error)).strip())


async def retry_async(call: Callable[[], Awaitable[T]], what: str, *, policy: RetryPolicy = DEFAULT_POLICY,
                      on_retry: Callable[[Exception], Awaitable[None]] | None = None) -> T:
    """``await call()``; on a retryable error, ``await on_retry(error)`` (drop the connection, count), wait,
    and call again. The last attempt's error is raised."""
    delays = policy.delays()
    for attempt in range(1, policy.attempts + 1):
        try:
            return await call()
        except RETRYABLE as error:
            if on_retry is not None:
                await on_retry(error)
            if attempt == policy.attempts:
                raise
            _log(what, attempt, policy, delays[attempt - 1], error)
            await asyncio.sleep(delays[attempt - 1])
    raise AssertionError("unreachable")


def retry_sync(call: Callable[[], T], what: str, *, policy: RetryPolicy = DEFAULT_POLICY,
               on_retry: Callable[[Exception], None] | None = None) -> T:
    """:func:`retry_async` for a blocking call (run it in a worker thread, never on the reactor)."""
    delays = policy.delays()
    for attempt in range(1, policy.attempts + 1):
        try:
            return call()
        except RETRYABLE as error:
            if on_retry is not None:
                on_retry(error)
            if attempt == policy.attempts:
                raise
            _log(what, attempt, policy, delays[attempt - 1], error)
            time.sleep(delays[attempt - 1])
    raise AssertionError("unreachable")
