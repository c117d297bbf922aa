"""Stage settings derived from the config dataclasses: names, defaults (only in the dataclasses), one validator with
errors naming the setting, the former names with one deprecation warning, and the crawl command's check."""

from __future__ import annotations

import logging
from dataclasses import fields

import pytest
from scrapy.settings import Settings

from newscorpus.core.line_noise import LineNoiseConfig
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.crawler import settings as project_settings
from newscorpus.crawler import stage_settings
from newscorpus.crawler.stage_settings import (
    RENAMED,
    STAGES,
    SettingError,
    check_stage_settings,
    stage_config,
    stage_defaults,
    stage_enabled,
)
from tests.local_crawl import refused_setting


def crawl_settings(**cmdline) -> Settings:
    settings = Settings()
    settings.setmodule("newscorpus.crawler.settings", priority="project")
    for name, value in cmdline.items():
        settings.set(name, value, priority="cmdline")
    return settings


def test_every_field_of_every_stage_config_is_a_setting_with_the_dataclass_default():
    for stage, config in STAGES.items():
        assert getattr(project_settings, f"NEWSCORPUS_{stage}_ENABLED") is True
        for field in fields(config):
            assert getattr(project_settings, f"NEWSCORPUS_{stage}_{field.name.upper()}") == field.default
    assert project_settings.NEWSCORPUS_LINE_NOISE_PER_ARTICLES == LineNoiseConfig().per_articles == 50
    assert project_settings.NEWSCORPUS_NEAR_DUPLICATE_MIN_COOCCURRENCE == NearDuplicateConfig().min_cooccurrence
    assert project_settings.NEWSCORPUS_STORAGE_BATCH_SIZE == 50
    assert project_settings.NEWSCORPUS_EXTRACTION_MAX_SECONDS == 5.0
    assert set(stage_defaults()) <= set(dir(project_settings))


def test_the_project_settings_give_the_default_configs():
    settings = crawl_settings()
    for stage, config in STAGES.items():
        assert stage_enabled(settings, stage)
        assert stage_config(settings, stage) == config()


def test_values_from_the_command_line_are_read_with_the_field_type():
    settings = crawl_settings(NEWSCORPUS_NEAR_DUPLICATE_TAU="0.2", NEWSCORPUS_NEAR_DUPLICATE_OVERLAP="jaccard",
                              NEWSCORPUS_SITE_AWARE_USE_TEMPLATES="false", NEWSCORPUS_LINE_NOISE_ENABLED="0")
    near_duplicate = stage_config(settings, "NEAR_DUPLICATE")
    assert near_duplicate.tau == 0.2 and near_duplicate.overlap == "jaccard"
    assert stage_config(settings, "SITE_AWARE").use_templates is False
    assert not stage_enabled(settings, "LINE_NOISE")


@pytest.mark.parametrize(("name", "value", "message"), [
    ("NEWSCORPUS_EXTRACTION_MAX_SECONDS", "0", "NEWSCORPUS_EXTRACTION_MAX_SECONDS must be > 0, not 0.0"),
    ("NEWSCORPUS_EXTRACTION_WORKERS", "two", "NEWSCORPUS_EXTRACTION_WORKERS must be a whole number, not 'two'"),
    ("NEWSCORPUS_LINE_NOISE_WARMUP", "-1", "NEWSCORPUS_LINE_NOISE_WARMUP must be >= 0, not -1"),
    ("NEWSCORPUS_LINE_NOISE_MIN_SHARE", "1.5", "NEWSCORPUS_LINE_NOISE_MIN_SHARE must be in [0, 1], not 1.5"),
    ("NEWSCORPUS_NEAR_DUPLICATE_SIMHASH_DISTANCE", "16",
     "NEWSCORPUS_NEAR_DUPLICATE_SIMHASH_DISTANCE must be in 1..15, not 16"),
    ("NEWSCORPUS_NEAR_DUPLICATE_ENABLED", "maybe", "NEWSCORPUS_NEAR_DUPLICATE_ENABLED must be true or false"),
    ("NEWSCORPUS_SITE_AWARE_LEARN", "yes please", "NEWSCORPUS_SITE_AWARE_LEARN must be true or false"),
    ("NEWSCORPUS_STORAGE_BATCH_SIZE", "0", "NEWSCORPUS_STORAGE_BATCH_SIZE must be >= 1, not 0"),
    ("NEWSCORPUS_STORAGE_BATCH_SIZE", "2.5", "NEWSCORPUS_STORAGE_BATCH_SIZE must be a whole number, not '2.5'"),
])
def test_a_bad_value_is_one_line_naming_the_setting(name, value, message):
    with pytest.raises(SettingError) as error:
        check_stage_settings(crawl_settings(**{name: value}))
    assert message in str(error.value) and "\n" not in str(error.value)


def test_an_old_name_is_read_with_one_warning_naming_the_new_one(caplog, monkeypatch):
    monkeypatch.setattr(stage_settings, "_warned", set())
    settings = crawl_settings(NEWSCORPUS_LINENOISE_L="20", NEWSCORPUS_DEDUP_M="3", NEWSCORPUS_DEDUP_ENABLED="False")
    with caplog.at_level(logging.WARNING, logger=stage_settings.__name__):
        for _ in range(3):
            check_stage_settings(settings)
            assert stage_config(settings, "LINE_NOISE").per_articles == 20
            assert stage_config(settings, "NEAR_DUPLICATE").min_cooccurrence == 3
            assert not stage_enabled(settings, "NEAR_DUPLICATE")
    warnings = [record.getMessage() for record in caplog.records]
    assert sorted(warnings) == [
        "the setting NEWSCORPUS_DEDUP_ENABLED is deprecated: use NEWSCORPUS_NEAR_DUPLICATE_ENABLED",
        "the setting NEWSCORPUS_DEDUP_M is deprecated: use NEWSCORPUS_NEAR_DUPLICATE_MIN_COOCCURRENCE",
        "the setting NEWSCORPUS_LINENOISE_L is deprecated: use NEWSCORPUS_LINE_NOISE_PER_ARTICLES",
    ]


def test_every_old_name_maps_to_a_setting_and_a_new_name_given_higher_wins():
    assert set(RENAMED.values()) <= set(stage_defaults())
    settings = crawl_settings(NEWSCORPUS_LINENOISE_L="20")
    settings.set("NEWSCORPUS_LINE_NOISE_PER_ARTICLES", "30", priority="cmdline")
    assert stage_config(settings, "LINE_NOISE").per_articles == 20   # same priority: the old name, as before
    settings.set("NEWSCORPUS_LINE_NOISE_PER_ARTICLES", "30", priority=50)
    assert stage_config(settings, "LINE_NOISE").per_articles == 30


def test_the_crawl_command_refuses_a_bad_stage_setting_in_one_line_before_fetching(tmp_path):
    assert refused_setting(tmp_path, {"NEWSCORPUS_LINE_NOISE_GUARD_SHARE": "lots"}) == (
        "scrapy crawl site: error: NEWSCORPUS_LINE_NOISE_GUARD_SHARE must be a number, not 'lots'\n")
