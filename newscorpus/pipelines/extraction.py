"""Extraction stage: decode the page and pick its article (newscorpus.core.extraction); pages without one
are dropped as NotAnArticle (and recorded with their outcome by newscorpus.crawler.extensions.crawl_database).

Extraction is CPU-bound. With NEWSCORPUS_EXTRACTION_WORKERS = 0 it runs in the reactor's thread (the
per-page time cap of the core bounds each call); with N > 0 it runs in a pool of N processes, so the
reactor keeps downloading and writing while pages are extracted on other cores.

With NEWSCORPUS_SITE_AWARE_ENABLED (the default) the site-aware cascade (newscorpus.core.site_aware: template ->
cluster difference -> generic) extracts instead, in the crawl process (its per-site state lives there), under
the same per-page time cap: a page over the element cap, or whose site-aware steps use up their share of the
cap, is finished by the generic method (method default_large_page / default_out_of_time). Its templates and
reference skeletons are loaded from Postgres when the spider opens and saved when it closes.

What the crawl extracts is provisional: it depends on the order pages arrive in. With
NEWSCORPUS_EXTRACTION_DERIVE_AT_CLOSE (the default) and storage on, the stage's close derives the site's articles
again from its stored pages (newscorpus.store.derivation: extraction in URL order, line noise, near-duplicates),
the code `newscorpus reextract` runs, so the same pages give the same corpus. Workers of a shared Redis run
derive once per run (newscorpus.crawler.distributed.worker.RunWorker.derives_the_run).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from scrapy.exceptions import NotConfigured

from newscorpus.core.extraction import Extraction, extract, in_languages
from newscorpus.core.extraction.config import ExtractionConfig
from newscorpus.core.site_aware.cascade import SiteAwareConfig, SiteAwareExtractor
from newscorpus.crawler.extensions.crawl_database import CrawlDatabase
from newscorpus.crawler.outcomes import NotAnArticle
from newscorpus.crawler.stage_settings import given, setting_name, stage_config, stage_enabled

logger = logging.getLogger(__name__)

# A pool worker that does not answer in this multiple of the per-page cap is presumed stuck.
POOL_TIMEOUT_FACTOR = 4
# Cascade events counted in stats: templates repaired, induced and dropped, pages over the element cap or out of time.
SITE_AWARE_EVENTS = ("repairs", "induced", "dropped", "large_page", "out_of_time")
WARM_UP_PAGE = "<html><body><p>新闻正文，用于预热。A warm-up page, one sentence long.</p></body></html>".encode()


def extract_page(raw_body: bytes, url: str, content_type: str | None, max_seconds: float) -> Extraction:
    return extract(raw_body, url, content_type=content_type, max_seconds=max_seconds)


def site_aware_enabled(settings) -> bool:
    """NEWSCORPUS_SITE_AWARE_ENABLED; when it is on only by default (newscorpus/crawler/settings.py) and a worker pool
    is asked for, the pool wins and site-aware extraction is off. Asking for both is an error (__init__)."""
    workers = stage_config(settings, "EXTRACTION").workers
    if not stage_enabled(settings, "SITE_AWARE"):
        return False
    if workers and not given(settings, setting_name("SITE_AWARE", "ENABLED")).explicit:
        logger.warning("site-aware extraction is off: NEWSCORPUS_EXTRACTION_WORKERS = %d extracts in worker "
                       "processes, and the site-aware state lives in the crawl process", workers)
        return False
    return True


class BotWallWatch:
    """Counts a site's bot walls among its extracted pages; says once when their share passes the threshold."""

    def __init__(self, share: float, after: int):
        self.share, self.after = share, after
        self.pages = self.walls = 0
        self.warned = False

    def seen(self, is_wall: bool) -> bool:
        """Count one page; True the one time the warning is due."""
        self.pages += 1
        self.walls += is_wall
        if self.warned or self.walls < self.after or self.walls < self.share * self.pages:
            return False
        self.warned = True
        return True


