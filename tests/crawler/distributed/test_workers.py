"""End to end: 3 `scrapy crawl site` workers share one Redis run and one Postgres on a ~540-page demo site.

The result equals a one-process crawl (each article once, no URL fetched twice); a worker killed with
SIGKILL mid-crawl loses nothing: the others put back the requests it held and finish the run without a
re-seed."""

from __future__ import annotations

import signal
import time

import psycopg
import pytest

from newscorpus.crawler.distributed.keys import SiteKeys
from newscorpus.crawler.distributed.runs import current_run
from newscorpus.demo.server import DemoSite
from tests.conftest import fresh_schema
from tests.crawler.distributed.workers import newscorpus, start_worker, worker_env
from tests.local_crawl import run_crawl

ARTICLES = 480   # + the flaky article, 49 section pages, home, specials, sitemaps, feed: ~540 pages
WORKER_TIMEOUT = 240


def stored_articles(dsn: str, base_url: str) -> dict[str, str]:
    with psycopg.connect(dsn) as connection:
        rows = connection.execute("SELECT url, title FROM articles").fetchall()
    return {url.removeprefix(base_url): title for url, title in rows}


def stored_count(dsn: str) -> int:
    try:
        with psycopg.connect(dsn) as connection:
            return connection.execute("SELECT count(*) FROM articles").fetchone()[0]
    except psycopg.errors.UndefinedTable:   # the first worker has not migrated the schema yet
        return 0


def has_joined(server, site: SiteKeys, pid: int) -> bool:
    run = current_run(server, site)
    return run is not None and any(f":{pid}:" in worker.decode() for worker in server.hkeys(run.workers))


def wait_all(workers, logs) -> list[int]:
    codes = []
    for worker, log in zip(workers, logs, strict=True):
        try:
            codes.append(worker.wait(timeout=WORKER_TIMEOUT))
        except Exception:
            for other in workers:
                if other.poll() is None:
                    other.kill()
            pytest.fail(f"worker did not finish: {log.read_text()[-3000:]}")
    return codes


@pytest.fixture
def big_site():
    with DemoSite(article_count=ARTICLES, huge_bytes=3 * 1024 * 1024) as site:
        yield site


def test_three_workers_crawl_what_one_process_crawls(big_site, postgres_server_dsn, redis_url, key_prefix,
                                                     site_name, tmp_path):
    # One process, plain Scrapy, on an identical site (same articles and paths, another port).
    with DemoSite(article_count=ARTICLES, huge_bytes=3 * 1024 * 1024) as single_site, \
            fresh_schema(postgres_server_dsn) as single_dsn:
        single_config = tmp_path / "single.toml"
        single_config.write_text(single_site.site_config_toml(site_name), encoding="utf-8")
        single = run_crawl(single_dsn, f"site={single_config}", timeout=WORKER_TIMEOUT)
        assert single.returncode == 0, single.stderr[-3000:]
        expected = stored_articles(single_dsn, single_site.base_url)
    assert len(expected) == ARTICLES + 1

    config = tmp_path / f"{site_name}.toml"
    config.write_text(big_site.site_config_toml(site_name), encoding="utf-8")
    with fresh_schema(postgres_server_dsn) as dsn:
        logs = [tmp_path / f"worker{n}.log" for n in range(3)]
        # Paced (at most ~50 requests/s per worker: one worker alone needs > 10 s for the ~540 pages), so that
        # the work is shared however late the others start on a loaded machine: unpaced, the first worker can
        # fetch nearly everything while the other two are still starting.
        paced = {"NEWSCORPUS_REDIS_KEY_PREFIX": key_prefix, "DOWNLOAD_DELAY": "0.02",
                 "RANDOMIZE_DOWNLOAD_DELAY": "0"}
        workers = [start_worker(config, dsn, redis_url, log, paced) for log in logs]
        codes = wait_all(workers, logs)
        stored = stored_articles(dsn, big_site.base_url)
        with psycopg.connect(dsn) as connection:
            crawl_runs = connection.execute("SELECT count(*), count(finished_at) FROM crawl_runs").fetchone()
    stderr = [log.read_text() for log in logs]
    assert codes == [0, 0, 0], stderr[0][-3000:]
    assert stored == expected   # same URLs (paths), same titles; articles.url is unique: each stored once
    assert crawl_runs == (3, 3)
    fetched_twice = {path: n for path, n in big_site.requests.items() if n > 1 and path != "/robots.txt"}
    assert fetched_twice == {big_site.flaky_article.path: 2}  # 500 then retried
    assert 1 <= big_site.requests["/robots.txt"] <= 3   # at most once per worker that fetched anything
    assert sum("started run" in text for text in stderr) == 1
    assert sum("deriving the articles of" in text for text in stderr) == 1   # once per run, not per worker
    assert sum("'newscorpus/derivation/by_another_worker': 1" in text for text in stderr) == 2
    assert sum("joined run" in text for text in stderr) == 2
    responses = [int(text.split("'response_received_count': ")[1].split(",")[0])
                 if "'response_received_count': " in text else 0 for text in stderr]
    # The work is shared: on a loaded machine a late worker may find less left, but never one worker alone.
    assert sum(count > 50 for count in responses) >= 2, responses


