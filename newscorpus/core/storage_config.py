"""The storage stage's parameters (newscorpus.stages.storage, newscorpus.crawl.database): how pages are written."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StorageConfig:
    """Read by the crawl from NEWSCORPUS_STORAGE_<FIELD> (newscorpus.crawl.stage_settings)."""

    # Pages (and their articles) per transaction; a crawl's end flushes the rest. Not tuned: the first storage
    # stage's choice (commit 9aa6a6d), kept since.
    batch_size: int = 50

    def __post_init__(self) -> None:
        if self.batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, not {self.batch_size}")
