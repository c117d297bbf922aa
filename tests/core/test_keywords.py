"""Keywords: language detection, stopwords, title keywords and window co-occurring body keywords."""

from __future__ import annotations

from pipelines.core.keywords import (
    detect_language,
    extract_keywords,
    load_stopwords,
    normalize_text,
    title_keywords,
)
from tests.core.dedup_texts import EN_PARAGRAPHS, ZH_PARAGRAPHS, ZH_TITLE


def test_language_is_detected_by_cjk_share():
    assert detect_language("".join(ZH_PARAGRAPHS)) == "zh"
    assert detect_language(" ".join(EN_PARAGRAPHS)) == "en"
    assert detect_language("") == "en"


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
