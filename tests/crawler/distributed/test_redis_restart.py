"""Redis restarted during a distributed crawl (a private redis-server of the test's own, down ~5 s; it runs
without persistence, so the run's frontier is gone; the machine's Redis is never touched): the workers ride
out the outage (heartbeat errors counted), reconnect, finish cleanly, and the next seed + worker recovers
every article, each stored once (as after a killed worker)."""

from __future__ import annotations

import time

import psycopg

from newscorpus.demo.server import DemoSite
from tests.conftest import fresh_schema
from tests.crawler.distributed.workers import newscorpus, start_worker, worker_env
from tests.local_crawl import run_crawl
from tests.reliability.services import private_redis

ARTICLES = 200
OUTAGE_SECONDS = 5
SETTINGS = {"DOWNLOAD_DELAY": "0.05", "CONCURRENT_REQUESTS_PER_DOMAIN": "2"}


def stored(dsn: str) -> dict[str, int]:
    try:
        with psycopg.connect(dsn) as connection:
            return dict(connection.execute("SELECT url, count(*) FROM articles GROUP BY url").fetchall())
    except psycopg.errors.UndefinedTable:
        return {}


def test_workers_survive_a_redis_restart_and_the_next_seed_recovers_everything(
        postgres_server_dsn, site_name, tmp_path):
    key_prefix = "nctest"
    settings = {**SETTINGS, "NEWSCORPUS_REDIS_KEY_PREFIX": key_prefix}
    with DemoSite(article_count=ARTICLES, huge_bytes=3 * 1024 * 1024) as site, \
            fresh_schema(postgres_server_dsn) as dsn, private_redis(tmp_path / "redis") as redis_server:
        redis_url = redis_server.url
        config = tmp_path / f"{site_name}.toml"
        config.write_text(site.site_config_toml(site_name), encoding="utf-8")
        logs = [tmp_path / f"worker{n}.log" for n in range(2)]
        workers = [start_worker(config, dsn, redis_url, log, settings) for log in logs]
        try:
            deadline = time.monotonic() + 90
            while len(stored(dsn)) < 30:
                assert time.monotonic() < deadline and all(w.poll() is None for w in workers), \
                    logs[0].read_text()[-3000:]
                time.sleep(0.1)
            with redis_server.stopped():
                time.sleep(OUTAGE_SECONDS)
                alive_during = [w.poll() is None for w in workers]
            codes = [w.wait(timeout=180) for w in workers]
        finally:
            for worker in workers:
                if worker.poll() is None:
                    worker.kill()
        stderr = [log.read_text() for log in logs]
        assert alive_during == [True, True]
        assert codes == [0, 0], stderr[0][-3000:]
        assert any("heartbeat_errors" in text for text in stderr)
        assert all("Redis has no persistence" in text for text in stderr)   # said at each worker's start
        # Counted and warned about, never a traceback per engine tick (has_pending_requests raised before).
        assert not any("Traceback" in text for text in stderr), [t[t.find("Traceback"):][:1500] for t in stderr]
        before = stored(dsn)
        seeded = newscorpus("seed", "--site", str(config), "--key-prefix", key_prefix,
                            env=worker_env(dsn, redis_url))
        assert seeded.returncode == 0, seeded.stderr
        recovery = run_crawl(dsn, f"site={config}", timeout=180,
                             settings={**settings, "NEWSCORPUS_REDIS_IDLE_SECONDS": "2.5",
                                       "NEWSCORPUS_REDIS_HEARTBEAT_SECONDS": "0.5"},
                             env={"NEWSCORPUS_REDIS_URL": redis_url})
        assert recovery.returncode == 0, recovery.stderr[-3000:]
        after = stored(dsn)
    expected = {site.base_url + article.path for article in site.all_articles}
    assert set(after) == expected and set(after.values()) == {1}
    print(f"stored when the workers finished: {len(before)}; after the re-seed: {len(after)}")
