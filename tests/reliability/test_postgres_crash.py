"""Postgres killed with SIGKILL mid-crawl (a private cluster of the test's own, five times, started again at
once): every article is stored once and counted by line noise once (newscorpus.store.line_noise commits durably:
an asynchronous commit lost in the crash left an article stored but never counted, for good)."""

from __future__ import annotations

import os
import signal
import time

from newscorpus.demo.server import DemoSite
from tests.reliability.crawling import finish, start_crawl
from tests.reliability.services import private_postgres
from tests.reliability.test_postgres_outage import ARTICLES, SLOW_ENOUGH, stored_state, wait_for_stored

CRASHES_AT_STORED = (10, 40, 70, 100, 130)  # each crash a chance to lose a commit


def kill_postmaster(server) -> None:
    pid = int((server.pgdata / "postmaster.pid").read_text().splitlines()[0])
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:   # bounds a hung exit only
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)


def test_postgres_killed_mid_crawl_loses_no_line_noise_count(tmp_path):
    with private_postgres(tmp_path / "pg") as server, \
            DemoSite(article_count=ARTICLES, huge_bytes=3 * 1024 * 1024) as site:
        config = tmp_path / "demo.toml"
        config.write_text(site.site_config_toml(), encoding="utf-8")
        log = tmp_path / "crawl.log"
        crawl = start_crawl(server.dsn, config, log, settings=SLOW_ENOUGH)
        try:
            for stored in CRASHES_AT_STORED:
                wait_for_stored(server.dsn, crawl, log, count=stored)
                kill_postmaster(server)
                server.start()
            result = finish(crawl, log, timeout=150)
        finally:
            if crawl.poll() is None:
                crawl.kill()
        articles, counted, articles_seen, _ = stored_state(server.dsn)
    assert result.returncode == 0, result.stderr[-3000:]
    expected = {site.base_url + article.path for article in site.all_articles}
    print(f"{len(CRASHES_AT_STORED)} crashes: {len(set(articles))}/{len(expected)} stored, "
          f"{len(counted & expected)} counted, RC {articles_seen}")
    assert len(articles) == len(set(articles)) and set(articles) == expected
    assert counted == expected and articles_seen == len(expected)        # each stored article counted once
