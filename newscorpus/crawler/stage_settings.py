"""The stages' settings, derived from one config dataclass per stage (as datatrove's MinhashConfig): each field
FIELD of the stage's config is the setting NEWSCORPUS_<STAGE>_<FIELD>, its default the field's (written, with its
source, only there), and every stage has a switch NEWSCORPUS_<STAGE>_ENABLED (on by default). One validator: the
type comes from the field, the range from the config's own checks, and a bad value is one line naming the
setting. The former names (NEWSCORPUS_LINENOISE_L, NEWSCORPUS_DEDUP_M, ...) are still read, with
one deprecation warning naming the new one."""

from __future__ import annotations

import logging
import typing
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from scrapy.settings import SETTINGS_PRIORITIES

from newscorpus.core.extraction.config import ExtractionConfig
from newscorpus.core.line_noise import LineNoiseConfig
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.site_aware.cascade import SiteAwareConfig
from newscorpus.core.storage_config import StorageConfig
from newscorpus.crawler.crawl_bounds import CrawlBoundsConfig

logger = logging.getLogger(__name__)

PREFIX = "NEWSCORPUS_"
# Stage -> its config dataclass, in ITEM_PIPELINES order (site-aware extraction runs in the extraction stage).
STAGES: dict[str, type] = {
    "EXTRACTION": ExtractionConfig,
    "SITE_AWARE": SiteAwareConfig,
    "LINE_NOISE": LineNoiseConfig,
    "NEAR_DUPLICATE": NearDuplicateConfig,
    "STORAGE": StorageConfig,
    "CRAWL_BOUNDS": CrawlBoundsConfig,   # read by the site spider, not a pipeline
}
ENABLED = "ENABLED"  # every stage is on unless its switch is turned off

_LINE_NOISE_KEPT = ("MIN_ARTICLES", "PRUNE_DIVISOR", "PRUNE_INTERVAL", "WARMUP", "GUARD_SHARE", "GUARD_ARTICLES",
                    "MIN_SHARE", "MID_BODY_SHARE", ENABLED)
_NEAR_DUPLICATE_KEPT = ("WINDOW", "TAU", "BODY_TAU", "SIMHASH_DISTANCE", "WORKERS", "BATCH_SIZE", ENABLED)
# Old name -> new name.
RENAMED: dict[str, str] = {
    "NEWSCORPUS_SITEAWARE_ENABLED": "NEWSCORPUS_SITE_AWARE_ENABLED",
    "NEWSCORPUS_LINENOISE_L": "NEWSCORPUS_LINE_NOISE_PER_ARTICLES",
    **{f"NEWSCORPUS_LINENOISE_{name}": f"NEWSCORPUS_LINE_NOISE_{name}" for name in _LINE_NOISE_KEPT},
    "NEWSCORPUS_DEDUP_M": "NEWSCORPUS_NEAR_DUPLICATE_MIN_COOCCURRENCE",
    **{f"NEWSCORPUS_DEDUP_{name}": f"NEWSCORPUS_NEAR_DUPLICATE_{name}" for name in _NEAR_DUPLICATE_KEPT},
}
_OLD_NAMES: dict[str, list[str]] = {}
for _old, _new in RENAMED.items():
    _OLD_NAMES.setdefault(_new, []).append(_old)
_warned: set[str] = set()  # old names already warned about in this process


class SettingError(ValueError):
    """A stage setting with a value of the wrong type or out of range; the message names the setting."""


def setting_name(stage: str, field_name: str) -> str:
    return f"{PREFIX}{stage}_{field_name.upper()}"


def stage_defaults() -> dict[str, Any]:
    """Every stage setting with its default, for newscorpus/crawler/settings.py."""
    defaults: dict[str, Any] = {}
    for stage, config in STAGES.items():
        defaults[setting_name(stage, ENABLED)] = True
        for field in fields(config):
            defaults[setting_name(stage, field.name)] = field.default
    return defaults


@dataclass(frozen=True)
class Given:
    name: str          # the name the value was given under: the setting's, or an old name of it
    value: Any
    explicit: bool     # set above the project's defaults (command line, spider, a test's settings), or by a mapping


