"""Shared fixtures: a real Postgres (the server in $NEWSCORPUS_TEST_DSN, else an embedded one), a throwaway
schema per test, and the demo news site served on 127.0.0.1."""

from __future__ import annotations

import os
import uuid
from contextlib import contextmanager

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from crawler.demo.server import DemoSite
from pipelines.db.connection import embedded_dsn

TEST_DSN_VARIABLE = "NEWSCORPUS_TEST_DSN"


@pytest.fixture(scope="session")
def postgres_server_dsn(tmp_path_factory) -> str:
    """The server the tests use. In CI ($CI=true) $NEWSCORPUS_TEST_DSN must be set and reachable."""
    dsn = os.environ.get(TEST_DSN_VARIABLE)
    if not dsn:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but ${TEST_DSN_VARIABLE} is not set: the tests must use the real server")
        dsn = embedded_dsn(tmp_path_factory.mktemp("embedded-pg") / "data")
    with psycopg.connect(dsn, connect_timeout=10) as connection:
        connection.execute("SELECT 1")
    return dsn


def _schema_dsn(server_dsn: str, schema: str) -> str:
    return make_conninfo(server_dsn, options=f"-csearch_path={schema}")


@contextmanager
def fresh_schema(server_dsn: str):
    """A DSN whose search_path is a new, empty schema, dropped on exit."""
    schema = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_dsn, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield _schema_dsn(server_dsn, schema)
    finally:
        with psycopg.connect(server_dsn, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def database_dsn(postgres_server_dsn):
    with fresh_schema(postgres_server_dsn) as dsn:
        yield dsn


@pytest.fixture(scope="module")
def crawled_demo(postgres_server_dsn, tmp_path_factory):
    """The demo site, crawled once per test module into a fresh schema: (site, dsn, config path, result)."""
    from tests.crawl import run_crawl

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
