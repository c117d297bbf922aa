"""The queue bound holds for a distributed crawl too: a page of 3,000 unique links, one worker on the Redis frontier
with a bound of 200: at most the bound waits in the run's queue as the worker counts it, the rest are counted as
not followed, and every link is fetched or counted."""

from __future__ import annotations

from tests.conftest import fresh_schema
from tests.reliability.crawling import crawl, last_run_counters, site_toml
from tests.reliability.hostile_server import HTML, HostileSite, listing_html

LINKS, MAX_QUEUED = 3_000, 200


def test_a_distributed_crawl_queues_at_most_the_bound(postgres_server_dsn, redis_url, key_prefix, tmp_path):
    links = [f"/2026/06/01/story-{n}.html" for n in range(LINKS)]
    with HostileSite() as site, fresh_schema(postgres_server_dsn) as dsn:
        site.routes["/"] = (200, {"Content-Type": HTML}, listing_html(links))
        config = site_toml(tmp_path / "wide.toml", "wide", start_urls=[f"{site.base_url}/"])
        result = crawl(dsn, config, tmp_path / "crawl.log", {
            "NEWSCORPUS_REDIS_URL": redis_url, "NEWSCORPUS_CRAWL_BOUNDS_MAX_QUEUED": str(MAX_QUEUED),
            "NEWSCORPUS_MAX_DEPTH": "1",
            "NEWSCORPUS_REDIS_KEY_PREFIX": key_prefix, "NEWSCORPUS_REDIS_IDLE_SECONDS": "2.5",
            "NEWSCORPUS_REDIS_HEARTBEAT_SECONDS": "0.5"}, timeout=300)
        counters = last_run_counters(dsn)
    fetched = sum(site.requests[link] for link in links)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "joined run" in result.stderr or "started run" in result.stderr     # on the Redis frontier
    assert 0 < counters["newscorpus/spider/queued_max"] <= MAX_QUEUED
    assert fetched < LINKS / 2 and fetched + counters["newscorpus/spider/frontier_cut"] == LINKS
