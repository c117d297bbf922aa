"""The collector in a crawl. StartUpObjectsFrozen: what exists when the engine starts leaves the collector's passes;
what the crawl makes afterwards (pages, items, their reference cycles) is still collected, and a frozen object is
still freed when its last reference goes. YoungGenerationThreshold: the youngest generation's threshold is the
setting's from the crawler's start until the engine stops."""

from __future__ import annotations

import gc
import weakref

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler

from newscorpus.crawler.extensions.collector import (
    YOUNG_THRESHOLD,
    StartUpObjectsFrozen,
    YoungGenerationThreshold,
    check_collector_settings,
)
from newscorpus.crawler.stage_settings import SettingError
from tests.local_crawl import refused_setting


class Page:
    """Stands for an object a crawl makes (a page, an item)."""

    def __init__(self, url: str):
        self.url = url
        self.cycle = self


@pytest.fixture
def unfrozen_after():
    yield
    gc.unfreeze()  # the test run's own objects go back to the collector
    StartUpObjectsFrozen.frozen_in_process = None


def test_start_up_objects_leave_the_collector_and_later_ones_are_collected(unfrozen_after):
    crawler = get_crawler(settings_dict={"NEWSCORPUS_FREEZE_START_UP_OBJECTS": True})
    crawler.stats.open_spider()
    extension = StartUpObjectsFrozen.from_crawler(crawler)
    made_at_start = Page("http://example.test/首页")
    freed_at_start = Page("http://example.test/start")
    freed_at_start.cycle = None  # no cycle: freed by its reference count
    at_start, freed = weakref.ref(made_at_start), weakref.ref(freed_at_start)

    extension.engine_started()
    assert crawler.stats.get_value("newscorpus/start_up/objects_frozen") == gc.get_freeze_count() > 0
    tracked = {id(o) for o in gc.get_objects()}
    assert id(made_at_start) not in tracked  # frozen: no collector pass goes through it

    del freed_at_start
    assert freed() is None  # frozen, still freed when its last reference goes
    later = Page("http://example.test/news/1.html")  # made during the crawl: a reference cycle
    made_later = weakref.ref(later)
    assert id(later) in {id(o) for o in gc.get_objects()}
    del later
    gc.collect()
    assert made_later() is None  # collected as before
    del made_at_start
    gc.collect()
    assert at_start() is not None  # a cycle among start-up objects stays until the process ends


def test_only_the_first_crawler_of_a_process_freezes(unfrozen_after):
    first = get_crawler(settings_dict={"NEWSCORPUS_FREEZE_START_UP_OBJECTS": True})
    first.stats.open_spider()
    StartUpObjectsFrozen.from_crawler(first).engine_started()
    frozen = first.stats.get_value("newscorpus/start_up/objects_frozen")

    crawling = Page("http://example.test/news/2.html")  # a page of the first site, in flight
    second = get_crawler(settings_dict={"NEWSCORPUS_FREEZE_START_UP_OBJECTS": True})
    second.stats.open_spider()
    StartUpObjectsFrozen.from_crawler(second).engine_started()  # a later site of the same build starts
    assert gc.get_freeze_count() <= frozen  # nothing more frozen (a frozen object freed since lowers it)
    assert id(crawling) in {id(o) for o in gc.get_objects()}  # still collected: not kept until the build ends
    assert second.stats.get_value("newscorpus/start_up/objects_frozen") == frozen


def test_off_with_its_setting():
    crawler = get_crawler(settings_dict={"NEWSCORPUS_FREEZE_START_UP_OBJECTS": False})
    with pytest.raises(NotConfigured):
        StartUpObjectsFrozen.from_crawler(crawler)


@pytest.fixture
def thresholds_back():
    before = gc.get_threshold()
    yield before
    gc.set_threshold(*before)


def test_the_young_threshold_holds_from_the_crawlers_start_until_the_engine_stops(thresholds_back):
    crawler = get_crawler(settings_dict={"NEWSCORPUS_COLLECTOR_YOUNG_THRESHOLD": 12_345})
    extension = YoungGenerationThreshold.from_crawler(crawler)
    assert gc.get_threshold() == (12_345, *thresholds_back[1:])
    extension.engine_stopped()
    assert gc.get_threshold() == thresholds_back


def test_the_young_threshold_defaults_to_the_measured_one_and_zero_leaves_pythons(thresholds_back):
    YoungGenerationThreshold.from_crawler(get_crawler())
    assert gc.get_threshold()[0] == YOUNG_THRESHOLD
    gc.set_threshold(*thresholds_back)
    with pytest.raises(NotConfigured):
        YoungGenerationThreshold.from_crawler(get_crawler(settings_dict={"NEWSCORPUS_COLLECTOR_YOUNG_THRESHOLD": 0}))
    assert gc.get_threshold() == thresholds_back


@pytest.mark.parametrize(("name", "value", "message"), [
    ("NEWSCORPUS_COLLECTOR_YOUNG_THRESHOLD", "lots", "'lots' is not a whole number"),
    ("NEWSCORPUS_COLLECTOR_YOUNG_THRESHOLD", "-1", "-1 is below 0 (0 keeps Python's own threshold)"),
    ("NEWSCORPUS_FREEZE_START_UP_OBJECTS", "maybe", "'maybe' is not a boolean"),
])
def test_a_bad_collector_setting_is_one_line(name, value, message):
    with pytest.raises(SettingError) as refused:
        check_collector_settings(Settings({name: value}))
    assert str(refused.value) == f"{name}: {message}"
    check_collector_settings(Settings({"NEWSCORPUS_COLLECTOR_YOUNG_THRESHOLD": "0"}))  # Python's own: fine


def test_the_crawl_command_refuses_a_bad_collector_setting_in_one_line(tmp_path):
    assert refused_setting(tmp_path, {"NEWSCORPUS_COLLECTOR_YOUNG_THRESHOLD": "lots"}) == (
        "scrapy crawl site: error: NEWSCORPUS_COLLECTOR_YOUNG_THRESHOLD: 'lots' is not a whole number\n")
