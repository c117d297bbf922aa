"""Outcomes recorded once: a stage raises a named outcome; the database extension, on Scrapy's item_dropped signal,
stores the page with it and counts it; a page that comes out of the pipeline is counted under its outcome."""

from __future__ import annotations

import asyncio
import inspect
from datetime import UTC, datetime

import psycopg
from scrapy import signals
from scrapy.exceptions import DropItem
from scrapy.utils.test import get_crawler

from newscorpus.crawler.extensions.crawl_database import CrawlDatabase
from newscorpus.crawler.items import PageItem
from newscorpus.crawler.outcomes import EmptyAfterCleaning, NotAnArticle, PageOutcome
from newscorpus.pipelines import extraction, line_noise, near_duplicate, storage


def page(url: str, outcome: str | None = None) -> PageItem:
    return PageItem(url=url, final_url=url, site="outcomes", status=200, fetched_at=datetime.now(UTC),
                    content_type="text/html", raw_body=b"<html></html>", url_kind="article", outcome=outcome,
                    outcome_detail="from the spider")


def test_dropped_pages_are_stored_and_counted_from_the_signal_and_other_drops_are_not(database_dsn):
    crawler = get_crawler(settings_dict={"NEWSCORPUS_DB_DSN": database_dsn, "NEWSCORPUS_STORAGE_BATCH_SIZE": 1,
                                         "NEWSCORPUS_DB_RETRY_ATTEMPTS": 8})
    crawler.stats.open_spider()
    database = CrawlDatabase.from_crawler(crawler)   # connects its signal handlers

    async def scenario():
        await database.open("outcomes")
        for item, exception in [(page("http://o.test/listing", "listing"), NotAnArticle("listing", "u")),
                                (page("http://o.test/empty", "article"), EmptyAfterCleaning("u", 3)),
                                (page("http://o.test/foreign", "article"), DropItem("not ours"))]:
            await crawler.signals.send_catch_log_async(signals.item_dropped, item=item, response=None,
                                                       spider=None, exception=exception)
        crawler.signals.send_catch_log(signals.item_scraped, item=page("http://o.test/kept", "article"),
                                       response=None, spider=None)
        await database.writer.close()

    asyncio.run(scenario())
    with psycopg.connect(database_dsn) as connection:
        rows = connection.execute("SELECT url, outcome, outcome_detail FROM pages ORDER BY url").fetchall()
    assert rows == [("http://o.test/empty", "empty_after_cleaning", "3 noise line(s) removed"),
                    ("http://o.test/listing", "listing", "from the spider")]
    stats = crawler.stats.get_stats()
    assert {k: v for k, v in stats.items() if k.startswith("newscorpus/outcome/")} == {
        "newscorpus/outcome/listing": 1, "newscorpus/outcome/empty_after_cleaning": 1,
        "newscorpus/outcome/article": 1}


def test_no_stage_records_a_drop_or_counts_an_outcome_itself():
    assert issubclass(NotAnArticle, PageOutcome) and issubclass(EmptyAfterCleaning, PageOutcome)
    for module in (extraction, line_noise, near_duplicate, storage):
        source = inspect.getsource(module)
        assert "newscorpus/outcome/" not in source and ".writer." not in source
        assert module is storage or ".record(" not in source
