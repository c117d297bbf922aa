"""Scrapy's downloader with each host's concurrency limit held at all times, whatever the download delay.

Scrapy 2.19's downloader hands each request taken from a slot's queue to an asyncio task and counts it as
transferring only once that task first runs. With no delay, one pass over the queue hands out every queued
request before any task runs, so a host saw 2-4 times CONCURRENT_REQUESTS_PER_DOMAIN at once
(benchmarks/many_sites.py, DOWNLOAD_DELAY=0). Here a request counts as transferring from the moment its task is
made; Scrapy's own code adds it again (a set) when the task starts and removes it when the download ends.
"""

from __future__ import annotations

from scrapy.core.downloader import Downloader


class HostLimitDownloader(Downloader):
    """The DOWNLOADER of the project's settings; tests/crawler/test_host_limit.py crawls a counting server."""

    def _wait_for_download(self, slot, request, queue_dfd):
        # Called by _process_queue to make the coroutine it schedules, before it looks at the free slots again.
        slot.transferring.add(request)
        return super()._wait_for_download(slot, request, queue_dfd)
