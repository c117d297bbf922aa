"""Keywords: segmentation language, stopwords, title keywords and window co-occurring body keywords."""

from __future__ import annotations

import random
import re
import unicodedata

import pytest

from newscorpus.core.near_duplicate.keywords import (
    extract_keywords,
    is_keyword,
    keyword_test,
    load_stopwords,
    normalize_text,
    seed_hits,
    segmentation_language,
    title_keywords,
)
from tests.core.near_duplicate.texts import EN_PARAGRAPHS, EN_TITLE, ZH_PARAGRAPHS, ZH_TITLE


def test_segmentation_language_is_chosen_by_cjk_share():
    assert segmentation_language("".join(ZH_PARAGRAPHS)) == "zh"
    assert segmentation_language(" ".join(EN_PARAGRAPHS)) == "en"
    assert segmentation_language("") == "en"


def _reference_language(text: str) -> str:
    """The rule as first written: str.isalnum over the sample, CJK ideographs found by a regex."""
    sample = text[:2000]
    word_chars = sum(map(str.isalnum, sample))
    cjk = len(re.findall(r"(?=[^\W_])[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]", sample))
    return "zh" if word_chars and cjk / word_chars >= 0.3 else "en"


def test_segmentation_language_answers_as_the_isalnum_rule_on_random_texts():
    rng = random.Random(17)
    alphabet = list("_aZ1５中文 ，。é\u0301\u0663\u00b2\u2160\u3007\u3400\u4dbf\u4e00\u9fff\ua000\uf900\ufaff\x00ß")
    alphabet += ["😀", "\U00020000", "\ud800"]
    texts = ["x" * 1999 + "中" * 9, "中" * 600 + "a" * 1400, "_" * 50, "中_" * 3]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(5000)]
    texts += ["".join(chr(rng.randrange(0x30000)) for _ in range(rng.randint(0, 60))) for _ in range(1000)]
    for text in texts:
        assert segmentation_language(text) == _reference_language(text), ascii(text)


def test_stopword_lists_ship_without_comment_lines():
    zh, en = load_stopwords("zh"), load_stopwords("en")
    assert {"的", "责任编辑", "来源"} <= zh
    assert {"the", "and", "copyright"} <= en
    assert not any(word.startswith("#") for word in zh | en)


def test_title_keywords_drop_stopwords_and_short_tokens():
    zh = title_keywords("快讯：" + ZH_TITLE, "zh")
    assert "快讯" not in zh and "的" not in zh
    assert any("大桥" in word for word in zh)
    en = title_keywords("BREAKING: The town of Millbrook opens a new library in 2024", "en")
    assert "millbrook" in en and "library" in en
    assert not {"the", "of", "a", "in", "2024", "breaking"} & set(en)


def test_body_keywords_are_words_near_title_keywords():
    title = "Harbor council approves ferry subsidy"
    filler = " ".join(["weather"] * 40)
    body = (
        f"The harbor council met on Monday. Ferry operators welcomed the subsidy vote. {filler} "
        "The harbor ferry subsidy will cost taxpayers money. Later the council praised ferry operators. "
        f"{filler} Unrelated gardening tips close the page."
    )
    found = extract_keywords(title, normalize_text(body), "en", window=3, min_cooccurrence=2, max_keywords=40)
    assert found.title_keywords == ("harbor", "council", "approves", "ferry", "subsidy")
    assert "operators" in found.body_keywords  # twice within 3 tokens of a title keyword
    assert "gardening" not in found.body_keywords and "tips" not in found.body_keywords  # far from the seeds


def test_chinese_body_keywords_come_from_windows_and_the_cap_holds():
    body = normalize_text("\n".join(ZH_PARAGRAPHS))
    found = extract_keywords(ZH_TITLE, body, "zh", window=5, min_cooccurrence=1, max_keywords=8)
    assert len(found.all) <= 8
    assert found.body_keywords and not set(found.body_keywords) & set(found.title_keywords)
    assert all(len(word) >= 2 and word not in load_stopwords("zh") for word in found.all)


def test_title_without_keywords_gives_no_body_keywords():
    found = extract_keywords("的 了 和", normalize_text(ZH_PARAGRAPHS[0]), "zh", 5, 1, 40)
    assert found.all == frozenset()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "plain ascii text",
        "江城市新建的跨江大桥（全长３２００米）正式通车，市民：“方便多了！”\u3000记者　王明",
        "ＣＯＶＩＤ－１９ … ½ ﬁnal ǅ ㍻ ① ⅷ Ⅻ ™ ㎏",  # one character to several, and to one
        "e\u0301 A\u030a\u0323 ｅ\u0301 \u1100\u1161\u11a8",  # combining marks, conjoining jamo
        "Straße ΣΊΣΥΦΟΣ İstanbul",  # case folding that lower() would not do
        "\uf900\ufa0e\ufaff compatibility ideographs, 😀 𝐀 \U0002f800, lone \ud800 surrogate",
    ],
)
def test_normalize_text_is_nfkc_then_casefold(text):
    assert normalize_text(text) == unicodedata.normalize("NFKC", text).casefold()


