"""The objects a crawl makes while starting (modules, classes, the stages' tables and models: ~100,000) kept out of
the garbage collector's full passes, as a Scrapy extension.

CPython's collector goes through every object it tracks on each full (oldest generation) pass: with the stages
loaded, a pass over the crawl process took 55-170 ms, three or four of them per 300-article demo crawl, the last
one at exit (2026-11-24, gc.callbacks over `scrapy crawl site`, issue 18). Once the engine has started, the objects
made so far live as long as the process, so they are moved to the collector's permanent generation
(:func:`gc.freeze`); the pages, items and batches made afterwards are collected as before. An object frozen is still
freed when its last reference goes; only a reference cycle among frozen objects stays until the process ends.
``NEWSCORPUS_FREEZE_START_UP_OBJECTS = False`` turns it off.
"""

from __future__ import annotations

import gc
import logging

from scrapy import signals
from scrapy.exceptions import NotConfigured

logger = logging.getLogger(__name__)


class StartUpObjectsFrozen:
    def __init__(self, crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler) -> StartUpObjectsFrozen:
        if not crawler.settings.getbool("NEWSCORPUS_FREEZE_START_UP_OBJECTS", True):
            raise NotConfigured("NEWSCORPUS_FREEZE_START_UP_OBJECTS is off")
        extension = cls(crawler)
        crawler.signals.connect(extension.engine_started, signal=signals.engine_started)
        return extension

    def engine_started(self) -> None:
        gc.freeze()
        frozen = gc.get_freeze_count()
        self.crawler.stats.set_value("newscorpus/start_up/objects_frozen", frozen)
        logger.debug("%d objects made while starting moved out of the collector's passes", frozen)