class ExtractionPipeline:
    def __init__(self, crawler, database: CrawlDatabase, config: ExtractionConfig,
                 site_aware: SiteAwareConfig | None = None):
        if site_aware is not None and config.workers:
            raise ValueError("NEWSCORPUS_SITE_AWARE_ENABLED needs NEWSCORPUS_EXTRACTION_WORKERS = 0 (the per-site "
                             "state lives in the crawl process); set NEWSCORPUS_SITE_AWARE_ENABLED=False to extract "
                             f"in {config.workers} worker processes")
        self.crawler = crawler
        self.database = database
        self.max_seconds = config.max_seconds
        self.workers = config.workers
        self.pool: ProcessPoolExecutor | None = None
        self.site_aware: SiteAwareExtractor | None = None
        self.site_aware_config = site_aware   # None: site-aware extraction is off
        self.template_store = None
        self.derive_at_close = config.derive_at_close and stage_enabled(crawler.settings, "STORAGE")
        self.bot_walls = BotWallWatch(config.bot_wall_warn_share, config.bot_wall_warn_after)
        self.language_codes = config.language_codes

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        if not stage_enabled(settings, "EXTRACTION"):
            raise NotConfigured("NEWSCORPUS_EXTRACTION_ENABLED is off")
        site_aware = stage_config(settings, "SITE_AWARE") if site_aware_enabled(settings) else None
        return cls(crawler, CrawlDatabase.of(crawler), stage_config(settings, "EXTRACTION"), site_aware)

    async def open_spider(self) -> None:
        if self.workers:
            self.pool = await self.start_pool()
        await self.database.open(self.crawler.spider.site_config.name)
        if self.site_aware_config is not None:
            await self.open_site_aware(self.crawler.spider.site_config)

    async def open_site_aware(self, site_config) -> None:
        """The cascade with the site config's hand-written templates and the stored state of its hosts."""
        from newscorpus.core.site_aware.templates import SiteTemplate
        from newscorpus.core.site_aware.url_similarity import site_of
        from newscorpus.store.site_aware import SiteTemplateStore

        templates = [SiteTemplate.from_dict(data) for data in site_config.templates]
        self.site_aware = SiteAwareExtractor(self.site_aware_config, templates=templates)
        self.template_store = SiteTemplateStore(self.database.dsn)
        for host in {site_of(f"http://{domain}/") for domain in site_config.domains}:
            try:
                await asyncio.to_thread(self.template_store.load, self.site_aware, host)
            except Exception:  # noqa: BLE001 - a failed read is logged and counted; the crawl goes on
                self.crawler.stats.inc_value("newscorpus/site_aware/load_failed")
                logger.exception("could not load site templates for %s", host)

    async def start_pool(self) -> ProcessPoolExecutor:
        """A pool whose workers have started and imported the extractor, so the first pages are not billed
        for process start-up (seconds on a loaded machine) against the per-page time cap."""
        pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(pool, extract_page, WARM_UP_PAGE, None, None, 5.0)
                               for _ in range(self.workers)))
        return pool

    async def close_spider(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        if self.site_aware is not None and self.template_store is not None:
            try:
                await asyncio.to_thread(self.template_store.save, self.site_aware)
            except Exception:  # noqa: BLE001 - templates are induced again next crawl; log and count
                self.crawler.stats.inc_value("newscorpus/site_aware/save_failed")
                logger.exception("could not save site templates")
        if self.derive_at_close and self.database.is_open:
            worker = self.run_worker()
            if worker is None or await worker.derives_the_run():
                try:
                    await self.derive()
                finally:
                    if worker is not None:
                        await worker.derivation_written()

    def run_worker(self):
        """The crawl's worker of a shared Redis run (newscorpus.crawler.distributed.worker), or None."""
        if not self.crawler.settings.get("NEWSCORPUS_REDIS_URL"):
            return None
        from newscorpus.crawler.distributed.worker import RunWorker

        return self.crawler.get_extension(RunWorker)

    def site_config_of(self, item):
        """The config of the item's site: the crawl's, or the one a spider that reads WARC files gave it."""
        spider = self.crawler.spider
        return getattr(spider, "sites", {}).get(item.site) or spider.site_config

    def languages(self, site_config=None) -> tuple[str, ...]:
        """The languages stored: the site config's, else NEWSCORPUS_EXTRACTION_LANGUAGES (empty: any)."""
        return (site_config or self.crawler.spider.site_config).languages or self.language_codes

    def derived_sites(self) -> list:
        """The site configs whose articles are derived at close: the crawl's site, or every site a spider that
        reads WARC files met (its ``sites``)."""
        spider = self.crawler.spider
        return list(getattr(spider, "sites", {}).values()) or [spider.site_config]

    def derivation_settings(self, site_config=None):
        from newscorpus.core.site_aware.templates import SiteTemplate
        from newscorpus.store.derivation import DerivationSettings

        settings = self.crawler.settings
        return DerivationSettings(
            # the cascade runs here even when a worker pool extracted the crawl: the corpus does not depend on it
            site_aware=stage_config(settings, "SITE_AWARE") if stage_enabled(settings, "SITE_AWARE") else None,
            templates=tuple(SiteTemplate.from_dict(data)
                            for data in (site_config or self.crawler.spider.site_config).templates),
            line_noise=stage_config(settings, "LINE_NOISE") if stage_enabled(settings, "LINE_NOISE") else None,
            near_duplicate=(stage_config(settings, "NEAR_DUPLICATE")
                            if stage_enabled(settings, "NEAR_DUPLICATE") else None),
            max_seconds=self.max_seconds, languages=self.languages(site_config))

    async def derive(self) -> None:
        """The site's articles derived from its stored pages, once this crawl's writes are in."""
        stats = self.crawler.stats
        if not await self.database.flush():
            logger.warning("the site's articles were not derived again: some pages were not saved; "
                           "`newscorpus reextract` does it once the database is back")
            stats.inc_value("newscorpus/derivation/skipped")
            return
        for config in self.derived_sites():
            await self.derive_site(config)

    async def derive_site(self, config) -> None:
        from newscorpus.store.derivation import derive_site

        stats = self.crawler.stats
        site = config.name
        logger.info("deriving the articles of %s from its stored pages", site)
        try:
            counts = await asyncio.to_thread(derive_site, self.database.dsn, site, self.derivation_settings(config))
        except Exception as error:  # noqa: BLE001 - the crawl's articles are stored; reextract can finish this
            logger.error("deriving the articles of %s failed: %s; `newscorpus reextract --site %s` does it",
                         site, error, site)
            stats.inc_value("newscorpus/derivation/failed")
            return
        for name in ("pages", "articles", "articles_written", "articles_removed", "cleaned_changed",
                     "empty_after_cleaning", "near_duplicates_rechecked", "changed"):
            stats.inc_value(f"newscorpus/derivation/{name}", counts[name])
        logger.info("derived %d article(s) of %s from %d stored page(s): %d changed", counts["articles"], site,
                    counts["pages"], counts["changed"])

    async def run_extraction(self, item) -> Extraction:
        arguments = (item.raw_body, item.final_url, item.content_type, self.max_seconds)
        if self.site_aware is not None:
            counts = self.site_aware.counts
            before = {name: getattr(counts, name) for name in SITE_AWARE_EVENTS}
            result = self.site_aware.extract(item.raw_body, item.final_url, item.content_type, self.max_seconds)
            for name, value in before.items():
                if (added := getattr(counts, name) - value) > 0:
                    self.crawler.stats.inc_value(f"newscorpus/site_aware/{name}", added)
            return result
        if self.pool is None:
            return extract_page(*arguments)
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(loop.run_in_executor(self.pool, extract_page, *arguments),
                                          timeout=self.max_seconds * POOL_TIMEOUT_FACTOR)
        except TimeoutError:
            self.crawler.stats.inc_value("newscorpus/extraction/pool_timeout")
            return Extraction.failure("timeout")
        except BrokenProcessPool:  # a worker died (e.g. out of memory): count it, restart the pool
            self.crawler.stats.inc_value("newscorpus/extraction/pool_broken")
            logger.error("an extraction worker died on %s; restarting the pool", item.url)
            self.pool = await self.start_pool()
            return Extraction.failure("no_body")

    async def process_item(self, item):
        stats = self.crawler.stats
        if item.outcome is None:
            result = in_languages(await self.run_extraction(item), self.languages(self.site_config_of(item)))
            item.apply_extraction(result)
            if result.reason == "other_language":
                stats.inc_value(f"newscorpus/extraction/other_language/{result.language or 'unknown'}")
            if self.bot_walls.seen(result.reason == "bot_wall"):
                logger.warning("%d of the %d pages of %s extracted so far are bot walls (challenge, captcha or access "
                               "denied pages): the site is blocking the crawl; slow down (DOWNLOAD_DELAY, "
                               "CONCURRENT_REQUESTS_PER_DOMAIN) or crawl it later", self.bot_walls.walls,
                               self.bot_walls.pages, self.crawler.spider.site_config.name)
            if result.is_article:
                stats.inc_value(f"newscorpus/extraction/method/{result.method}")
        if item.outcome != "article":
            raise NotAnArticle(item.outcome, item.url)
        return item
