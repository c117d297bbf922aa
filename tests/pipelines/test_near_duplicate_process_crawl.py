"""A real crawl of the demo site with the near-duplicate decision in a process of its own: the process
is killed mid-crawl; it is counted, replaced, and every article still gets its decision; when the crawl ends no
decision process is left running; the crawl process never loads jieba's dictionary (the child does)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import psutil
import psycopg

from newscorpus.demo.server import DemoSite
from tests.conftest import fresh_schema
from tests.local_crawl import FAST_LOCAL_SETTINGS, PROJECT_ROOT

SETTINGS = {**FAST_LOCAL_SETTINGS, "NEWSCORPUS_NEAR_DUPLICATE_WORKERS": "1",
            "NEWSCORPUS_NEAR_DUPLICATE_BATCH_SIZE": "4"}  # many batches: the kill lands mid-crawl


def decision_processes(crawl: psutil.Process) -> list[psutil.Process]:
    found = []
    for child in crawl.children():
        try:
            if "newscorpus.store.near_duplicate.process" in child.cmdline():
                found.append(child)
        except psutil.NoSuchProcess:
            pass
    return found


def maps_jieba(pid: int) -> bool:
    """Has the process mapped jieba's trie dictionary or marisa_trie (newscorpus.core.jieba_dictionary)?"""
    try:
        with open(f"/proc/{pid}/maps", encoding="utf-8", errors="replace") as maps:
            return any("jieba" in line or "marisa" in line for line in maps)
    except (FileNotFoundError, ProcessLookupError):
        return False


def decided(dsn: str) -> int:
    with psycopg.connect(dsn) as connection:
        return connection.execute("SELECT count(*) FROM near_duplicate_features").fetchone()[0]


def stat(log: str, name: str) -> int:
    found = re.search(rf"'newscorpus/near_duplicate/{name}': (\d+)", log)
    return int(found.group(1)) if found else 0


def test_a_decision_process_killed_mid_crawl_loses_no_article_and_none_is_left_running(postgres_server_dsn,
                                                                                      tmp_path):
    with DemoSite(article_count=80, huge_bytes=3 * 1024 * 1024) as site, \
            fresh_schema(postgres_server_dsn) as dsn:
        config = tmp_path / "demo.toml"
        config.write_text(site.site_config_toml(), encoding="utf-8")
        command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"site={config}"]
        for name, value in SETTINGS.items():
            command += ["-s", f"{name}={value}"]
        log_path = tmp_path / "crawl.log"
        DERIVING = "deriving the articles of"
        with open(log_path, "wb") as log_file:
            crawl = subprocess.Popen(command, cwd=PROJECT_ROOT, env={**os.environ, "NEWSCORPUS_DB_DSN": dsn},
                                     stdout=subprocess.DEVNULL, stderr=log_file)
            try:
                watched = psutil.Process(crawl.pid)
                seen: dict[int, psutil.Process] = {}
                killed = None
                jieba_in = {"crawl": False, "child": False}
                deadline = time.monotonic() + 120
                while crawl.poll() is None and time.monotonic() < deadline:
                    # the end-of-crawl derivation checks changed articles in the crawl process: watched until then
                    if DERIVING not in log_path.read_text(errors="replace"):
                        jieba_in["crawl"] |= maps_jieba(crawl.pid)
                    for process in decision_processes(watched):
                        seen.setdefault(process.pid, process)
                        jieba_in["child"] |= maps_jieba(process.pid)
                        if killed is None and decided(dsn) > 0:  # mid-crawl: a first batch is recorded
                            process.kill()
                            killed = process.pid
                    time.sleep(0.01)
                crawl.wait(120)
            finally:
                if crawl.poll() is None:
                    crawl.kill()
                    crawl.wait()
        log = log_path.read_text(errors="replace")
        assert crawl.returncode == 0, log[-3000:]
        assert killed is not None and len(seen) >= 2, (killed, seen)  # killed, then replaced
        assert stat(log, "worker_errors") == 1, log[-3000:]
        assert stat(log, "failed") == 0
        assert jieba_in == {"crawl": False, "child": True}  # the demo site's Chinese articles: in the child only
        with psycopg.connect(dsn) as connection:
            stored = {url for (url,) in connection.execute("SELECT url FROM articles")}
            with_features = {url for (url,) in connection.execute("SELECT url FROM near_duplicate_features")}
        statuses = sum(stat(log, name) for name in ("canonical", "unchanged", "skipped_short")) + \
            sum(int(n) for n in re.findall(r"'newscorpus/near_duplicate/duplicate/\w+': (\d+)", log))
        assert len(stored) >= 60 and statuses == len(stored)  # every article got its decision
        assert len(stored - with_features) == stat(log, "skipped_short")
        for process in seen.values():  # none left behind
            assert not process.is_running() or process.status() == psutil.STATUS_ZOMBIE, process
