"""The settings outside the stages' dataclasses: the rule table, and the crawl command refusing a bad value (or a
misspelt name) in one line with exit 2, before anything is written."""

from __future__ import annotations

import pytest
from scrapy.settings import Settings

from newscorpus.crawler.setting_rules import RULES, check_names, check_settings, check_value, known_names
from newscorpus.crawler.stage_settings import SettingError
from tests.local_crawl import refused_setting

BAD = [
    ("NEWSCORPUS_MAX_DEPTH", "x", "NEWSCORPUS_MAX_DEPTH must be a whole number, not 'x'"),
    ("NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES", "maybe",
     "NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES must be true or false, not 'maybe'"),
    ("NEWSCORPUS_DB_RETRY_ATTEMPTS", "abc", "NEWSCORPUS_DB_RETRY_ATTEMPTS must be a whole number, not 'abc'"),
    ("NEWSCORPUS_DB_RETRY_ATTEMPTS", "0", "NEWSCORPUS_DB_RETRY_ATTEMPTS must be >= 1, not '0'"),
    ("DOWNLOAD_MAXSIZE", "-1", "DOWNLOAD_MAXSIZE must be >= 0, not '-1'"),
    ("CONCURRENT_REQUESTS", "0", "CONCURRENT_REQUESTS must be >= 1, not '0'"),
    ("DOWNLOAD_TIMEOUT", "0", "DOWNLOAD_TIMEOUT must be > 0, not '0'"),
]


@pytest.mark.parametrize(("name", "value", "message"), BAD)
def test_a_bad_value_is_refused_by_its_rule(name, value, message):
    with pytest.raises(SettingError) as refused:
        check_value(name, value)
    assert str(refused.value) == message


def test_every_project_default_passes_its_rule():
    from newscorpus.crawler import settings as project
    for name in RULES:
        if hasattr(project, name):
            check_value(name, getattr(project, name))
    check_settings(Settings({"DOWNLOAD_MAXSIZE": "0", "NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES": "True"}))


def test_a_misspelt_name_is_refused_with_the_closest_one():
    known = known_names()
    assert "NEWSCORPUS_MAX_DEPTH" in known and "NEWSCORPUS_LINENOISE_L" in known
    with pytest.raises(SettingError) as refused:
        check_names(["NEWSCORPUS_MAX_DEPHT"], known)
    assert str(refused.value) == "NEWSCORPUS_MAX_DEPHT is not a setting (did you mean NEWSCORPUS_MAX_DEPTH?)"
    check_names(["DOWNLOAD_DELAY", "NEWSCORPUS_MAX_DEPTH"], known)


@pytest.mark.parametrize(("name", "value", "message"),
                         [*BAD[:3], BAD[4], ("NEWSCORPUS_MAX_DEPHT", "3",
                                             "NEWSCORPUS_MAX_DEPHT is not a setting (did you mean "
                                             "NEWSCORPUS_MAX_DEPTH?)")])
def test_the_crawl_command_refuses_a_bad_setting_in_one_line(tmp_path, name, value, message):
    assert refused_setting(tmp_path, {name: value}) == f"scrapy crawl site: error: {message}\n"
