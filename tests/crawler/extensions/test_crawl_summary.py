"""The end of `scrapy crawl site`: a short summary after Scrapy's stats dump, from the counts the stages keep."""

from __future__ import annotations

import psycopg


def test_the_crawl_ends_with_articles_new_updated_near_duplicates_and_outcomes(crawled_demo):
    _, dsn, _, result = crawled_demo
    with psycopg.connect(dsn) as connection:
        stored = connection.execute("SELECT count(*) FROM articles").fetchone()[0]
        duplicates = connection.execute("SELECT count(*) FROM article_duplicates").fetchone()[0]
    lines = result.stderr.rstrip().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("crawl of site demo:"))
    summary = lines[start:]
    assert summary[0] == "crawl of site demo: finished"
    assert summary[1].startswith(f"  {stored} new articles, 0 updated, {duplicates} near-duplicates")
    assert summary[2].startswith("  no article:") and "1 http_error" in summary[2] and "1 too_large" in summary[2]
    assert len(summary) == 3
    assert start > next(i for i, line in enumerate(lines) if "Dumping Scrapy stats" in line)
