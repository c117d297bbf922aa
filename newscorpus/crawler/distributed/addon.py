"""The add-on that switches a crawl to the shared Redis frontier when ``NEWSCORPUS_REDIS_URL`` is set.

Add-ons see the final settings (``-s NEWSCORPUS_REDIS_URL=...`` included) before any component is built, so
``scrapy crawl site`` and in-process crawls switch the same way; without the setting the crawl keeps Scrapy's
scheduler, stopping when a JOBDIR write fails (newscorpus.crawler.jobdir_scheduler)."""

from __future__ import annotations

# By its path: the worker (and redis with it) is imported only by a crawl that uses Redis.
RUN_WORKER = "newscorpus.crawler.distributed.worker.RunWorker"


class RedisFrontier:
    def update_settings(self, settings) -> None:
        if not settings.get("NEWSCORPUS_REDIS_URL"):
            # The local frontier: Scrapy's scheduler, stopping the crawl when a JOBDIR write fails.
            settings.set("SCHEDULER", "newscorpus.crawler.jobdir_scheduler.JobdirScheduler", priority="addon")
            return
        settings.set("SCHEDULER", "newscorpus.crawler.distributed.scheduler.RunScheduler", priority="addon")
        settings.set("DUPEFILTER_CLASS", "newscorpus.crawler.distributed.dupefilter.RunDupeFilter", priority="addon")
        settings.set("SCHEDULER_PERSIST", True, priority="addon")
        settings.set("REDIS_URL", settings.get("NEWSCORPUS_REDIS_URL"), priority="addon")
        settings.set_in_component_priority_dict("EXTENSIONS", RUN_WORKER, 10)
