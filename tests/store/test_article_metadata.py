"""Article metadata through the real write path (CorpusWriter) into a real Postgres (migrations/0011): the page's
publication day and offset are kept (no day shift), authors as a list, the modification time, the site's name;
corpus_articles shows them."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime, timedelta

import psycopg

from newscorpus.crawler.items import PageItem
from newscorpus.store.article_metadata import page_datetime
from newscorpus.store.corpus_store import CorpusWriter


def item(number: int, **metadata) -> PageItem:
    url = f"http://example.com/2026/01/01/story-{number}.html"
    page = PageItem(url=url, final_url=url, site="metadata", status=200, fetched_at=datetime.now(UTC),
                    content_type="text/html", raw_body=f"<p>story {number}</p>".encode(), url_kind="article",
                    outcome="article", title=f"Story {number}", body=f"Body of story {number}.", language="en")
    for name, value in metadata.items():
        setattr(page, name, value)
    return page


async def write_all(dsn: str, items: list[PageItem]) -> None:
    writer = CorpusWriter(dsn, batch_size=4)
    run = await writer.start_crawl_run("metadata")
    for page in items:
        await writer.add(page, run, with_article=True)
    await writer.close()


def test_page_datetime_keeps_the_pages_day_and_offset():
    instant, day, offset = page_datetime("2024-05-20T01:30:00+08:00")
    assert day == date(2024, 5, 20) and offset == timedelta(hours=8)
    assert instant.astimezone(UTC) == datetime(2024, 5, 19, 17, 30, tzinfo=UTC)  # the UTC day is the day before
    assert page_datetime("2024-05-20T23:30:00") == (datetime(2024, 5, 20, 23, 30, tzinfo=UTC), date(2024, 5, 20),
                                                     None)
    assert page_datetime("2024-05-20")[1] == date(2024, 5, 20)
    assert page_datetime("1998-03") == (None, None, None)  # a month has no day
    assert page_datetime("not a date") == (None, None, None)


def test_metadata_columns_round_trip_without_a_day_shift(migrated_dsn):
    items = [
        item(1, published_at="2024-05-20T01:30:00+08:00", modified_at="2024-05-21T09:00:00+08:00",
             author="王建宏, 张文攀", authors=["王建宏", "张文攀"], site_name="光明网"),
        item(2, published_at="2024-05-20T23:30:00-05:00", author="Jane Roe", authors=["Jane Roe"],
             site_name="The Daily"),
        item(3, published_at="2024-05-20T23:30:00", author="Jane Roe"),  # no authors list: from author
        item(4, published_at="1998-03"),
    ]
    asyncio.run(write_all(migrated_dsn, items))
    with psycopg.connect(migrated_dsn) as connection:
        connection.execute("SET TIME ZONE 'America/Los_Angeles'")  # the connection's zone changes nothing stored
        rows = {url: rest for url, *rest in connection.execute(
            "SELECT url, published_date, published_utc_offset, published_at AT TIME ZONE published_utc_offset, "
            "modified_at, authors, author, site_name FROM corpus_articles").fetchall()}
        utc_day = dict(connection.execute(
            "SELECT url, (published_at AT TIME ZONE 'UTC')::date FROM articles").fetchall())
    first, second, third, fourth = (rows[page.url] for page in items)
    assert first[:3] == [date(2024, 5, 20), timedelta(hours=8), datetime(2024, 5, 20, 1, 30)]
    assert first[3] == datetime(2024, 5, 21, 1, 0, tzinfo=UTC)
    assert first[4:] == [["王建宏", "张文攀"], "王建宏, 张文攀", "光明网"]
    assert second[:3] == [date(2024, 5, 20), timedelta(hours=-5), datetime(2024, 5, 20, 23, 30)]
    assert utc_day[items[1].url] == date(2024, 5, 21)  # the instant's UTC day is the next day; published_date is not
    assert third[0] == date(2024, 5, 20) and third[1] is None and utc_day[items[2].url] == date(2024, 5, 20)
    assert third[4] == ["Jane Roe"] and third[6] is None
    assert fourth[0] is None and fourth[4] is None
