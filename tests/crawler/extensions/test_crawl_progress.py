"""Progress while `scrapy crawl site` runs: a line of pages, articles and rate in the log."""

from __future__ import annotations

from tests.conftest import fresh_schema
from tests.local_crawl import run_crawl

# One request at a time, 50 ms apart: the demo crawl lasts well over many 0.1 s progress intervals.
SLOW = {"CONCURRENT_REQUESTS_PER_DOMAIN": "1", "DOWNLOAD_DELAY": "0.05", "NEWSCORPUS_PROGRESS_SECONDS": "0.1"}


def test_a_crawl_logs_progress_lines_of_pages_articles_and_rate(demo_site, postgres_server_dsn, tmp_path):
    config = tmp_path / "demo.toml"
    config.write_text(demo_site.site_config_toml(), encoding="utf-8")
    with fresh_schema(postgres_server_dsn) as dsn:
        result = run_crawl(dsn, f"site={config}", settings=SLOW)
    assert result.returncode == 0, result.stderr[-3000:]
    progress = [line for line in result.stderr.splitlines() if "progress:" in line]
    assert progress and all("pages of" in line and "articles" in line and "pages/s" in line for line in progress)
