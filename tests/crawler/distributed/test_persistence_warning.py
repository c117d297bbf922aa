"""Redis without persistence loses the frontier on a restart: `newscorpus frontier` and a worker's start say so
(a private redis-server of the test's own, started without AOF or RDB, then switched to AOF)."""

from __future__ import annotations

import os

import redis

from newscorpus.crawler.distributed.connection import persistence_warning, redis_client
from tests.crawler.distributed.workers import newscorpus
from tests.reliability.services import private_redis


def frontier_output(url: str, key_prefix: str) -> str:
    done = newscorpus("frontier", "--site", "demo", "--key-prefix", key_prefix,
                      env={**os.environ, "NEWSCORPUS_REDIS_URL": url})
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_frontier_warns_while_redis_has_no_persistence_and_not_with_aof(tmp_path):
    with private_redis(tmp_path / "redis") as server:
        client = redis.Redis.from_url(server.url)
        assert "WARNING: Redis has no persistence" in frontier_output(server.url, "nctest")
        client.config_set("appendonly", "yes")
        assert "WARNING" not in frontier_output(server.url, "nctest")
        assert persistence_warning(redis_client(server.url)) is None
        client.close()


def test_an_unreadable_config_is_a_warning_not_an_error():
    unreachable = redis_client("redis://127.0.0.1:1/0")
    assert persistence_warning(unreachable).startswith("WARNING: cannot read Redis's persistence settings")
