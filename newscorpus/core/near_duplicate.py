"""Near-duplicate decision: one article's features against the candidates an index returns.

Order of checks for each candidate (the first that holds names the method):
1. "exact": same hash of the normalised body's word characters (format-only reprints);
2. "simhash": 64-bit fingerprints within `simhash_distance` bits and the body check below passes at the
   simhash floor (near-exact copies; the fingerprint only finds candidates, the body confirms);
3. "keywords": keyword overlap ≥ tau (the research base's decision) *and* body containment ≥ body_tau.
The body check exists because follow-up stories keep the title keywords and the lead of the story they
follow: keywords alone cannot tell them from reprints. Keywords in turn reject pairs that only share a
portal template or a few donor paragraphs, which a body check alone lets through.

Two guards of issue 15 (real sites), for "simhash" and "keywords" (an exact copy is always a duplicate):
- containment of a short body in a long one is a duplicate only when the shared text is a large part of the long
  one too (`min_cover`): a short post quoted in a longer one, a teaser inside a round-up, is another article;
- text that other candidates from the older article's site hold too is left out of the body comparison: it is
  that site's (a series' template: a weekly quiz, election guides, inspection round-ups share it across
  different stories), not evidence of one story, for a pair from that site and for a reprint elsewhere alike;
- a pair from the same site needs the two bodies to be nearly the same text (`same_site_jaccard`) under nearly
  the same title (`same_site_title`) with the same numbers in it: a site does not reprint its own story with a
  reprint's edits; the same story twice on one site is a near-exact copy of its own text and headline (a second
  URL, an update), while a series' issues (week 10, the 2022 guide, v7.3.14) and a project's release or event
  announcements reuse text under another headline.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from newscorpus.core.body_text import BodyText
from newscorpus.core.candidate_pool import CandidatePool
from newscorpus.core.config_checks import at_least, within
from newscorpus.core.frozen_instance import frozen_instance
from newscorpus.core.keywords import extract_keywords, normalize_text, segmentation_language, title_numbers
from newscorpus.core.resemblance_batch import resemblances
from newscorpus.core.shingle_sketch import (
    Resemblance,
    ShingleSketch,
    exact_body_hash,
    resemblance,
    sketch_body,
)
from newscorpus.core.simhash_fingerprint import body_fingerprint, hamming_distance

Method = Literal["exact", "simhash", "keywords"]


@dataclass(frozen=True)
class NearDuplicateConfig:
    """Defaults: paper values where it gives them, else fitted by `newscorpus eval near-duplicate --tune` (see
    docs/dedup_results.md, 2026-11, ../shared/data/dedup). The crawl reads each field from the setting
    NEWSCORPUS_NEAR_DUPLICATE_<FIELD> (newscorpus.crawl.stage_settings)."""

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
    # The crawl stage (newscorpus.stages.near_duplicate). Articles decided per transaction at most: 64 vs 32 gave
    # 261 vs 205 docs/s with 100k indexed articles (benchmarks/near_duplicate_throughput.py, BENCHMARKS.md).
    batch_size: int = 64
    # Processes that decide the stage's batches (features and the batch's transaction,
    # newscorpus.store.near_duplicate_process): 0 = none, a thread of the crawl process decides them (it holds
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


@dataclass(frozen=True)
class DocumentFeatures:
    lang: str
    keywords: frozenset[str]
    title_keywords: tuple[str, ...]
    simhash: int | None  # unsigned 64-bit; None when the body is too short to fingerprint
    sketch: ShingleSketch
    body_hash: str
    token_count: int  # word tokens of the body (Chinese: word characters), the completeness measure
    site: Hashable | None = None  # the publishing site (the crawl's site id); None: unknown, another site
    title_numbers: tuple[str, ...] = ()  # the title's numbers, sorted (keywords.title_numbers)


@dataclass(frozen=True)
class PairMeasures:
    """Everything the decision looks at for one pair, kept so thresholds can be refitted without a rerun."""

    same_body_hash: bool
    simhash_distance: int | None  # None when either body is too short to fingerprint
    overlap_min: float
    overlap_jaccard: float
    body_containment: float
    body_jaccard: float = 0.0  # 5-shingle resemblance (Broder 1997)
    body_cover: float = 0.0  # shared shingles / the longer body's shingles
    same_site: bool = False  # both articles come from one (known) site
    title_overlap: float = 1.0  # title keywords shared / the smaller set's (1.0 when either title has none)
    same_title_numbers: bool = True  # the two titles hold the same numbers (week, year, version, part)
    site_text: int = 0  # sketch hashes left out of the body measures: the older article's site's text (decide)


@dataclass(frozen=True)
class PairJudgement:
    candidate_id: Hashable
    is_duplicate: bool
    method: Method | None
    score: float  # the deciding measure: 1.0 exact, 1 - distance/64 simhash, keyword overlap
    measures: PairMeasures


@dataclass(frozen=True)
class NearDuplicateDecision:
    judgements: list[PairJudgement] = field(default_factory=list)

    @property
    def duplicates(self) -> list[PairJudgement]:
        return [j for j in self.judgements if j.is_duplicate]

    @property
    def best(self) -> PairJudgement | None:
        """The match the article is linked to: strongest method first, then the highest score."""
        rank = {"exact": 0, "simhash": 1, "keywords": 2}
        return min(self.duplicates, key=lambda j: (rank[j.method or "keywords"], -j.score), default=None)


def build_features(title: str, body: str, lang: str, config: NearDuplicateConfig, site: Hashable | None = None
                   ) -> DocumentFeatures:
    text = BodyText.of(normalize_text(body))  # read once: keywords, sketch, fingerprint and hash share its words
    words = text.words if lang != "zh" else None  # Chinese body keywords come from jieba, not `\w+` words
    found = extract_keywords(
        title, text.normalized, lang, config.window, config.min_cooccurrence, config.max_keywords, words
    )
    sketch = sketch_body(text, lang)
    return DocumentFeatures(
        lang=lang,
        keywords=found.all,
        title_keywords=found.title_keywords,
        simhash=body_fingerprint(text, lang) if sketch.token_count >= config.min_simhash_tokens else None,
        sketch=sketch,
        body_hash=exact_body_hash(text),
        token_count=sketch.token_count,
        site=site,
        title_numbers=title_numbers(title),
    )


# Languages written without spaces between words: their features are read as Chinese's are (characters, jieba
# words), not as space-separated words. On the 1,898 dev texts (../shared/data: extraction gold bodies, dedup docs)
# this mapping of the extraction's language gives the language keywords.segmentation_language gives for all but
# one, a Japanese page it read as words (3 of the 4 Japanese pages it read as "zh"), 2026-11-24.
CHARACTER_LANGUAGES = frozenset({"zh", "ja"})


def features_language(language: str | None, body: str) -> str:
    """The language the features of ``body`` are computed in, "zh" or "en" (words): from the ``language`` the
    extraction found (newscorpus.core.text.detect_language), detected from the body only when it found none."""
    if language is None:
        return segmentation_language(body)
    return "zh" if language in CHARACTER_LANGUAGES else "en"


def build_features_batch(articles: Sequence[tuple[str, str, Hashable | None, str | None]],
                         config: NearDuplicateConfig) -> list[DocumentFeatures]:
    """Features of (title, body, site, language) tuples, the language the extraction found or None
    (features_language): one call for a batch, so a worker process can compute a batch at a time
    (newscorpus.stages.near_duplicate)."""
    return [build_features(title, body, features_language(language, body), config, site)
            for title, body, site, language in articles]


def keyword_overlap(a: frozenset[str], b: frozenset[str], measure: str) -> float:
    if not a or not b:
        return 0.0
    shared = len(a & b)
    return shared / min(len(a), len(b)) if measure == "min" else shared / len(a | b)


def measure_pair(new: DocumentFeatures, old: DocumentFeatures,
                 site_text: np.ndarray | frozenset[int] = frozenset()) -> PairMeasures:
    """The pair's measures; the body measures leave `site_text` out (sketch hashes of the older article's site's
    own text: see `decide`)."""
    return _pair_measures(new, old, resemblance(new.sketch, old.sketch, site_text), len(site_text),
                          frozenset(new.title_keywords))


def _pair_measures(new: DocumentFeatures, old: DocumentFeatures, bodies: Resemblance, site_text: int,
                   new_title: frozenset[str]) -> PairMeasures:
    """`bodies`: the bodies compared without `site_text` of new's sketch hashes; `new_title`: new's title keywords
    (a set made once per article in `decide`)."""
    distance = None
    if new.simhash is not None and old.simhash is not None:
        distance = hamming_distance(new.simhash, old.simhash)
    if new.keywords and old.keywords:  # keyword_overlap's two measures from one intersection
        shared = len(new.keywords & old.keywords)
        overlap_min = shared / min(len(new.keywords), len(old.keywords))
        overlap_jaccard = shared / (len(new.keywords) + len(old.keywords) - shared)  # |A ∪ B|
    else:
        overlap_min = overlap_jaccard = 0.0
    return frozen_instance(PairMeasures, {  # PairMeasures(...) without its __init__: ~30 a decision (frozen_instance)
        "same_body_hash": bool(new.token_count) and new.body_hash == old.body_hash,
        "simhash_distance": distance,
        "overlap_min": overlap_min,
        "overlap_jaccard": overlap_jaccard,
        "body_containment": bodies.containment,
        "body_jaccard": bodies.jaccard,
        "body_cover": bodies.cover,
        "same_site": new.site is not None and new.site == old.site,
        "title_overlap": keyword_overlap(new_title, frozenset(old.title_keywords), "min")
        if new.title_keywords and old.title_keywords else 1.0,
        "same_title_numbers": new.title_numbers == old.title_numbers,
        "site_text": site_text,
    })


def judge(candidate_id: Hashable, m: PairMeasures, config: NearDuplicateConfig) -> PairJudgement:
    overlap = m.overlap_min if config.overlap == "min" else m.overlap_jaccard
    if m.same_body_hash:
        return _judgement(candidate_id, True, "exact", 1.0, m)
    same_site_evidence = (m.body_jaccard >= config.same_site_jaccard and m.title_overlap >= config.same_site_title
                          and m.same_title_numbers)
    if m.body_cover < config.min_cover or (m.same_site and not same_site_evidence):
        return _judgement(candidate_id, False, None, overlap, m)
    distance = m.simhash_distance
    if distance is not None and distance <= config.simhash_distance and m.body_containment >= config.simhash_body_floor:
        return _judgement(candidate_id, True, "simhash", 1 - distance / 64, m)
    if overlap >= config.tau and m.body_containment >= config.body_tau:
        return _judgement(candidate_id, True, "keywords", overlap, m)
    return _judgement(candidate_id, False, None, overlap, m)


def _judgement(candidate_id: Hashable, is_duplicate: bool, method: Method | None, score: float,
               measures: PairMeasures) -> PairJudgement:
    """PairJudgement(...) without its __init__ (frozen_instance)."""
    return frozen_instance(PairJudgement, {"candidate_id": candidate_id, "is_duplicate": is_duplicate,
                                           "method": method, "score": score, "measures": measures})


def judge_pair(
    new: DocumentFeatures, candidate_id: Hashable, old: DocumentFeatures, config: NearDuplicateConfig
) -> PairJudgement:
    return judge(candidate_id, measure_pair(new, old), config)


def decide(
    new: DocumentFeatures, candidates: Sequence[tuple[Hashable, DocumentFeatures]], config: NearDuplicateConfig
) -> NearDuplicateDecision:
    """Each candidate judged. The text of the new article that other candidates from either article's site hold
    too (not copies of either article) is that site's (a series' template), and is left out of the pair's body
    measures: for a pair from one site, and for a reprint elsewhere alike. All pairs are measured at once from the
    candidates' arrays (candidate_pool, resemblance_batch: issue 18), as `measure_pair` measures one."""
    judged = [(cid, old) for cid, old in candidates if old.lang == new.lang]
    if not judged:  # nothing to measure (122 of the 716 decisions of near_duplicate_throughput.py at 100k, 2026-11-24)
        return NearDuplicateDecision([])
    if len(judged) == 1:  # a lone candidate has no others: nothing left out, the pair measured as measure_pair does
        # (137 of the 716 decisions; the pool's ~25 array calls for one pair, issue 18, 2026-11-24)
        cid, old = judged[0]
        return NearDuplicateDecision([judge(cid, measure_pair(new, old), config)])
    return NearDuplicateDecision(_pool_judgements(new, judged, config))


