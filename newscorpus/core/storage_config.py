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
    # Postgres connections a build's crawl may hold at once, the build's own included: it crawls as many sites at
    # once as fit and queues the rest (newscorpus.builds.crawl_child), so the count does not grow with its sites.
    # 50: half of a default server's 100, the rest left to the CLI, the maintenance steps and other workers; with
    # the default stages (6 a site) 8 sites at once (benchmarks/many_sites.py measures what the queue costs).
    max_connections: int = 50

    def __post_init__(self) -> None:
        at_least(self, 1, "batch_size")
        at_least(self, 1, "max_connections")
