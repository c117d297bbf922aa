"""The `warc` spider: the response records of WARC files, sent through the crawl's stages as fetched pages.

`scrapy crawl warc -a path=A.warc.gz,B.warc.gz` (or `newscorpus ingest PATH...`): no request is made; each
`response` or `revisit` record becomes a PageItem with the record's URL, WARC-Date as the fetch time, its HTTP
status and headers, and its file and offset as its origin. A page's site is the first site config whose domains
and ports hold the URL's host (-a site=NAME first, then NEWSCORPUS_SITES_DIRS and the packaged ones), else an
ad-hoc site per registered domain. What is no article gets a named outcome here, as the site spider gives one.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable
from datetime import UTC, datetime
from urllib.parse import urlsplit

import scrapy

from newscorpus.core.warc import WarcFault, WarcResponse, read_responses, warc_paths
from newscorpus.crawler import log_filters
from newscorpus.crawler.items import PageItem
from newscorpus.crawler.scope import host_in_domains, url_port
from newscorpus.crawler.site_config import (
    SiteConfig,
    adhoc_domain_config,
    all_site_configs,
    load_site_config,
)
from newscorpus.crawler.spiders.site import looks_like_html
from newscorpus.crawler.url_classes import LISTING, SKIP, classify_url

logger = logging.getLogger(__name__)


# --- what a record is, when it is no page to extract: an ordered table of small rules --------------------------
def _revisit(record: WarcResponse) -> tuple[str, str] | None:
    return ("warc_revisit", "revisit record: the payload is an earlier capture's") \
        if record.record_type == "revisit" else None


def _no_http(record: WarcResponse) -> tuple[str, str] | None:
    return ("not_http", "no HTTP status line") if record.status is None else None


def _redirect(record: WarcResponse) -> tuple[str, str] | None:
    return ("redirect", f"HTTP {record.status}") if 300 <= record.status < 400 else None


def _http_error(record: WarcResponse) -> tuple[str, str] | None:
    return ("http_error", f"HTTP {record.status}") if record.status >= 400 else None


def _not_ok(record: WarcResponse) -> tuple[str, str] | None:
    return ("http_status", f"HTTP {record.status}") if record.status != 200 else None


def _not_html(record: WarcResponse) -> tuple[str, str] | None:
    return ("not_html", record.content_type) if not looks_like_html(record.content_type, record.body) else None


RECORD_RULES: tuple[Callable[[WarcResponse], tuple[str, str] | None], ...] = (
    _revisit, _no_http, _redirect, _http_error, _not_ok, _not_html,
)


def record_outcome(record: WarcResponse) -> tuple[str, str] | None:
    """(outcome, detail) of the first rule that says the record is no page to extract; None: extract it."""
    for rule in RECORD_RULES:
        found = rule(record)
        if found is not None:
            return found
    return None


class WarcSpider(scrapy.Spider):
    name = "warc"

    def __init__(self, path: str | None = None, site: str | None = None, paths: list[str] | None = None,
                 site_configs: list[SiteConfig] | None = None, shared: str | None = None,
                 redis_url: str | None = None, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._arguments = (path, site, paths, site_configs)
        self.shared_name, self.redis_url = shared, redis_url
        self.shared = None    # newscorpus.crawler.distributed.warc_files.SharedWarcFiles, with shared=NAME
        self.sites: dict[str, SiteConfig] = {}       # the sites of the pages read, by name (each derived at close)
        self._site_of_host: dict[tuple[str, int | None], SiteConfig] = {}
        self._latest: dict[str, datetime] = {}       # URL -> the WARC-Date of its latest record sent on
        self._in_flight = 0
        self._room = asyncio.Event()
        self._started = time.monotonic()
        self.file_index = 0

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        log_filters.install(crawler)
        spider.configure(crawler.settings)
        for signal in (scrapy.signals.item_scraped, scrapy.signals.item_dropped, scrapy.signals.item_error):
            crawler.signals.connect(spider.item_done, signal=signal)
        return spider

    def configure(self, settings) -> None:
        """The files and the site configs; a bad path or config raises WarcPathError or SiteConfigError."""
        path, site, paths, configs = self._arguments
        named = list(paths or []) + [part for part in (path or "").split(",") if part]
        self.paths = warc_paths(named) if named or not self.shared_name else []
        if self.shared_name:
            from newscorpus.crawler.distributed.connection import checked_redis_client
            from newscorpus.crawler.distributed.warc_files import SharedWarcFiles

            server = checked_redis_client(self.redis_url or settings.get("NEWSCORPUS_REDIS_URL") or "")
            self.shared = SharedWarcFiles(server, self.shared_name, settings.get("NEWSCORPUS_REDIS_KEY_PREFIX"))
            self.shared.add([os.path.abspath(path) for path in self.paths])
        dirs = settings.getlist("NEWSCORPUS_SITES_DIRS")
        given = list(configs or []) + [load_site_config(name, dirs) for name in (site or "").split(",") if name]
        names = {config.name for config in given}
        self.configs = given + [config for config in all_site_configs(dirs) if config.name not in names]
        self.site_config = given[0] if given else self.first_site()
        self.sites[self.site_config.name] = self.site_config
        self.max_in_flight = max(1, settings.getint("NEWSCORPUS_WARC_IN_FLIGHT"))

    def first_site(self) -> SiteConfig:
        """The site of the first page read: the one the run is recorded under (crawl_runs)."""
        for path in self.paths or (self.shared.remaining() if self.shared else []):
            if not os.path.isfile(path):
                continue
            for record in read_responses(path):
                if isinstance(record, WarcResponse) and urlsplit(record.url).scheme in ("http", "https"):
                    return self.site_of(record.url)
        return SiteConfig(name="warc", start_urls=("http://warc.invalid/",), follow_links=False,
                          source="WARC files without a response record")

    def site_of(self, url: str) -> SiteConfig:
        host, port = (urlsplit(url).hostname or "").lower(), url_port(url)
        found = self._site_of_host.get((host, port))
        if found is None:
            found = next((config for config in self.configs
                          if host_in_domains(host, config.domains) and port in config.ports), None)
            found = found or adhoc_domain_config(url)
            self._site_of_host[(host, port)] = found
        return found

    def item_done(self, item, *args, **kwargs) -> None:
        self._in_flight -= 1
        if self._in_flight < self.max_in_flight or self._in_flight == 0:
            self._room.set()

    def progress_line(self) -> str:
        stats = self.crawler.stats
        records = stats.get_value("newscorpus/warc/records", 0)
        rate = records / max(time.monotonic() - self._started, 1e-9)
        of = f"of {len(self.paths)}" if self.shared is None else f"taken from the shared list {self.shared_name}"
        return (f"progress: file {self.file_index} {of}, {records} records, "
                f"{stats.get_value('newscorpus/outcome/article', 0)} articles, {rate:.1f} records/s")

    def files_to_read(self):
        """The files given, or with a shared list the files this worker claims from it, one at a time."""
        if self.shared is None:
            yield from self.paths
            return
        while (path := self.shared.claim()) is not None:
            if not os.path.isfile(path):   # listed by a worker on another machine: left for a worker that has it
                self.crawler.stats.inc_value("newscorpus/warc/files_missing")
                logger.error("a file of the shared list %s is not here: %s", self.shared_name, path)
                continue
            yield path

    async def start(self):
        stats = self.crawler.stats
        self._started = time.monotonic()
        renewed = time.monotonic()
        for index, path in enumerate(self.files_to_read(), 1):
            self.file_index = index
            stats.inc_value("newscorpus/warc/files")
            logger.info("reading %s (%d of %s)", path, index, len(self.paths) if self.shared is None else "shared")
            for record in read_responses(path):
                if self.shared is not None and time.monotonic() - renewed > self.shared.lease_seconds / 3:
                    self.shared.renew(path)
                    renewed = time.monotonic()
                if isinstance(record, WarcFault):
                    stats.inc_value("newscorpus/warc/corrupt_records")
                    logger.warning("unreadable WARC record in %s after offset %d: %s", record.file, record.offset,
                                   record.error)
                    continue
                item = self.page_item(record)
                if item is None:
                    continue
                # Items from start() are not held back by the engine: a bounded number in the stages at once
                # keeps memory flat over a file of any size.
                while self._in_flight >= self.max_in_flight:
                    self._room.clear()
                    await self._room.wait()
                self._in_flight += 1
                yield item
            if self.shared is not None:
                await self.file_stored(path)

    async def file_stored(self, path: str) -> None:
        """Mark a shared file done once every page read from it is in the database: a worker stopped before
        leaves it to the next one."""
        from newscorpus.crawler.extensions.crawl_database import CrawlDatabase

        while self._in_flight > 0:
            self._room.clear()
            await self._room.wait()
        if await CrawlDatabase.of(self.crawler).flush():
            self.shared.done(path)

    def page_item(self, record: WarcResponse) -> PageItem | None:
        """The record as a fetched page; None when it is counted only (not an HTTP URL, or an older capture of a
        URL whose later one was read already: the latest capture wins, as a crawl's latest fetch does)."""
        stats = self.crawler.stats
        stats.inc_value("newscorpus/warc/records")
        if record.truncated:
            stats.inc_value("newscorpus/warc/truncated")
        if urlsplit(record.url).scheme not in ("http", "https") or not urlsplit(record.url).hostname:
            stats.inc_value("newscorpus/outcome/not_http")
            return None
        latest = self._latest.get(record.url)
        if latest is not None and record.date is not None and record.date < latest:
            stats.inc_value("newscorpus/outcome/superseded")
            return None
        if record.date is not None:
            self._latest[record.url] = record.date
        config = self.site_of(record.url)
        self.sites.setdefault(config.name, config)
        kind = classify_url(record.url, config.patterns("article_patterns"), config.patterns("listing_patterns"),
                            config.patterns("skip_patterns"))
        item = PageItem(
            url=record.url, final_url=record.url, site=config.name, status=record.status,
            fetched_at=record.date or datetime.now(UTC), content_type=record.content_type, raw_body=record.body,
            url_kind=kind, warc_file=os.path.abspath(record.file), warc_offset=record.offset,
        )
        found = record_outcome(record)
        if found is not None:
            item.outcome, item.outcome_detail = found
        elif kind == SKIP:   # a URL the site's crawl would not fetch (comments, feeds, ...)
            item.outcome, item.outcome_detail = "skipped_url", "matches the site's skip_patterns"
        elif kind == LISTING:
            item.outcome = "listing"
        if record.truncated and item.outcome_detail is None:
            item.outcome_detail = f"WARC-Truncated: {record.truncated}"
        return item

    def closed(self, reason: str) -> None:
        stats = self.crawler.stats
        logger.info("read %d WARC file(s): %d records, %d unreadable, %d truncated", stats.get_value(
            "newscorpus/warc/files", 0), stats.get_value("newscorpus/warc/records", 0),
            stats.get_value("newscorpus/warc/corrupt_records", 0), stats.get_value("newscorpus/warc/truncated", 0))
