"""Near-duplicate decision, canonical rule and the in-memory index, on Chinese and English articles."""

from __future__ import annotations

import hashlib

import pytest

from newscorpus.core.near_duplicate.body_text import BodyText
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.decision import decide, judge_pair, keyword_overlap, prefers_as_canonical
from newscorpus.core.near_duplicate.features import build_features, build_features_batch, features_language
from newscorpus.core.near_duplicate.index import InMemoryNearDuplicateIndex, find_duplicates
from newscorpus.core.near_duplicate.keywords import normalize_text
from newscorpus.core.near_duplicate.shingle_sketch import sketch_body
from tests.core.near_duplicate.texts import (
    EN_FOLLOWUP_PARAGRAPHS,
    EN_FOLLOWUP_TITLE,
    EN_PARAGRAPHS,
    EN_TITLE,
    ZH_FOLLOWUP_PARAGRAPHS,
    ZH_FOLLOWUP_TITLE,
    ZH_PARAGRAPHS,
    ZH_TITLE,
    en_reprint,
    zh_reprint,
)

CONFIG = NearDuplicateConfig()
ZH_ORIGINAL = build_features(ZH_TITLE, "\n".join(ZH_PARAGRAPHS), "zh", CONFIG)
EN_ORIGINAL = build_features(EN_TITLE, "\n\n".join(EN_PARAGRAPHS), "en", CONFIG)


def test_chinese_reprint_with_portal_header_and_dropped_paragraph_is_a_duplicate():
    reprint = build_features(*zh_reprint(), "zh", CONFIG)
    verdict = judge_pair(reprint, "original", ZH_ORIGINAL, CONFIG)
    assert verdict.is_duplicate and verdict.method in ("simhash", "keywords")
    assert verdict.measures.body_containment >= CONFIG.body_tau


def test_english_reprint_with_byline_and_dropped_paragraph_is_a_duplicate():
    reprint = build_features(*en_reprint(), "en", CONFIG)
    assert judge_pair(reprint, 1, EN_ORIGINAL, CONFIG).is_duplicate


def test_follow_up_with_the_same_title_keywords_and_lead_is_not_a_duplicate():
    for original, title, paragraphs, lang in (
        (ZH_ORIGINAL, ZH_FOLLOWUP_TITLE, ZH_FOLLOWUP_PARAGRAPHS, "zh"),
        (EN_ORIGINAL, EN_FOLLOWUP_TITLE, EN_FOLLOWUP_PARAGRAPHS, "en"),
    ):
        follow_up = build_features(title, "\n".join(paragraphs), lang, CONFIG)
        assert set(follow_up.title_keywords) & set(original.title_keywords)
        verdict = judge_pair(follow_up, "x", original, CONFIG)
        assert not verdict.is_duplicate
        assert verdict.measures.body_containment < CONFIG.body_tau


def test_format_only_reprint_is_an_exact_duplicate():
    body = "\n".join(ZH_PARAGRAPHS).replace("，", ",").replace("。", ". ")
    copy = build_features(ZH_TITLE, "  " + body.replace("三千二百", "三千二百"), "zh", CONFIG)
    verdict = judge_pair(copy, "x", ZH_ORIGINAL, CONFIG)
    assert verdict.is_duplicate and verdict.method == "exact" and verdict.score == 1.0


def test_short_bodies_get_no_fingerprint_and_empty_bodies_never_match_exactly():
    empty = build_features("标题", "", "zh", CONFIG)
    assert empty.simhash is None and empty.token_count == 0
    assert not judge_pair(empty, "x", build_features("另一个标题", "", "zh", CONFIG), CONFIG).is_duplicate


def test_other_languages_are_not_compared():
    assert decide(ZH_ORIGINAL, [("en", EN_ORIGINAL)], CONFIG).judgements == []


def test_keyword_overlap_measures():
    a, b = frozenset("abcd"), frozenset("cdefgh")
    assert keyword_overlap(a, b, "min") == 0.5
    assert keyword_overlap(a, b, "jaccard") == 2 / 8
    assert keyword_overlap(frozenset(), b, "min") == 0.0


def test_canonical_rule_prefers_a_clearly_longer_copy_only():
    truncated = build_features(ZH_TITLE, "\n".join(ZH_PARAGRAPHS[:3]), "zh", CONFIG)
    assert prefers_as_canonical(ZH_ORIGINAL, truncated)
    assert not prefers_as_canonical(truncated, ZH_ORIGINAL)
    assert not prefers_as_canonical(ZH_ORIGINAL, ZH_ORIGINAL)  # ties keep the earlier article


def test_in_memory_index_finds_the_original_for_a_reprint_and_not_for_a_follow_up():
    index = InMemoryNearDuplicateIndex(CONFIG.simhash_distance)
    index.add("zh-original", ZH_ORIGINAL)
    index.add("en-original", EN_ORIGINAL)
    reprint = build_features(*zh_reprint(), "zh", CONFIG)
    decision = find_duplicates(reprint, index, CONFIG)
    assert decision.best is not None and decision.best.candidate_id == "zh-original"
    follow_up = build_features(ZH_FOLLOWUP_TITLE, "\n".join(ZH_FOLLOWUP_PARAGRAPHS), "zh", CONFIG)
    assert find_duplicates(follow_up, index, CONFIG).best is None
    assert len(index) == 2  # finding does not add


