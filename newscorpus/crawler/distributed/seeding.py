"""`newscorpus seed`: start a new run of a site and push its start URLs, sitemaps and feeds into the run's queue.

Requests are pushed as the scheduler pushes them (scrapy-redis's pickled ``Request.to_dict``, which names
the callbacks by spider method), so they come from a real `site` spider built from a Crawler that never
starts: the same seeds ``SiteSpider.start()`` yields, through the same duplicate filter and page budget."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import redis
from scrapy.crawler import Crawler
from scrapy.http import Request
from scrapy.statscollectors import MemoryStatsCollector

from newscorpus.crawler.distributed.keys import RUN_TTL_SECONDS, SiteKeys
from newscorpus.crawler.distributed.runs import start_new_run
from newscorpus.crawler.distributed.scheduler import RunScheduler
from newscorpus.crawler.site_config import SiteConfig


@dataclass(frozen=True)
class SeedResult:
    run_id: str
    pushed: int      # requests now in the queue
    offered: int     # seeds the spider yielded (more than pushed when two URLs are the same request)


def seed_requests(site_config: SiteConfig, settings):
    """A `site` spider for ``site_config`` (not crawling) and the seed requests its ``start()`` yields."""
    from newscorpus.crawler.spiders.site import SiteSpider

    crawler = Crawler(SiteSpider, settings)
    crawler.stats = MemoryStatsCollector(crawler)  # the spider counts what its page budget turns away
    spider = SiteSpider.from_crawler(crawler, site_config=site_config)

    async def collect() -> list[Request]:
        return [request async for request in spider.start() if isinstance(request, Request)]

    return spider, asyncio.run(collect())


def seed_run(site_config: SiteConfig, server: redis.Redis, settings, *, key_prefix: str | None = None,
             ttl_seconds: int = RUN_TTL_SECONDS) -> SeedResult:
    prefix = key_prefix or settings.get("NEWSCORPUS_REDIS_KEY_PREFIX")
    spider, requests = seed_requests(site_config, settings)
    run = start_new_run(server, SiteKeys(site_config.name, prefix), ttl_seconds)
    scheduler = RunScheduler(server, key_prefix=prefix, ttl_seconds=ttl_seconds)
    scheduler.open_run(spider, run)
    pushed = sum(1 for request in requests if scheduler.enqueue_request(request))
    pipe = server.pipeline(transaction=False)
    pipe.set(run.keys.seeded, f"{time.time()!r} {pushed}", ex=ttl_seconds)
    for key in run.keys.all():
        pipe.expire(key, ttl_seconds)
    pipe.execute()
    return SeedResult(run.run_id, pushed, len(requests))
