"""The build's crawl, run as a child process: every site at once in one CrawlerProcess (one crawler per site).

``python -m newscorpus.builds.crawl_child`` with SPEC_JSON on its stdin (never on its command line: it holds the
DSN), SPEC = ``{"configs": [toml paths], "settings": {...}, "progress_seconds": 1.0}``. Writes one JSON line
per ``progress_seconds`` to stdout (``{"event": "progress", "sites": {name: counters}}``) and a last one with
``"event": "finished"``; Scrapy's log goes to stderr. Exit code 0 when every site's crawl finished normally
and saved every page it fetched, 1 otherwise. When its parent (the build) dies, it
stops its crawlers cleanly, so what was fetched is written and the crawl runs are closed.
"""

from __future__ import annotations

import json
import logging
import os
import sys

from newscorpus.crawler.runner import project_settings
from newscorpus.crawler.site_config import load_site_config

logger = logging.getLogger(__name__)

PROGRESS_STATS = {  # progress line key -> Scrapy stat
    "pages": "response_received_count",
    "items": "item_scraped_count",
    "dropped": "item_dropped_count",
    "fetch_errors": "newscorpus/outcome/fetch_error",
    "http_errors": "newscorpus/outcome/http_error",
}


def _site_counters(crawler) -> dict:
    from newscorpus.crawler.extensions.crawl_database import CrawlDatabase

    stats = crawler.stats.get_stats() if crawler.stats else {}
    counters = {key: stats.get(stat, 0) for key, stat in PROGRESS_STATS.items()}
    database = crawler.get_extension(CrawlDatabase) if getattr(crawler, "extensions", None) else None
    if database is not None:
        counters["crawl_run_id"] = database.crawl_run_id
        live = database.writer.counters if database.writer is not None else {}
        for name in ("articles_new", "articles_updated", "articles_unchanged"):
            counters[name] = stats.get(f"newscorpus/storage/{name}", live.get(name, 0))
    counters["finish_reason"] = stats.get("finish_reason")
    return counters


def _emit(event: str, crawlers: dict) -> None:
    line = {"event": event, "sites": {name: _site_counters(crawler) for name, crawler in crawlers.items()}}
    try:
        sys.stdout.write(json.dumps(line, default=str) + "\n")
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):  # the build is gone (its end of the pipe closed): nobody to tell
        pass


def main(spec_json: str) -> int:
    spec = json.loads(spec_json)
    from scrapy.crawler import CrawlerProcess

    from newscorpus.crawler.spiders.site import SiteSpider

    process = CrawlerProcess(project_settings(spec.get("settings") or {}))
    crawlers = {}
    for path in spec["configs"]:
        config = load_site_config(path)
        crawler = process.create_crawler(SiteSpider)
        crawler.settings.setdict(config.crawl_settings(), priority="spider")   # the site's own politeness
        process.crawl(crawler, site_config=config)
        crawlers[config.name] = crawler

    from twisted.internet import reactor, task

    parent = os.getppid()
    stopping = []

    def tick() -> None:
        if os.getppid() != parent:
            if not stopping:
                logger.warning("the build (pid %d) is gone: stopping the crawl", parent)
                stopping.append(True)
                process.stop()
            return
        _emit("progress", crawlers)

    loop = task.LoopingCall(tick)
    reactor.callWhenRunning(loop.start, float(spec.get("progress_seconds", 1.0)), now=False)
    process.start()
    _emit("finished", crawlers)
    reasons = [crawler.stats.get_value("finish_reason") for crawler in crawlers.values()]
    unsaved = sum(crawler.stats.get_value("newscorpus/storage/pages_unsaved", 0) for crawler in crawlers.values())
    return 0 if all(reason == "finished" for reason in reasons) and not unsaved else 1


if __name__ == "__main__":
    sys.exit(main(sys.stdin.read()))
