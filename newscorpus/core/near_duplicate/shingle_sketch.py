"""Bottom-k sketches of body 5-shingles: a compact body check for candidates found by keywords.

Shingles are word 5-grams (non-Chinese) or 5-grams of word characters (Chinese) of the normalised body,
as the MinHash baseline of ../shared/data/dedup/README.md. A sketch keeps the k smallest 63-bit shingle
hashes (they fit a Postgres bigint[] as they are) and the number of distinct shingles, which is enough to
estimate the Jaccard resemblance and the containment |A∩B| / min(|A|, |B|) of two bodies (Broder 1997).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from newscorpus.core.frozen_instance import frozen_instance
from newscorpus.core.near_duplicate.body_text import WORD_CRCS, BodyText

SHINGLE_SIZE = 5  # the data set's jaccard5 diagnostic and the MinHash baseline use 5-shingles
# Hashes kept per body: 256 gives a Jaccard standard error ≤ 0.031 (sqrt(J(1-J)/k)) at 2 KB per article.
SKETCH_SIZE = 256
_MIX_1, _MIX_2, _STEP = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB), np.uint64(0x100000001B3)


@dataclass(frozen=True)
class ShingleSketch:
    hashes: tuple[int, ...]  # sorted ascending, at most SKETCH_SIZE
    shingle_count: int  # distinct shingles of the whole body
    token_count: int  # word tokens of the body (Chinese: word characters)

    @cached_property
    def hash_array(self) -> np.ndarray:
        """The hashes as a sorted array of distinct int64 (63-bit hashes fit): comparisons are merges over it,
        about ten times faster than Python sets at 256 hashes; built once per sketch."""
        return sorted_distinct(np.array(self.hashes, dtype=np.int64))

    @classmethod
    def of_array(cls, hashes: np.ndarray, shingle_count: int, token_count: int) -> ShingleSketch:
        """The sketch of hashes given as an int64 array (a body's, or a stored row's): when they are strictly
        increasing the array is `hash_array` as it is (np.unique would return the same values), instead of an array
        made again from the tuple on first use."""
        sketch = cls(tuple(hashes.tolist()), shingle_count, token_count)
        if len(hashes) < 2 or bool((hashes[1:] > hashes[:-1]).all()):  # the method: np.all's wrapper costs more
            array = hashes.astype(np.int64)  # a copy of its own, read-only like the cached one is never written
            array.flags.writeable = False
            sketch.__dict__["hash_array"] = array  # where cached_property keeps it
        return sketch


def _token_ids(body: BodyText, lang: str) -> np.ndarray:
    if lang == "zh":  # one id per word character: its code point
        return body.word_codes
    return WORD_CRCS.pairs(body.words) >> np.uint64(32)  # CRC-32 of the word


def shingle_hashes(ids: np.ndarray) -> np.ndarray:
    """Distinct 63-bit hashes of the token ids' shingles, sorted (fewer tokens than a shingle: one shingle)."""
    if len(ids) == 0:
        return np.zeros(0, dtype=np.uint64)
    span = min(SHINGLE_SIZE, len(ids))
    mixed = ids[: len(ids) - span + 1].astype(np.uint64)  # a copy, worked on in place
    for offset in range(1, span):  # polynomial rolling combination, wrapping mod 2**64
        mixed *= _STEP
        mixed += ids[offset : offset + len(mixed)]
    mixed ^= mixed >> np.uint64(30)  # splitmix64 finaliser: spreads the bits before taking the minimum
    mixed *= _MIX_1
    mixed ^= mixed >> np.uint64(27)
    mixed *= _MIX_2
    mixed ^= mixed >> np.uint64(31)
    mixed >>= np.uint64(1)
    mixed.sort()  # sort + neighbour test: np.unique's hash path was ~4x slower here
    return sorted_distinct(mixed, is_sorted=True)


def sorted_distinct(values: np.ndarray, is_sorted: bool = False) -> np.ndarray:
    """np.unique(values) (a 1-d array of integers) by a sort and a neighbour test, without np.unique: its first call
    imports numpy.ma, a cost at every crawl's start (benchmarks/near_duplicate_startup.py)."""
    if not is_sorted:
        values = np.sort(values)
    return values[np.concatenate(([True], values[1:] != values[:-1]))[: len(values)]]


