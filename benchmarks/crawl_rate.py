"""Crawl rate of the demo site: `scrapy crawl site` end to end (fetch, extract, store) into Postgres.

    python -m benchmarks.crawl_rate --articles 300 [--dsn DSN] [--runs 3]

Politeness is switched off (no AutoThrottle, no delay) because the server is ours and local: the figure
is the pipeline's own ceiling on one core, not a rate to use against a real site.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg
from psycopg.conninfo import make_conninfo

from crawler.demo.server import DemoSite
from pipelines.db.connection import resolve_dsn

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SETTINGS = {"AUTOTHROTTLE_ENABLED": "0", "DOWNLOAD_DELAY": "0", "CONCURRENT_REQUESTS_PER_DOMAIN": "16",
            "NEWSCORPUS_RETRY_BACKOFF_SECONDS": "0.1", "LOG_LEVEL": "INFO"}


def crawl_once(site: DemoSite, dsn: str, config_path: Path, overrides: dict) -> tuple[int, float]:
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"site={config_path}"]
    for name, value in {**SETTINGS, **overrides}.items():
        command += ["-s", f"{name}={value}"]
    env = {**os.environ, "NEWSCORPUS_DB_DSN": dsn}
    started = time.perf_counter()
    result = subprocess.run(command, cwd=PROJECT_ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(result.stderr[-3000:])
    responses = int(re.search(r"'response_received_count': (\d+)", result.stderr).group(1))
    return responses, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--articles", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dsn", help="server to store into (a throwaway schema is made); default: embedded")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="extra Scrapy setting, e.g. --set NEWSCORPUS_EXTRACTION_WORKERS=2")
    args = parser.parse_args()
    overrides = dict(item.split("=", 1) for item in args.set)
    server_dsn = resolve_dsn(args.dsn, None)
    rates = []
    with DemoSite(article_count=args.articles) as site, tempfile.TemporaryDirectory() as tmp:
        config_path = Path(tmp) / "demo.toml"
        config_path.write_text(site.site_config_toml(), encoding="utf-8")
        for run in range(args.runs):
            schema = f"bench_{uuid.uuid4().hex[:10]}"
            with psycopg.connect(server_dsn, autocommit=True) as admin:
                admin.execute(f'CREATE SCHEMA "{schema}"')
            try:
                site.requests.clear()
                responses, seconds = crawl_once(site, make_conninfo(server_dsn, options=f"-csearch_path={schema}"),
                                                config_path, overrides)
            finally:
                with psycopg.connect(server_dsn, autocommit=True) as admin:
                    admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
            rates.append(responses / seconds)
            print(f"run {run + 1}: {responses} responses in {seconds:.2f}s (process start included) "
                  f"= {responses / seconds:.1f} pages/s")
    print(f"median {statistics.median(rates):.1f} pages/s over {args.runs} runs; {args.articles} articles; "
          f"settings {overrides or 'default'}; "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")


if __name__ == "__main__":
    main()
