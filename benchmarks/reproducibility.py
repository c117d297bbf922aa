"""Reproducibility: the same site crawled in several ways must give the same published corpus, and maintenance
run twice must change nothing the second time.

    python -m benchmarks.reproducibility [--articles 300] [--dsn DSN] [--redis-url URL]
    python -m benchmarks.reproducibility --mirror DIR --config SITE.toml [--github-pages] [--rewrite-origin URL]

The demo site (default), or a static mirror served on 127.0.0.1 as benchmarks/real_site.py serves it, crawled
by `scrapy crawl site` into a fresh schema per run:
  c1       CONCURRENT_REQUESTS=1 (and 1 per domain)
  c16      CONCURRENT_REQUESTS=16
  resume   a JOBDIR crawl stopped after half the pages (CLOSESPIDER_PAGECOUNT), then resumed with the same JOBDIR
  workers  two scrapy-redis workers on one Redis run (skipped without --redis-url)
then, on the c16 schema: `clean`, `clean`, `reextract`, `reextract` (what each changed, and the digest after).
Reported: the published corpus's digest of each run (`newscorpus stats --digest`), the published bodies that end in
a line many of them end in (a widget or related-posts box left in), and the articles that differ between any two
runs (title, body, authors, date, language, duplicate link; an article missing from one differs).
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from contextlib import ExitStack, contextmanager
from datetime import date
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from benchmarks.real_site import serve
from newscorpus.builds.reextraction import clean, reextract
from newscorpus.core.line_noise import normalise_line
from newscorpus.demo.server import DemoSite
from newscorpus.store.connection import resolve_dsn
from newscorpus.store.corpus_reader import site_names
from newscorpus.store.derivation import corpus_digest, published_articles

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SETTINGS = {"AUTOTHROTTLE_ENABLED": "0", "DOWNLOAD_DELAY": "0", "NEWSCORPUS_RETRY_BACKOFF_SECONDS": "0.1",
            "LOG_LEVEL": "INFO", "ROBOTSTXT_OBEY": "0", "DOWNLOAD_MAXSIZE": str(4 * 1024 * 1024)}
COMPARED = ("title", "body", "authors", "published", "published_date", "utc_offset", "language", "duplicate_of")


@contextmanager
def schema_dsn(server_dsn: str, keep: bool):
    schema = f"repro_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server_dsn, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    try:
        yield make_conninfo(server_dsn, options=f"-csearch_path={schema}")
    finally:
        if keep:
            print(f"kept schema {schema}", file=sys.stderr)
        else:
            with psycopg.connect(server_dsn, autocommit=True) as admin:
                admin.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


def crawl(config: Path, dsn: str, overrides: dict, log: Path, env: dict | None = None,
          processes: int = 1) -> float:
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"site={config}"]
    for name, value in {**SETTINGS, **overrides}.items():
        command += ["-s", f"{name}={value}"]
    environment = {**os.environ, "NEWSCORPUS_DB_DSN": dsn, **(env or {})}
    started = time.perf_counter()
    logs = [log.with_suffix(f".{n}.log") for n in range(processes)]
    running = [subprocess.Popen(command, cwd=PROJECT_ROOT, env=environment, stdout=subprocess.DEVNULL,
                                stderr=path.open("wb")) for path in logs]
    codes = [process.wait() for process in running]
    if any(codes):
        text = logs[next(i for i, c in enumerate(codes) if c)].read_text(errors="replace")
        sys.exit(f"crawl exited {codes}: {text[-3000:]}")
    return time.perf_counter() - started


def corpus(dsn: str) -> dict[str, dict]:
    return {record["url"]: {name: record[name] for name in COMPARED} for record in published_articles(dsn)}


def repeated_endings(records: dict[str, dict], at_least: int = 3) -> tuple[int, list[str]]:
    """Published bodies whose last line (digits folded: "(16 人打了分" is "(419 人打了分") ends at least
    ``at_least`` published bodies: a site widget or related-posts box left at the end. The count, and the
    commonest such lines."""
    def key(line: str) -> str:
        return re.sub(r"\d+", "0", normalise_line(line))

    last = {url: key(record["body"].rstrip().rsplit("\n", 1)[-1]) for url, record in records.items()}
    counts = Counter(value for value in last.values() if value)
    repeated = {value for value, count in counts.items() if count >= at_least}
    return sum(value in repeated for value in last.values()), [value for value, _ in counts.most_common(3)
                                                               if value in repeated]


def differing(first: dict[str, dict], second: dict[str, dict]) -> tuple[int, dict]:
    """Articles that differ between two corpora, and how many differ in each field."""
    fields: dict[str, int] = {}
    count = 0
    for url in first.keys() | second.keys():
        a, b = first.get(url), second.get(url)
        if a == b:
            continue
        count += 1
        for name in COMPARED if a and b else ("missing",):
            if name == "missing" or a[name] != b[name]:
                fields[name] = fields.get(name, 0) + 1
    return count, fields


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--articles", type=int, default=300, help="demo site size")
    parser.add_argument("--mirror", type=Path, help="a static mirror to serve instead of the demo site")
    parser.add_argument("--config", type=Path, help="the mirror's site config; {port} is replaced")
    parser.add_argument("--github-pages", action="store_true")
    parser.add_argument("--rewrite-origin", action="append", default=[], metavar="ORIGIN")
    parser.add_argument("--dsn", help="Postgres server (a schema per run); default: as the crawl's")
    parser.add_argument("--redis-url", help="Redis for the two-worker run (skipped without it)")
    parser.add_argument("--keep-schemas", action="store_true")
    args = parser.parse_args(argv)
    if bool(args.mirror) != bool(args.config):
        print("reproducibility: --mirror and --config go together", file=sys.stderr)
        return 2
    for path in filter(None, (args.mirror, args.config)):
        if not path.exists():
            print(f"reproducibility: {path} does not exist", file=sys.stderr)
            return 2
    server_dsn = resolve_dsn(args.dsn, None)
    started = time.perf_counter()
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        config = tmp / "site.toml"
        if args.mirror:
            server, port = serve(args.mirror, args.github_pages, tuple(args.rewrite_origin))
            stack.callback(server.shutdown)
            config.write_text(args.config.read_text("utf-8").replace("{port}", str(port)), "utf-8")
            label = f"mirror {args.mirror}"
        else:
            site = stack.enter_context(DemoSite(article_count=args.articles, huge_bytes=3 * 1024 * 1024))
            config.write_text(site.site_config_toml("repro"), "utf-8")
            label = f"demo site, {args.articles} articles"
        runs: dict[str, str] = {}
        seconds: dict[str, float] = {}
        runs["c1"] = stack.enter_context(schema_dsn(server_dsn, args.keep_schemas))
        seconds["c1"] = crawl(config, runs["c1"], {"CONCURRENT_REQUESTS": "1", "CONCURRENT_REQUESTS_PER_DOMAIN": "1"},
                              tmp / "c1")
        runs["c16"] = stack.enter_context(schema_dsn(server_dsn, args.keep_schemas))
        seconds["c16"] = crawl(config, runs["c16"], {"CONCURRENT_REQUESTS": "16",
                                                     "CONCURRENT_REQUESTS_PER_DOMAIN": "16"}, tmp / "c16")
        with psycopg.connect(runs["c16"]) as connection:
            pages = connection.execute("SELECT count(*) FROM pages").fetchone()[0]
        runs["resume"] = stack.enter_context(schema_dsn(server_dsn, args.keep_schemas))
        jobdir = tmp / "jobdir"
        seconds["resume"] = crawl(config, runs["resume"], {"JOBDIR": str(jobdir), "CONCURRENT_REQUESTS": "8",
                                                           "CLOSESPIDER_PAGECOUNT": str(max(1, pages // 2))},
                                  tmp / "resume-first")
        seconds["resume"] += crawl(config, runs["resume"], {"JOBDIR": str(jobdir), "CONCURRENT_REQUESTS": "8"},
                                   tmp / "resume-second")
        if args.redis_url:
            runs["workers"] = stack.enter_context(schema_dsn(server_dsn, args.keep_schemas))
            prefix = f"repro-{uuid.uuid4().hex[:8]}"
            stack.callback(delete_keys, args.redis_url, prefix)
            seconds["workers"] = crawl(config, runs["workers"], {"NEWSCORPUS_REDIS_KEY_PREFIX": prefix},
                                       tmp / "workers", env={"NEWSCORPUS_REDIS_URL": args.redis_url}, processes=2)
        corpora = {name: corpus(dsn) for name, dsn in runs.items()}
        digests = {name: corpus_digest(dsn) for name, dsn in runs.items()}
        maintenance = []
        target = runs["c16"]
        site_name = site_names(target)[0]
        for step, function in (("clean", clean), ("clean", clean), ("reextract", reextract),
                               ("reextract", reextract)):
            counts = function(target, site_name)
            after = corpus(target)
            maintenance.append((step, counts["changed"], differing(corpora["c16"], after)[0],
                                corpus_digest(target)[0]))
    print(f"# {date.today()} on {platform.node()} ({platform.machine()}, {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.1f}); {label}; {time.perf_counter() - started:.0f} s")
    print("\n| run | crawl s | articles with a published body (duplicates too) | digest |\n|---|---|---|---|")
    for name in runs:
        digest, count = digests[name]
        print(f"| {name} | {seconds[name]:.1f} | {count} | `{digest[:16]}` |")
    endings = {name: repeated_endings(records) for name, records in corpora.items()}
    print("\n| run | published bodies ending in a line that ends >= 3 of them | commonest |\n|---|---|---|")
    for name, (count, lines) in endings.items():
        print(f"| {name} | {count} | {'; '.join(lines) or '-'} |")
    print("\n| runs compared | articles that differ | by field |\n|---|---|---|")
    for first, second in itertools.combinations(runs, 2):
        count, fields = differing(corpora[first], corpora[second])
        by_field = ", ".join(f"{name} {n}" for name, n in sorted(fields.items())) or "-"
        print(f"| {first} / {second} | {count} | {by_field} |")
    print("\n| maintenance on c16, in order | rows changed | articles differing from the crawl's | digest |\n"
          "|---|---|---|---|")
    for step, changed, differ, digest in maintenance:
        print(f"| {step} | {changed} | {differ} | `{digest[:16]}` |")
    same = len({digest for digest, _ in digests.values()} | {d for *_, d in maintenance}) == 1
    print(f"\nall digests equal: {'yes' if same else 'no'}")
    return 0


def delete_keys(redis_url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{prefix}:*"))
    if keys:
        client.delete(*keys)


if __name__ == "__main__":
    sys.exit(main())
