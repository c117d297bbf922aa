"""Run the `site` spider in this process (for `newscorpus demo` and builds), with the project's settings."""

from __future__ import annotations

import os

from newscorpus.crawler.site_config import SiteConfig


def project_settings(overrides: dict | None = None):
    os.environ.setdefault("SCRAPY_SETTINGS_MODULE", "newscorpus.crawler.settings")
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    settings.setdict(overrides or {}, priority="cmdline")
    return settings


def crawl_site(config: SiteConfig, overrides: dict | None = None, *, install_root_handler: bool = True) -> dict:
    """Crawl one site to the end; return the crawl's final stats. Scrapy's reactor runs once per process.
    ``install_root_handler=False``: the caller has set up logging (a CLI command), so Scrapy adds no second
    handler and each line is printed once."""
    from scrapy.crawler import CrawlerProcess

    from newscorpus.crawler.spiders.site import SiteSpider

    settings = project_settings(overrides)
    settings.setdict(config.crawl_settings(), priority="spider")   # below the caller's overrides
    if "LOG_INSTALL_ROOT_HANDLER" in settings:  # Scrapy 2.19 reads it from the settings (the argument is deprecated)
        settings.set("LOG_INSTALL_ROOT_HANDLER", install_root_handler, priority="cmdline")
        process = CrawlerProcess(settings)
    else:
        process = CrawlerProcess(settings, install_root_handler=install_root_handler)
    crawler = process.create_crawler(SiteSpider)
    process.crawl(crawler, site_config=config)
    process.start()
    return crawler.stats.get_stats()
