"""A real Redis for the distributed tests ($NEWSCORPUS_TEST_REDIS_URL, default the local server), and a key
prefix of its own per test, whose keys are deleted afterwards (never FLUSHDB: others share the server)."""

from __future__ import annotations

import os
import uuid

import pytest
import redis

REDIS_URL_VARIABLE = "NEWSCORPUS_TEST_REDIS_URL"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture(scope="session")
def redis_url() -> str:
    """Skips (with the reason) when no Redis answers; in CI ($CI=true) that is a failure, not a skip."""
    url = os.environ.get(REDIS_URL_VARIABLE) or DEFAULT_REDIS_URL
    try:
        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except (redis.RedisError, ValueError) as error:
        message = f"no Redis at {url} (set ${REDIS_URL_VARIABLE}): {error}"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {message}: the distributed tests must use a real Redis")
        pytest.skip(message)
    return url


@pytest.fixture
def redis_server(redis_url) -> redis.Redis:
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture
def key_prefix(redis_server) -> str:
    prefix = f"nctest-{uuid.uuid4().hex[:10]}"
    yield prefix
    keys = list(redis_server.scan_iter(match=f"{prefix}:*", count=1000))
    if keys:
        redis_server.delete(*keys)


@pytest.fixture
def site_name() -> str:
    return f"site-{uuid.uuid4().hex[:8]}"
