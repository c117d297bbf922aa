"""WARC ingest: pages per CPU-second of `newscorpus ingest` (every stage, storage included) against an anchor in
one process on the same records: FastWARC iteration + trafilatura.extract; and peak RSS over a long file.

    python -m benchmarks.warc_ingest --articles 600 --rounds 3 [--dsn DSN] [--long 4] [--pages DIR...]
        [--set NAME=VALUE ...]

The WARC file is written by our own writer (NEWSCORPUS_WARC_OUTPUT) while a crawl of a local site runs: the demo
site, or with --pages the *.html files of those folders (real pages, e.g. ../shared/data/extraction/*) served on
127.0.0.1 under article URLs from one index page.
Pages: the file's 200 HTML response records. Ingest's CPU is its process tree's (user + system, start-up
included; Postgres's own CPU is not in it), each run into a throwaway schema; the anchor's is this process's
time.process_time() over reading the file and extracting each page. Rounds alternate anchor and ingest, the ratio
is taken per round, then its median. The long file is the crawl's file written --long times over (the same
records again: each copy is ingested like a re-crawl); its ingest's peak RSS beside the single file's says whether
memory stays flat as the file grows.
"""

from __future__ import annotations

import argparse
import http.server
import os
import platform
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from benchmarks.crawl_rate import SETTINGS, run_measured
from newscorpus.core.warc import WarcResponse, read_responses
from newscorpus.demo.server import DemoSite, QuietServer
from newscorpus.store.connection import resolve_dsn

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def html_pages(path: str) -> list[WarcResponse]:
    return [record for record in read_responses(path) if isinstance(record, WarcResponse)
            and record.status == 200 and "html" in (record.content_type or "")]


class PagesSite:
    """The HTML files of some folders, served on 127.0.0.1 as /2024/01/01/N.html from an index page at /."""

    def __init__(self, folders: list[str]):
        self.files = sorted(p for folder in folders for p in Path(folder).glob("*.html"))
        files = self.files
        index = "".join(f'<a href="/2024/01/01/{n}.html">page {n}</a>\n' for n in range(len(files))).encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the name http.server calls
                if self.path == "/":
                    body = b"<html><body>" + index + b"</body></html>"
                elif self.path.startswith("/2024/01/01/") and self.path.removeprefix("/2024/01/01/").removesuffix(
                        ".html").isdigit() and int(self.path.rsplit("/", 1)[1].split(".")[0]) < len(files):
                    body = files[int(self.path.rsplit("/", 1)[1].split(".")[0])].read_bytes()
                else:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = QuietServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def site_config_toml(self) -> str:
        return (f'name = "pages"\nstart_urls = ["{self.base_url}/"]\nallowed_domains = ["127.0.0.1"]\n'
                "article_patterns = ['/\\d{4}/\\d{2}/\\d{2}/']\nallow_private_addresses = true\nmax_depth = 1\n")

    def __enter__(self) -> PagesSite:
        self.server.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.stop()


def write_warc(site, server_dsn: str, directory: Path) -> str:
    config = directory / "site.toml"
    config.write_text(site.site_config_toml(), encoding="utf-8")
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"site={config}"]
    for name, value in {**SETTINGS, "LOG_LEVEL": "WARNING", "NEWSCORPUS_WARC_OUTPUT": str(directory / "warc"),
                        "NEWSCORPUS_PROGRESS_SECONDS": "0"}.items():
        command += ["-s", f"{name}={value}"]
    with throwaway_schema(server_dsn) as dsn:
        result, *_ = run_measured(command, {**os.environ, "NEWSCORPUS_DB_DSN": dsn})
    if result.returncode != 0:
        sys.exit(f"crawl: exit {result.returncode}\n{result.stderr[-3000:]}")
    [path] = sorted((directory / "warc").glob("*.warc.gz"))
    return str(path)


class throwaway_schema:  # noqa: N801 - used as a context manager, like a function
    def __init__(self, server_dsn: str):
        self.server_dsn = server_dsn
        self.schema = f"bench_{uuid.uuid4().hex[:10]}"

    def __enter__(self) -> str:
        with psycopg.connect(self.server_dsn, autocommit=True) as admin:
            admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(self.schema)))
        return make_conninfo(self.server_dsn, options=f"-csearch_path={self.schema}")

    def __exit__(self, *exc) -> None:
        with psycopg.connect(self.server_dsn, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(self.schema)))