def given(settings: Mapping | Any, name: str) -> Given:
    """The value of setting ``name`` in Scrapy ``settings`` (or any mapping of names): under an old name when that
    is set (and not under the new name with a higher priority), with one deprecation warning per old name."""
    priority = getattr(settings, "getpriority", None)
    value, level = settings.get(name), (priority(name) if priority else None)
    for old in _OLD_NAMES.get(name, ()):
        old_value = settings.get(old)
        if old_value is None:
            continue
        old_level = priority(old) if priority else None
        if old_level is not None and level is not None and old_level < level:
            continue
        if old not in _warned:
            _warned.add(old)
            logger.warning("the setting %s is deprecated: use %s", old, name)
        return Given(old, old_value, True)
    return Given(name, value, level is None or level > SETTINGS_PRIORITIES["project"])


def stage_enabled(settings, stage: str) -> bool:
    """NEWSCORPUS_<STAGE>_ENABLED (or its old name); on when unset."""
    found = given(settings, setting_name(stage, ENABLED))
    return True if found.value is None else _convert(found.name, found.value, bool)


def stage_config(settings, stage: str):
    """The stage's config from ``settings``: each field from NEWSCORPUS_<STAGE>_<FIELD> when set, else its default;
    a value of the wrong type or out of range raises SettingError naming the setting."""
    config = STAGES[stage]
    hints = typing.get_type_hints(config)
    values = {}
    for field in fields(config):
        found = given(settings, setting_name(stage, field.name))
        if found.value is None:
            continue
        value = _convert(found.name, found.value, hints[field.name])
        try:
            config(**{field.name: value})
        except ValueError as error:
            raise SettingError(_naming(found.name, field.name, error)) from None
        values[field.name] = value
    try:
        return config(**values)
    except ValueError as error:
        raise SettingError(f"{setting_name(stage, '*')}: {error}") from None


def check_stage_settings(settings) -> None:
    """Every stage's switch and config read once, so a bad value is found before the crawl starts."""
    for stage in STAGES:
        stage_enabled(settings, stage)
        stage_config(settings, stage)


def _naming(setting: str, field_name: str, error: ValueError) -> str:
    """The config's message ("window must be >= 1, not 0") with the setting's name for the field's."""
    text = str(error)
    return setting + text[len(field_name):] if text.startswith(field_name + " ") else f"{setting}: {text}"


_TRUE, _FALSE = ("1", "true"), ("0", "false")   # as Scrapy's Settings.getbool reads strings


def _convert(name: str, raw: Any, kind: Any) -> Any:
    """``raw`` (a default, or a string from -s NAME=VALUE) as a value of the field's type ``kind``."""
    if kind is bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower() if isinstance(raw, str | int) else None
        if text in _TRUE or text in _FALSE:
            return text in _TRUE
        raise SettingError(f"{name} must be true or false, not {raw!r}")
    if kind is int:
        if isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        try:
            if isinstance(raw, str):
                return int(raw.strip())
        except ValueError:
            pass
        raise SettingError(f"{name} must be a whole number, not {raw!r}")
    if kind is float:
        if isinstance(raw, int | float) and not isinstance(raw, bool):
            return float(raw)
        try:
            if isinstance(raw, str):
                return float(raw.strip())
        except ValueError:
            pass
        raise SettingError(f"{name} must be a number, not {raw!r}")
    if typing.get_origin(kind) is typing.Literal:
        choices = typing.get_args(kind)
        if raw in choices:
            return raw
        raise SettingError(f"{name} must be one of {', '.join(map(repr, choices))}, not {raw!r}")
    if kind is str:
        if isinstance(raw, str):
            return raw.strip()
        if isinstance(raw, list | tuple) and all(isinstance(part, str) for part in raw):   # settings.py lists
            return ",".join(raw)
        raise SettingError(f"{name} must be text, not {raw!r}")
    raise TypeError(f"{name}: no reading of a {kind!r} setting")  # a config field of a new type: add it above
