"""The storage stage's parameters (newscorpus.pipelines.storage, newscorpus.crawler.extensions.crawl_database): how
pages are written."""

from __future__ import annotations

from dataclasses import dataclass

from newscorpus.core.config_checks import at_least


@dataclass(frozen=True)
class StorageConfig:
    """Read by the crawl from NEWSCORPUS_STORAGE_<FIELD> (newscorpus.crawler.stage_settings)."""

    # Pages (and their articles) per transaction; a crawl's end flushes the rest. Not tuned: the first storage
    # stage's choice (commit 9aa6a6d), kept since.
    batch_size: int = 50

    def __post_init__(self) -> None:
        at_least(self, 1, "batch_size")
