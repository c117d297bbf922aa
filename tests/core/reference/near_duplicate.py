"""Plain forms of the near-duplicate decision, pair by pair on Python sets: what the pool and batch forms of
newscorpus.core.near_duplicate (candidate_pool, resemblance) must equal bit for bit
(tests/core/near_duplicate/test_fast_forms.py)."""

from __future__ import annotations

import numpy as np

from newscorpus.core.near_duplicate.candidate_pool import CandidatePool
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.decision import COPY_JACCARD, PairMeasures, judge
from newscorpus.core.near_duplicate.features import DocumentFeatures
from newscorpus.core.near_duplicate.shingle_sketch import SKETCH_SIZE, ShingleSketch, resemblance


def bottom_k_jaccard(first: set[int], second: set[int]) -> float:
    both = first & second
    if not both:
        return 0.0
    union = sorted(first | second)
    kept = min(SKETCH_SIZE, len(union))
    return sum(1 for h in both if h <= union[kept - 1]) / kept


def resemblance_of_sets(a: ShingleSketch, b: ShingleSketch, leave_out: set[int]) -> tuple[float, float, float]:
    first, second = set(a.hashes) - leave_out, set(b.hashes) - leave_out
    jaccard = bottom_k_jaccard(first, second)
    size_a = a.shingle_count * len(first) / max(1, len(set(a.hashes)))
    size_b = b.shingle_count * len(second) / max(1, len(set(b.hashes)))
    shared = jaccard / (1 + jaccard) * (size_a + size_b)
    return (jaccard, min(1.0, shared / max(1.0, min(size_a, size_b))),
            min(1.0, shared / max(1.0, max(size_a, size_b))))


def overlap(a, b, measure: str) -> float:
    a, b = frozenset(a), frozenset(b)
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b)) if measure == "min" else len(a & b) / len(a | b)


def near_copy(a: DocumentFeatures, b: DocumentFeatures, config: NearDuplicateConfig) -> bool:
    if a.token_count and a.body_hash == b.body_hash:
        return True
    if a.simhash is not None and b.simhash is not None and (a.simhash ^ b.simhash).bit_count() <= \
            config.simhash_distance:
        return True
    first, second = set(a.sketch.hashes), set(b.sketch.hashes)
    if len(first & second) < COPY_JACCARD * min(len(first), len(second)):
        return False
    return resemblance_of_sets(a.sketch, b.sketch, set())[0] >= COPY_JACCARD


def measures(new: DocumentFeatures, old: DocumentFeatures, site_text: set[int]) -> PairMeasures:
    jaccard, containment, cover = resemblance_of_sets(new.sketch, old.sketch, site_text)
    return PairMeasures(
        same_body_hash=bool(new.token_count) and new.body_hash == old.body_hash,
        simhash_distance=None if new.simhash is None or old.simhash is None
        else (new.simhash ^ old.simhash).bit_count(),
        overlap_min=overlap(new.keywords, old.keywords, "min"),
        overlap_jaccard=overlap(new.keywords, old.keywords, "jaccard"),
        body_containment=containment,
        body_jaccard=jaccard,
        body_cover=cover,
        same_site=new.site is not None and new.site == old.site,
        site_text=len(site_text),
        title_overlap=overlap(new.title_keywords, old.title_keywords, "min")
        if new.title_keywords and old.title_keywords else 1.0,
        same_title_numbers=new.title_numbers == old.title_numbers,
    )


def decide(new: DocumentFeatures, candidates, config: NearDuplicateConfig) -> list:
    by_site: dict = {}
    for _, old in candidates:
        if old.site is not None and old.lang == new.lang:
            by_site.setdefault(old.site, []).append(old)
    judgements = []
    for cid, old in candidates:
        if old.lang != new.lang:
            continue
        rows = by_site.get(old.site, []) + (by_site.get(new.site, []) if new.site != old.site else [])
        others = [m for m in rows if m is not old and not near_copy(m, new, config)
                  and not near_copy(m, old, config)]
        site_text = set().union(*(set(m.sketch.hashes) for m in others)) & set(new.sketch.hashes)
        judgements.append(judge(cid, measures(new, old, site_text), config))
    return judgements


def copies_from_whole_count(pool: CandidatePool, member) -> list:
    """CandidatePool._copies without its bound: every pair's count from `_shared`."""
    rows = pool.rows
    asked = np.append(member, False)
    copies = np.array([[bool(a.token_count) and a.body_hash == b.body_hash
                        or (a.simhash is not None and b.simhash is not None
                            and (a.simhash ^ b.simhash).bit_count() <= pool.simhash_distance) for b in rows]
                       for a in rows]) & asked[:, None]
    passing = ~copies & asked[:, None] & (
        pool._shared() >= pool.copy_jaccard * np.minimum(pool.sizes[:, None], pool.sizes[None, :]))
    for i, j in zip(*np.nonzero(passing), strict=True):
        copies[i, j] = resemblance(rows[i].sketch, rows[j].sketch).jaccard >= pool.copy_jaccard
    return copies.tolist()


def holds_and_below_by_search(pool: CandidatePool):
    """CandidatePool's holds, below and in_new by a binary search of every row hash in new's."""
    new_hashes = pool.rows[-1].sketch.hash_array
    count = len(new_hashes)
    at = np.searchsorted(new_hashes, pool.flat)
    in_new = new_hashes[np.minimum(at, count - 1)] == pool.flat if count else np.zeros(len(at), dtype=bool)
    holds = np.zeros(len(pool.rows) * count, dtype=bool)
    holds[(pool.owners * count + at)[in_new]] = True
    outside = np.bincount((pool.owners * (count + 1) + at)[~in_new], minlength=len(pool.rows) * (count + 1))
    below = np.cumsum(outside.reshape(len(pool.rows), count + 1)[:, :count], axis=1)
    return holds.reshape(len(pool.rows), count), below, in_new
