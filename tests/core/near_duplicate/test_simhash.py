"""simhash: weighted features, signed bigint form, pigeonhole block keys."""

from __future__ import annotations

import itertools
import math
import random
import re
import zlib
from collections import Counter

import numpy as np
import pytest

from newscorpus.core.near_duplicate.body_text import CJK_COUNT, BodyText
from newscorpus.core.near_duplicate.keywords import is_keyword, load_stopwords, normalize_text
from newscorpus.core.near_duplicate.simhash import (
    MAX_FEATURE_WEIGHT,
    MAX_FEATURES,
    PAIRED_BLOCKS_MAX_DISTANCE,
    _feature_text,
    bigram_crc_pairs,
    block_bounds,
    block_keys,
    body_fingerprint,
    fingerprint,
    hamming_distance,
    pigeonhole_keys,
    simhash_features,
    to_signed,
    to_unsigned,
)
from tests.core.near_duplicate.texts import EN_FOLLOWUP_PARAGRAPHS, EN_PARAGRAPHS, ZH_FOLLOWUP_PARAGRAPHS, ZH_PARAGRAPHS


@pytest.mark.parametrize("value", [0, 2**63 - 1, 2**63, 2**64 - 1])
def test_signed_bigint_round_trip(value):
    signed = to_signed(value)
    assert -(2**63) <= signed < 2**63
    assert to_unsigned(signed) == value


def test_signed_form_keeps_the_order_and_rejects_out_of_range():
    values = [0, 1, 2**63 - 1, 2**63, 2**64 - 1]
    assert [to_signed(v) for v in values] == sorted(to_signed(v) for v in values)
    with pytest.raises(ValueError):
        to_signed(2**64)
    with pytest.raises(ValueError):
        to_unsigned(2**63)


@pytest.mark.parametrize("max_distance", range(1, 16))
def test_blocks_cover_all_bits(max_distance):
    bounds = block_bounds(max_distance)
    paired = max_distance <= PAIRED_BLOCKS_MAX_DISTANCE
    assert len(bounds) == max_distance + (2 if paired else 1)
    assert sum(width for _, width in bounds) == 64
    mask = 0
    for shift, width in bounds:
        mask |= ((1 << width) - 1) << shift
    assert mask == 2**64 - 1
    assert len(block_keys(0, max_distance)) == (math.comb(len(bounds), 2) if paired else len(bounds))


def _flip_one_bit_per_block(fingerprint: int, bounds, chosen, rng) -> int:
    for block in chosen:
        shift, width = bounds[block]
        fingerprint ^= 1 << (shift + rng.choice([0, width - 1, rng.randrange(width)]))
    return fingerprint


@pytest.mark.parametrize("max_distance", range(1, 16))
def test_fingerprints_within_distance_share_a_block_key(max_distance):
    """Every pair within max_distance bits shares a key; the hardest pairs (exactly d bits apart, each flip in a
    different block, at a block's first or last bit) for every choice of blocks up to 6 blocks, sampled above."""
    rng = random.Random(7)
    bounds = block_bounds(max_distance)
    choices = list(itertools.combinations(range(len(bounds)), max_distance))
    if len(choices) > 400:
        choices = rng.sample(choices, 400)
    pairs = []
    for chosen in choices:
        a = rng.getrandbits(64)
        pairs.append((a, _flip_one_bit_per_block(a, bounds, chosen, rng)))
    for _ in range(300):
        a = rng.getrandbits(64)
        b = a
        for bit in rng.sample(range(64), rng.randint(0, max_distance)):
            b ^= 1 << bit
        pairs.append((a, b))
    for edge in (0, 2**64 - 1):
        pairs.append((edge, edge ^ ((1 << max_distance) - 1)))  # d low bits
        pairs.append((edge, edge ^ (((1 << max_distance) - 1) << (64 - max_distance))))  # d high bits
    for a, b in pairs:
        assert hamming_distance(a, b) <= max_distance
        assert set(block_keys(a, max_distance)) & set(block_keys(b, max_distance)), (max_distance, a, b)


@pytest.mark.parametrize("max_distance", range(1, PAIRED_BLOCKS_MAX_DISTANCE + 1))
def test_pair_keys_can_miss_beyond_the_distance(max_distance):
    """The keys are no looser than needed: d + 1 flips, one in each of d + 1 blocks, leave one block in common
    and so share no pair key (a lookup then returns only what the Hamming check would keep)."""
    rng = random.Random(11)
    bounds = block_bounds(max_distance)
    a = rng.getrandbits(64)
    b = _flip_one_bit_per_block(a, bounds, range(max_distance + 1), rng)
    assert not set(block_keys(a, max_distance)) & set(block_keys(b, max_distance))


def test_block_keys_name_their_block():
    for max_distance in (3, 7):
        keys = block_keys(0, max_distance)
        assert len(set(keys)) == len(keys)  # equal block values in different blocks give different keys
    assert all(0 <= key < 2**63 for d in range(1, 16) for key in block_keys(2**64 - 1, d))  # a bigint


