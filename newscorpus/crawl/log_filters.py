"""Scrapy log lines reworded for a crawl of news sites: a page over DOWNLOAD_MAXSIZE is an outcome of the crawl
(stored as a `too_large` page row, counted as newscorpus/outcome/too_large), not a fault of it, so Scrapy's
warning becomes one INFO line saying what happened and what to change (issue 19: the demo's oversized page warned
with no explanation)."""

from __future__ import annotations

import logging
import re

DOWNLOAD_HANDLER_LOGGER = "scrapy.core.downloader.handlers.http11"
# scrapy.utils._download_handlers.get_maxsize_msg (Scrapy 2.14-2.19)
_MAXSIZE = re.compile(r"(?:Expected to receive|Received) (?P<size>\d+) bytes which is larger than download max size "
                      r"\((?P<limit>\d+)\) in request <\w+ (?P<url>\S+)>")


def _megabytes(count: str) -> str:
    return f"{int(count) / 1024 / 1024:.1f} MB"


class OversizedPageFilter(logging.Filter):
    """Rewrites Scrapy's "larger than download max size" warning as an INFO line about the too_large page."""

    def filter(self, record: logging.LogRecord) -> bool:
        match = _MAXSIZE.search(record.getMessage()) if record.levelno == logging.WARNING else None
        if match:
            record.msg = ("not storing %s: %s, over DOWNLOAD_MAXSIZE (%s); recorded as a too_large page "
                          "(raise DOWNLOAD_MAXSIZE to keep such pages)")
            record.args = (match["url"], _megabytes(match["size"]), _megabytes(match["limit"]))
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def install() -> None:
    """Add the filters (once per process: a logger keeps its filters)."""
    handler_logger = logging.getLogger(DOWNLOAD_HANDLER_LOGGER)
    if not any(isinstance(existing, OversizedPageFilter) for existing in handler_logger.filters):
        handler_logger.addFilter(OversizedPageFilter())
