"""Run the `site` spider (for `newscorpus demo` and builds) or the `warc` spider (`newscorpus ingest`) in this
process, with the project's settings."""

from __future__ import annotations

import os

from newscorpus.crawler.site_config import SiteConfig


def project_settings(overrides: dict | None = None):
    os.environ.setdefault("SCRAPY_SETTINGS_MODULE", "newscorpus.crawler.settings")
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    settings.setdict(overrides or {}, priority="cmdline")
    return settings


def run_spider(spider_class, overrides: dict | None = None, *, install_root_handler: bool = True,
               **spider_arguments) -> dict:
    """Run one spider to the end; return its final stats. Scrapy's reactor runs once per process.
    ``install_root_handler=False``: the caller has set up logging (a CLI command), so Scrapy adds no second
    handler and each line is printed once."""
    from scrapy.crawler import CrawlerProcess

    settings = project_settings(overrides)
    if "LOG_INSTALL_ROOT_HANDLER" in settings:  # Scrapy 2.19 reads it from the settings (the argument is deprecated)
        settings.set("LOG_INSTALL_ROOT_HANDLER", install_root_handler, priority="cmdline")
        process = CrawlerProcess(settings)
    else:
        process = CrawlerProcess(settings, install_root_handler=install_root_handler)
    crawler = process.create_crawler(spider_class)
    process.crawl(crawler, **spider_arguments)
    process.start()
    return crawler.stats.get_stats()


def crawl_site(config: SiteConfig, overrides: dict | None = None, *, install_root_handler: bool = True) -> dict:
    """Crawl one site to the end; return the crawl's final stats."""
    from newscorpus.crawler.spiders.site import SiteSpider

    return run_spider(SiteSpider, overrides, install_root_handler=install_root_handler, site_config=config)


def ingest_warc(paths: list[str], overrides: dict | None = None, *, site_configs: list[SiteConfig] | None = None,
                install_root_handler: bool = True, shared: str | None = None, redis_url: str | None = None) -> dict:
    """Send the response records of the WARC files ``paths`` through the crawl's stages; return the final stats.
    With ``shared``: the files of the Redis list of that name (``paths`` added to it), each claimed by one worker."""
    from newscorpus.crawler.spiders.warc import WarcSpider

    return run_spider(WarcSpider, overrides, install_root_handler=install_root_handler, paths=list(paths),
                      site_configs=list(site_configs or []), shared=shared, redis_url=redis_url)
