"""The crawl's bounds on what a hostile site can make it queue (newscorpus.crawler.spiders.site): how deep sitemap
indexes are followed, how many sitemaps a site may have, how many page requests may wait in the queue."""

from __future__ import annotations

from dataclasses import dataclass

from newscorpus.core.config_checks import at_least


@dataclass(frozen=True)
class CrawlBoundsConfig:
    """Read by the site spider from NEWSCORPUS_CRAWL_BOUNDS_<FIELD> (newscorpus.crawler.stage_settings); off
    (NEWSCORPUS_CRAWL_BOUNDS_ENABLED=False): no bound."""

    # Sitemap index hops from a configured sitemap. The protocol allows none (an index lists sitemaps only); sites
    # that nest indexes use 1-2 levels, so 3 follows them and stops a chain of indexes naming new indexes.
    max_sitemap_depth: int = 3
    # Sitemaps fetched per site, the configured ones included. A daily-sitemap archive of ten years is ~3,700; an
    # endless index chain fetched 36,290 in 60 s before this bound.
    max_sitemaps: int = 5_000
    # Page requests waiting in the queue at once. Each costs ~3 KB (a page of 100,000 links: 396 MB peak RSS);
    # 50,000 is ~150 MB, more than a day's articles of the largest news site.
    max_queued: int = 50_000

    def __post_init__(self) -> None:
        at_least(self, 0, "max_sitemap_depth")
        at_least(self, 1, "max_sitemaps", "max_queued")