def _pool_judgements(new: DocumentFeatures, judged: list[tuple[Hashable, DocumentFeatures]],
                     config: NearDuplicateConfig) -> list[PairJudgement]:
    """`decide`'s judgements of candidates in new's language, all pairs measured at once from the pool's arrays."""
    olds = [old for _, old in judged]
    pool = CandidatePool(new, olds, config.simhash_distance, COPY_JACCARD)
    left_out = pool.left_out()
    bodies = resemblances(new.sketch, [old.sketch for old in olds], pool.holds[:-1], pool.below[:-1], left_out)
    title = frozenset(new.title_keywords)
    return [judge(cid, _pair_measures(new, old, body, site_text, title), config)
            for (cid, old), body, site_text in zip(judged, bodies, left_out.sum(axis=1).tolist(), strict=True)]


# Two articles sharing this much are copies of one text, whose shared text says nothing about their site (as those
# with one body hash or fingerprints within the simhash bound: candidate_pool.CandidatePool._copies): the dev set's
# light reprints (<= 5 % of tokens changed) score 0.8-1.0 in 5-shingle Jaccard; the generated series issues at most
# 0.44 (evaluation/near_duplicate_series.py, 2026-11-24).
COPY_JACCARD = 0.8


# A duplicate replaces its cluster's canonical article only when its body has this much more word tokens:
# more complete, not just re-wrapped. Eval 2026-11 on ../shared/data/dedup (random arrival order): the
# original ends canonical in 84/189 clusters at 0.15, 86 at 0.05, 72 at 0 (added headers, footers and ads
# make reprints long too); 0.15 also keeps the canonical from flapping between near-equal reprints.
CANONICAL_GROWTH = 0.15


def prefers_as_canonical(challenger: DocumentFeatures, canonical: DocumentFeatures) -> bool:
    """Canonical rule: the first article of a story stays canonical unless a later duplicate is longer by
    more than CANONICAL_GROWTH (a truncated or abridged copy seen first gives way to the full text).
    Ties and small differences keep the earlier article, so the canonical does not flap between reprints."""
    return challenger.token_count > canonical.token_count * (1 + CANONICAL_GROWTH)
