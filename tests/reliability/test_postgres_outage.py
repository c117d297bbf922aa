"""Postgres goes away mid-crawl (a private server of the test's own, stopped once articles are being stored and
started 10 s later; the machine's server is never touched).
The three stages that write per item (storage, line noise, near-duplicates) retry with back-off
(newscorpus.store.retry); items wait in the pipeline meanwhile (Scrapy's scraper back-pressure bounds how many);
at the end every article of the site is stored exactly once, counted once by line noise and indexed once.
Down for longer than the retry window: the crawl stops by itself (exit 1, finish reason database_unavailable),
names and counts every page it fetched but could not save, and the next run stores exactly those."""

from __future__ import annotations

import re
import time

import psycopg

from newscorpus.demo.server import DemoSite
from newscorpus.store.retry import DEFAULT_POLICY
from tests.reliability.crawling import finish, last_run_counters, start_crawl, stored_article_count
from tests.reliability.services import private_postgres

ARTICLES = 200
OUTAGE_SECONDS = 10
SLOW_ENOUGH = {   # the crawl takes ~20 s, so the outage falls in its middle
    "DOWNLOAD_DELAY": "0.05", "CONCURRENT_REQUESTS_PER_DOMAIN": "2", "NEWSCORPUS_STORAGE_BATCH_SIZE": "10",
}


def test_the_retry_window_covers_the_outage():
    assert DEFAULT_POLICY.window_seconds >= 4 * OUTAGE_SECONDS


def wait_for_stored(dsn: str, crawl, log, count: int = 10) -> None:
    deadline = time.monotonic() + 60
    while stored_article_count(dsn) < count:
        assert crawl.poll() is None, f"the crawl ended before the outage: {log.read_text()[-2000:]}"
        assert time.monotonic() < deadline, f"no {count} articles stored within 60 s"
        time.sleep(0.2)


def stored_state(dsn: str) -> tuple[list[str], set[str], int, list[str]]:
    """Articles stored, articles counted by line noise, its articles_seen, articles indexed for near-duplicates."""
    with psycopg.connect(dsn) as connection:
        articles = [row[0] for row in connection.execute("SELECT url FROM articles")]
        counted = {row[0] for row in connection.execute("SELECT url FROM line_noise_articles")}
        articles_seen = connection.execute("SELECT sum(articles_seen) FROM site_line_stats").fetchone()[0]
        indexed = [row[0] for row in connection.execute("SELECT url FROM near_duplicate_features")]
    return articles, counted, articles_seen, indexed


def crawl_through_outage(dsn: str, outage, tmp_path, settings: dict | None = None) -> None:
    """Crawl the demo site into ``dsn``; once 10 articles are stored, enter ``outage()`` (a context manager
    that stops the server and starts it again on exit) for OUTAGE_SECONDS; check that nothing was lost."""
    with DemoSite(article_count=ARTICLES, huge_bytes=3 * 1024 * 1024) as site:
        config = tmp_path / "demo.toml"
        config.write_text(site.site_config_toml(), encoding="utf-8")
        log = tmp_path / "crawl.log"
        crawl = start_crawl(dsn, config, log, settings={**SLOW_ENOUGH, **(settings or {})})
        try:
            wait_for_stored(dsn, crawl, log)
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
        articles, counted, articles_seen, indexed = stored_state(dsn)
    expected = {site.base_url + article.path for article in site.all_articles}
    assert len(articles) == len(set(articles)) == len(expected) and set(articles) == expected
    assert counted == expected and articles_seen == len(expected)        # each article counted once
    assert len(indexed) == len(set(indexed)) and set(indexed) == expected
    assert counters["newscorpus/storage/articles_new"] == len(expected)
    assert "newscorpus/storage/pages_unsaved" not in counters and "newscorpus/near_duplicate/failed" not in counters
    retries = {name: value for name, value in counters.items() if name.endswith("retries")}
    assert sum(retries.values()) > 0, counters     # the outage was felt, and survived
    assert fetched_during > 0                      # the crawl kept fetching while Postgres was down
    print(f"outage {OUTAGE_SECONDS} s; fetched during it {fetched_during}; retries {retries}; "
          f"articles {len(articles)}; peak RSS {result.peak_rss_mb:.0f} MB")


