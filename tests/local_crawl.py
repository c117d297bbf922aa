"""Run `scrapy crawl site` in a subprocess, as a user would, with settings fit for the local demo site."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
FAST_LOCAL_SETTINGS = {
    "AUTOTHROTTLE_ENABLED": "0",
    "DOWNLOAD_DELAY": "0",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "8",
    "NEWSCORPUS_RETRY_BACKOFF_SECONDS": "0.1",
    "DOWNLOAD_MAXSIZE": str(2 * 1024 * 1024),  # the test demo site's huge page is 3 MB
    "LOG_LEVEL": "INFO",
}


def run_crawl(dsn: str | None, *spider_args: str, settings: dict | None = None, timeout: float = 180,
              env: dict | None = None, options: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """``options``: more arguments of `scrapy crawl` (``("-o", "out.jsonl")``)."""
    command = [sys.executable, "-m", "scrapy", "crawl", "site", *options]
    for argument in spider_args:
        command += ["-a", argument]
    for name, value in {**FAST_LOCAL_SETTINGS, **(settings or {})}.items():
        command += ["-s", f"{name}={value}"]
    environment = {**os.environ, **(env or {})}
    environment.pop("NEWSCORPUS_DB_DSN", None)
    if dsn is not None:
        environment["NEWSCORPUS_DB_DSN"] = dsn
    return subprocess.run(command, cwd=PROJECT_ROOT, env=environment, capture_output=True, text=True,
                          timeout=timeout)


def refused_setting(tmp_path: Path, settings: dict) -> str:
    """The crawl command's stderr for a crawl refused (exit 2) before fetching anything, given `settings`."""
    config = tmp_path / "nowhere.toml"
    config.write_text('name = "nowhere"\nstart_urls = ["http://127.0.0.1:9/"]\n', encoding="utf-8")
    result = run_crawl(None, f"site={config}", timeout=60, settings={**settings, "LOG_LEVEL": "WARNING"})
    assert result.returncode == 2, result.stderr[-2000:]
    return result.stderr
