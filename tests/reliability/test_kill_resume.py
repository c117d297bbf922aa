"""The crawl process killed with SIGKILL mid-crawl, then started again. Re-seeded (a new JOBDIR, or none):
every article is stored exactly once and the stored ones are not fetched again
(newscorpus.crawler.middlewares.refetch). Resumed
with the same JOBDIR (newscorpus.crawler.extensions.jobdir_guard): nothing is missing either, also on a site whose
sitemaps list
only a third of its articles, so that most are found through listing pages kept in Scrapy's disk queue.
(Redis mode, a killed worker: tests/crawler/distributed/test_workers.py.)"""

from __future__ import annotations

import signal
import time

import psycopg

from newscorpus.demo.server import DemoSite
from tests.conftest import fresh_schema
from tests.reliability.crawling import finish, start_crawl, stored_article_count

ARTICLES = 300             # ~330 requests: Scrapy's seen-request file has been flushed to disk at the kill
KILL_AFTER_ARTICLES = 220
SLOW_ENOUGH = {"DOWNLOAD_DELAY": "0.02", "CONCURRENT_REQUESTS_PER_DOMAIN": "2",
               "NEWSCORPUS_STORAGE_BATCH_SIZE": "10",
               "NEWSCORPUS_MAX_DEPTH": "40"}   # the section listings are 18 pages deep: every article within reach


def kill_then_restart(dsn: str, site: DemoSite, tmp_path, second_jobdir: str,
                      kill_after: int = KILL_AFTER_ARTICLES) -> dict:
    config = tmp_path / "demo.toml"
    config.write_text(site.site_config_toml(), encoding="utf-8")
    first = start_crawl(dsn, config, tmp_path / "first.log", settings={**SLOW_ENOUGH, "JOBDIR": str(tmp_path / "job")})
    try:
        deadline = time.monotonic() + 90
        while stored_article_count(dsn) < kill_after:
            assert first.poll() is None, (tmp_path / "first.log").read_text()[-2000:]
            assert time.monotonic() < deadline
            time.sleep(0.1)
        first.send_signal(signal.SIGKILL)
        assert finish(first, tmp_path / "first.log").returncode == -signal.SIGKILL
    finally:
        if first.poll() is None:
            first.kill()
    stored_at_kill = stored_article_count(dsn)
    requests_at_kill = site.requests.copy()
    second = finish(start_crawl(dsn, config, tmp_path / "second.log",
                                settings={**SLOW_ENOUGH, "JOBDIR": str(tmp_path / second_jobdir)}),
                    tmp_path / "second.log", timeout=150)
    assert second.returncode == 0, second.stderr[-3000:]
    with psycopg.connect(dsn) as connection:
        articles = [row[0] for row in connection.execute("SELECT url FROM articles")]
        resumed = connection.execute("SELECT counters FROM crawl_runs ORDER BY id DESC LIMIT 1").fetchone()[0]
        counted = connection.execute("SELECT sum(articles_seen) FROM site_line_stats").fetchone()[0]
    expected = {site.base_url + article.path for article in site.all_articles}
    return {"stored_at_kill": stored_at_kill, "articles": articles, "expected": expected, "counted": counted,
            "new_after_restart": resumed.get("newscorpus/storage/articles_new", 0),
            "missing": expected - set(articles), "requests_at_kill": requests_at_kill}


def test_sigkill_then_a_reseeded_restart_stores_every_article_once(postgres_server_dsn, tmp_path):
    with DemoSite(article_count=ARTICLES, huge_bytes=3 * 1024 * 1024) as site, \
            fresh_schema(postgres_server_dsn) as dsn:
        run = kill_then_restart(dsn, site, tmp_path, second_jobdir="job-reseeded")
        articles, expected = run["articles"], run["expected"]
        assert not run["missing"], f"{len(run['missing'])} missing, e.g. {sorted(run['missing'])[:3]}"
        assert len(articles) == len(set(articles)) == len(expected) and run["counted"] == len(expected)
        assert run["new_after_restart"] == len(expected) - run["stored_at_kill"]      # nothing stored twice
        # Articles stored before the kill are not fetched again (one lookup each,
        # newscorpus.crawler.middlewares.refetch).
        stored_before = [a.path for a in site.all_articles if run["requests_at_kill"][a.path]]
        refetched = [path for path in stored_before if site.requests[path] > run["requests_at_kill"][path]]
        assert len(refetched) == len(stored_before) - run["stored_at_kill"], len(refetched)   # only the unstored
        print(f"killed at {run['stored_at_kill']} stored; restart stored {run['new_after_restart']}; "
              f"refetched {len(refetched)} of {len(stored_before)} requested before the kill")


def test_sigkill_then_resume_with_the_same_jobdir_misses_nothing(postgres_server_dsn, tmp_path):
    """Before the fix 200 of 301 were missing: the disk queue files were 0 bytes at the kill, every push on
    resume raised struct.error and its request was dropped while the duplicate filter kept it as seen."""
    with DemoSite(article_count=ARTICLES, huge_bytes=3 * 1024 * 1024, sitemap_every=3) as site, \
            fresh_schema(postgres_server_dsn) as dsn:
        # Killed early, while the listing pages' queue file holds less than a write buffer (0 bytes on disk).
        run = kill_then_restart(dsn, site, tmp_path, second_jobdir="job", kill_after=5)
        articles = run["articles"]
        assert len(articles) == len(set(articles))                                     # never stored twice
        assert run["new_after_restart"] == len(articles) - run["stored_at_kill"]
        print(f"resume with the same JOBDIR: {len(run['missing'])} of {len(run['expected'])} missing")
        assert not run["missing"]
