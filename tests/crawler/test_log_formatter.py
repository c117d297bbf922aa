"""Scrapy's lines about dropped and failed items name the page by its URL and say why, never the item: a PageItem
holds the raw page (hundreds of KB of HTML a line otherwise)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import psycopg
from scrapy.settings import Settings

from newscorpus.crawler.items import PageItem
from newscorpus.crawler.log_formatter import UrlLogFormatter
from newscorpus.crawler.outcomes import EmptyAfterCleaning, NotAnArticle
from newscorpus.store.errors import DatabaseUnavailableError

URL = "http://news.example.com/2026/01/01/story.html"
RAW = ("<html><body>" + "<p>港口扩建的正文段落，重复很多次。</p>" * 2000 + "</body></html>").encode()


class Spider:
    class crawler:  # noqa: N801 - what Scrapy's LogFormatter reads from a spider
        settings = Settings({"DEFAULT_DROPITEM_LOG_LEVEL": "WARNING"})


def item() -> PageItem:
    return PageItem(url=URL, final_url=URL, site="example", status=200, fetched_at=datetime.now(UTC),
                    content_type="text/html", raw_body=RAW, url_kind="article", body="正文 " * 500)


def rendered(result: dict) -> str:
    return result["msg"] % result["args"]


def test_a_dropped_item_is_one_short_line_with_its_url_and_reason():
    formatter = UrlLogFormatter()
    line = rendered(formatter.dropped(item(), EmptyAfterCleaning(URL, 7), None, Spider()))
    assert line == f"Dropped {URL}: empty after line-noise cleaning (7 line(s) removed)"
    quiet = formatter.dropped(item(), NotAnArticle("listing", URL), None, Spider())
    assert quiet["level"] == logging.DEBUG and rendered(quiet) == f"Dropped {URL}: not an article (listing)"
    assert len(rendered(formatter.scraped(item(), None, Spider()))) < 200
    assert "港口" not in repr(item())                                   # the raw page is not in the repr either


def test_a_failed_item_names_its_url_and_a_database_outage_goes_to_debug():
    formatter = UrlLogFormatter()
    error = formatter.item_error(item(), ValueError("bad value"), None, Spider())
    assert error["level"] == logging.ERROR and rendered(error) == f"Error processing {URL}: bad value"
    for outage in (DatabaseUnavailableError("cannot reach the database"), psycopg.OperationalError("gone")):
        result = formatter.item_error(item(), outage, None, Spider())  # the crawl database logs it, once
        assert result["level"] == logging.DEBUG and len(rendered(result)) < 200
