"""The Redis client of a distributed crawl, built from settings in one function (and checked to answer).

redis and scrapy_redis are imported when a client is made: `scrapy crawl site` imports this module to check the
setting, and a crawl without Redis (most) does not load them (they would cost each crawl's start almost a tenth
of a second, python -X importtime)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured

from newscorpus.store.connection import redact

if TYPE_CHECKING:
    import redis


class RedisSettingError(ValueError):
    """NEWSCORPUS_REDIS_URL cannot be used; the message names the setting and hides any password."""


def redis_client(url: str) -> redis.Redis:
    """A client for ``url`` with scrapy-redis's connection defaults (timeouts, retry on timeout)."""
    from scrapy_redis import defaults
    from scrapy_redis.connection import get_redis

    try:
        return get_redis(url=url, **defaults.REDIS_PARAMS)
    except ValueError as error:
        raise RedisSettingError(f"NEWSCORPUS_REDIS_URL {redact(url)!r} is not a Redis URL: {error}") from None


def checked_redis_client(url: str) -> redis.Redis:
    """:func:`redis_client`, after a PING: an unreachable server is one clear error, not a later traceback."""
    import redis

    client = redis_client(url)
    try:
        client.ping()
    except redis.RedisError as error:
        raise RedisSettingError(f"NEWSCORPUS_REDIS_URL: cannot reach Redis at {redact(url)}: {error}") from None
    return client


def redis_from_settings(settings) -> redis.Redis:
    url = settings.get("NEWSCORPUS_REDIS_URL")
    if not url:
        raise NotConfigured("NEWSCORPUS_REDIS_URL is not set: plain Scrapy scheduler")
    return checked_redis_client(url)


def persistence_warning(server: redis.Redis) -> str | None:
    """A warning when Redis keeps the frontier only in memory (no AOF, no RDB snapshots), else None.

    A restart of such a server loses every run's queue and filter; CONFIG may be disabled (managed Redis), and
    then the answer is unknown: said so, not guessed."""
    import redis

    try:
        appendonly = server.config_get("appendonly").get("appendonly")
        save = server.config_get("save").get("save")
    except redis.RedisError as error:
        return (f"WARNING: cannot read Redis's persistence settings ({error}); if it runs without AOF or RDB, a "
                "restart loses the frontier (queued requests and the duplicate filter)")
    if appendonly == "yes" or save:
        return None
    return ("WARNING: Redis has no persistence (appendonly no, save \"\"): a restart of Redis loses every run's "
            "queued requests and duplicate filter; see docs/operations.md for a configuration that survives")