def anchor(path: str) -> tuple[int, float]:
    """FastWARC + trafilatura.extract over the file's HTML pages: (pages, CPU seconds)."""
    import trafilatura

    started = time.process_time()
    pages = 0
    for record in html_pages(path):
        trafilatura.extract(record.body, url=record.url)
        pages += 1
    return pages, time.process_time() - started


def ingest(path: str, server_dsn: str, settings: tuple[str, ...] = ()) -> tuple[float, float, int]:
    """`newscorpus ingest` of the file into a throwaway schema: (wall seconds, CPU seconds, peak RSS)."""
    with throwaway_schema(server_dsn) as dsn:
        command = [sys.executable, "-m", "newscorpus.cli.main", "ingest", path, "--dsn", dsn,
                   "-s", "NEWSCORPUS_PROGRESS_SECONDS=0", *(f"-s{setting}" for setting in settings)]
        result, seconds, cpu, peak, _ = run_measured(command, dict(os.environ))
    if result.returncode != 0:
        sys.exit(f"ingest: exit {result.returncode}\n{result.stderr[-3000:]}")
    return seconds, cpu, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--articles", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--long", type=int, default=4, help="the long file holds the crawl's file this many times")
    parser.add_argument("--pages", nargs="+", metavar="DIR", help="serve these folders' *.html, not the demo site")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a setting of the ingest")
    parser.add_argument("--dsn", help="a Postgres server (default: $NEWSCORPUS_DB_DSN, else the embedded one)")
    args = parser.parse_args()
    server_dsn = resolve_dsn(args.dsn or os.environ.get("NEWSCORPUS_DB_DSN"), ".newscorpus/pg")
    local_site = PagesSite(args.pages) if args.pages else DemoSite(article_count=args.articles)
    with tempfile.TemporaryDirectory() as folder, local_site as site:
        directory = Path(folder)
        path = write_warc(site, server_dsn, directory)
        pages = len(html_pages(path))
        long_path = directory / "long.warc.gz"
        data = Path(path).read_bytes()
        long_path.write_bytes(data * args.long)   # gzip members concatenated: one valid WARC file
        print(f"{platform.node()} {os.cpu_count()} cores, Python {platform.python_version()}, load "
              f"{os.getloadavg()[0]:.1f}; {'real pages' if args.pages else 'demo site'}: "
              f"{Path(path).stat().st_size / 1e6:.1f} MB WARC, {pages} HTML pages")
        ratios, ingest_rates, anchor_rates, peaks = [], [], [], []
        for number in range(args.rounds):
            order = ("anchor", "ingest") if number % 2 == 0 else ("ingest", "anchor")
            for name in order:
                if name == "anchor":
                    done, cpu = anchor(path)
                    anchor_rates.append(done / cpu)
                else:
                    _, cpu, peak = ingest(path, server_dsn, tuple(args.set))
                    ingest_rates.append(pages / cpu)
                    peaks.append(peak)
            ratios.append(ingest_rates[-1] / anchor_rates[-1])
            print(f"round {number + 1}: ingest {ingest_rates[-1]:.1f} pages/CPU-s, anchor {anchor_rates[-1]:.1f} "
                  f"pages/CPU-s, ratio {ratios[-1]:.2f}x, ingest peak RSS {peaks[-1] / 2**20:.0f} MiB", flush=True)
        _, long_cpu, long_peak = ingest(str(long_path), server_dsn, tuple(args.set))
        single_peak = statistics.median(peaks)
        print(f"ingest / anchor (pages per CPU-second): median {statistics.median(ratios):.2f}x "
              f"(ingest {statistics.median(ingest_rates):.1f}, anchor {statistics.median(anchor_rates):.1f})")
        print(f"peak RSS: {pages} pages {single_peak / 2**20:.0f} MiB; {pages * args.long} pages "
              f"({args.long}x file) {long_peak / 2**20:.0f} MiB; ratio {long_peak / single_peak:.2f} "
              f"({pages * args.long / long_cpu:.1f} pages/CPU-s)")


if __name__ == "__main__":
    main()
