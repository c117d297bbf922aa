"""Run the `site` spider in this process (for `newscorpus demo` and builds), with the project's settings."""

from __future__ import annotations

import os

from crawler.site_config import SiteConfig


def project_settings(overrides: dict | None = None):
    os.environ.setdefault("SCRAPY_SETTINGS_MODULE", "crawler.settings")
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    settings.setdict(overrides or {}, priority="cmdline")
    return settings


def crawl_site(config: SiteConfig, overrides: dict | None = None) -> dict:
    """Crawl one site to the end; return the crawl's final stats. Scrapy's reactor runs once per process."""
    from scrapy.crawler import CrawlerProcess

    from crawler.spiders.site import SiteSpider

    process = CrawlerProcess(project_settings(overrides))
    crawler = process.create_crawler(SiteSpider)
    process.crawl(crawler, site_config=config)
    process.start()
    return crawler.stats.get_stats()
