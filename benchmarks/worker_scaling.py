"""Pages/s of a distributed crawl with 1, 2 and 4 `scrapy crawl site` workers sharing one Redis run.

    python -m benchmarks.worker_scaling --articles 480 --workers 1 2 4 --runs 2 \\
        --dsn postgresql://postgres@127.0.0.1:5432/test --redis-url redis://127.0.0.1:6379/0

Each run: a fresh demo site (~540 pages) on 127.0.0.1, a throwaway schema, a key prefix of its own (deleted
after). Politeness off, as in benchmarks/crawl_rate.py. The rate is responses / seconds from the workers'
start to the last moment a worker was busy (fetching, extracting or storing; the run's heartbeats, every
0.5 s): process start-up is in, the idle wait that ends every distributed crawl (NEWSCORPUS_REDIS_IDLE_SECONDS)
is out; the wall time with it is printed too. CPU seconds
per page of the workers (start-up included) and of the demo server give the per-core extrapolation, which
other load on the machine does not distort the way it distorts wall-clock rates.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg
import redis
from psycopg import sql
from psycopg.conninfo import make_conninfo

from newscorpus.crawler.distributed.keys import SiteKeys
from newscorpus.crawler.distributed.runs import current_run, run_state
from newscorpus.demo.server import DemoSite
from newscorpus.store.connection import resolve_dsn

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SETTINGS = {"AUTOTHROTTLE_ENABLED": "0", "DOWNLOAD_DELAY": "0", "CONCURRENT_REQUESTS_PER_DOMAIN": "16",
            "NEWSCORPUS_RETRY_BACKOFF_SECONDS": "0.1", "LOG_LEVEL": "INFO",
            "NEWSCORPUS_REDIS_IDLE_SECONDS": "3", "NEWSCORPUS_REDIS_HEARTBEAT_SECONDS": "0.5"}


def last_activity(redis_url: str, prefix: str) -> float:
    """When the last worker was last busy (fetching, extracting or storing), from the run's heartbeats."""
    client = redis.Redis.from_url(redis_url)
    run = current_run(client, SiteKeys("bench", prefix))
    return run_state(client, run).last_activity


def cpu_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def crawl(workers: int, articles: int, server_dsn: str, redis_url: str,
          overrides: dict) -> tuple[list[int], float, float, float, float]:
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server_dsn, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    dsn = make_conninfo(server_dsn, options=f"-csearch_path={schema}")
    try:
        with DemoSite(article_count=articles) as site, tempfile.TemporaryDirectory() as tmp:
            config = Path(tmp) / "bench.toml"
            config.write_text(site.site_config_toml("bench"), encoding="utf-8")
            command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"site={config}"]
            for name, value in {**SETTINGS, **overrides, "NEWSCORPUS_REDIS_KEY_PREFIX": prefix}.items():
                command += ["-s", f"{name}={value}"]
            env = {**os.environ, "NEWSCORPUS_DB_DSN": dsn, "NEWSCORPUS_REDIS_URL": redis_url}
            logs = [Path(tmp) / f"w{n}.log" for n in range(workers)]
            started, started_at = time.perf_counter(), time.time()
            workers_cpu, site_cpu = cpu_seconds(resource.RUSAGE_CHILDREN), cpu_seconds(resource.RUSAGE_SELF)
            processes = [subprocess.Popen(command, cwd=PROJECT_ROOT, env=env, stdout=subprocess.DEVNULL,
                                          stderr=log.open("wb")) for log in logs]
            codes = [process.wait() for process in processes]
            wall = time.perf_counter() - started
            workers_cpu = cpu_seconds(resource.RUSAGE_CHILDREN) - workers_cpu
            site_cpu = cpu_seconds(resource.RUSAGE_SELF) - site_cpu   # the demo server's threads
            texts = [log.read_text() for log in logs]
            if any(codes):
                sys.exit(texts[codes.index(next(c for c in codes if c))][-3000:])
            # Scrapy leaves a zero count out of its stats: a worker that fetched nothing (the others emptied the queue
            # before its engine asked again) has none.
            found = [re.search(r"'response_received_count': (\d+)", text) for text in texts]
            per_worker = [int(match.group(1)) if match else 0 for match in found]
            return per_worker, last_activity(redis_url, prefix) - started_at, wall, workers_cpu, site_cpu
    finally:
        with psycopg.connect(server_dsn, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
        client = redis.Redis.from_url(redis_url)
        keys = list(client.scan_iter(match=f"{prefix}:*"))
        if keys:
            client.delete(*keys)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--articles", type=int, default=480)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--dsn", help="server to store into (a throwaway schema is made); default: embedded")
    parser.add_argument("--redis-url", default=os.environ.get("NEWSCORPUS_REDIS_URL") or "redis://127.0.0.1:6379/0")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="extra Scrapy setting, e.g. --set NEWSCORPUS_LINE_NOISE_ENABLED=0")
    args = parser.parse_args()
    overrides = dict(item.split("=", 1) for item in args.set)
    server_dsn = resolve_dsn(args.dsn, None)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, {time.strftime('%Y-%m-%d')}; {args.articles} articles; "
          f"settings {overrides or 'default'}")
    for workers in args.workers:
        rates = []
        for run in range(args.runs):
            per_worker, seconds, wall, workers_cpu, site_cpu = crawl(workers, args.articles, server_dsn,
                                                                     args.redis_url, overrides)
            responses = sum(per_worker)
            rates.append(responses / seconds)
            split = f" ({' + '.join(map(str, per_worker))})" if workers > 1 else ""
            print(f"{workers} worker(s), run {run + 1}: {responses} responses{split} in {seconds:.2f}s "
                  f"= {responses / seconds:.1f} pages/s (wall with the idle wait: {wall:.1f}s); CPU per page: "
                  f"workers {1000 * workers_cpu / responses:.1f} ms, demo server {1000 * site_cpu / responses:.1f} ms",
                  flush=True)
        print(f"{workers} worker(s): median {statistics.median(rates):.1f} pages/s", flush=True)


if __name__ == "__main__":
    main()
