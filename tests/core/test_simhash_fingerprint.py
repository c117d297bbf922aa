"""simhash: weighted features, signed bigint form, pigeonhole block keys."""

from __future__ import annotations

import random

import pytest

from pipelines.core.keywords import normalize_text
from pipelines.core.simhash_fingerprint import (
    block_bounds,
    block_keys,
    fingerprint,
    hamming_distance,
    simhash_features,
    to_signed,
    to_unsigned,
)
from tests.core.dedup_texts import EN_FOLLOWUP_PARAGRAPHS, EN_PARAGRAPHS, ZH_FOLLOWUP_PARAGRAPHS, ZH_PARAGRAPHS


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


@pytest.mark.parametrize("max_distance", [1, 3, 7])
def test_blocks_cover_all_bits(max_distance):
    bounds = block_bounds(max_distance)
    assert len(bounds) == max_distance + 1
    assert sum(width for _, width in bounds) == 64
    mask = 0
    for shift, width in bounds:
        mask |= ((1 << width) - 1) << shift
    assert mask == 2**64 - 1


@pytest.mark.parametrize("max_distance", [3, 7])
def test_fingerprints_within_distance_share_a_block_key(max_distance):
    rng = random.Random(7)
    for _ in range(300):
        a = rng.getrandbits(64)
        b = a
        for bit in rng.sample(range(64), rng.randint(0, max_distance)):
            b ^= 1 << bit
        assert hamming_distance(a, b) <= max_distance
        assert set(block_keys(a, max_distance)) & set(block_keys(b, max_distance))


def test_block_keys_name_their_block():
    keys = block_keys(0, 3)
    assert len(set(keys)) == 4  # equal block values in different blocks give different keys


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
