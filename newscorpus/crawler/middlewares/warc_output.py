"""Downloader middleware: with NEWSCORPUS_WARC_OUTPUT=DIR every response the crawl receives is also written as WARC
request + response records (newscorpus.core.warc.RotatingWarcWriter), in a thread of its own.

It sits next to the downloader (priority 990), so it sees each response as it came off the wire: before
decompression, redirects and retries (a 301 and a 500 that was retried are records too, as in any crawler's WARC).
The reactor only copies the values into a queue; the records are compressed and written by the writer thread.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from datetime import UTC, datetime

from scrapy import signals
from scrapy.exceptions import NotConfigured

from newscorpus.core.warc import HttpExchange, RotatingWarcWriter

logger = logging.getLogger(__name__)

SOFTWARE = "newscorpus/0.1 (Scrapy {scrapy})"
QUEUE_LIMIT = 256   # exchanges waiting for the writer; past it the reactor waits (a disk slower than the network)


def _header_lines(headers) -> list[tuple[str, str]]:
    return [(name.decode("latin-1"), value.decode("latin-1"))
            for name, values in headers.items() for value in values]


class WarcOutputMiddleware:
    def __init__(self, crawler, directory: str, max_bytes: int):
        import scrapy

        self.crawler = crawler
        self.writer = RotatingWarcWriter(directory, max_bytes, SOFTWARE.format(scrapy=scrapy.__version__))
        self.queue: queue.Queue = queue.Queue(QUEUE_LIMIT)
        self.thread = threading.Thread(target=self.write_all, name="newscorpus-warc-output", daemon=True)
        self.failed = 0
        self.thread.start()

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        directory = settings.get("NEWSCORPUS_WARC_OUTPUT")
        if not directory:
            raise NotConfigured   # bare: Scrapy would log a message as a warning on every crawl
        max_bytes = settings.getint("NEWSCORPUS_WARC_OUTPUT_MAX_BYTES")
        if max_bytes <= 0:
            raise ValueError(f"NEWSCORPUS_WARC_OUTPUT_MAX_BYTES must be > 0, not {max_bytes}")
        middleware = cls(crawler, directory, max_bytes)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def process_response(self, request, response):
        exchange = HttpExchange(
            url=response.url, method=request.method, request_headers=_header_lines(request.headers),
            protocol=response.protocol or "HTTP/1.1", status=response.status,
            response_headers=_header_lines(response.headers), body=response.body, date=datetime.now(UTC))
        self.queue.put(exchange)
        return response

    def write_all(self) -> None:
        while True:
            exchange = self.queue.get()
            if exchange is None:
                return
            try:
                self.writer.write(exchange)
            except Exception as error:  # noqa: BLE001 - a full disk costs the WARC copy, never the crawl
                self.failed += 1
                if self.failed == 1:
                    logger.error("cannot write WARC records to %s: %s", self.writer.directory, error)

    async def spider_closed(self, spider) -> None:
        self.queue.put(None)
        await asyncio.to_thread(self.thread.join)
        self.writer.close()
        stats = self.crawler.stats
        stats.set_value("newscorpus/warc_output/records", self.writer.records)
        stats.set_value("newscorpus/warc_output/files", len(self.writer.files))
        if self.failed:
            stats.set_value("newscorpus/warc_output/write_failed", self.failed)
        logger.info("wrote %d WARC record(s) in %d file(s) to %s", self.writer.records, len(self.writer.files),
                    self.writer.directory)
