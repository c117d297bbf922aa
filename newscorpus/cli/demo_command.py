"""`newscorpus demo`: serve the bundled demo news site on 127.0.0.1, crawl it into the database, show it."""

from __future__ import annotations

import sys
import time

from newscorpus.cli.arguments import port, positive_int
from newscorpus.cli.database_options import add_database_options, open_database
from newscorpus.cli.main import CommandError

DEMO_PORT = 8765
# The demo site is ours and local: no politeness delays needed.
DEMO_CRAWL_SETTINGS = {
    "AUTOTHROTTLE_ENABLED": False,
    "DOWNLOAD_DELAY": 0,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "NEWSCORPUS_RETRY_BACKOFF_SECONDS": 0.2,
    "LOG_LEVEL": "WARNING",
    "NEWSCORPUS_CRAWL_SUMMARY": False,   # the demo prints its own
    "NEWSCORPUS_PROGRESS_SECONDS": 0,
}


DEMO_OUTCOMES_NOTE = (
    "  (the demo site holds, on purpose, what real sites have: a 12 MB page over DOWNLOAD_MAXSIZE (too_large: "
    "recorded, not stored),\n   a binary download (not_html), an empty page, a 404 (http_error), a redirect, listing "
    "pages, and a page that fails once (retried) and reprints another article (stored, left out of the corpus as a "
    "near-duplicate))")


def register(subparsers) -> None:
    parser = subparsers.add_parser("demo", help="crawl the bundled demo site (offline) and list what was stored")
    parser.add_argument("--articles", type=positive_int, default=30,
                        help="how many articles the demo site has (default 30)")
    parser.add_argument("--port", type=port, default=DEMO_PORT,
                        help=f"port to serve on (default {DEMO_PORT}: the same URLs on every run; 0 = any free port)")
    parser.add_argument("--serve", action="store_true", help="only serve the site until Ctrl-C")
    add_database_options(parser)
    parser.set_defaults(func=run_demo)


def crawl_command(base_url: str, port: int) -> str:
    """The command that crawls the served demo site: the packaged config on the default port (it allows the
    loopback address), else an ad-hoc crawl with private addresses allowed (the scope refuses them otherwise)."""
    if port == DEMO_PORT:
        return "scrapy crawl site -a site=demo"
    return f"scrapy crawl site -a url={base_url}/ -s NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES=True"


def run_demo(args) -> int:
    from newscorpus.crawler.runner import crawl_site
    from newscorpus.demo.server import DemoSite
    from newscorpus.store.corpus_reader import list_articles

    try:
        site = DemoSite(article_count=args.articles, port=args.port).start()
    except OSError as error:
        raise CommandError(f"cannot serve the demo site on port {args.port}: {error}; try --port 0") from None
    try:
        if args.serve:
            port = int(site.base_url.rsplit(":", 1)[1])
            print(f"demo site at {site.base_url}/ - crawl it, from the project folder (where scrapy.cfg is), with:\n"
                  f"  {crawl_command(site.base_url, port)}\nCtrl-C to stop", flush=True)
            while True:
                time.sleep(3600)
        dsn = open_database(args, create=True)
        started = time.perf_counter()
        stats = crawl_site(site.site_config(), {**DEMO_CRAWL_SETTINGS, "NEWSCORPUS_DB_DSN": dsn},
                           install_root_handler=False)
        seconds = time.perf_counter() - started
    finally:
        site.stop()
    responses = stats.get("response_received_count", 0)
    print(f"crawled {site.base_url}: {responses} responses in {seconds:.1f}s "
          f"({responses / seconds:.1f} pages/s); outcomes: "
          + ", ".join(f"{k.rsplit('/', 1)[1]}={v}" for k, v in sorted(stats.items())
                      if k.startswith("newscorpus/outcome/")))
    print(DEMO_OUTCOMES_NOTE)
    print(f"articles new: {stats.get('newscorpus/storage/articles_new', 0)}, "
          f"unchanged: {stats.get('newscorpus/storage/articles_unchanged', 0)}, "
          f"updated: {stats.get('newscorpus/storage/articles_updated', 0)}"
          + (f"; not fetched again (stored and seen within NEWSCORPUS_REFETCH_AFTER_HOURS): {skipped}"
             if (skipped := stats.get("newscorpus/skipped/already_stored", 0)) else ""))
    rows = list_articles(dsn, "demo", None, 10)
    print("latest stored articles (newscorpus articles --site demo lists them all):")
    for row in rows:
        print(f"  {row['title']}")
    reason = stats.get("finish_reason")
    if reason == "shutdown":
        print(f"crawl stopped before the end ({reason}: Ctrl-C?); run `newscorpus demo` again to continue: "
              "stored articles are not fetched again", file=sys.stderr)
        return 1
    if reason != "finished":
        print(f"crawl ended with {reason}", file=sys.stderr)
        return 1
    return 0
