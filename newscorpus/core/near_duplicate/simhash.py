"""64-bit simhash fingerprints of article bodies, their signed-bigint form and pigeonhole lookup keys.

Features are weighted words (`\\w+` words for non-Chinese, CJK character bigrams for Chinese), not the
`simhash` package's default 4-character shingles. Stopwords are left out and the weight grows with the log
of the count, so frequent function words do not dominate long bodies (the cause of most simhash false
positives in ../shared/data/dedup/README.md). Chinese uses character bigrams rather than jieba words so
the whole body need not be segmented (jieba runs at ~100 bodies/s, the stage budget is 300 docs/s).
"""

from __future__ import annotations

import math
import zlib
from collections import Counter
from functools import cache

import numpy as np

from newscorpus.core.near_duplicate.body_text import BMP_SIZE, CJK_CODES, CJK_COUNT, CJK_RANK, WORD_CRCS, BodyText
from newscorpus.core.near_duplicate.keywords import keyword_test, load_stopwords

FINGERPRINT_BITS = 64
SIGNED_OFFSET = 1 << 63  # Postgres bigint is signed: stored = unsigned - 2**63 (keeps the order)
# Weight cap of a feature (the simhash package's fast-path cutoff, kept when we replaced the package).
MAX_FEATURE_WEIGHT = 50
# Features kept per body, the most frequent first: bounds the cost on long bodies; the most frequent 256
# carry the fingerprint of a near-exact copy.
MAX_FEATURES = 256
_MIX_1, _MIX_2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
# Weight of a feature counted n times, looked up for n < 4096 (a feature counted more often is weighted as it comes).
_WEIGHTS = np.array([0] + [min(MAX_FEATURE_WEIGHT, 1 + int(math.log2(n))) for n in range(1, 4096)], dtype=np.int64)

# A word, or a CJK bigram's key: rank of its first character * CJK_COUNT + rank of the second (fits 32 bits, which
# sort 2x faster than the 64-bit code point pairs; ranks follow code points, so keys keep the pairs' order).
Feature = str | int


def simhash_features(normalized_body: str, lang: str) -> dict[str, int]:
    """Weighted features of a normalised body (see `keywords.normalize_text`): weight 1 + log2(count)."""
    features, counts = top_features(BodyText.of(normalized_body), lang)
    return dict(zip(map(_feature_text, features), _weights(counts).tolist(), strict=True))


def _weights(counts: list[int] | np.ndarray) -> np.ndarray:
    counted = np.asarray(counts, dtype=np.int64)
    weights = _WEIGHTS[np.minimum(counted, len(_WEIGHTS) - 1)]
    for i in np.flatnonzero(counted >= len(_WEIGHTS)).tolist():
        weights[i] = min(MAX_FEATURE_WEIGHT, 1 + int(math.log2(int(counted[i]))))
    return weights


def _feature_text(feature: Feature) -> str:
    if isinstance(feature, str):
        return feature
    first, second = divmod(feature, CJK_COUNT)
    return chr(CJK_CODES[first]) + chr(CJK_CODES[second])


def top_features(body: BodyText, lang: str) -> tuple[list[Feature], list[int]]:
    """The MAX_FEATURES most frequent features and their counts, ties in order of first appearance (the order of
    `Counter.most_common`); Chinese: CJK bigrams (most frequent first, then by key) before the other words.
    `body_fingerprint` chooses the same features without ranking them (`_chosen_features`)."""
    if lang == "zh":
        keys, key_counts = _top_cjk_bigrams(body.cjk_codes)
        features, counts = keys.tolist(), key_counts.tolist()
        words, keep = body.latin_words, keyword_test("en")
    else:
        features, counts = [], []
        words, keep = body.words, keyword_test(lang)
    word_counts = Counter(words)
    kept = list(filter(keep, word_counts))
    features += kept
    counts += map(word_counts.__getitem__, kept)
    if len(features) > 1:  # a stable sort, as most_common's nlargest
        order = sorted(range(len(counts)), key=counts.__getitem__, reverse=True)[:MAX_FEATURES]
        features, counts = [features[i] for i in order], [counts[i] for i in order]
    return features, counts


@cache
def _stop_chars() -> np.ndarray:
    """Single-character Chinese stopwords, as a lookup table over the BMP (the CJK ranges lie in it)."""
    table = np.zeros(BMP_SIZE, dtype=bool)
    table[[ord(w) for w in load_stopwords("zh") if len(w) == 1 and ord(w) < BMP_SIZE]] = True
    return table


