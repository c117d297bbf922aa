"""Range checks of the stages' config dataclasses, one message shape for all (``NAME must be >= 1, not 0``);
newscorpus.crawler.stage_settings puts the setting's name in front of it."""

from __future__ import annotations


def at_least(config: object, low: float, *names: str) -> None:
    for name in names:
        value = getattr(config, name)
        if value < low:
            raise ValueError(f"{name} must be >= {low}, not {value}")


def within(config: object, low: float, high: float, *names: str, low_open: bool = False) -> None:
    """Each field in [low, high], or in (low, high] with ``low_open``."""
    for name in names:
        value = getattr(config, name)
        if not (low < value if low_open else low <= value) or not value <= high:
            interval = f"({low}, {high}]" if low_open else f"[{low}, {high}]"
            raise ValueError(f"{name} must be in {interval}, not {value}")
