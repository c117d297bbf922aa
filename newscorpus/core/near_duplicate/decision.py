"""Near-duplicate decision: one article's features against the candidates an index returns.

Order of checks for each candidate (the first that holds names the method):
1. "exact": same hash of the normalised body's word characters (format-only reprints);
2. "simhash": 64-bit fingerprints within `simhash_distance` bits and the body check below passes at the
   simhash floor (near-exact copies; the fingerprint only finds candidates, the body confirms);
3. "keywords": keyword overlap ≥ tau (the research base's decision) *and* body containment ≥ body_tau.
The body check exists because follow-up stories keep the title keywords and the opening of the story they
follow: keywords alone cannot tell them from reprints. Keywords in turn reject pairs that only share a
portal template or a few donor paragraphs, which a body check alone lets through.

Two guards learnt on real sites, for "simhash" and "keywords" (an exact copy is always a duplicate):
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

from newscorpus.core.frozen_instance import frozen_instance
from newscorpus.core.near_duplicate.candidate_pool import CandidatePool
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.features import DocumentFeatures
from newscorpus.core.near_duplicate.resemblance import resemblances
from newscorpus.core.near_duplicate.shingle_sketch import (
    Resemblance,
    resemblance,
)
from newscorpus.core.near_duplicate.simhash import hamming_distance

Method = Literal["exact", "simhash", "keywords"]


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
    candidates' arrays (candidate_pool, resemblance), as `measure_pair` measures one."""
    judged = [(cid, old) for cid, old in candidates if old.lang == new.lang]
    if not judged:  # nothing to measure (about one decision in six of benchmarks/near_duplicate_throughput.py)
        return NearDuplicateDecision([])
    if len(judged) == 1:  # a lone candidate has no others: nothing left out, the pair measured as measure_pair does
        # (about one decision in five: cheaper than the pool's ~25 array calls for one pair)
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
# 0.44 (evaluation/near_duplicate_series.py).
COPY_JACCARD = 0.8


# A duplicate replaces its cluster's canonical article only when its body has this much more word tokens:
# more complete, not just re-wrapped. `newscorpus eval near-duplicate` on ../shared/data/dedup (random arrival
# order): the original ends canonical in 84/189 clusters at 0.15, 86 at 0.05, 72 at 0 (added headers, footers and
# ads make reprints long too); 0.15 also keeps the canonical from flapping between near-equal reprints.
CANONICAL_GROWTH = 0.15


def prefers_as_canonical(challenger: DocumentFeatures, canonical: DocumentFeatures) -> bool:
    """Canonical rule: the first article of a story stays canonical unless a later duplicate is longer by
    more than CANONICAL_GROWTH (a truncated or abridged copy seen first gives way to the full text).
    Ties and small differences keep the earlier article, so the canonical does not flap between reprints."""
    return challenger.token_count > canonical.token_count * (1 + CANONICAL_GROWTH)
