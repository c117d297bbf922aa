"""One article's body compared with all its candidates' at once (issue 18): `shingle_sketch.resemblance` for every
pair, each with its own text left out, from counts over the candidate pool's arrays instead of a merge per pair.

A pair's bottom-k Jaccard estimate is the share of the k smallest hashes of the union of the two sketches (what
is left of them) that both hold. Both hold only hashes of the new article, so per pair it takes: which of new's
hashes are left and which the candidate holds, and the place of each in the union (new's hashes left before it
and the candidate's other hashes below it): the shared ones placed among the k first are counted."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from newscorpus.core.shingle_sketch import SKETCH_SIZE, Resemblance, ShingleSketch, resemblance_of


def resemblances(new: ShingleSketch, olds: Sequence[ShingleSketch], holds: np.ndarray, below: np.ndarray,
                 left_out: np.ndarray) -> list[Resemblance]:
    """resemblance(new, olds[i], leave_out=new's hashes where left_out[i]) for every i, bit for bit. holds[i, j]:
    olds[i] holds new's j-th hash; below[i, j], read only where
    olds[i] holds it: olds[i]'s hashes that new does not hold, smaller than new's j-th."""
    kept = ~left_out
    both = holds & kept
    kept_new = kept.sum(axis=1)
    shared = both.sum(axis=1)
    kept_old = np.array([len(old.hash_array) for old in olds], dtype=np.int64) - (holds & left_out).sum(axis=1)
    union = kept_new + kept_old - shared
    # A kept hash of new's place in the pair's ascending union: new's kept hashes before it, and the old's own below.
    place = np.cumsum(kept, axis=1) - kept + below
    counted = (both & (place < SKETCH_SIZE)).sum(axis=1)  # shared hashes among the union's SKETCH_SIZE smallest
    return [resemblance_of(found / min(SKETCH_SIZE, size) if common else 0.0, new, old, left_a, left_b)
            for old, found, size, common, left_a, left_b in
            zip(olds, counted.tolist(), union.tolist(), shared.tolist(), kept_new.tolist(), kept_old.tolist(),
                strict=True)]