def test_postgres_restart_mid_crawl_loses_nothing(tmp_path):
    with private_postgres(tmp_path / "pg") as server:
        crawl_through_outage(server.dsn, server.stopped, tmp_path)


def test_postgres_restart_mid_crawl_loses_nothing_with_the_near_duplicate_decision_in_its_own_process(tmp_path):
    """The decision process retries on its own connection (NEWSCORPUS_NEAR_DUPLICATE_WORKERS = 1)."""
    with private_postgres(tmp_path / "pg") as server:
        crawl_through_outage(server.dsn, server.stopped, tmp_path, {"NEWSCORPUS_NEAR_DUPLICATE_WORKERS": "1"})


def test_postgres_down_longer_than_the_retry_window_stops_the_crawl_and_the_next_run_loses_nothing(tmp_path):
    """The crawl stops (not exit 0 with finish reason `finished`, pages lost and an ERROR line per lost page dumping
    the whole item with its raw body), and the next run stores every article. The window is shortened by its
    setting (4 attempts: 3.5 s). Both runs use the same JOBDIR, whose saved duplicate filter must not hide the
    unsaved pages from the second."""
    settings = {**SLOW_ENOUGH, "NEWSCORPUS_DB_RETRY_ATTEMPTS": "4", "JOBDIR": str(tmp_path / "job")}
    with private_postgres(tmp_path / "pg") as server, \
            DemoSite(article_count=ARTICLES, huge_bytes=3 * 1024 * 1024) as site:
        config = tmp_path / "demo.toml"
        config.write_text(site.site_config_toml(), encoding="utf-8")
        log = tmp_path / "crawl.log"
        crawl = start_crawl(server.dsn, config, log, settings=settings)
        try:
            wait_for_stored(server.dsn, crawl, log)
            with server.stopped():            # down until the crawl has given up and ended by itself
                stopped = finish(crawl, log, timeout=150)
        finally:
            if crawl.poll() is None:
                crawl.kill()
        stored_before, *_ = stored_state(server.dsn)
        second = finish(start_crawl(server.dsn, config, tmp_path / "second.log", settings=settings),
                        tmp_path / "second.log", timeout=150)
        second_counters = last_run_counters(server.dsn)
        articles, counted, articles_seen, indexed = stored_state(server.dsn)
    stderr = stopped.stderr
    assert stopped.returncode == 1, stderr[-3000:]
    assert "'finish_reason': 'database_unavailable'" in stderr
    unsaved = int(re.search(r"'newscorpus/storage/pages_unsaved': (\d+)", stderr).group(1))
    named = re.findall(r"ERROR: not saved, the database is unavailable \(.*\): (\S+)$", stderr, re.MULTILINE)
    assert unsaved > 0 and len(named) == len(set(named)) == unsaved      # each unsaved page named once
    assert "raw_body" not in stderr and "<html" not in stderr.lower()     # no item dumped
    assert "Error processing" not in stderr and "Scraper close failure" not in stderr   # no item traceback
    expected = {site.base_url + article.path for article in site.all_articles}
    missing_after_first = expected - set(stored_before)
    assert missing_after_first                                            # the outage cost this run articles
    assert second.returncode == 0, second.stderr[-3000:]
    assert second_counters["newscorpus/storage/articles_new"] == len(missing_after_first)
    assert len(articles) == len(set(articles)) and set(articles) == expected
    assert counted == expected and articles_seen == len(expected)        # each article counted once
    assert len(indexed) == len(set(indexed)) and set(indexed) == expected
    print(f"stored before the stop {len(stored_before)}, pages unsaved {unsaved} (named {len(named)}), "
          f"stored by the next run {len(missing_after_first)}; total {len(articles)}")