def sketch_body(body: BodyText, lang: str) -> ShingleSketch:
    ids = _token_ids(body, lang)
    hashes = shingle_hashes(ids)
    return ShingleSketch.of_array(hashes[:SKETCH_SIZE].astype(np.int64), len(hashes), len(ids))  # 63-bit: no sign


def _bottom_k_jaccard(first: np.ndarray, second: np.ndarray) -> float:
    """Share of the union's k smallest hashes present in both sorted arrays of distinct hashes (0.0: none)."""
    merged = np.concatenate((first, second))
    merged.sort()
    repeated = merged[1:] == merged[:-1]  # each array holds a hash once: a repeat is a hash in both
    both = merged[1:][repeated]
    if len(both) == 0:
        return 0.0
    kept = min(SKETCH_SIZE, len(merged) - len(both))  # the union's size
    threshold = merged[np.flatnonzero(np.concatenate(([True], ~repeated)))[kept - 1]]
    return int(np.count_nonzero(both <= threshold)) / kept


@dataclass(frozen=True)
class Resemblance:
    """Two bodies' shingle sets compared, from the Jaccard estimate and the set sizes."""

    jaccard: float  # |A∩B| / |A∪B|
    containment: float  # |A∩B| / min(|A|, |B|): robust to added headers and footers
    cover: float  # |A∩B| / max(|A|, |B|): how much of the longer body the shared text is


def _without(values: np.ndarray, removed: np.ndarray) -> np.ndarray:
    """`values` (sorted, distinct) without those in `removed` (sorted, distinct): a binary search of each value,
    about three times faster than np.setdiff1d's sort at 256 hashes."""
    if not len(removed):
        return values
    at = np.minimum(np.searchsorted(removed, values), len(removed) - 1)
    return values[removed[at] != values]


def as_hash_array(hashes: np.ndarray | frozenset[int] | set[int]) -> np.ndarray:
    """Sketch hashes as a sorted array of distinct int64 (an array is taken as it is)."""
    if isinstance(hashes, np.ndarray):
        return hashes
    return np.array(sorted(hashes), dtype=np.int64)


def resemblance(a: ShingleSketch, b: ShingleSketch, leave_out: np.ndarray | frozenset[int] = frozenset()
                ) -> Resemblance:
    """The bodies compared; `leave_out`: sketch hashes of text left out of both (a site's template). The sketch is
    a uniform sample of a body's shingles, so the share of its hashes left estimates the share of shingles left."""
    first, second = a.hash_array, b.hash_array
    leave_out = as_hash_array(leave_out)
    if len(leave_out):
        first, second = _without(first, leave_out), _without(second, leave_out)
    return resemblance_of(_bottom_k_jaccard(first, second), a, b, len(first), len(second))


def resemblance_of(jaccard: float, a: ShingleSketch, b: ShingleSketch, kept_a: int, kept_b: int) -> Resemblance:
    """The resemblance from the sketches' Jaccard estimate, `kept_a` and `kept_b` of their hashes left in (the
    rest left out); shared by `resemblance` and the batch of near_duplicate.resemblance, so both give the same
    floats."""
    size_a = a.shingle_count * kept_a / max(1, len(a.hash_array))
    size_b = b.shingle_count * kept_b / max(1, len(b.hash_array))
    shared = jaccard / (1 + jaccard) * (size_a + size_b)  # J = |A∩B| / (|A| + |B| - |A∩B|)
    return frozen_instance(Resemblance, {"jaccard": jaccard,  # Resemblance(...) without its __init__
                                         "containment": min(1.0, shared / max(1.0, min(size_a, size_b))),
                                         "cover": min(1.0, shared / max(1.0, max(size_a, size_b)))})


def exact_body_hash(body: BodyText) -> str:
    """Hash of the body's word characters only: equal for format-only reprints (width, quotes, spacing)."""
    return hashlib.sha1(body.word_chars.encode()).hexdigest()
