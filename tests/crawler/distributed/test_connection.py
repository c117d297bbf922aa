"""The Redis client from NEWSCORPUS_REDIS_URL: errors name the setting and never show the password."""

from __future__ import annotations

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.settings import Settings

from newscorpus.crawler.distributed.connection import RedisSettingError, checked_redis_client, redis_from_settings


def test_no_url_means_plain_scrapy():
    with pytest.raises(NotConfigured):
        redis_from_settings(Settings({"NEWSCORPUS_REDIS_URL": None}))


def test_a_bad_url_names_the_setting():
    with pytest.raises(RedisSettingError, match="NEWSCORPUS_REDIS_URL"):
        checked_redis_client("http://127.0.0.1:6379/0")


def test_an_unreachable_server_names_the_setting_without_the_password():
    with pytest.raises(RedisSettingError, match="NEWSCORPUS_REDIS_URL: cannot reach Redis") as raised:
        checked_redis_client("redis://worker:hunter2@127.0.0.1:1/0")
    assert "hunter2" not in str(raised.value)


def test_a_reachable_server_answers(redis_url):
    assert checked_redis_client(redis_url).ping()
