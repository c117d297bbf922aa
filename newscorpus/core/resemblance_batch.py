"""One article's body compared with all its candidates' at once (issue 18): `shingle_sketch.resemblance` for every
pair, each with its own text left out, from counts over the candidate pool's arrays instead of a merge per pair.

A pair's bottom-k Jaccard estimate is the share of the k smallest hashes of the union of the two sketches (what
is left of them) that both hold. Both hold only hashes of the new article, so per pair it takes: how many of
new's hashes are left, how many the candidate holds, and, when the union has more than k hashes, its k-th
smallest (one np.partition over all pairs at once), below which the shared ones are counted."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from newscorpus.core.candidate_pool import PAD
from newscorpus.core.shingle_sketch import SKETCH_SIZE, Resemblance, ShingleSketch, resemblance_of


def resemblances(new: ShingleSketch, olds: Sequence[ShingleSketch], holds: np.ndarray, own: np.ndarray,
                 left_out: np.ndarray) -> list[Resemblance]:
    """resemblance(new, olds[i], leave_out=new's hashes where left_out[i]) for every i, bit for bit. holds[i, j]:
    olds[i] holds new's j-th hash; own[i]: olds[i]'s hashes new does not hold, ascending, padded with PAD."""
    kept = ~left_out
    both = holds & kept
    kept_new = kept.sum(axis=1)
    shared = both.sum(axis=1)
    kept_old = np.array([len(old.hash_array) for old in olds], dtype=np.int64) - (holds & left_out).sum(axis=1)
    union = kept_new + kept_old - shared
    counted = shared.copy()  # shared hashes among the union's SKETCH_SIZE smallest
    cut = np.flatnonzero((shared > 0) & (union > SKETCH_SIZE))
    if len(cut):
        merged = np.concatenate((np.where(kept[cut], new.hash_array, PAD), own[cut]), axis=1)
        threshold = np.partition(merged, SKETCH_SIZE - 1, axis=1)[:, SKETCH_SIZE - 1]
        counted[cut] = (both[cut] & (new.hash_array[None, :] <= threshold[:, None])).sum(axis=1)
    return [resemblance_of(found / min(SKETCH_SIZE, size) if common else 0.0, new, old, left_a, left_b)
            for old, found, size, common, left_a, left_b in
            zip(olds, counted.tolist(), union.tolist(), shared.tolist(), kept_new.tolist(), kept_old.tolist(),
                strict=True)]
