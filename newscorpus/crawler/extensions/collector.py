"""The garbage collector in a crawl process, as two Scrapy extensions.

StartUpObjectsFrozen: the objects a crawl makes while starting (modules, classes, the stages' tables and models:
~100,000) kept out of the garbage collector's full passes.

CPython's collector goes through every object it tracks on each full (oldest generation) pass: with the stages
loaded, a pass over the crawl process is a visible pause, several of them a demo crawl, the last one at exit
(gc.callbacks over `scrapy crawl site`). Once the engine has started, the objects
made so far live as long as the process, so they are moved to the collector's permanent generation
(:func:`gc.freeze`); the pages, items and batches made afterwards are collected as before. An object frozen is still
freed when its last reference goes; only a reference cycle among frozen objects stays until the process ends.
Only the first crawler of a process freezes: in a build, later sites start while others crawl, and freezing
then would keep the running sites' page cycles and each finished site's crawler until the build ends (and
counting the frozen objects walks them all, ~23 ms a site at 100 sites).
``NEWSCORPUS_FREEZE_START_UP_OBJECTS = False`` turns it off.

YoungGenerationThreshold: the youngest generation is collected after NEWSCORPUS_COLLECTOR_YOUNG_THRESHOLD new objects
(Python's own: 700). A crawl makes and drops a page's tree, blocks, lines and items by the ten thousand, and the
default collects them hundreds of times a demo crawl, with dozens of middle passes; 50,000 takes about a third of
that CPU in a handful of passes (gc.callbacks and thread CPU over benchmarks/crawl_rate.py's demo crawl). Only
reference cycles wait for a pass (everything else is freed by its reference count), so the
garbage it lets wait is bounded by that many objects. Set at the crawler's start, so that the stages' own start
(models, jieba's dictionary) is covered too; the previous thresholds come back when the engine stops. 0 leaves
Python's.
"""

from __future__ import annotations

import gc
import logging

from scrapy import signals
from scrapy.exceptions import NotConfigured

from newscorpus.crawler.stage_settings import SettingError

logger = logging.getLogger(__name__)
YOUNG_THRESHOLD = 50_000  # the default of NEWSCORPUS_COLLECTOR_YOUNG_THRESHOLD: see the module's docstring


def check_collector_settings(settings) -> None:
    """The two settings read as the extensions read them: a bad value is one line before the crawl starts."""
    name = "NEWSCORPUS_FREEZE_START_UP_OBJECTS"
    try:
        settings.getbool(name)
    except ValueError:
        raise SettingError(f"{name}: {settings.get(name)!r} is not a boolean") from None
    name = "NEWSCORPUS_COLLECTOR_YOUNG_THRESHOLD"
    try:
        threshold = settings.getint(name)
    except ValueError:
        raise SettingError(f"{name}: {settings.get(name)!r} is not a whole number") from None
    if threshold < 0:
        raise SettingError(f"{name}: {threshold} is below 0 (0 keeps Python's own threshold)")


class StartUpObjectsFrozen:
    frozen_in_process: int | None = None  # objects frozen by the process's first crawler; None before it

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
        if StartUpObjectsFrozen.frozen_in_process is None:
            gc.freeze()
            StartUpObjectsFrozen.frozen_in_process = gc.get_freeze_count()
            logger.debug("%d objects made while starting moved out of the collector's passes",
                         StartUpObjectsFrozen.frozen_in_process)
        self.crawler.stats.set_value("newscorpus/start_up/objects_frozen", StartUpObjectsFrozen.frozen_in_process)


class YoungGenerationThreshold:
    def __init__(self, crawler, threshold: int):
        self.crawler = crawler
        self.previous = gc.get_threshold()
        gc.set_threshold(threshold, *self.previous[1:])

    @classmethod
    def from_crawler(cls, crawler) -> YoungGenerationThreshold:
        threshold = crawler.settings.getint("NEWSCORPUS_COLLECTOR_YOUNG_THRESHOLD", YOUNG_THRESHOLD)
        if threshold <= 0:
            raise NotConfigured("NEWSCORPUS_COLLECTOR_YOUNG_THRESHOLD is 0: Python's own thresholds")
        extension = cls(crawler, threshold)
        crawler.signals.connect(extension.engine_stopped, signal=signals.engine_stopped)
        return extension

    def engine_stopped(self) -> None:
        gc.set_threshold(*self.previous)
