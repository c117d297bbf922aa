"""Retries of a database call with exponential back-off while the server is unreachable (restart, failover).

One policy for the three stages that talk to Postgres per item (storage, line noise, near-duplicates): a lost
or refused connection is retried, any other error is raised at once. Every retried call must be idempotent
(the upserts and the per-article counting functions are), since a commit may succeed and its answer be lost.

The process has one policy (:func:`configure`, from ``NEWSCORPUS_DB_RETRY_ATTEMPTS`` in a crawl). Once a call
has used up the whole window, the database counts as gone: other calls stop retrying after their next failed
attempt (so a crawl that stops for it, newscorpus.crawler.extensions.crawl_database, is not held up by each item's own
window), until a
call succeeds again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import psycopg

from newscorpus.store.connection import error_line
from newscorpus.store.errors import DatabaseUnavailableError

logger = logging.getLogger(__name__)

T = TypeVar("T")
# A connection lost mid-call (psycopg) or refused when reconnecting (newscorpus.store.connection).
RETRYABLE = (psycopg.OperationalError, DatabaseUnavailableError)


@dataclass(frozen=True)
class RetryPolicy:
    # 8 attempts, waits 0.5, 1, 2, 4, 8, 16, 30 s: 61.5 s in all, so a restart or a 10 s outage
    # (tests/reliability/test_postgres_outage.py) is survived with room to spare, and a server that is really gone
    # fails the call within about a minute.
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
_process_policy = DEFAULT_POLICY
_gave_up = False  # a call used up the whole window and the server has not answered since


def configure(policy: RetryPolicy) -> None:
    """The policy of every call in this process that does not pass its own."""
    global _process_policy
    _process_policy = policy


def process_policy() -> RetryPolicy:
    return _process_policy


def gave_up() -> bool:
    """Has a call of this process used up the whole window, with no answer from the server since?"""
    return _gave_up


def give_up() -> None:
    """Count the database as gone, as a call that used up the whole window does: for a process that works for
    another (newscorpus.store.near_duplicate.process), whose calls then stop retrying as the other's do."""
    global _gave_up
    _gave_up = True


def _failed(attempt: int, policy: RetryPolicy) -> bool:
    """After a failed attempt: give up now? (the last attempt, or another call gave up already)"""
    global _gave_up
    if attempt == policy.attempts or _gave_up:
        _gave_up = True
        return True
    return False


def _succeeded() -> None:
    global _gave_up
    _gave_up = False


def _log(what: str, attempt: int, policy: RetryPolicy, delay: float, error: Exception) -> None:
    logger.warning("%s failed (attempt %d/%d), retrying in %.1fs: %s", what, attempt, policy.attempts, delay,
                   error_line(error))


async def retry_async(call: Callable[[], Awaitable[T]], what: str, *, policy: RetryPolicy | None = None,
                      on_retry: Callable[[Exception], Awaitable[None]] | None = None) -> T:
    """``await call()``; on a retryable error, ``await on_retry(error)`` (drop the connection, count), wait,
    and call again. The last attempt's error is raised."""
    policy = policy or _process_policy
    delays = policy.delays()
    for attempt in range(1, policy.attempts + 1):
        try:
            result = await call()
            _succeeded()
            return result
        except RETRYABLE as error:
            if on_retry is not None:
                await on_retry(error)
            if _failed(attempt, policy):
                raise
            _log(what, attempt, policy, delays[attempt - 1], error)
            await asyncio.sleep(delays[attempt - 1])
    raise AssertionError("unreachable")


def retry_sync(call: Callable[[], T], what: str, *, policy: RetryPolicy | None = None,
               on_retry: Callable[[Exception], None] | None = None) -> T:
    """:func:`retry_async` for a blocking call (run it in a worker thread, never on the reactor)."""
    policy = policy or _process_policy
    delays = policy.delays()
    for attempt in range(1, policy.attempts + 1):
        try:
            result = call()
            _succeeded()
            return result
        except RETRYABLE as error:
            if on_retry is not None:
                on_retry(error)
            if _failed(attempt, policy):
                raise
            _log(what, attempt, policy, delays[attempt - 1], error)
            time.sleep(delays[attempt - 1])
    raise AssertionError("unreachable")
