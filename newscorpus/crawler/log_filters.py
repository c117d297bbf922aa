"""Scrapy log lines reworded for a crawl of news sites: a page over DOWNLOAD_MAXSIZE is an outcome of the crawl
(stored as a `too_large` page row, counted as newscorpus/outcome/too_large), not a fault of it, so Scrapy's
warning becomes one INFO line saying what happened and what to change (rather than a warning with no
explanation). And the lines no handler takes are not built at all (:func:`skip_records_no_handler_takes`)."""

from __future__ import annotations

import logging
import re

from scrapy import signals

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
        if match and match["url"].endswith("/robots.txt"):
            # robots.txt is fetched by Scrapy's robots middleware, not the spider: no page row is written for it.
            record.msg = ("robots.txt %s: %s, over DOWNLOAD_MAXSIZE (%s); not stored, no page row")
            record.args = (match["url"], _megabytes(match["size"]), _megabytes(match["limit"]))
        elif match:
            record.msg = ("not storing %s: %s, over DOWNLOAD_MAXSIZE (%s); recorded as a too_large page "
                          "(raise DOWNLOAD_MAXSIZE to keep such pages)")
            record.args = (match["url"], _megabytes(match["size"]), _megabytes(match["limit"]))
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def _loggers() -> list[logging.Logger]:
    return [logging.getLogger(), *(logger for logger in list(logging.Logger.manager.loggerDict.values())
                                   if isinstance(logger, logging.Logger))]


def _ruled_by(logger: logging.Logger) -> logging.Logger:
    """The logger whose level decides which of ``logger``'s records are made: itself or its nearest parent with a
    level (the root at last)."""
    while logger.level == logging.NOTSET and logger.parent is not None:
        logger = logger.parent
    return logger


def lowest_handled_level(ruler: logging.Logger) -> int:
    """The lowest level a handler takes among the handlers the records ruled by ``ruler``'s level can reach: those
    of the loggers it rules and of its parents. A NullHandler takes nothing; NOTSET when one takes every level."""
    reached = [logger for logger in _loggers() if _ruled_by(logger) is ruler]
    parent = ruler.parent
    while parent is not None:
        reached.append(parent)
        parent = parent.parent
    return min((handler.level for logger in reached for handler in logger.handlers
                if not isinstance(handler, logging.NullHandler)), default=logging.NOTSET)


def skip_records_no_handler_takes() -> None:
    """Scrapy leaves the root logger at NOTSET and its own "scrapy" logger at DEBUG, and filters at its handler
    (LOG_LEVEL), so every ``logger.debug`` (Scrapy's "Crawled (200)" and "Scraped" lines, two a page) and
    charset_normalizer's TRACE lines (~110 per page whose charset it guesses, twice: Scrapy's guess and our
    decoding's) would build a LogRecord, look up its caller and go to the handler only to be dropped: thousands of
    records a demo crawl. The root logger and every logger with a
    level of its own get at least the lowest level a handler their records reach takes, so these calls stop at
    ``isEnabledFor``: what is written, and Scrapy's log_count/* stats (its counting handler takes LOG_LEVEL too),
    are unchanged. Nothing changes while a handler takes every level (pytest's caplog)."""
    for ruler in _loggers():
        if ruler is not logging.getLogger() and ruler.level == logging.NOTSET:
            continue
        floor = lowest_handled_level(ruler)
        if ruler.level < floor:
            ruler.setLevel(floor)


def install(crawler) -> None:
    """Add the filters (once per process: a logger keeps its filters); once the spider is open (Scrapy installs its
    root handler again, and the root logger's level with it, until then), skip the records no handler takes."""
    handler_logger = logging.getLogger(DOWNLOAD_HANDLER_LOGGER)
    if not any(isinstance(existing, OversizedPageFilter) for existing in handler_logger.filters):
        handler_logger.addFilter(OversizedPageFilter())
    crawler.signals.connect(skip_records_no_handler_takes, signal=signals.spider_opened)
