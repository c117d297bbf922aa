"""The settings outside the stages' config dataclasses, checked before a crawl starts: a table of named rules (one
per setting: how it is read, what range it must be in), and any NEWSCORPUS_* name that is no setting at all (a
typo) refused with the closest valid name. A bad value is a SettingError, one line naming the setting, the value
and what is expected."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from newscorpus.crawler import settings as project
from newscorpus.crawler.stage_settings import PREFIX, RENAMED, SettingError, _convert


@dataclass(frozen=True)
class Rule:
    kind: type                 # bool, int or float, read as stage_settings reads a config field
    check: Callable[[Any], bool]
    expected: str              # what check accepts, for the message


def _at_least(low: float) -> Rule:
    return Rule(int, lambda value: value >= low, f">= {low}")


_ANY_BOOL = Rule(bool, lambda value: True, "true or false")
_POSITIVE = Rule(float, lambda value: value > 0, "> 0")
_NOT_NEGATIVE = Rule(float, lambda value: value >= 0, ">= 0")

RULES: dict[str, Rule] = {
    "NEWSCORPUS_MAX_DEPTH": _at_least(0),
    "NEWSCORPUS_MAX_PAGES": _at_least(0),
    "NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES": _ANY_BOOL,
    "NEWSCORPUS_DB_RETRY_ATTEMPTS": _at_least(1),
    "NEWSCORPUS_REFETCH_AFTER_HOURS": _NOT_NEGATIVE,
    "NEWSCORPUS_RETRY_BACKOFF_SECONDS": _NOT_NEGATIVE,
    "NEWSCORPUS_RETRY_BACKOFF_MAX_SECONDS": _NOT_NEGATIVE,
    "NEWSCORPUS_REDIS_IDLE_SECONDS": _NOT_NEGATIVE,
    "NEWSCORPUS_REDIS_HEARTBEAT_SECONDS": _POSITIVE,
    # Scrapy's: 0 turns DOWNLOAD_MAXSIZE/WARNSIZE off, a negative one made every page `too_large`.
    "DOWNLOAD_MAXSIZE": _at_least(0),
    "DOWNLOAD_WARNSIZE": _at_least(0),
    "CONCURRENT_REQUESTS": _at_least(1),
    "CONCURRENT_REQUESTS_PER_DOMAIN": _at_least(1),
    "CONCURRENT_ITEMS": _at_least(1),
    "DOWNLOAD_DELAY": _NOT_NEGATIVE,
    "DOWNLOAD_TIMEOUT": _POSITIVE,
    "DEPTH_LIMIT": _at_least(0),
    "RETRY_TIMES": _at_least(0),
    "ROBOTSTXT_OBEY": _ANY_BOOL,
    "AUTOTHROTTLE_ENABLED": _ANY_BOOL,
    "AUTOTHROTTLE_START_DELAY": _NOT_NEGATIVE,
    "AUTOTHROTTLE_MAX_DELAY": _NOT_NEGATIVE,
    "AUTOTHROTTLE_TARGET_CONCURRENCY": _POSITIVE,
}


def check_value(name: str, raw: Any) -> Any:
    """``raw`` read by the rule of ``name``; SettingError when it has the wrong type or is out of range."""
    rule = RULES[name]
    value = _convert(name, raw, rule.kind)
    if not rule.check(value):
        raise SettingError(f"{name} must be {rule.expected}, not {raw!r}")
    return value


def known_names() -> set[str]:
    """The NEWSCORPUS_* settings the project defines (its settings module, stage defaults) and their old names."""
    return {name for name in vars(project) if name.startswith(PREFIX)} | set(RENAMED)


def check_names(names, known: set[str]) -> None:
    for name in names:
        if name.startswith(PREFIX) and name not in known:
            close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise SettingError(f"{name} is not a setting{hint}")


def check_settings(settings) -> None:
    """Every name set checked, and every rule's setting read, so a bad one is found before anything is written."""
    check_names(list(settings), known_names())
    for name in RULES:
        raw = settings.get(name)
        if raw is not None:
            check_value(name, raw)
