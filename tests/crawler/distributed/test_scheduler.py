"""The scrapy-redis scheduler and duplicate filter on run keys, with a real `site` spider and a real Redis."""

from __future__ import annotations

from pathlib import Path

from scrapy.settings import Settings

from newscorpus.crawler.distributed.addon import RedisFrontier
from newscorpus.crawler.distributed.dupefilter import RunDupeFilter
from newscorpus.crawler.distributed.keys import SiteKeys
from newscorpus.crawler.distributed.runs import join_or_start_run
from newscorpus.crawler.distributed.scheduler import RunScheduler
from newscorpus.crawler.distributed.seeding import seed_requests, seed_run
from newscorpus.crawler.runner import project_settings
from newscorpus.crawler.site_config import SiteConfig


def demo_config(name: str, **overrides) -> SiteConfig:
    base = "http://127.0.0.1:9"
    values = dict(name=name, start_urls=(f"{base}/",), sitemap_urls=(f"{base}/sitemap_index.xml",),
                  feed_urls=(f"{base}/rss.xml",), article_patterns=(r"/\d{4}/\d{2}/\d{2}/",),
                  allow_private_addresses=True)
    return SiteConfig(**(values | overrides))


def test_the_addon_switches_to_redis_only_when_a_url_is_set():
    plain = Settings({"SCHEDULER": "scrapy.core.scheduler.Scheduler"})
    RedisFrontier().update_settings(plain)
    assert plain["SCHEDULER"] == "scrapy.core.scheduler.Scheduler"
    shared = Settings({"NEWSCORPUS_REDIS_URL": "redis://127.0.0.1:6379/0"})
    RedisFrontier().update_settings(shared)
    assert shared["SCHEDULER"] == "newscorpus.crawler.distributed.scheduler.RunScheduler"
    assert shared["DUPEFILTER_CLASS"] == "newscorpus.crawler.distributed.dupefilter.RunDupeFilter"
    assert shared.getbool("SCHEDULER_PERSIST")
    assert any("RunWorker" in str(name) for name in shared.getdict("EXTENSIONS"))


def test_seeding_pushes_the_spiders_seeds_once_and_workers_pop_them_with_their_callbacks(
        redis_server, key_prefix, site_name):
    settings = project_settings()
    config = demo_config(site_name)
    result = seed_run(config, redis_server, settings, key_prefix=key_prefix)
    assert result.pushed == result.offered == 3   # sitemap, feed, home page
    assert redis_server.scard(SiteKeys(site_name, key_prefix).run(result.run_id).dupefilter) == 3
    # A worker joins the seeded run; its own start() seeds are duplicates of the pushed ones.
    spider, seeds = seed_requests(config, settings)
    scheduler = RunScheduler(redis_server, key_prefix=key_prefix)
    scheduler.open_run(spider, join_or_start_run(redis_server, SiteKeys(site_name, key_prefix), "w1", 10))
    assert scheduler.run.run_id == result.run_id
    assert not any(scheduler.enqueue_request(request) for request in seeds)
    popped = [scheduler.next_request() for _ in range(3)]
    assert scheduler.next_request() is None and not scheduler.has_pending_requests()
    assert popped[0].url.endswith(("/sitemap_index.xml", "/rss.xml"))  # priority 10 before the home page
    callbacks = {request.url.rsplit("/", 1)[1]: request.callback for request in popped}
    assert callbacks == {"sitemap_index.xml": spider.parse_sitemap, "rss.xml": spider.parse_feed,
                         "": spider.parse_page}
    assert all(request.errback == spider.on_error for request in popped)


def test_closing_a_worker_keeps_the_shared_queue_and_filter(redis_server, key_prefix, site_name):
    settings = project_settings()
    config = demo_config(site_name)
    result = seed_run(config, redis_server, settings, key_prefix=key_prefix)
    spider, _ = seed_requests(config, settings)
    scheduler = RunScheduler(redis_server, key_prefix=key_prefix)
    scheduler.open_run(spider, join_or_start_run(redis_server, SiteKeys(site_name, key_prefix), "w1", 10))
    scheduler.next_request()
    scheduler.close("shutdown")
    run = SiteKeys(site_name, key_prefix).run(result.run_id)
    assert redis_server.zcard(run.requests) == 2
    assert redis_server.scard(run.dupefilter) == 3


def test_the_page_budget_is_shared_by_the_workers_of_a_run(redis_server, key_prefix, site_name):
    settings = project_settings()
    config = demo_config(site_name, max_pages=3)
    site = SiteKeys(site_name, key_prefix)
    run = join_or_start_run(redis_server, site, "w1", 10)
    schedulers = []
    for _ in range(2):
        spider, seeds = seed_requests(config, settings)   # start() took one page of each spider's budget
        scheduler = RunScheduler(redis_server, key_prefix=key_prefix)
        scheduler.open_run(spider, run)
        schedulers.append((spider, scheduler, seeds))
    offered = admitted = 0
    for worker, (spider, scheduler, seeds) in enumerate(schedulers):
        articles = [spider.page_request(f"http://127.0.0.1:9/china/2026/11/0{day}/story-{worker}.html")
                    for day in (1, 2)]   # each worker stays within its own budget of 3 pages
        for request in [*seeds, *articles]:
            offered += request.meta.get("url_kind") is not None
            admitted += scheduler.enqueue_request(request) and "url_kind" in request.meta
    assert offered == 6 and admitted == 3   # the home page once, then articles until the run's budget is spent


def test_the_duplicate_filter_is_per_run_expires_and_survives_close(redis_server, key_prefix, site_name):
    from scrapy import Request

    site = SiteKeys(site_name, key_prefix)
    first, second = site.run("r1"), site.run("r2")
    one = RunDupeFilter(redis_server, first.dupefilter, ttl_seconds=60)
    other_worker = RunDupeFilter(redis_server, first.dupefilter, ttl_seconds=60)
    next_run = RunDupeFilter(redis_server, second.dupefilter, ttl_seconds=60)
    request = Request("http://127.0.0.1:9/world/2026/11/02/story-0004.html")
    assert not one.request_seen(request)
    assert other_worker.request_seen(request)
    assert not next_run.request_seen(request)
    assert 0 < redis_server.ttl(first.dupefilter) <= 60
    one.close("finished")
    assert redis_server.exists(first.dupefilter)


def test_the_project_settings_are_plain_scrapy_without_a_redis_url(monkeypatch):
    monkeypatch.delenv("NEWSCORPUS_REDIS_URL", raising=False)
    import importlib

    import newscorpus.crawler.settings

    module = importlib.reload(newscorpus.crawler.settings)
    assert module.NEWSCORPUS_REDIS_URL is None
    assert Path(module.__file__).name == "settings.py"
