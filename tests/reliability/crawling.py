"""Start `scrapy crawl site` as a subprocess (as tests.local_crawl does) and keep its handle: tests stop services,
kill it, or read its own peak memory."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg

from tests.local_crawl import FAST_LOCAL_SETTINGS, PROJECT_ROOT


@dataclass
class Finished:
    returncode: int
    stderr: str
    peak_rss_mb: float


def site_toml(path: Path, name: str, *, start_urls=(), sitemap_urls=(), feed_urls=(), domains=("127.0.0.1",),
              allow_private: bool = True, extra: str = "") -> Path:
    def strings(values) -> str:
        return "[" + ", ".join(f'"{value}"' for value in values) + "]"

    path.write_text(
        f'name = "{name}"\nstart_urls = {strings(start_urls)}\nsitemap_urls = {strings(sitemap_urls)}\n'
        f"feed_urls = {strings(feed_urls)}\nallowed_domains = {strings(domains)}\n"
        "article_patterns = ['/\\d{4}/\\d{2}/\\d{2}/']\n"
        f"allow_private_addresses = {'true' if allow_private else 'false'}\n{extra}",
        encoding="utf-8")
    return path


def start_crawl(dsn: str, config: Path, log: Path, settings: dict | None = None,
                extra_args: tuple[str, ...] = ()) -> subprocess.Popen:
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"site={config}", *extra_args]
    for name, value in {**FAST_LOCAL_SETTINGS, **(settings or {})}.items():
        command += ["-s", f"{name}={value}"]
    environment = {**os.environ, "NEWSCORPUS_DB_DSN": dsn}
    environment.pop("NEWSCORPUS_REDIS_URL", None)
    with open(log, "wb") as out:
        return subprocess.Popen(command, cwd=PROJECT_ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=out)


def _high_water_mb(pid: int) -> float | None:
    """VmHWM of the process's own address space (after exec). ru_maxrss would also count the pytest
    process it was forked from, which is several hundred MB in a full run."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return None


def finish(process: subprocess.Popen, log: Path, timeout: float = 120) -> Finished:
    """Wait for the crawl (killed after ``timeout`` s); its exit code, stderr and peak RSS (VmHWM, read every
    50 ms until it exits)."""
    import signal

    peak = 0.0
    deadline = time.monotonic() + timeout
    while process.poll() is None:
        peak = max(peak, _high_water_mb(process.pid) or 0.0)
        if time.monotonic() > deadline:
            process.send_signal(signal.SIGKILL)
            process.wait()
            break
        time.sleep(0.05)
    return Finished(process.returncode, log.read_text(errors="replace"), peak)


def crawl(dsn: str, config: Path, log: Path, settings: dict | None = None, timeout: float = 120) -> Finished:
    return finish(start_crawl(dsn, config, log, settings), log, timeout)


def outcomes(dsn: str, base_url: str) -> dict[str, str]:
    with psycopg.connect(dsn) as connection:
        rows = connection.execute("SELECT url, outcome FROM pages").fetchall()
    return {url.removeprefix(base_url): outcome for url, outcome in rows}


def last_run_counters(dsn: str) -> dict:
    with psycopg.connect(dsn) as connection:
        row = connection.execute("SELECT counters FROM crawl_runs ORDER BY id DESC LIMIT 1").fetchone()
    return row[0] if row else {}


def stored_article_count(dsn: str) -> int:
    """Articles stored so far (0 before the crawl has made its tables); a short timeout, for polling."""
    try:
        with psycopg.connect(dsn, connect_timeout=2) as connection:
            return connection.execute("SELECT count(*) FROM articles").fetchone()[0]
    except psycopg.errors.UndefinedTable:
        return 0
