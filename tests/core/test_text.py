"""The text module shared by every layer: script ranges, the article's language, scoring tokens, NUL, hashes."""

from __future__ import annotations

import random
import re

from newscorpus.core import text as text_module
from newscorpus.core.text import (
    ARABIC,
    CYRILLIC,
    HAN_COMPATIBILITY,
    HAN_EXTENSION_A,
    HAN_RANGES,
    HAN_UNIFIED,
    HANGUL,
    KANA,
    SAMPLE_CHARS,
    body_hash,
    characters,
    detect_language,
    language_of_texts,
    source_hash,
    tokenize,
    without_nul,
)


def test_script_ranges_are_disjoint_and_make_character_classes():
    ranges = sorted([HAN_UNIFIED, HAN_EXTENSION_A, HAN_COMPATIBILITY, KANA, HANGUL, CYRILLIC, ARABIC])
    assert all(first <= last < following[0] for (first, last), following in zip(ranges, ranges[1:], strict=False))
    assert HAN_RANGES == (HAN_EXTENSION_A, HAN_UNIFIED, HAN_COMPATIBILITY)  # the order body_text ranks them in
    han = re.compile(f"[{characters(*HAN_RANGES)}]")
    assert han.findall("中文㐀豈 かなa한") == ["中", "文", "㐀", "豈"]
    unified = f"[{characters(HAN_UNIFIED)}]"
    assert re.fullmatch(unified + "+", "国务院") and not re.search(unified, "㐀")


def test_language_of_an_article():
    assert detect_language("国务院召开常务会议，研究部署经济工作。") == "zh"
    assert detect_language("The council voted on Tuesday to expand the bike lane network in the city.") == "en"
    assert detect_language("東京で記念集会が開催されました。") == "ja"
    assert detect_language("서울시는 오늘 새로운 교통 정책을 발표했다.") == "ko"
    assert detect_language("Городской совет проголосовал за новый бюджет.") == "ru"
    assert detect_language("Le conseil municipal vote le budget mardi.") is None  # Latin, not English: unsure
    assert detect_language("") is None and detect_language("12345 ...") is None


def test_scoring_tokens_count_each_cjk_character_and_lower_case_words():
    assert tokenize("Hello, World 中文abc") == ["hello", "world", "中", "文", "abc"]
    assert tokenize("snake_case かな 한국") == ["snake", "case", "か", "な", "한", "국"]


def test_nul_and_hashes():
    assert without_nul("a\x00b") == "ab" and without_nul(None) is None and without_nul("") == ""
    assert body_hash("正文") == body_hash("正文") != body_hash("正文 ")
    assert source_hash(None, "b") == source_hash("", "b") != source_hash("b", "")


def test_language_of_texts_reads_only_the_texts_that_fill_the_sample():
    english = "The council said the new bus routes would start in the spring, and that the fares would stay the same."
    chinese = "市政府表示，新的公交线路将于春季开通，票价保持不变，市民可以通过手机查询到站时间。"
    assert language_of_texts([english, english]) == detect_language(english + "\n" + english) == "en"
    assert language_of_texts([]) is None
    # the English text fills the sample: the Chinese texts after it are never joined
    long_english = " ".join([english] * (SAMPLE_CHARS // len(english) + 1))
    assert language_of_texts([long_english] + [chinese] * 100) == "en"
    assert detect_language("\n".join([chinese] * 100)) == "zh"


def test_latin_words_from_the_ascii_bytes_equal_the_regex_words():
    rng = random.Random(8)
    alphabet = "abcXYZ the of and  \n\t.,;'\u2019\u201c\u2014\xa0\u00e9\u00c0\u024f\u0250\u4e00\U0001f600\x1c\x85\udcff"
    texts = ["The cat sat on the mat \u2014 \u201cquoted\u201d\xa0text.", "caf\u00e9 au lait", "\x1cfile\x1dsep",
             "lone \udcff surrogate", ""]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 300))) for _ in range(3000)]
    for text in texts:
        words, spellings = text_module._latin_words(text)
        regex_words = text_module._LATIN_WORD.findall(text)
        assert [w.decode() if isinstance(w, bytes) else w for w in words] == regex_words, repr(text)
        assert sum(map(spellings.__contains__, words)) == sum(map(text_module._STOPWORD_SPELLINGS.__contains__,
                                                                   regex_words)), repr(text)


def test_language_without_the_english_check_is_the_language_with_en_made_none():
    """`english=False` (the region choice, which asks only "zh or not") answers as
    detect_language, except None for "en"."""
    rng = random.Random(9)
    pieces = ["The council said the new bus routes", " of the ", "市政府表示，新的公交线路", "ひらがな", "한국어",
              "Москва", "العربية", " 2024 ", "café au lait ", "\n", "il est dans la maison ", "!"]
    texts = ["", " ", "123"] + ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 40))) for _ in range(2000)]
    for text in texts:
        full = detect_language(text)
        assert detect_language(text, english=False) == (None if full == "en" else full), text
        assert language_of_texts(text.split("\n"), english=False) == (None if full == "en" else full), text
