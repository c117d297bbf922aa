"""The few lines a person reads at the end of a crawl, after Scrapy's stats dump: articles new, updated and
near-duplicate, pages without an article by outcome, and the site's name (the one `--site` takes)."""

from __future__ import annotations

import sys

from scrapy import signals
from scrapy.exceptions import NotConfigured

NOT_ARTICLES = "newscorpus/outcome/"
DUPLICATES = "newscorpus/near_duplicate/duplicate/"


def summary_lines(site: str, stats: dict) -> list[str]:
    """The summary of a crawl of ``site`` from its stats (the names the stages count)."""
    duplicates = sum(value for name, value in stats.items() if name.startswith(DUPLICATES))
    outcomes = sorted((name.removeprefix(NOT_ARTICLES), value) for name, value in stats.items()
                      if name.startswith(NOT_ARTICLES) and name != NOT_ARTICLES + "article")
    lines = [f"crawl of site {site}: {stats.get('finish_reason', 'unknown')}",
             f"  {stats.get('newscorpus/storage/articles_new', 0)} new articles, "
             f"{stats.get('newscorpus/storage/articles_updated', 0)} updated, {duplicates} near-duplicates "
             f"(of {stats.get('response_received_count', 0)} pages fetched)"]
    if outcomes:
        lines.append("  no article: " + ", ".join(f"{value} {name}" for name, value in outcomes))
    if stats.get("newscorpus/storage/pages_unsaved"):
        lines.append(f"  {stats['newscorpus/storage/pages_unsaved']} pages not saved (the database was away)")
    return lines


class CrawlSummary:
    def __init__(self, crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("NEWSCORPUS_CRAWL_SUMMARY"):
            raise NotConfigured  # no message: Scrapy logs a disabled extension with one at WARNING
        extension = cls(crawler)
        # engine_stopped: after every spider_closed handler (the storage counters) and Scrapy's stats dump
        crawler.signals.connect(extension.engine_stopped, signal=signals.engine_stopped)
        return extension

    def engine_stopped(self) -> None:
        config = getattr(self.crawler.spider, "site_config", None)
        if config is not None:
            print("\n".join(summary_lines(config.name, self.crawler.stats.get_stats())), file=sys.stderr)
