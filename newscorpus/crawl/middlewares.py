"""Downloader middlewares: retries that wait longer after each failure of the same request; redirect loops."""

from __future__ import annotations

import asyncio
import random
from urllib.parse import urldefrag, urljoin

from scrapy.downloadermiddlewares.retry import RetryMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Request
from w3lib.url import safe_url_string

REDIRECT_STATUSES = (301, 302, 303, 307, 308)


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


class RedirectLoop(IgnoreRequest):
    """A redirect back to a URL of its own chain (recorded by the site spider as a fetch error)."""


class RedirectLoopMiddleware:
    """Sees a redirect before Scrapy's RedirectMiddleware does (a higher priority number: responses go through
    middlewares from high to low). A hop back to a URL of the same chain would be dropped silently by the
    duplicate filter, leaving no page row: it ends here instead, as a RedirectLoop of the request."""

    def process_response(self, request, response):
        location = response.headers.get(b"Location")
        if response.status not in REDIRECT_STATUSES or not location:
            return response
        target = urldefrag(urljoin(request.url, safe_url_string(location.decode("latin-1"))))[0]
        chain = [*request.meta.get("redirect_urls", []), request.url]
        if target in {urldefrag(url)[0] for url in chain}:
            raise RedirectLoop(f"redirect loop: {' -> '.join([*chain, target])}"[:500])
        return response
