"""Scrapy's log lines about items, naming the page by its URL: an item (a PageItem holds the raw page) is never
written to the log, so a dropped or failed page costs one short line, not its whole HTML (hundreds of KB a
line otherwise)."""

from __future__ import annotations

import logging

from scrapy.logformatter import LogFormatter

from newscorpus.store.connection import error_line
from newscorpus.store.retry import RETRYABLE


def item_url(item, response) -> str:
    return getattr(item, "url", None) or getattr(response, "url", None) or "(no URL)"


def _reason(exception: BaseException, url: str) -> str:
    """The exception's text without the URL it may already hold (it is in the line once)."""
    text = error_line(exception)
    return text.replace(f": {url}", "").replace(url, "").strip() or type(exception).__name__


class UrlLogFormatter(LogFormatter):
    def scraped(self, item, response, spider):
        return {"level": logging.DEBUG, "msg": "Scraped %(url)s", "args": {"url": item_url(item, response)}}

    def dropped(self, item, exception, response, spider):
        result = super().dropped(item, exception, response, spider)   # Scrapy's choice of level
        url = item_url(item, response)
        return {"level": result["level"], "msg": "Dropped %(url)s: %(reason)s",
                "args": {"url": url, "reason": _reason(exception, url)}}

    def item_error(self, item, exception, response, spider):
        # A database outage is logged once per page by newscorpus.crawler.extensions.crawl_database (URL and reason):
        # Scrapy's line, which
        # always carries the traceback, goes to DEBUG.
        level = logging.DEBUG if isinstance(exception, RETRYABLE) else logging.ERROR
        url = item_url(item, response)
        return {"level": level, "msg": "Error processing %(url)s: %(reason)s",
                "args": {"url": url, "reason": _reason(exception, url)}}
