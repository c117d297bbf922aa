"""64-bit simhash fingerprints of article bodies, their signed-bigint form and pigeonhole lookup keys.

Features are weighted words (`\\w+` words for non-Chinese, CJK character bigrams for Chinese), not the
`simhash` package's default 4-character shingles. Stopwords are left out and the weight grows with the log
of the count, so frequent function words no longer dominate long bodies (the cause of most simhash false
positives in ../shared/data/dedup/README.md). Chinese uses character bigrams rather than jieba words so
the whole body need not be segmented (jieba runs at ~100 bodies/s, the stage budget is 300 docs/s).
"""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter
from functools import cache

import numpy as np

from pipelines.core.keywords import is_keyword, load_stopwords

FINGERPRINT_BITS = 64
SIGNED_OFFSET = 1 << 63  # Postgres bigint is signed: stored = unsigned - 2**63 (keeps the order)
# Weight cap of a feature (the simhash package's fast-path cutoff, kept when we replaced the package).
MAX_FEATURE_WEIGHT = 50
# Features kept per body, the most frequent first: bounds the cost on long bodies; the most frequent 256
# carry the fingerprint of a near-exact copy.
MAX_FEATURES = 256
_SHIFTS = np.arange(FINGERPRINT_BITS, dtype=np.uint64)
_MIX_1, _MIX_2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)

_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD = re.compile(r"\w+")


def simhash_features(normalized_body: str, lang: str) -> dict[str, int]:
    """Weighted features of a normalised body (see `keywords.normalize_text`): weight 1 + log2(count)."""
    if lang == "zh":
        counts = _cjk_bigram_counts("".join(_CJK_RUN.findall(normalized_body)))
        counts.update(w for w in _WORD.findall(_CJK_RUN.sub(" ", normalized_body)) if is_keyword(w, "en"))
    else:
        counts = Counter(_WORD.findall(normalized_body))
        for feature in [f for f in counts if not is_keyword(f, lang)]:
            del counts[feature]
    top = counts.most_common(MAX_FEATURES)
    return {feature: min(MAX_FEATURE_WEIGHT, 1 + int(math.log2(n))) for feature, n in top}


@cache
def _stop_code_points() -> np.ndarray:
    return np.array(sorted(ord(w) for w in load_stopwords("zh") if len(w) == 1), dtype=np.uint64)


def _cjk_bigram_counts(chars: str) -> Counter[str]:
    """The MAX_FEATURES most frequent character bigrams, both-stop-character bigrams left out (numpy: a
    Counter over a 4000-character body costs more than the rest of the fingerprint)."""
    if len(chars) < 2:
        return Counter()
    codes = np.frombuffer(chars.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    stop = np.isin(codes, _stop_code_points())
    keep = ~(stop[:-1] & stop[1:])  # bigrams across a CJK run boundary are kept: harmless noise
    ids, counts = np.unique((codes[:-1] << np.uint64(21) | codes[1:])[keep], return_counts=True)
    top = np.argsort(-counts, kind="stable")[:MAX_FEATURES]
    mask = (1 << 21) - 1
    return Counter(
        {chr(i >> 21) + chr(i & mask): n for i, n in zip(ids[top].tolist(), counts[top].tolist(), strict=True)}
    )


def feature_hashes(features: list[str]) -> np.ndarray:
    """Stable 64-bit hashes of feature strings: two CRC-32s (seeds 0 and 1) through the splitmix64 finaliser.
    The simhash package's md5 per feature cost ~0.9 ms per body (2026-11 profile); this costs ~0.1 ms, and is
    the same in every process (unlike Python's `hash`)."""
    encoded = [f.encode() for f in features]
    mixed = np.array([zlib.crc32(e) << 32 | zlib.crc32(e, 1) for e in encoded], dtype=np.uint64)
    mixed ^= mixed >> np.uint64(30)
    mixed *= _MIX_1
    mixed ^= mixed >> np.uint64(27)
    mixed *= _MIX_2
    mixed ^= mixed >> np.uint64(31)
    return mixed


def fingerprint(features: dict[str, int]) -> int:
    """Unsigned 64-bit simhash of weighted features (Charikar 2002: bit i is set when the weights of the
    features whose hash has bit i set outweigh the others); callers skip bodies too short to fingerprint."""
    if not features:
        return 0
    hashes = feature_hashes(list(features))
    weights = np.fromiter(features.values(), dtype=np.int64, count=len(features))
    bits = ((hashes[:, None] >> _SHIFTS) & np.uint64(1)).astype(np.int64)
    votes = ((2 * bits - 1) * weights[:, None]).sum(axis=0)
    return int(((votes > 0).astype(np.uint64) << _SHIFTS).sum())


def hamming_distance(a: int, b: int) -> int:
    return (a ^ b).bit_count()


def to_signed(unsigned: int) -> int:
    """Unsigned 64-bit value → Postgres bigint (order-preserving offset)."""
    if not 0 <= unsigned < 1 << 64:
        raise ValueError(f"not an unsigned 64-bit value: {unsigned}")
    return unsigned - SIGNED_OFFSET


def to_unsigned(signed: int) -> int:
    if not -SIGNED_OFFSET <= signed < SIGNED_OFFSET:
        raise ValueError(f"not a signed 64-bit value: {signed}")
    return signed + SIGNED_OFFSET


@cache
def block_bounds(max_distance: int) -> tuple[tuple[int, int], ...]:
    """(shift, width) of the max_distance + 1 blocks covering the 64 bits, the first ones one bit wider."""
    if not 1 <= max_distance <= 15:
        raise ValueError(f"simhash max_distance must be in 1..15, got {max_distance}")
    blocks = max_distance + 1
    widths = [FINGERPRINT_BITS // blocks + (1 if i < FINGERPRINT_BITS % blocks else 0) for i in range(blocks)]
    shifts = [sum(widths[i + 1 :]) for i in range(blocks)]
    return tuple(zip(shifts, widths, strict=True))


def block_keys(unsigned: int, max_distance: int) -> list[int]:
    """Pigeonhole lookup keys: two fingerprints within `max_distance` bits agree on at least one block.

    Key i = (block index << 32) | block value: one bigint column (or one key table) with a btree index
    serves every block; a lookup is max_distance + 1 equality probes, whatever the corpus size.
    """
    return [
        (i << 32) | ((unsigned >> shift) & ((1 << width) - 1))
        for i, (shift, width) in enumerate(block_bounds(max_distance))
    ]