def test_normalize_text_is_nfkc_then_casefold_on_random_mixtures():
    rng = random.Random(11)
    alphabet = [chr(c) for c in range(0x10000) if unicodedata.normalize("NFKC", chr(c)) != chr(c)][::7]
    alphabet += list("ae中文，。 \u0301\u0323\u0308\u3099") + ["😀", "𝐀", "\U0002f800", "\ud800"]
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20)))
        assert normalize_text(text) == unicodedata.normalize("NFKC", text).casefold(), ascii(text)


def _regex_hits(text: str, seeds: frozenset[str], limit: int) -> list[tuple[int, int]]:
    """The seed hits by one regex alternation, longest seed first (what seed_hits must equal)."""
    pattern = re.compile("|".join(re.escape(s) for s in sorted(seeds, key=len, reverse=True)))
    return [(m.start(), m.end()) for m in pattern.finditer(text)][:limit]


def test_seed_hits_are_the_alternation_matches():
    text = "大桥通车后，跨江大桥的车流量大增；江大桥头市民说大桥通车方便。"
    seeds = frozenset({"大桥", "跨江大桥", "江大", "通车", "桥头"})
    assert seed_hits(text, seeds, 20) == _regex_hits(text, seeds, 20)
    assert seed_hits(text, seeds, 2) == [(0, 2), (2, 4)]
    assert seed_hits(text, frozenset({"缺席"}), 20) == []
    assert seed_hits("aaaa", frozenset({"aa", "aaa"}), 20) == [(0, 3)]


def test_seed_hits_are_the_alternation_matches_on_random_texts():
    rng = random.Random(5)
    for _ in range(5000):
        text = "".join(rng.choices("ab中", k=rng.randint(0, 30)))
        seeds = frozenset("".join(rng.choices("ab中", k=rng.randint(1, 4))) for _ in range(rng.randint(1, 5)))
        limit = rng.randint(1, 8)
        assert seed_hits(text, seeds, limit) == _regex_hits(text, seeds, limit), (text, seeds, limit)


def test_keyword_test_answers_as_is_keyword():
    for lang, tokens in (("zh", ["大桥", "的", "ab", "abc", "12", "通车了"]), ("en", ["the", "library", "ab", "2024"])):
        keep = keyword_test(lang)
        assert [keep(t) for t in tokens] == [is_keyword(t, lang) for t in tokens]
    assert is_keyword("大桥", "zh") and not is_keyword("the", "en") and not is_keyword("2024", "en")
    assert is_keyword("library", "fr") == is_keyword("library", "en")  # other languages follow the English rule


def test_body_keywords_from_given_words_equal_those_found_in_the_body():
    body = normalize_text("\n\n".join(EN_PARAGRAPHS))
    words = re.findall(r"\w+", body)
    assert extract_keywords(EN_TITLE, body, "en", 5, 2, 40, words) == extract_keywords(EN_TITLE, body, "en", 5, 2, 40)


def test_title_numbers_are_sorted_with_full_width_digits_folded():
    from newscorpus.core.near_duplicate.keywords import title_numbers

    assert title_numbers("Millbrook tools v2.4.10 release") == ("10", "2", "4")
    assert title_numbers("每周新闻测验（第１０期）") == title_numbers("每周新闻测验（第10期）") == ("10",)
    assert title_numbers("Week 05 quiz") == title_numbers("Week 5 quiz") and title_numbers("No numbers") == ()


def test_body_keywords_count_windows_as_one_update_per_window():
    """body_keywords counts all windows at once; the reference counts them window by window (the path it replaced)."""
    from collections import Counter

    from newscorpus.core.near_duplicate.keywords import (
        _window_words_en,
        _window_words_zh,
        body_keywords,
        title_keywords,
    )

    for title, paragraphs, lang in ((EN_TITLE, EN_PARAGRAPHS, "en"), (ZH_TITLE, ZH_PARAGRAPHS, "zh")):
        body = normalize_text("\n\n".join(paragraphs))
        seeds = title_keywords(title, lang)
        for window, cooccurrence in ((2, 1), (5, 2), (8, 3)):
            windows = (_window_words_zh(body, frozenset(seeds), window) if lang == "zh"
                       else _window_words_en(re.findall(r"\w+", body), frozenset(seeds), window))
            counts: Counter[str] = Counter()
            for found in windows:
                counts.update(found)
            ranked = sorted((w for w, n in counts.items() if n >= cooccurrence), key=lambda w: (-counts[w], w))
            assert body_keywords(body, seeds, lang, window, cooccurrence, 40) == tuple(ranked[:40])
            assert ranked
