"""Downloader middleware: retries that wait longer after each failure of the same request."""

from __future__ import annotations

import asyncio
import random

from scrapy.downloadermiddlewares.retry import RetryMiddleware
from scrapy.http import Request


class BackoffRetryMiddleware(RetryMiddleware):
    """Scrapy's RetryMiddleware, but the n-th retry of a request waits base * 2**(n-1) seconds (±25 %).

    The wait is an ``asyncio.sleep`` on that request only: other requests and the reactor go on.
    """

    def __init__(self, settings):
        super().__init__(settings)
        self.backoff_seconds = settings.getfloat("NEWSCORPUS_RETRY_BACKOFF_SECONDS")
        self.backoff_max_seconds = settings.getfloat("NEWSCORPUS_RETRY_BACKOFF_MAX_SECONDS")
        if self.backoff_seconds < 0 or self.backoff_max_seconds < 0:
            raise ValueError("NEWSCORPUS_RETRY_BACKOFF_SECONDS and _MAX_SECONDS must be >= 0")

    def backoff_delay(self, retry_times: int) -> float:
        delay = min(self.backoff_seconds * 2 ** max(retry_times - 1, 0), self.backoff_max_seconds)
        return delay * random.uniform(0.75, 1.25)

    async def _wait_if_retry(self, result):
        if isinstance(result, Request) and self.backoff_seconds > 0:
            await asyncio.sleep(self.backoff_delay(result.meta.get("retry_times", 1)))
        return result

    async def process_response(self, request, response):
        return await self._wait_if_retry(super().process_response(request, response))

    async def process_exception(self, request, exception):
        return await self._wait_if_retry(super().process_exception(request, exception))
