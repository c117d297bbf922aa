"""`reextract` works on the content a URL has now: after a page reverted A -> B -> A (a correction taken back),
the article is rebuilt from A. The revert only moves A's row's last_seen (same content hash); choosing the
latest row by fetched_at would pick the stale B."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import psycopg

from newscorpus.builds.reextraction import reextract
from newscorpus.crawler.extensions.crawl_database import migrate_database
from newscorpus.crawler.items import PageItem
from newscorpus.store.corpus_store import CorpusWriter

URL = "http://example.com/2026/01/01/story-1.html"
FIRST_SEEN = datetime(2026, 1, 1, 8, tzinfo=UTC)


def page(version: str, hours: int) -> PageItem:
    paragraphs = "".join(f"<p>{version}: the harbour council voted on the budget, sentence {n}, with a long "
                         f"enough paragraph that the extractor keeps it as the article body.</p>" for n in range(6))
    html = (f"<html><head><title>Harbour budget {version}</title></head><body><article><h1>Harbour budget "
            f"{version}</h1>{paragraphs}</article></body></html>").encode()
    return PageItem(url=URL, final_url=URL, site="example", status=200,
                    fetched_at=FIRST_SEEN + timedelta(hours=hours), content_type="text/html; charset=utf-8",
                    raw_body=html, url_kind="article", outcome="article", title=f"Harbour budget {version}",
                    body=f"{version} body", language="en")


async def store(dsn: str, pages: list[PageItem]) -> None:
    writer = CorpusWriter(dsn, batch_size=1)
    run = await writer.start_crawl_run("example")
    for item in pages:
        await writer.add(item, run, with_article=True)
    await writer.close()


def test_reextract_after_a_revert_uses_the_content_seen_last(database_dsn):
    migrate_database(database_dsn)
    asyncio.run(store(database_dsn, [page("version A", 0), page("version B", 1), page("version A", 2)]))
    counts = reextract(database_dsn)
    assert counts["pages"] == 1
    with psycopg.connect(database_dsn) as connection:
        title, body = connection.execute("SELECT title, body FROM articles WHERE url = %s", (URL,)).fetchone()
        rows = connection.execute("SELECT count(*) FROM pages WHERE url = %s", (URL,)).fetchone()[0]
    assert rows == 2                                   # A and B kept; A's row seen again
    assert title == "Harbour budget version A" and "version A:" in body and "version B" not in body
