"""The near-duplicate stage's configuration: one dataclass, each field the setting
NEWSCORPUS_NEAR_DUPLICATE_<FIELD>, its default and source beside it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from newscorpus.core.config_checks import at_least, within


@dataclass(frozen=True)
class NearDuplicateConfig:
    """Defaults: paper values where it gives them, else fitted by `newscorpus eval near-duplicate --tune` on
    ../shared/data/dedup (BENCHMARKS.md, Near-duplicates). The crawl reads each field from the setting
    NEWSCORPUS_NEAR_DUPLICATE_<FIELD> (newscorpus.crawler.stage_settings)."""

    window: int = 5  # ±w tokens around a title keyword; paper: no value given; --tune grid best (w=5, m=2)
    min_cooccurrence: int = 2  # m: windows a body word must appear in; --tune grid {1, 2, 3}
    max_keywords: int = 40  # cap on |title ∪ body keywords|: bounds index size (not tuned)
    overlap: Literal["min", "jaccard"] = "min"  # |A∩B| / min(|A|,|B|) (paper: overlap ratio); --tune chose min
    tau: float = 0.15  # keyword overlap threshold; --tune fit (plateau 0.10–0.25)
    body_tau: float = 0.45  # body 5-shingle containment threshold; --tune fit (plateau 0.40–0.50)
    simhash_distance: int = 3  # Hamming ≤ 3: the classic near-copy bound (Manku et al. 2007)
    simhash_body_floor: float = 0.3  # body containment a simhash match still needs (guard, not tuned)
    min_simhash_tokens: int = 50  # bodies with fewer word tokens get no fingerprint (guard, not tuned)
    candidate_limit: int = 30  # keyword candidates compared per article, most shared keywords first
    min_shared_keywords: int = 2  # candidates sharing fewer keywords are not compared
    # Real sites: shared shingles / the longer body's shingles. Every positive pair of ../shared/data/dedup has at
    # least 0.405 (reprint-reprint, two compounded truncations; original-reprint 0.546), the short-in-long pairs
    # of real sites far less (a 1-paragraph post inside a 6-paragraph one: ~0.15). 0.35 keeps every dev positive.
    min_cover: float = 0.35
    # Same-site pairs: body Jaccard (without the text the site's other candidates hold, decide()). The generated
    # same-series negatives (`newscorpus eval near-duplicate`, newscorpus/evaluation/near_duplicate_series.py:
    # template 30-75 % of each issue) reach 0.23 (body Jaccard 0.44); the same issue again on its site, updated,
    # keeps >= 0.72; 0.5 lies between.
    same_site_jaccard: float = 0.5
    # Same-site pairs: title keywords shared / the smaller title's keywords. A copy of a story on its own site
    # keeps its headline (1.0; one word in five may differ); the announcements the pypy.org blog reuses text for
    # (sprints, releases: body Jaccard 0.59-0.73) have 0.5-0.67 (benchmarks/real_site.py).
    same_site_title: float = 0.8
    # The crawl stage (newscorpus.pipelines.near_duplicate). Articles decided per transaction at most: 64 decides
    # about a quarter more documents/s than 32 with 100k indexed articles (benchmarks/near_duplicate_throughput.py).
    batch_size: int = 64
    # Processes that decide the stage's batches (features and the batch's transaction,
    # newscorpus.store.near_duplicate.process): 0 = none, a thread of the crawl process decides them (holding the
    # crawl process's GIL meanwhile); 1 = one process of its own (it costs CPU to start and ~55-60 MB RSS). 0 by
    # default: on two shared cores 1 gives no gain in pages/s beyond the load's noise, for more CPU per page and a
    # higher peak RSS (benchmarks/crawl_rate.py --variants plain,+near_duplicate,+near_duplicate_process).
    workers: int = 0

    def __post_init__(self) -> None:
        at_least(self, 1, "window", "min_cooccurrence", "max_keywords", "candidate_limit", "min_shared_keywords",
                 "batch_size")
        at_least(self, 0, "min_simhash_tokens")
        within(self, 0, 1, "tau", "body_tau", "simhash_body_floor", "min_cover", "same_site_jaccard",
               "same_site_title")
        if self.overlap not in ("min", "jaccard"):
            raise ValueError(f"overlap must be 'min' or 'jaccard', not {self.overlap!r}")
        if not 1 <= self.simhash_distance <= 15:  # what the index's lookup keys cover (simhash.block_keys)
            raise ValueError(f"simhash_distance must be in 1..15, not {self.simhash_distance}")
        if self.workers not in (0, 1):
            raise ValueError(f"workers must be 0 or 1, not {self.workers}")
