"""One article's body compared with all its candidates' at once: `shingle_sketch.resemblance` for every
pair, each with its own text left out, from counts over the candidate pool's arrays instead of a merge per pair.

A pair's bottom-k Jaccard estimate is the share of the k smallest hashes of the union of the two sketches (what
is left of them) that both hold. Both hold only hashes of the new article, so per pair it takes: which of new's
hashes are left and which the candidate holds, and the place of each in the union (new's hashes left before it
and the candidate's other hashes below it): the shared ones placed among the k first are counted."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from newscorpus.core.frozen_instance import frozen_instance
from newscorpus.core.near_duplicate.shingle_sketch import SKETCH_SIZE, Resemblance, ShingleSketch, resemblance_of


def resemblances(new: ShingleSketch, olds: Sequence[ShingleSketch], holds: np.ndarray, below: np.ndarray,
                 left_out: np.ndarray) -> list[Resemblance]:
    """resemblance(new, olds[i], leave_out=new's hashes where left_out[i]) for every i, bit for bit. holds[i, j]:
    olds[i] holds new's j-th hash; below[i, j] (read only where olds[i] holds it): olds[i]'s hashes that new does not
    hold, smaller than new's j-th."""
    kept = ~left_out
    both = holds & kept
    kept_new = kept.sum(axis=1)
    shared = both.sum(axis=1)
    hash_counts = np.array([len(old.hash_array) for old in olds], dtype=np.int64)
    kept_old = hash_counts - (holds & left_out).sum(axis=1)
    union = kept_new + kept_old - shared
    # A kept hash of new's place in the pair's ascending union: new's kept hashes before it, and the old's own below.
    place = np.cumsum(kept, axis=1) - kept + below
    counted = (both & (place < SKETCH_SIZE)).sum(axis=1)  # shared hashes among the union's SKETCH_SIZE smallest
    shingle_counts = np.array([old.shingle_count for old in olds], dtype=np.int64)
    # A count of shingles times one of hashes past float64's integers: resemblance_of's Python ints.
    exact = max(new.shingle_count, int(shingle_counts.max(initial=0))) * (int(hash_counts.max(initial=0))
                                                                         + len(new.hash_array))
    if len(olds) < AT_ONCE_FROM or exact >= EXACT_PRODUCTS:
        return [resemblance_of(found / min(SKETCH_SIZE, size) if common else 0.0, new, old, left_a, left_b)
                for old, found, size, common, left_a, left_b in
                zip(olds, counted.tolist(), union.tolist(), shared.tolist(), kept_new.tolist(), kept_old.tolist(),
                    strict=True)]
    # resemblance_of's arithmetic on every pair at once, the same IEEE operations in the same order (so the same
    # floats).
    jaccard = np.divide(counted, np.minimum(SKETCH_SIZE, union), out=np.zeros(len(olds)), where=shared > 0)
    size_new = new.shingle_count * kept_new / max(1, len(new.hash_array))
    size_old = shingle_counts * kept_old / np.maximum(1, hash_counts)
    common = jaccard / (1 + jaccard) * (size_new + size_old)
    containment = np.minimum(1.0, common / np.maximum(1.0, np.minimum(size_new, size_old)))
    cover = np.minimum(1.0, common / np.maximum(1.0, np.maximum(size_new, size_old)))
    return [frozen_instance(Resemblance, {"jaccard": j, "containment": c, "cover": v})
            for j, c, v in zip(jaccard.tolist(), containment.tolist(), cover.tolist(), strict=True)]


# Products of a shingle count and a count of hashes under this are exact in float64, so numpy's int64 -> float64
# division rounds as Python's int / int does (resemblance_of); at or over it, resemblance_of itself.
EXACT_PRODUCTS = 1 << 53
# Candidates from which the arithmetic is done at once: its ~15 numpy calls cost more than resemblance_of's Python
# below about 18 candidates (demo decisions cut to their first k candidates, benchmarks/near_duplicate_decide.py).
AT_ONCE_FROM = 20
