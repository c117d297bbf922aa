"""Start `scrapy crawl site` workers as subprocesses sharing a Redis run and a Postgres schema."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.local_crawl import FAST_LOCAL_SETTINGS, PROJECT_ROOT

# Short idle time and heartbeat, so each test's tail is short; storage batches of 10 make progress visible.
WORKER_SETTINGS = {
    **FAST_LOCAL_SETTINGS,
    "NEWSCORPUS_REDIS_IDLE_SECONDS": "2.5",
    "NEWSCORPUS_REDIS_HEARTBEAT_SECONDS": "0.5",
    "NEWSCORPUS_STORAGE_BATCH_SIZE": "10",
    "LOG_LEVEL": "INFO",
}


def worker_command(config: Path, settings: dict) -> list[str]:
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"site={config}"]
    for name, value in {**WORKER_SETTINGS, **settings}.items():
        command += ["-s", f"{name}={value}"]
    return command


def worker_env(dsn: str, redis_url: str) -> dict:
    return {**os.environ, "NEWSCORPUS_DB_DSN": dsn, "NEWSCORPUS_REDIS_URL": redis_url}


def start_worker(config: Path, dsn: str, redis_url: str, log: Path, settings: dict) -> subprocess.Popen:
    with open(log, "wb") as out:
        return subprocess.Popen(worker_command(config, settings), cwd=PROJECT_ROOT, env=worker_env(dsn, redis_url),
                                stdout=subprocess.DEVNULL, stderr=out)


def newscorpus(*args: str, env: dict) -> subprocess.CompletedProcess:
    command = [sys.executable, "-c", "import sys; from newscorpus.cli.main import main; sys.exit(main())", *args]
    return subprocess.run(command, cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=120)
