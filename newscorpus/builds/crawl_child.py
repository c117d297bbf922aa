"""The build's crawl, run as a child process: the sites in one CrawlerProcess (one crawler per site), as many at
once as fit in NEWSCORPUS_STORAGE_MAX_CONNECTIONS, the others queued and started in config order as sites finish.

Each site's stages hold connections of their own for the site's whole crawl (SITE_CONNECTIONS), so the bound is
kept by how many sites run at once, and every store keeps its one held connection, its retries and its
transactions as in a crawl of one site. A site that stops for a database outage or a shutdown starts no more
sites; those not crawled are named in the log and make the exit code 1.

A build with ``--crawl-processes N`` runs N of them, each on its share of the sites and of the sites crawled at
once (:func:`crawl_shares`), so the crawl's CPU-bound stages use N cores and the connections stay within the bound.

``python -m newscorpus.builds.crawl_child`` with SPEC_JSON on its stdin (never on its command line: it holds the
DSN), SPEC = ``{"configs": [toml paths], "settings": {...}, "progress_seconds": 1.0, "sites_at_once": n}``
(``sites_at_once`` optional: by default all that fit in the bound). Writes one JSON line
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
from newscorpus.crawler.stage_settings import SettingError, setting_name, stage_config, stage_enabled

logger = logging.getLogger(__name__)

# Connections of the build itself, beside its crawl: the lock's and the one its row writes open
# (newscorpus.builds.runner, newscorpus.store.builds).
BUILD_CONNECTIONS = 2
# Finish reasons after which no queued site is started: the database is gone, or the crawl is being stopped.
STOPS_THE_QUEUE = ("database_unavailable", "shutdown")


def _writer(settings) -> int:
    return 1  # CrawlDatabase's CorpusWriter, the whole crawl


def _line_noise(settings) -> int:
    return int(stage_enabled(settings, "LINE_NOISE"))  # LineNoiseStore


def _stored_articles(settings) -> int:
    return int(settings.getfloat("NEWSCORPUS_REFETCH_AFTER_HOURS") > 0)  # the refetch middleware's lookups


def _near_duplicate(settings) -> int:
    if not stage_enabled(settings, "NEAR_DUPLICATE"):
        return 0
    return 1 + stage_config(settings, "NEAR_DUPLICATE").workers  # the recorder's thread, and its decision process


def _site_close(settings) -> int:
    """At the site's close the derivation holds two (its own and its page cursor's) while the stores above are
    still open; the site templates' load and save hold one, never at the same time as the derivation."""
    derives = stage_config(settings, "EXTRACTION").derive_at_close and stage_enabled(settings, "STORAGE")
    return 2 if derives else 1


# The connections one site's crawl holds at once at most, by holder (tests/builds/test_many_sites.py measures it).
SITE_CONNECTIONS = (
    ("writer", _writer),
    ("line_noise", _line_noise),
    ("stored_articles", _stored_articles),
    ("near_duplicate", _near_duplicate),
    ("site_close", _site_close),
)


def site_connections(settings) -> int:
    return sum(rule(settings) for _, rule in SITE_CONNECTIONS)


def sites_at_once(settings) -> int:
    """How many sites the build crawls at once within NEWSCORPUS_STORAGE_MAX_CONNECTIONS; SettingError when not
    even one fits."""
    bound = stage_config(settings, "STORAGE").max_connections
    per_site = site_connections(settings)
    if bound < BUILD_CONNECTIONS + per_site:
        raise SettingError(f"{setting_name('STORAGE', 'max_connections')} must be >= {BUILD_CONNECTIONS + per_site} "
                           f"for a build (its own {BUILD_CONNECTIONS} and {per_site} per site), not {bound}")
    return (bound - BUILD_CONNECTIONS) // per_site


def crawl_shares(configs: list[str], processes: int, at_once: int) -> list[tuple[list[str], int]]:
    """The sites dealt to ``processes`` crawl processes in config order, one each in turn, with each one's share of
    the ``at_once`` sites crawled at once: never more processes than sites, or than sites crawled at once."""
    processes = max(1, min(processes, len(configs), at_once))
    return [(configs[index::processes], at_once // processes + (index < at_once % processes))
            for index in range(processes)]


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
    waiting = [load_site_config(path) for path in spec["configs"]]
    at_once = spec.get("sites_at_once") or sites_at_once(process.settings)
    logger.info("crawling %d site(s), at most %d at once (%s)", len(waiting), at_once,
                setting_name("STORAGE", "max_connections"))
    crawlers = {}
    stopping = []

    def start_next() -> None:
        if stopping or not waiting:
            return
        config = waiting.pop(0)
        crawler = process.create_crawler(SiteSpider)
        crawlers[config.name] = crawler
        process.crawl(crawler, site_config=config).addBoth(site_done, crawler)

    def site_done(result, crawler):
        reason = crawler.stats.get_value("finish_reason") if crawler.stats else None
        if reason in STOPS_THE_QUEUE and waiting and not stopping:
            stopping.append(True)
            logger.error("a site's crawl stopped (%s): %d queued site(s) not crawled: %s", reason, len(waiting),
                         ", ".join(config.name for config in waiting))
        start_next()  # before join() looks again, so the process runs on while sites are queued
        return result

    for _ in range(min(at_once, len(waiting))):
        start_next()

    from twisted.internet import reactor, task

    parent = os.getppid()

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
    return 0 if all(reason == "finished" for reason in reasons) and not unsaved and not waiting else 1


if __name__ == "__main__":
    sys.exit(main(sys.stdin.read()))