def _top_cjk_bigrams(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Keys and counts of the MAX_FEATURES most frequent character bigrams, both-stop-character bigrams left out,
    most frequent first, then by key."""
    keys, counts = _cjk_bigram_counts(codes)
    top = np.argsort(-counts, kind="stable")[:MAX_FEATURES]
    return keys[top], counts[top]


def _cjk_bigram_counts(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct keys of the character bigrams, ascending, and their counts, both-stop-character bigrams left out
    (numpy: a Counter over a 4000-character body costs more than the rest of the fingerprint)."""
    stop = _stop_chars()[codes]
    keep = ~(stop[:-1] & stop[1:])  # bigrams across a CJK run boundary are kept: harmless noise
    ranks = CJK_RANK[codes]
    keys = np.sort((ranks[:-1] * np.uint32(CJK_COUNT) + ranks[1:])[keep])
    if not len(keys):
        return keys, np.zeros(0, dtype=np.int64)
    firsts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    counts = np.empty(len(firsts), dtype=np.int64)
    counts[:-1] = firsts[1:] - firsts[:-1]
    counts[-1] = len(keys) - firsts[-1]
    return keys[firsts], counts


def _chosen_features(body: BodyText, lang: str) -> tuple[np.ndarray, np.ndarray]:
    """The counts and CRC pairs of `top_features`' features, in no set order (the vote is a sum): every candidate's
    count at once, the MAX_FEATURES kept chosen without sorting them (`_top_positions`), CRCs only for those kept.
    Ranking them twice (the CJK bigrams, then all) and taking the CRCs of every candidate would cost about a third
    more of a zh body's fingerprint (benchmarks/near_duplicate_features_ab.py)."""
    if lang == "zh":
        keys, counts = _cjk_bigram_counts(body.cjk_codes)
        words, keep = body.latin_words, keyword_test("en")
    else:
        keys, counts = np.zeros(0, dtype=np.uint32), np.zeros(0, dtype=np.int64)
        words, keep = body.words, keyword_test(lang)
    word_counts = Counter(words)
    kept = list(filter(keep, word_counts))
    if kept:
        counts = np.concatenate((counts, np.fromiter(map(word_counts.__getitem__, kept), dtype=np.int64,
                                                     count=len(kept))))
    chosen = _top_positions(counts, MAX_FEATURES)
    if chosen is not None:
        bigrams = chosen[chosen < len(keys)]
        words_chosen = (chosen[len(bigrams):] - len(keys)).tolist()
        keys, kept, counts = keys[bigrams], [kept[i] for i in words_chosen], counts[chosen]
    pairs = np.concatenate((bigram_crc_pairs(keys), WORD_CRCS.pairs(kept))) if len(keys) else WORD_CRCS.pairs(kept)
    return counts, pairs


def _top_positions(counts: np.ndarray, size: int) -> np.ndarray | None:
    """Positions (ascending) of the `size` largest counts, ties to the earlier positions: the first `size` of a
    stable sort by count, most first; None when there are no more than `size`."""
    if len(counts) <= size:
        return None
    least = np.partition(counts, len(counts) - size)[len(counts) - size]  # the size-th largest count
    above = counts > least
    ties = np.flatnonzero(counts == least)[: size - int(np.count_nonzero(above))]
    above[ties] = True
    return np.flatnonzero(above)


# CRC-32 of a CJK bigram's UTF-8 from its two characters' (each 3 bytes: every code point of text.HAN_RANGES lies in
# U+0800-U+FFFF). A CRC register is affine in the register it starts from: crc32(b, c) = M(c) ^ crc32(b, 0), M linear
# and the same for every 3-byte b, so crc32(first + second, seed) = M(crc32(first, seed)) ^ crc32(second, 0), M
# applied by 4 tables of 256 (one per byte of c): no Python call per bigram, where a memo of each bigram's CRCs
# needs one (benchmarks/near_duplicate_features_ab.py).


@cache
def _cjk_crc_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per CJK character by rank: M applied to its CRC-32s (seeds 0 and 1) as the pair's first character, and its
    CRC-32 (seed 0) as the second, each as a CRC pair (seed 0 << 32 | seed 1): a bigram's pair is the xor of its two
    characters' (450 KB, made once a process): M is applied once per character, not once per bigram."""
    codes = np.array(CJK_CODES, dtype=np.uint32)
    return _crc_pair_tables(utf8_crc32_3_bytes(codes, 0), utf8_crc32_3_bytes(codes, 1))


def _crc_pair_tables(seed_0: np.ndarray, seed_1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """_cjk_crc_tables' two tables from the characters' CRC-32s with seeds 0 and 1."""
    zero = zlib.crc32(b"\0\0\0")
    shift = np.array([[zlib.crc32(b"\0\0\0", byte << (8 * k)) ^ zero for byte in range(256)] for k in range(4)],
                     dtype=np.uint32)
    shifted = [shift[0][start & 0xFF] ^ shift[1][(start >> 8) & 0xFF] ^ shift[2][(start >> 16) & 0xFF]
               ^ shift[3][start >> 24] for start in (seed_0, seed_1)]
    first = shifted[0].astype(np.uint64) << np.uint64(32) | shifted[1].astype(np.uint64)
    second = seed_0.astype(np.uint64) << np.uint64(32) | seed_0.astype(np.uint64)
    return first, second


@cache
def _crc32_table() -> np.ndarray:
    """zlib's CRC-32 byte table (reflected polynomial 0xEDB88320)."""
    table = np.arange(256, dtype=np.uint32)
    for _ in range(8):
        table = np.where(table & 1, (table >> 1) ^ np.uint32(0xEDB88320), table >> 1)
    return table


def utf8_crc32_3_bytes(codes: np.ndarray, seed: int) -> np.ndarray:
    """zlib.crc32(chr(code).encode(), seed) of every code point in U+0800-U+FFFF but the surrogates (3 bytes of UTF-8
    each), a byte at a time over all of them: several times cheaper at a crawl's start than a zlib call per
    character and seed (benchmarks/near_duplicate_startup.py; tests/core/near_duplicate/test_simhash.py compares
    them)."""
    codes = np.asarray(codes, dtype=np.uint32)
    if len(codes) and (codes.min() < 0x800 or codes.max() > 0xFFFF or ((codes >= 0xD800) & (codes < 0xE000)).any()):
        raise ValueError("a code point outside U+0800-U+FFFF, or a surrogate")
    table = _crc32_table()
    crc = np.full(len(codes), seed ^ 0xFFFFFFFF, dtype=np.uint32)
    for byte in (0xE0 | codes >> 12, 0x80 | (codes >> 6) & 0x3F, 0x80 | codes & 0x3F):
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ np.uint32(0xFFFFFFFF)


def bigram_crc_pairs(keys: np.ndarray) -> np.ndarray:
    """`CrcMemo(_feature_text).pairs(keys.tolist())` for CJK bigram keys: CRC-32 (seed 0) << 32 | CRC-32 (seed 1)
    of the bigram's UTF-8, computed from the characters' CRCs (see above) without a Python call per key."""
    first, second = _cjk_crc_tables()
    ranks = np.divmod(np.asarray(keys, dtype=np.int64), CJK_COUNT)
    return first[ranks[0]] ^ second[ranks[1]]


def feature_hashes(features: list[str]) -> np.ndarray:
    """Stable 64-bit hashes of feature texts: two CRC-32s (seeds 0 and 1) of the text through the splitmix64
    finaliser (`body_fingerprint` takes a CJK bigram's CRCs from `bigram_crc_pairs`: the same). Far cheaper than
    the simhash package's md5 per feature once the CRCs are remembered, and the same in every process (unlike
    Python's `hash`)."""
    return _mixed(WORD_CRCS.pairs(features))


def _mixed(mixed: np.ndarray) -> np.ndarray:
    """The splitmix64 finaliser of CRC pairs, in place."""
    mixed ^= mixed >> np.uint64(30)
    mixed *= _MIX_1
    mixed ^= mixed >> np.uint64(27)
    mixed *= _MIX_2
    mixed ^= mixed >> np.uint64(31)
    return mixed


def fingerprint(features: dict[str, int]) -> int:
    """Unsigned 64-bit simhash of weighted features (Charikar 2002: bit i is set when the weights of the
    features whose hash has bit i set outweigh the others); callers skip bodies too short to fingerprint."""
    return _vote(feature_hashes(list(features)), np.fromiter(features.values(), dtype=np.int64, count=len(features)))


def body_fingerprint(body: BodyText, lang: str) -> int | None:
    """`fingerprint(simhash_features(...))` of a body without spelling out its features; None when it has none."""
    counts, pairs = _chosen_features(body, lang)
    return _vote(_mixed(pairs), _weights(counts)) if len(counts) else None


def _vote(hashes: np.ndarray, weights: np.ndarray) -> int:
    if not len(hashes):
        return 0
    bits = np.unpackbits(hashes.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    # Σ ±weight: + where the hash has the bit. In float32 when every partial sum, and twice the sum, is a whole number
    # float32 holds exactly (below 2**24; a body's: at most MAX_FEATURES x MAX_FEATURE_WEIGHT = 12,800), so exact,
    # and a BLAS product: faster than numpy's int64 product or float64 (benchmarks/near_duplicate_features_ab.py).
    if int(np.abs(weights).sum()) < 1 << 24:
        votes = 2 * (weights.astype(np.float32) @ bits.astype(np.float32)) - np.float32(weights.sum())
    else:
        votes = 2 * (weights @ bits.astype(np.int64)) - weights.sum()
    return int.from_bytes(np.packbits(votes > 0, bitorder="little").tobytes(), "little")


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


# Pigeonhole keys by pairs of blocks (Manku, Jain, Das Sarma 2007, "Detecting near-duplicates for web crawling",
# §3: more tables, longer keys): up to this distance the fingerprint is cut into d + 2 blocks and a key is a pair of
# them (C(d + 2, 2) keys of ~128 / (d + 2) bits: d = 3 gives 10 keys of 25-26 bits, a chance match per key and
# stored article of 2^-25.6 instead of 2^-16, so a random 250k index answers ~0.04 rows per document instead of ~16,
# each a random read of the article's wide features row: with single blocks the pages read per lookup grow
# linearly with the index, benchmarks/near_duplicate_throughput.py --postgres). Past 4 the pairs would be ≥ 21 keys
# per article (block rows and advisory locks): the single blocks (d + 1 keys) are kept there.
PAIRED_BLOCKS_MAX_DISTANCE = 4
_PAIR_KEY_TAG = 1 << 56  # pair keys: tag | pair index << 48 | the two blocks' bits; single-block keys stay < 2^36


@cache
def block_bounds(max_distance: int) -> tuple[tuple[int, int], ...]:
    """(shift, width) of the blocks covering the 64 bits, the first ones one bit wider: max_distance + 2 blocks
    (keys are pairs of them) up to PAIRED_BLOCKS_MAX_DISTANCE, else max_distance + 1 (keys are single blocks)."""
    if not 1 <= max_distance <= 15:
        raise ValueError(f"simhash max_distance must be in 1..15, got {max_distance}")
    blocks = max_distance + (2 if max_distance <= PAIRED_BLOCKS_MAX_DISTANCE else 1)
    widths = [FINGERPRINT_BITS // blocks + (1 if i < FINGERPRINT_BITS % blocks else 0) for i in range(blocks)]
    shifts = [sum(widths[i + 1 :]) for i in range(blocks)]
    return tuple(zip(shifts, widths, strict=True))


# Block keys remembered per (fingerprint, distance), emptied when this many are held: one batch article's keys are
# asked ~5 times on the stage's path (lookup parameters, lock keys, the batch's in-memory index, the rows written).
BLOCK_KEYS_MEMO_SIZE = 1 << 12
_block_keys_memo: dict[tuple[int, int], tuple[int, ...]] = {}


def block_keys(unsigned: int, max_distance: int) -> list[int]:
    """`pigeonhole_keys`, remembered (a new list each call)."""
    found = _block_keys_memo.get((unsigned, max_distance))
    if found is None:
        if len(_block_keys_memo) >= BLOCK_KEYS_MEMO_SIZE:
            _block_keys_memo.clear()
        found = _block_keys_memo[unsigned, max_distance] = tuple(pigeonhole_keys(unsigned, max_distance))
    return list(found)


def pigeonhole_keys(unsigned: int, max_distance: int) -> list[int]:
    """Pigeonhole lookup keys: two fingerprints within `max_distance` bits share at least one key.

    Up to PAIRED_BLOCKS_MAX_DISTANCE: d + 2 blocks, of which two fingerprints within d bits differ in at most d, so
    they agree on at least two: key (i, j) = tag | (pair number << 48) | (block i << width j) | block j, for each pair
    i < j in order. Above: d + 1 blocks, they agree on at least one: key i = (block index << 32) | block value.
    One bigint column (or one key table) with a btree index serves every key; a lookup is one equality probe per
    key, whatever the corpus size.
    """
    bounds = block_bounds(max_distance)
    values = [(unsigned >> shift) & ((1 << width) - 1) for shift, width in bounds]
    if max_distance > PAIRED_BLOCKS_MAX_DISTANCE:
        return [(i << 32) | value for i, value in enumerate(values)]
    keys = []
    for i in range(len(bounds)):
        for j in range(i + 1, len(bounds)):
            keys.append(_PAIR_KEY_TAG | (len(keys) << 48) | (values[i] << bounds[j][1]) | values[j])
    return keys
