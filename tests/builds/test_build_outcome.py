"""A build whose crawl fetched nothing because the site (or the network) was down has built no corpus: it is
`failed` with exit code 1, as the README says (not `succeeded`, exit 0)."""

from __future__ import annotations

import json

import psycopg

from tests.cli.test_build_commands import build
from tests.conftest import fresh_schema
from tests.reliability.crawling import site_toml
from tests.reliability.services import free_port


def test_a_build_that_fetched_nothing_is_failed(postgres_server_dsn, tmp_path):
    down = f"http://127.0.0.1:{free_port()}"           # nothing listens there: every fetch is refused
    config = site_toml(tmp_path / "down.toml", "down", start_urls=[f"{down}/"])
    with fresh_schema(postgres_server_dsn) as dsn:
        result = build(dsn, config, tmp_path / "out", "--json")
        with psycopg.connect(dsn) as connection:
            status, error = connection.execute("SELECT status, error FROM builds").fetchone()
    assert result.returncode == 1, result.stderr[-3000:]
    report = json.loads(result.stdout)
    assert report["status"] == status == "failed"
    assert report["crawl"]["pages_fetched"] == 0 and report["errors"]["fetch_error"] >= 1
    assert error.startswith("the crawl fetched no page: ") and "fetch_error" in error