def test_a_worker_killed_mid_crawl_loses_nothing_and_the_others_finish_its_requests(
        big_site, postgres_server_dsn, redis_url, redis_server, key_prefix, site_name, tmp_path):
    site = SiteKeys(site_name, key_prefix)
    config = tmp_path / f"{site_name}.toml"
    config.write_text(big_site.site_config_toml(site_name), encoding="utf-8")
    settings = {"NEWSCORPUS_REDIS_KEY_PREFIX": key_prefix}
    with fresh_schema(postgres_server_dsn) as dsn:
        logs = [tmp_path / f"worker{n}.log" for n in range(3)]
        workers = [start_worker(config, dsn, redis_url, log, settings) for log in logs]
        deadline = time.monotonic() + WORKER_TIMEOUT
        victim = workers[1]
        # Kill it once it is pulling from the run (its pid among the run's workers) and a third is stored.
        while stored_count(dsn) < ARTICLES // 3 or not has_joined(redis_server, site, victim.pid):
            assert time.monotonic() < deadline and all(w.poll() is None for w in workers), logs[1].read_text()[-3000:]
            time.sleep(0.05)
        victim.send_signal(signal.SIGKILL)
        codes = wait_all(workers, logs)
        assert codes[1] == -signal.SIGKILL and codes[0] == codes[2] == 0, logs[0].read_text()[-3000:]
        after = stored_articles(dsn, big_site.base_url)
        frontier = newscorpus("frontier", "--site", str(config), "--key-prefix", key_prefix,
                              env=worker_env(dsn, redis_url))
    survivors = logs[0].read_text() + logs[2].read_text()
    put_back = [int(word) for line in survivors.splitlines() if "put back" in line
                for word in line.split("put back ", 1)[1].split()[:1]]
    expected = {article.path: article.title for article in big_site.all_articles}
    assert after == expected   # with no re-seed: nothing missing, each article once
    assert len(put_back) == 1 and put_back[0] > 0, put_back   # the dead worker's ledger, put back once
    assert frontier.returncode == 0, frontier.stderr
    assert "(finished)" in frontier.stdout and "queued requests: 0" in frontier.stdout
    assert "in flight (popped, not yet stored): 0" in frontier.stdout
    # Only what the dead worker held is fetched again.
    fetched_twice = [path for path in expected if big_site.requests[path] > 1 and path != big_site.flaky_article.path]
    assert len(fetched_twice) <= put_back[0], fetched_twice
    print(f"put back: {put_back[0]}; articles fetched twice: {len(fetched_twice)}")
