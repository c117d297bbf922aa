"""Progress while `scrapy crawl site` runs: a line of pages, articles and rate in the log; on a terminal (a
pseudo-terminal here), a bar redrawn in place instead."""

from __future__ import annotations

import re
import sys

from tests.conftest import fresh_schema
from tests.local_crawl import FAST_LOCAL_SETTINGS, run_crawl
from tests.terminal import run_on_terminal

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


def crawl_on_terminal(config, dsn: str) -> str:
    """`scrapy crawl site` on a pseudo-terminal: what it showed."""
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"site={config}"]
    for name, value in {**FAST_LOCAL_SETTINGS, **SLOW, "LOG_LEVEL": "INFO"}.items():
        command += ["-s", f"{name}={value}"]
    code, shown = run_on_terminal(command, env={"NEWSCORPUS_DB_DSN": dsn}, timeout=180)
    assert code == 0, shown[-3000:]
    return shown


def test_on_a_terminal_the_crawl_draws_a_bar_in_place_between_its_log_lines(demo_site, postgres_server_dsn, tmp_path):
    config = tmp_path / "demo.toml"
    config.write_text(demo_site.site_config_toml(), encoding="utf-8")
    with fresh_schema(postgres_server_dsn) as dsn:
        shown = crawl_on_terminal(config, dsn)
    bars = re.findall(r"\rdemo: +\d+%\|[^\r\n]*\| (\d+)/(\d+) \[[\d:]+, \d+ articles, [\d.]+ pages/s\]", shown)
    assert len(bars) >= 2, shown[-3000:]
    assert int(bars[-1][0]) > int(bars[0][0])                          # redrawn as pages arrive
    assert "progress:" not in shown                                    # no log line of it on a terminal
    assert "INFO: Spider closed (finished)" in shown                   # log lines still shown, whole
