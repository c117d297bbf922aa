"""Postgres goes away mid-crawl (a private server of the test's own, stopped once articles are being stored and
started 10 s later; the machine's server is never touched).
The three stages that write per item (storage, line noise, near-duplicates) retry with back-off
(pipelines.db.retry); items wait in the pipeline meanwhile (Scrapy's scraper back-pressure bounds how many);
at the end every article of the site is stored exactly once, counted once by line noise and indexed once."""

from __future__ import annotations

import time

import psycopg

from crawler.demo.server import DemoSite
from pipelines.db.retry import DEFAULT_POLICY
from tests.reliability.crawling import finish, last_run_counters, start_crawl, stored_article_count
from tests.reliability.services import private_postgres

ARTICLES = 200
OUTAGE_SECONDS = 10
SLOW_ENOUGH = {   # the crawl takes ~20 s, so the outage falls in its middle
    "DOWNLOAD_DELAY": "0.05", "CONCURRENT_REQUESTS_PER_DOMAIN": "2", "NEWSCORPUS_STORAGE_BATCH_SIZE": "10",
}


def test_the_retry_window_covers_the_outage():
    assert DEFAULT_POLICY.window_seconds >= 4 * OUTAGE_SECONDS


def crawl_through_outage(dsn: str, outage, tmp_path) -> None:
    """Crawl the demo site into ``dsn``; once 10 articles are stored, enter ``outage()`` (a context manager
    that stops the server and starts it again on exit) for OUTAGE_SECONDS; check that nothing was lost."""
    with DemoSite(article_count=ARTICLES, huge_bytes=3 * 1024 * 1024) as site:
        config = tmp_path / "demo.toml"
        config.write_text(site.site_config_toml(), encoding="utf-8")
        log = tmp_path / "crawl.log"
        crawl = start_crawl(dsn, config, log, settings=SLOW_ENOUGH)
        try:
            deadline = time.monotonic() + 60
            while stored_article_count(dsn) < 10:
                assert crawl.poll() is None, f"the crawl ended before the outage: {log.read_text()[-2000:]}"
                assert time.monotonic() < deadline, "no article stored within 60 s"
                time.sleep(0.2)
            with outage():
                requests_before = sum(site.requests.values())
                time.sleep(OUTAGE_SECONDS)
                fetched_during = sum(site.requests.values()) - requests_before
            assert crawl.poll() is None, "the crawl ended during the outage"
            result = finish(crawl, log, timeout=150)
        finally:
            if crawl.poll() is None:
                crawl.kill()
        assert result.returncode == 0, result.stderr[-3000:]
        counters = last_run_counters(dsn)
        with psycopg.connect(dsn) as connection:
            articles = [row[0] for row in connection.execute("SELECT url FROM articles")]
            counted = {row[0] for row in connection.execute("SELECT url FROM line_noise_articles")}
            articles_seen = connection.execute("SELECT sum(articles_seen) FROM site_line_stats").fetchone()[0]
            indexed = [row[0] for row in connection.execute("SELECT url FROM near_duplicate_features")]
    expected = {site.base_url + article.path for article in site.all_articles}
    assert len(articles) == len(set(articles)) == len(expected) and set(articles) == expected
    assert counted == expected and articles_seen == len(expected)        # each article counted once
    assert len(indexed) == len(set(indexed)) and set(indexed) == expected
    assert counters["newscorpus/storage/articles_new"] == len(expected)
    assert "newscorpus/storage/pages_lost" not in counters and "newscorpus/dedup/failed" not in counters
    retries = {name: value for name, value in counters.items() if name.endswith("retries")}
    assert sum(retries.values()) > 0, counters     # the outage was felt, and survived
    assert fetched_during > 0                      # the crawl kept fetching while Postgres was down
    print(f"outage {OUTAGE_SECONDS} s; fetched during it {fetched_during}; retries {retries}; "
          f"articles {len(articles)}; peak RSS {result.peak_rss_mb:.0f} MB")


def test_postgres_restart_mid_crawl_loses_nothing(tmp_path):
    with private_postgres(tmp_path / "pg") as server:
        crawl_through_outage(server.dsn, server.stopped, tmp_path)