def test_a_reprint_fingerprints_closer_than_a_different_story():
    for lang, story, other in (
        ("zh", ZH_PARAGRAPHS, ZH_FOLLOWUP_PARAGRAPHS),
        ("en", EN_PARAGRAPHS, EN_FOLLOWUP_PARAGRAPHS),
    ):
        original = fingerprint(simhash_features(normalize_text("\n".join(story)), lang))
        reprint = fingerprint(simhash_features(normalize_text("\n".join(story[:-1])), lang))
        different = fingerprint(simhash_features(normalize_text("\n".join(other[1:])), lang))
        assert hamming_distance(original, reprint) < hamming_distance(original, different)


def test_features_leave_out_stopwords_and_weigh_by_log_count():
    features = simhash_features(normalize_text("the the the the library library opens"), "en")
    assert "the" not in features
    assert features["library"] == 2 and features["opens"] == 1
    zh = simhash_features(normalize_text("的了的了大桥通车大桥通车"), "zh")
    assert "的了" not in zh and zh["大桥"] == 2


_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def _features_as_first_written(normalized_body: str, lang: str) -> dict[str, int]:
    """The features as the first version computed them (Counter, most_common, log2): the stored fingerprints."""
    if lang == "zh":
        chars = "".join(_CJK_RUN.findall(normalized_body))
        stop = {w for w in load_stopwords("zh") if len(w) == 1}
        pairs = Counter(a + b for a, b in zip(chars, chars[1:], strict=False) if not (a in stop and b in stop))
        counts = Counter(dict(sorted(pairs.items(), key=lambda item: (-item[1], item[0]))[:MAX_FEATURES]))
        counts.update(w for w in re.findall(r"\w+", _CJK_RUN.sub(" ", normalized_body)) if is_keyword(w, "en"))
    else:
        counts = Counter(w for w in re.findall(r"\w+", normalized_body) if is_keyword(w, lang))
    return {f: min(MAX_FEATURE_WEIGHT, 1 + int(math.log2(n))) for f, n in counts.most_common(MAX_FEATURES)}


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("\n".join(ZH_PARAGRAPHS) + "（记者　王明）ＣＯＶＩＤ Library Library…２０２４年", "zh"),
        ("\n".join(ZH_FOLLOWUP_PARAGRAPHS) * 3, "zh"),
        ("\n\n".join(EN_PARAGRAPHS) + " Café ½ “quoted” ﬁnal", "en"),
        ("\n\n".join(EN_FOLLOWUP_PARAGRAPHS) * 40, "en"),  # more than MAX_FEATURES candidates? ties at the cut
        (" ".join(f"word{i:04d}x" for i in range(600)), "en"),  # 600 features, all counted once
        ("的了的了的", "zh"),  # only stop-character bigrams
        ("", "zh"),
        ("", "en"),
    ],
)
def test_features_and_fingerprint_are_those_first_written(text, lang):
    normalized = normalize_text(text)
    expected = _features_as_first_written(normalized, lang)
    assert list(simhash_features(normalized, lang).items()) == list(expected.items())
    assert body_fingerprint(BodyText.of(normalized), lang) == (fingerprint(expected) if expected else None)


def test_counts_beyond_the_weight_table_are_weighted_by_the_formula():
    features = simhash_features("library " * 5000 + "opens " * 4095 + "town " * 4096, "en")
    assert features == {"library": 13, "town": 13, "opens": 12}


def _fingerprint_by_hand(features: dict[str, int]) -> int:
    """Charikar's vote over CRC-32 pairs through splitmix64, in plain integers."""
    mask, votes = (1 << 64) - 1, [0] * 64
    for feature, weight in features.items():
        encoded = feature.encode()
        h = zlib.crc32(encoded) << 32 | zlib.crc32(encoded, 1)
        h ^= h >> 30
        h = h * 0xBF58476D1CE4E5B9 & mask
        h ^= h >> 27
        h = h * 0x94D049BB133111EB & mask
        h ^= h >> 31
        for bit in range(64):
            votes[bit] += weight if h >> bit & 1 else -weight
    return sum(1 << bit for bit in range(64) if votes[bit] > 0)


