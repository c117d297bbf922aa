"""Real-site benchmark: serve a static mirror of a site on 127.0.0.1, crawl it with `scrapy crawl site` as a user
would (into a fresh Postgres schema), and score what was stored against the site's references, beside an
anchor tool (trafilatura) on the same raw bytes (the pages table).

    python -m benchmarks.real_site MIRROR_DIR --references REFS.jsonl --config SITE.toml [--github-pages]
        [--dsn DSN] [--name LABEL] [--keep-schema] [--score-schema SCHEMA] [--set NAME=VALUE] [--json OUT]

MIRROR_DIR: the site's files (a wget mirror, a built static site). SITE.toml: a site config whose URLs say
`{port}` where the port goes. REFS.jsonl: one page a line, `{"path": "/articles/1.html", "title", "author",
"date": "YYYY-MM-DD", "body"}` (null where the site does not state it), taken from what the site itself provides
(its source files, its markup, JSON-LD) or a hand-checked sample: say which beside the figures. Pages and
references of third-party sites stay outside the project: give their paths.

--github-pages: serve as GitHub Pages does (PATH.html for PATH; a folder named *.html serves its index.html),
as wget mirrors need. --rewrite-origin https://example.org: a production build's absolute URLs (sitemap, feed,
canonical links) point at the local server (files on disk untouched; the stored bytes are what was served).
The crawl runs at full speed (no AutoThrottle, no delay): the server is ours and local.
`--score-schema` scores a schema kept by an earlier run (`--keep-schema`) without crawling again.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import zlib
from collections import Counter
from dataclasses import asdict, is_dataclass
from datetime import date
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo
from psycopg.rows import dict_row

from newscorpus.demo.server import QuietServer
from newscorpus.evaluation.real_site_scoring import Stored, format_report, load_references, score_site, url_path
from newscorpus.store.connection import resolve_dsn
from newscorpus.store.sql import query

PROJECT_ROOT = Path(__file__).resolve().parents[1]
CRAWL_SETTINGS = {"AUTOTHROTTLE_ENABLED": "0", "DOWNLOAD_DELAY": "0", "CONCURRENT_REQUESTS_PER_DOMAIN": "8",
                  "NEWSCORPUS_RETRY_BACKOFF_SECONDS": "0.1", "LOG_LEVEL": "INFO", "ROBOTSTXT_OBEY": "0"}


class MirrorHandler(SimpleHTTPRequestHandler):
    github_pages = False
    rewrite_origins: tuple[str, ...] = ()
    base_url = ""
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".xml": "application/xml"}

    def log_message(self, format, *args) -> None:  # noqa: A002 - the base class's name
        pass

    def send_head(self):
        path = urlsplit(self.path).path
        local = self.translate_path(path)
        if self.github_pages:
            if os.path.isdir(local) and path.endswith(".html") and os.path.isfile(os.path.join(local, "index.html")):
                return self._send_file(os.path.join(local, "index.html"))
            if not os.path.exists(local) and not path.endswith("/") and os.path.isfile(local + ".html"):
                return self._send_file(local + ".html")
        if self.rewrite_origins and os.path.isdir(local) and path.endswith("/"):
            local = os.path.join(local, "index.html")
        if self.rewrite_origins and os.path.isfile(local):
            return self._send_file(local)
        return super().send_head()

    def _send_file(self, local: str):
        kind = self.guess_type(local)
        with open(local, "rb") as handle:
            data = handle.read()
        if kind.startswith(("text/", "application/xml", "application/rss", "application/atom", "application/json")):
            for origin in self.rewrite_origins:
                data = data.replace(origin.encode(), self.base_url.encode())
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return io.BytesIO(data)


def serve(directory: Path, github_pages: bool, rewrite_origins: tuple[str, ...] = ()) -> tuple[QuietServer, int]:
    handler_class = type("Handler", (MirrorHandler,), {"github_pages": github_pages,
                                                       "rewrite_origins": rewrite_origins})
    server = QuietServer(("127.0.0.1", 0), functools.partial(handler_class, directory=str(directory)))
    handler_class.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def crawl(target: str, dsn: str, overrides: dict[str, str], log_path: Path) -> tuple[int, float]:
    """`scrapy crawl site -a TARGET` (site=CONFIG, or url=START for an ad-hoc crawl) into `dsn`."""
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", target]
    for name, value in {**CRAWL_SETTINGS, **overrides}.items():
        command += ["-s", f"{name}={value}"]
    env = {**os.environ, "NEWSCORPUS_DB_DSN": dsn}
    started = time.perf_counter()
    with log_path.open("w") as log:
        result = subprocess.run(command, cwd=PROJECT_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    return result.returncode, time.perf_counter() - started


def read_stored(dsn: str) -> dict[str, Stored]:
    """What the crawl stored, per page path. Copies of a page under other URLs (?replytocom=...: one path) are one
    page: its row is the URL without a query when there is one; it is published when any copy is; it counts as
    linked to another article only when no copy is published and the link goes to another path."""
    stored: dict[str, Stored] = {}

    def plain_last(rows: list[dict]) -> list[dict]:  # the URL without a query is applied last: it wins
        return sorted(rows, key=lambda row: not urlsplit(row["url"]).query)

    with psycopg.connect(dsn) as connection:
        cursor = connection.cursor(row_factory=dict_row)
        for row in plain_last(cursor.execute(query("benchmarks.fetched_pages")).fetchall()):
            page = stored.setdefault(url_path(row["url"]), Stored())
            page.fetched, page.outcome = True, row["outcome"]
            page.raw = zlib.decompress(row["raw_body"]) if row["raw_body"] else None
        copies: dict[str, list[dict]] = {}
        for row in plain_last(cursor.execute(query("benchmarks.stored_articles")).fetchall()):
            copies.setdefault(url_path(row["url"]), []).append(row)
    for path, rows in copies.items():
        row = rows[-1]
        page = stored.setdefault(path, Stored(fetched=True, outcome="article"))
        page.title, page.author, page.published_at = row["title"], row["author"], row["published_at"]
        page.body, page.clean_body, page.method = row["body"], row["clean_body"], row["extraction_method"]
        page.copies = len(rows)
        published = [r["published"] for r in reversed(rows) if r["published"] is not None]
        page.published = published[0] if published else None
        if row["raw_body"]:
            page.raw = zlib.decompress(row["raw_body"])
        linked = [r for r in reversed(rows) if r["canonical_url"] and url_path(r["canonical_url"]) != path]
        if not published and linked:
            page.canonical_path = url_path(linked[0]["canonical_url"])
            page.duplicate_method, page.duplicate_score = linked[0]["duplicate_method"], linked[0]["duplicate_score"]
    return stored


def trafilatura_anchor():
    import trafilatura

    def run(raw: bytes, path: str) -> str:
        return trafilatura.extract(raw) or ""

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mirror", type=Path, help="the site's static files")
    parser.add_argument("--references", type=Path, required=True)
    parser.add_argument("--config", type=Path, required=True, help="site config; {port} is replaced")
    parser.add_argument("--url-crawl", metavar="PATH", help="crawl ad hoc from this path (`-a url=`, loopback "
                        "allowed, default settings otherwise) instead of with the config (still read for its name)")
    parser.add_argument("--github-pages", action="store_true")
    parser.add_argument("--rewrite-origin", action="append", default=[], metavar="ORIGIN",
                        help="serve text files with ORIGIN (https://example.org) replaced by the local server's")
    parser.add_argument("--dsn", help="server to crawl into (a fresh schema is made); default: as the crawl's")
    parser.add_argument("--name", help="label of the site in the report (default: the config's name)")
    parser.add_argument("--keep-schema", action="store_true", help="keep the crawl's schema (its name is printed)")
    parser.add_argument("--score-schema", help="score this kept schema; no crawl")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="extra Scrapy setting")
    parser.add_argument("--no-anchor", action="store_true", help="skip trafilatura")
    parser.add_argument("--json", type=Path, help="write the figures as JSON")
    args = parser.parse_args(argv)
    for path in (args.mirror, args.references, args.config):
        if not path.exists():
            print(f"real_site: {path} does not exist", file=sys.stderr)
            return 2
    try:
        overrides = dict(item.split("=", 1) for item in args.set)
    except ValueError:
        print("real_site: --set takes NAME=VALUE", file=sys.stderr)
        return 2
    references = load_references(args.references)
    server_dsn = resolve_dsn(args.dsn, None)
    schema = args.score_schema or f"realsite_{uuid.uuid4().hex[:10]}"
    dsn = make_conninfo(server_dsn, options=f"-csearch_path={schema}")
    crawl_seconds = None
    if not args.score_schema:
        server, port = serve(args.mirror, args.github_pages, tuple(args.rewrite_origin))
        with psycopg.connect(server_dsn, autocommit=True) as admin:
            admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        try:
            with tempfile.TemporaryDirectory() as tmp:
                config = Path(tmp) / args.config.name
                config.write_text(args.config.read_text("utf-8").replace("{port}", str(port)), "utf-8")
                log_path = Path(tempfile.gettempdir()) / f"{schema}.log"
                target = f"site={config}"
                if args.url_crawl:
                    target = f"url=http://127.0.0.1:{port}{args.url_crawl}"
                    overrides = {"NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES": "1", **overrides}
                code, crawl_seconds = crawl(target, dsn, overrides, log_path)
                print(f"crawl: exit {code} in {crawl_seconds:.0f} s; log {log_path}; schema {schema}", flush=True)
                if code != 0:
                    print(log_path.read_text(errors="replace")[-3000:], file=sys.stderr)
                    return 1
            stored = read_stored(dsn)
        finally:
            server.shutdown()
            if not args.keep_schema:
                with psycopg.connect(server_dsn, autocommit=True) as admin:
                    admin.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
    else:
        stored = read_stored(dsn)
    anchor = None if args.no_anchor else trafilatura_anchor()
    score = score_site(references, stored, anchor)
    name = args.name or re.sub(r"\W+", "-", args.config.stem)
    print(f"# {date.today()} on {platform.node()} ({platform.machine()}, {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.1f}); mirror {args.mirror}; references {args.references}")
    print(format_report(name, score, None if args.no_anchor else "trafilatura"))
    if args.json:
        figures = {key: asdict(value) if is_dataclass(value) else dict(value) if isinstance(value, Counter) else value
                   for key, value in vars(score).items() if not key.endswith(("examples", "misses"))}
        figures["crawl_seconds"] = crawl_seconds
        args.json.write_text(json.dumps(figures, default=str, ensure_ascii=False, indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