def test_index_lookups():
    index = InMemoryNearDuplicateIndex(3)
    index.add(1, ZH_ORIGINAL)
    index.add(2, EN_ORIGINAL)
    assert index.keyword_candidates(ZH_ORIGINAL.keywords, 5)[0] == (1, len(ZH_ORIGINAL.keywords))
    assert index.simhash_candidates(EN_ORIGINAL.simhash ^ 0b101, 3) == [2]
    assert index.simhash_candidates(EN_ORIGINAL.simhash ^ 0b1111, 3) == []
    assert index.exact_candidates(ZH_ORIGINAL.body_hash) == [1]
    assert set(index.features([1, 2, 3])) == {1, 2}


@pytest.mark.parametrize(
    ("lang", "title", "body", "simhash", "digest"),
    [
        (
            "zh",
            ZH_TITLE,
            "\n".join(ZH_PARAGRAPHS) + "\n（记者　王明）ＣＯＶＩＤ Library Library…２０２４年",
            0x2F82920DD20547E6,
            "dae3a11888f551e82a389ae1bdc528be225f3f92",
        ),
        (
            "en",
            EN_TITLE,
            "\n\n".join(EN_PARAGRAPHS) + "\n\nCafé ½ price — “quoted” ﬁnal ＷＩＤＥ words",
            0xAA4C01F90AB334B3,
            "85efdb299167546d9d32eae9d855a5a62bcf313e",
        ),
    ],
)
def test_features_stay_comparable_with_those_already_stored(lang, title, body, simhash, digest):
    """Values computed 2026-11 by the first version of the features: a change here makes stored features stale."""
    features = build_features(title, body, lang, CONFIG)
    stored = (
        sorted(features.keywords),
        features.title_keywords,
        features.simhash,
        features.sketch.hashes,
        features.sketch.shingle_count,
        features.body_hash,
        features.token_count,
    )
    assert features.simhash == simhash
    assert hashlib.sha1(repr(stored).encode()).hexdigest() == digest


def test_features_use_the_language_the_extraction_found_and_detect_only_without_one():
    chinese, english = "\n".join(ZH_PARAGRAPHS), "\n\n".join(EN_PARAGRAPHS)
    assert features_language("zh", english) == "zh" and features_language("ja", english) == "zh"
    assert all(features_language(lang, chinese) == "en" for lang in ("en", "ru", "ko", "ar"))
    assert features_language(None, chinese) == "zh" and features_language(None, english) == "en"
    batch = build_features_batch([(ZH_TITLE, chinese, None, "zh"), (EN_TITLE, english, None, None)], CONFIG)
    assert batch == [ZH_ORIGINAL, EN_ORIGINAL]


def test_a_sketch_made_from_its_array_is_the_sketch_made_from_its_hashes():
    """ShingleSketch.of_array keeps a strictly increasing array as hash_array; anything else is made again from the
    tuple as the constructor's sketch makes it (np.unique)."""
    import numpy as np

    from newscorpus.core.near_duplicate.shingle_sketch import ShingleSketch

    rng = np.random.default_rng(18)
    cases = [np.zeros(0, dtype=np.int64), np.array([5], dtype=np.int64), np.array([3, 1, 2], dtype=np.int64),
             np.array([1, 1, 2], dtype=np.int64), np.array([-(2**63), 0, 2**63 - 1], dtype=np.int64)]
    cases += [np.unique(rng.integers(-(2**62), 2**62, size=300)) for _ in range(20)]
    for hashes in cases:
        made = ShingleSketch.of_array(hashes, 900, 1000)
        plain = ShingleSketch(tuple(hashes.tolist()), 900, 1000)
        assert made == plain  # the same fields
        assert made.hash_array.dtype == plain.hash_array.dtype == np.int64
        assert made.hash_array.tolist() == plain.hash_array.tolist()
    body = BodyText.of(normalize_text("\n".join(EN_PARAGRAPHS)))
    sketch = sketch_body(body, "en")
    assert sketch.hash_array.tolist() == np.unique(np.array(sketch.hashes, dtype=np.int64)).tolist()


def test_sorted_distinct_is_np_unique():
    import numpy as np

    from newscorpus.core.near_duplicate.shingle_sketch import sorted_distinct

    rng = np.random.default_rng(18)
    for size in (0, 1, 2, 7, 256, 1000):
        for high in (3, 1 << 62):
            values = rng.integers(0, high, size=size, dtype=np.int64)
            got = sorted_distinct(values)
            assert got.dtype == np.unique(values).dtype and got.tolist() == np.unique(values).tolist()
            assert sorted_distinct(np.sort(values), is_sorted=True).tolist() == np.unique(values).tolist()


def test_features_and_decisions_do_not_import_numpy_ma():
    """np.unique's first call imports numpy.ma (a cost at every crawl's start): the near-duplicate features and
    decision use none."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from newscorpus.core.near_duplicate.config import NearDuplicateConfig\n"
        "from newscorpus.core.near_duplicate.decision import decide\n"
        "from newscorpus.core.near_duplicate.features import build_features\n"
        "from newscorpus.core.near_duplicate.shingle_sketch import ShingleSketch\n"
        "config = NearDuplicateConfig()\n"
        "body = '北京时间…½ 😀 ＡＢＣ 新闻报道说今天天气很好。' * 40\n"
        "a = build_features('北京新闻', body, 'zh', config, site=1)\n"
        "b = build_features('London news…', 'The bridge reopened today. ' * 40, 'en', config, site=1)\n"
        "decide(a, [(1, a), (2, b), (3, a)], config)\n"
        "ShingleSketch((5, 3, 3), 3, 3).hash_array\n"
        "assert 'numpy.ma' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)
