"""Shared fixtures: a real Postgres (the server in $NEWSCORPUS_TEST_DSN, else an embedded one), a throwaway
schema per test, and the demo news site served on 127.0.0.1."""

from __future__ import annotations

import os
import uuid
from contextlib import contextmanager

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from newscorpus.demo.server import DemoSite
from newscorpus.store.connection import embedded_dsn, release_embedded

# Embedded servers the tests start stop as soon as their last user exits (not after the interactive idle time),
# so that none outlives the run (checked by embedded_servers_stopped).
os.environ["NEWSCORPUS_DB_IDLE_SECONDS"] = "0"

TEST_DSN_VARIABLE = "NEWSCORPUS_TEST_DSN"
TEST_REDIS_VARIABLE = "NEWSCORPUS_TEST_REDIS_URL"
DEFAULT_TEST_REDIS_URL = "redis://127.0.0.1:6379/0"


def _postgres_start_time(dsn: str):
    try:
        with psycopg.connect(dsn, connect_timeout=3) as connection:
            return connection.execute("SELECT pg_postmaster_start_time()").fetchone()[0]
    except psycopg.Error:
        return None


@pytest.fixture(scope="session", autouse=True)
def machine_services_untouched():
    """The suite never stops, restarts or flushes a service it did not start: the Postgres of
    $NEWSCORPUS_TEST_DSN and the Redis of $NEWSCORPUS_TEST_REDIS_URL (default the local one) keep their start
    time, and a key set here survives the whole run. Fault tests start servers of their own
    (tests/reliability/services.py)."""
    import redis

    dsn = os.environ.get(TEST_DSN_VARIABLE)
    postgres_before = _postgres_start_time(dsn) if dsn else None
    client = redis.Redis.from_url(os.environ.get(TEST_REDIS_VARIABLE) or DEFAULT_TEST_REDIS_URL,
                                  socket_connect_timeout=2)
    sentinel = f"nctest-sentinel-{uuid.uuid4().hex[:10]}"
    try:
        redis_before = client.info("server")["run_id"]
        client.set(sentinel, "kept", ex=86400)
    except redis.RedisError:
        redis_before = None
    yield
    problems = []
    if postgres_before is not None and _postgres_start_time(dsn) != postgres_before:
        problems.append("the Postgres server of $NEWSCORPUS_TEST_DSN was restarted or stopped during the tests")
    if redis_before is not None:
        try:
            if client.info("server")["run_id"] != redis_before or client.get(sentinel) != b"kept":
                problems.append("the machine's Redis was restarted or flushed during the tests")
            client.delete(sentinel)
        except redis.RedisError:
            problems.append("the machine's Redis stopped answering during the tests")
    client.close()
    assert not problems, "; ".join(problems)


@pytest.fixture(scope="session", autouse=True)
def embedded_servers_stopped(tmp_path_factory):
    """No embedded Postgres started by the tests (in their temporary folders) is still running after the run;
    a user killed by a test stops holding its server within the watcher's interval."""
    import time

    from newscorpus.store.embedded_server import running_postmaster

    yield
    base = tmp_path_factory.getbasetemp()
    deadline = time.monotonic() + 60
    while running := [p.parent for p in base.rglob("postmaster.pid") if running_postmaster(p.parent)]:
        if time.monotonic() > deadline:
            pytest.fail(f"embedded Postgres servers still running after the tests: {running}")
        time.sleep(0.5)


@pytest.fixture(scope="session")
def postgres_server_dsn(tmp_path_factory, embedded_servers_stopped):
    """The server the tests use. In CI ($CI=true) $NEWSCORPUS_TEST_DSN must be set and reachable."""
    dsn = os.environ.get(TEST_DSN_VARIABLE)
    data_dir = None
    if not dsn:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but ${TEST_DSN_VARIABLE} is not set: the tests must use the real server")
        data_dir = tmp_path_factory.mktemp("embedded-pg") / "data"
        dsn = embedded_dsn(data_dir)
    with psycopg.connect(dsn, connect_timeout=10) as connection:
        connection.execute("SELECT 1")
    yield dsn
    if data_dir is not None:
        release_embedded(data_dir)


def _schema_dsn(server_dsn: str, schema: str) -> str:
    return make_conninfo(server_dsn, options=f"-csearch_path={schema}")


@contextmanager
def fresh_schema(server_dsn: str):
    """A DSN whose search_path is a new, empty schema, dropped on exit."""
    schema = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_dsn, autocommit=True) as connection:
        connection.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    try:
        yield _schema_dsn(server_dsn, schema)
    finally:
        with psycopg.connect(server_dsn, autocommit=True) as connection:
            connection.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture
def database_dsn(postgres_server_dsn):
    with fresh_schema(postgres_server_dsn) as dsn:
        yield dsn


@pytest.fixture(scope="module")
def crawled_demo(postgres_server_dsn, tmp_path_factory):
    """The demo site, crawled once per test module into a fresh schema: (site, dsn, config path, result)."""
    from tests.local_crawl import run_crawl

    with DemoSite(huge_bytes=3 * 1024 * 1024) as site, fresh_schema(postgres_server_dsn) as dsn:
        config = tmp_path_factory.mktemp("site-config") / "demo.toml"
        config.write_text(site.site_config_toml(), encoding="utf-8")
        result = run_crawl(dsn, f"site={config}")
        assert result.returncode == 0, result.stderr[-3000:]
        yield site, dsn, config, result


@pytest.fixture
def demo_site():
    with DemoSite(huge_bytes=3 * 1024 * 1024) as site:
        yield site