def test_fingerprint_is_the_weighted_vote_of_the_feature_hashes():
    rng = random.Random(3)
    samples = [
        simhash_features(normalize_text("\n".join(ZH_PARAGRAPHS)), "zh"),
        simhash_features(normalize_text("\n\n".join(EN_PARAGRAPHS)), "en"),
        {"only": 1},
        {},
    ]
    samples += [{f"w{rng.randrange(10**6)}": rng.randint(1, 50) for _ in range(rng.randint(1, 300))} for _ in range(20)]
    # weights whose sums a float32 would not hold exactly: the vote in integers (simhash._vote); and sums
    # just below that bound (in float32)
    samples += [{"a": 2**51, "b": 2**51 + 1, "c": 1, "d": 2**40 + 3}, {f"w{i}": 2**53 + i for i in range(40)},
                {"a": 2**23, "b": 2**23 - 1, "c": 1, "d": 3}, {"a": 2**23 - 1, "b": 2**23 - 3, "c": 1},
                {f"w{i}": (2**24 - 1) // 300 + i % 3 for i in range(256)}]
    for features in samples:
        assert fingerprint(features) == _fingerprint_by_hand(features)


def test_block_keys_remembered_are_the_pigeonhole_keys():
    rng = random.Random(7)
    fingerprints = [rng.getrandbits(64) for _ in range(300)] + [0, 2**64 - 1]
    for _ in range(2):  # computed, then remembered
        for value in fingerprints:
            for distance in (1, 3, 4, 5, 15):
                keys = block_keys(value, distance)
                assert keys == pigeonhole_keys(value, distance)
                keys.append(-1)  # a list of its own: the memo is not changed through it
    with pytest.raises(ValueError):
        block_keys(0, 16)


def _text_crc_pair(text: str) -> int:
    return zlib.crc32(text.encode()) << 32 | zlib.crc32(text.encode(), 1)


def test_bigram_crcs_from_the_characters_crcs_are_the_crcs_of_the_bigram_text():
    rng = random.Random(18)
    keys = [0, 1, CJK_COUNT - 1, CJK_COUNT, CJK_COUNT**2 - 1] + [rng.randrange(CJK_COUNT**2) for _ in range(5000)]
    texts = [_feature_text(key) for key in keys]
    assert all(len(text) == 2 and len(text.encode()) == 6 for text in texts)
    assert bigram_crc_pairs(np.array(keys, dtype=np.uint32)).tolist() == [_text_crc_pair(text) for text in texts]
    assert bigram_crc_pairs(np.zeros(0, dtype=np.uint32)).tolist() == []


def _tied_bodies(rng: random.Random) -> list[tuple[str, str]]:
    """Bodies with many more candidate features than MAX_FEATURES and many ties at the cut, Chinese and English."""
    han = [chr(code) for code in range(0x4E00, 0x4E00 + 60)] + ["的", "了", "是"]
    latin = [f"w{i:03d}x" for i in range(400)]
    bodies = []
    for _ in range(60):
        zh = "".join(rng.choice(han) + (" " + rng.choice(latin) + " " if rng.random() < 0.1 else "")
                     for _ in range(rng.randint(0, 3000)))
        en = " ".join(rng.choice(latin[: rng.randint(1, 400)]) for _ in range(rng.randint(0, 1500)))
        bodies += [(zh, "zh"), (en, "en"), (zh + " " + en, "zh")]
    return bodies


def test_chosen_features_vote_as_the_ranked_features():
    """body_fingerprint's features chosen without ranking (simhash._chosen_features) give the
    fingerprint of the ranked features (simhash_features, top_features), ties at the MAX_FEATURES cut included."""
    bodies = _tied_bodies(random.Random(18))
    bodies += [("\n".join(ZH_PARAGRAPHS) * 5, "zh"), ("\n\n".join(EN_PARAGRAPHS) * 5, "en"), ("", "zh"), ("", "en"),
               ("的了的了的", "zh"), ("library " * 5000 + "opens " * 4095, "en")]
    for text, lang in bodies:
        normalized = normalize_text(text)
        features = simhash_features(normalized, lang)
        expected = fingerprint(features) if features else None
        assert body_fingerprint(BodyText.of(normalized), lang) == expected, text[:80]


def test_utf8_crc32_of_3_byte_characters_is_zlibs():
    from newscorpus.core.near_duplicate.simhash import utf8_crc32_3_bytes

    codes = [code for code in range(0x800, 0x10000) if not 0xD800 <= code < 0xE000]
    for seed in (0, 1, 0xFFFFFFFF, 123_456_789):
        assert utf8_crc32_3_bytes(np.array(codes), seed).tolist() == [zlib.crc32(chr(c).encode(), seed) for c in codes]
    assert utf8_crc32_3_bytes(np.array([], dtype=np.uint32), 0).tolist() == []
    for outside in (0x7FF, 0xD800, 0x10000):
        with pytest.raises(ValueError):
            utf8_crc32_3_bytes(np.array([0x4E00, outside]), 0)


def test_cjk_crc_tables_are_those_made_with_zlib():
    """_cjk_crc_tables against a zlib call per character and seed."""
    from newscorpus.core.near_duplicate.body_text import CJK_CODES
    from newscorpus.core.near_duplicate.simhash import _cjk_crc_tables, _crc_pair_tables

    encoded = [chr(code).encode() for code in CJK_CODES]
    seed_0 = np.array([zlib.crc32(text) for text in encoded], dtype=np.uint32)
    seed_1 = np.array([zlib.crc32(text, 1) for text in encoded], dtype=np.uint32)
    first, second = _crc_pair_tables(seed_0, seed_1)
    got_first, got_second = _cjk_crc_tables()
    assert got_first.tolist() == first.tolist() and got_second.tolist() == second.tolist()
