"""The near-duplicate stage's configuration: one dataclass, each field the setting
NEWSCORPUS_NEAR_DUPLICATE_<FIELD>, its default and source beside it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from newscorpus.core.config_checks import at_least, within


@dataclass(frozen=True)
class NearDuplicateConfig:
    """Defaults: paper values where it gives them, else fitted by `newscorpus eval near-duplicate --tune` (see
    docs/dedup_results.md, 2026-11, ../shared/data/dedup). The crawl reads each field from the setting
    NEWSCORPUS_NEAR_DUPLICATE_<FIELD> (newscorpus.crawler.stage_settings)."""

    window: int = 5  # ±w tokens around a title keyword; paper: no value given; --tune grid best (w=5, m=2)
    min_cooccurrence: int = 2  # m: windows a body word must appear in; --tune grid {1, 2, 3}
    max_keywords: int = 40  # cap on |title ∪ body keywords|: bounds index size (not tuned)
    overlap: Literal["min", "jaccard"] = "min"  # |A∩B| / min(|A|,|B|) (paper: overlap ratio); --tune chose min
    tau: float = 0.15  # keyword overlap threshold; --tune fit 2026-11 (plateau 0.10–0.25)
    body_tau: float = 0.45  # body 5-shingle containment threshold; --tune fit 2026-11 (plateau 0.40–0.50)
    simhash_distance: int = 3  # Hamming ≤ 3: the classic near-copy bound (Manku et al. 2007)
    simhash_body_floor: float = 0.3  # body containment a simhash match still needs (guard, not tuned)
    min_simhash_tokens: int = 50  # bodies with fewer word tokens get no fingerprint (guard, not tuned)
    candidate_limit: int = 30  # keyword candidates compared per article, most shared keywords first
    min_shared_keywords: int = 2  # candidates sharing fewer keywords are not compared
    # Issue 15. Shared shingles / the longer body's shingles: every positive pair of ../shared/data/dedup has at
    # least 0.405 (reprint-reprint, two compounded truncations; original-reprint 0.546), the short-in-long pairs
    # of real sites far less (a 1-paragraph post inside a 6-paragraph one: ~0.15). 0.35 keeps every dev positive.
    min_cover: float = 0.35
    # Issue 15. Same-site pairs: body Jaccard (without the text the site's other candidates hold, decide()).
    # The generated same-series negatives (`newscorpus eval near-duplicate`,
    # newscorpus/evaluation/near_duplicate_series.py: template
    # 30-75 % of each issue) reach 0.23 (body Jaccard 0.44); the same issue again on its site, updated, keeps
    # >= 0.72 (measured 2026-11-24); 0.5 lies between.
    same_site_jaccard: float = 0.5
    # Issue 15. Same-site pairs: title keywords shared / the smaller title's keywords. A copy of a story on its
    # own site keeps its headline (1.0; one word in five may differ); the announcements the pypy.org blog reuses
    # text for (sprints, releases: body Jaccard 0.59-0.73) have 0.5-0.67 (benchmarks/real_site.py, 2026-11-24).
    same_site_title: float = 0.8
    # The crawl stage (newscorpus.pipelines.near_duplicate). Articles decided per transaction at most: 64 vs 32 gave
    # 261 vs 205 docs/s with 100k indexed articles (benchmarks/near_duplicate_throughput.py, BENCHMARKS.md).
    batch_size: int = 64
    # Processes that decide the stage's batches (features and the batch's transaction,
    # newscorpus.store.near_duplicate.process): 0 = none, a thread of the crawl process decides them (it holds
    # the crawl process's GIL ~3.3 ms a page); 1 = one process of its own (the crawl process's GIL spends ~0.2 ms
    # a page on them; the process costs ~0.35 s CPU to start, ~55-60 MB RSS, ~35 MB PSS). 0 by default: on the 2
    # shared cores of benchmarks/crawl_rate.py (2026-11-24, load 1.9-5.4) 1 gave no measured gain in pages/s
    # (15 paired rounds 0.55-1.52x, median ~1.1, inside the load's noise) for up to +1.2 ms/page of CPU and
    # 146-153 -> 201-215 MB peak RSS (BENCHMARKS.md "Issue 18, round 4").
    workers: int = 0

    def __post_init__(self) -> None:
        at_least(self, 1, "window", "min_cooccurrence", "max_keywords", "candidate_limit", "min_shared_keywords",
                 "batch_size")
        at_least(self, 0, "min_simhash_tokens")
        within(self, 0, 1, "tau", "body_tau", "simhash_body_floor", "min_cover", "same_site_jaccard",
               "same_site_title")
        if self.overlap not in ("min", "jaccard"):
            raise ValueError(f"overlap must be 'min' or 'jaccard', not {self.overlap!r}")
        if not 1 <= self.simhash_distance <= 15:  # what the index's lookup keys cover (simhash_fingerprint)
            raise ValueError(f"simhash_distance must be in 1..15, not {self.simhash_distance}")
        if self.workers not in (0, 1):
            raise ValueError(f"workers must be 0 or 1, not {self.workers}")
