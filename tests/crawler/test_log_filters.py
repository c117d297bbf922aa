"""The log records no handler takes are not made (newscorpus.crawler.log_filters.skip_records_no_handler_takes), and
what
a handler takes is written as before."""

from __future__ import annotations

import logging
from contextlib import contextmanager

from newscorpus.crawler.log_filters import lowest_handled_level, skip_records_no_handler_takes

TRACE = 5  # charset_normalizer's level


class Kept(logging.Handler):
    def __init__(self, level: int):
        super().__init__(level)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name} {record.levelname} {record.getMessage()}")


@contextmanager
def scrapy_like_logging():
    """The root logger as Scrapy leaves it (NOTSET, one handler at LOG_LEVEL = INFO; pytest's own handlers, added
    around each test's call, set aside),
    a "scrapy"-like logger at DEBUG, a logger with a handler of its own (jieba's), and a library logger with a
    NullHandler (charset_normalizer's); everything is put back afterwards."""
    root = logging.getLogger()
    saved_handlers, saved_level = root.handlers[:], root.level
    handler = Kept(logging.INFO)
    root.handlers = [handler]
    root.setLevel(logging.NOTSET)
    framework = logging.getLogger("test_log_filters_framework")
    framework.setLevel(logging.DEBUG)
    own = logging.getLogger("test_log_filters_own")
    own.setLevel(logging.DEBUG)
    own_handler = Kept(logging.NOTSET)
    own.addHandler(own_handler)
    library = logging.getLogger("test_log_filters_library")
    library.addHandler(logging.NullHandler())
    try:
        yield handler, framework, own, own_handler, library
    finally:
        root.handlers = saved_handlers
        root.setLevel(saved_level)
        framework.setLevel(logging.NOTSET)
        own.setLevel(logging.NOTSET)
        own.handlers = []
        library.handlers = []


def log_everything(*loggers: logging.Logger) -> None:
    for logger in loggers:
        for level in (TRACE, logging.DEBUG, logging.INFO, logging.WARNING):
            logger.log(level, "line at %s", level)


def test_records_no_handler_takes_are_not_made_and_the_written_lines_are_the_same():
    with scrapy_like_logging() as (handler, framework, own, own_handler, library):
        log_everything(framework, own, library, framework.getChild("engine"))
        before, own_before = handler.lines[:], own_handler.lines[:]
        handler.lines.clear()
        own_handler.lines.clear()

        skip_records_no_handler_takes()

        assert not library.isEnabledFor(TRACE) and not framework.getChild("engine").isEnabledFor(logging.DEBUG)
        assert own.isEnabledFor(logging.DEBUG)  # its own handler takes every level
        log_everything(framework, own, library, framework.getChild("engine"))
        assert handler.lines == before and own_handler.lines == own_before
        assert any("INFO" in line for line in before) and any("DEBUG" in line for line in own_before)


def test_nothing_changes_while_a_handler_takes_every_level():
    with scrapy_like_logging() as (handler, framework, own, own_handler, library):
        logging.getLogger().addHandler(Kept(logging.NOTSET))  # e.g. pytest's caplog
        skip_records_no_handler_takes()
        assert logging.getLogger().level == logging.NOTSET and framework.level == logging.DEBUG
        assert library.isEnabledFor(TRACE)


def test_the_lowest_level_counts_the_handlers_of_the_loggers_ruled_and_of_the_parents():
    with scrapy_like_logging() as (handler, framework, own, own_handler, library):
        assert lowest_handled_level(logging.getLogger()) == logging.INFO  # the NullHandler takes nothing
        assert lowest_handled_level(framework) == logging.INFO              # reaches the root's handler
        assert lowest_handled_level(own) == logging.NOTSET
        framework.getChild("engine").addHandler(warnings := Kept(logging.WARNING))
        framework.setLevel(logging.DEBUG)
        try:
            assert lowest_handled_level(framework) == logging.INFO
            handler.setLevel(logging.ERROR)
            assert lowest_handled_level(framework) == logging.WARNING
        finally:
            framework.getChild("engine").removeHandler(warnings)


def _oversized(url: str) -> str:
    from newscorpus.crawler.log_filters import OversizedPageFilter
    record = logging.LogRecord("scrapy.core.downloader.handlers.http11", logging.WARNING, __file__, 1,
                               "Received %s bytes which is larger than download max size (%s) in request <GET %s>.",
                               (57671680, 204800, url), None)
    OversizedPageFilter().filter(record)
    return record.getMessage()


def test_an_oversized_robots_txt_is_never_logged_as_a_recorded_row():
    # Scrapy's robots middleware fetches it; no page row is written, so the line must not say one was.
    assert "recorded" not in _oversized("http://127.0.0.1:8000/robots.txt")
    assert "recorded as a too_large page" in _oversized("http://127.0.0.1:8000/big.html")
