"""Body read once as code points: the words and characters it gives equal what the regular expressions found."""

from __future__ import annotations

import re
import sys
import unicodedata
import zlib

import pytest

from newscorpus.core.body_text import (
    CJK_CODES,
    CJK_COUNT,
    CJK_RANK,
    WORD_CRCS,
    BodyText,
    CrcMemo,
    code_points,
    fold_nfkc_characters,
)
from newscorpus.core.keywords import normalize_text
from tests.core.near_duplicate_texts import EN_PARAGRAPHS, ZH_PARAGRAPHS

WORD = re.compile(r"\w+")
CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")  # the pattern the simhash features used

TEXTS = [
    "",
    "   ",
    "the harbor_council met 2024-05-01, approved 3 ferries.",
    "江城市新建的跨江大桥于昨日上午正式通车，全长3200米（双向6车道）。",
    "covid-19疫情后，app用户增长了20%，ceo表示“很满意”。",
    "emoji 😀 between words, 𠀋 extension-b ideograph𠀋inside, 𝐀 math bold",
    "unassigned \ufaff and \ufa6e in the compatibility block, \uf900 assigned",
    "lone surrogate \ud800 in text, café naïve e\u0301 combining",
    "\u3000ideographic\u3000space and\tother\nwhitespace\x1c\x1d",
    "\n".join(ZH_PARAGRAPHS),
    "\n\n".join(EN_PARAGRAPHS),
]


@pytest.mark.parametrize("text", TEXTS)
def test_words_and_characters_equal_the_patterns(text):
    body = BodyText.of(text)
    assert body.words == WORD.findall(text)
    assert body.latin_words == WORD.findall(CJK_RUN.sub(" ", text))
    assert body.word_chars == "".join(WORD.findall(text))
    assert body.word_codes.tolist() == [ord(c) for c in "".join(WORD.findall(text))]
    assert body.cjk_codes.tolist() == [ord(c) for c in "".join(CJK_RUN.findall(text))]


def test_words_of_normalised_bodies_equal_the_pattern():
    for text in ("\n".join(ZH_PARAGRAPHS), "\n\n".join(EN_PARAGRAPHS), "ＣＯＶＩＤ－１９　疫情…½"):
        normalized = normalize_text(text)
        assert BodyText.of(normalized).words == WORD.findall(normalized)


def test_no_word_character_is_whitespace():
    """`words_where` splits on whitespace: that only works because `\\w` and whitespace never meet."""
    whitespace = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace())
    assert not WORD.search(whitespace)


def test_code_points_keep_one_value_per_character():
    assert code_points("a中😀\ud800").tolist() == [0x61, 0x4E2D, 0x1F600, 0xD800]


def test_cjk_ranks_follow_code_points():
    assert CJK_COUNT == len(CJK_CODES) == 28096
    ranks = CJK_RANK[list(CJK_CODES)].tolist()
    assert ranks == list(range(CJK_COUNT))
    assert CJK_COUNT * CJK_COUNT < 2**32  # a bigram key fits 32 bits


def test_crc_memo_gives_both_crcs_of_the_text():
    memo = CrcMemo(lambda key: f"w{key}")
    assert memo[7] == zlib.crc32(b"w7") << 32 | zlib.crc32(b"w7", 1)
    assert WORD_CRCS.pairs(["library", "大桥"]).tolist() == [
        zlib.crc32(w.encode()) << 32 | zlib.crc32(w.encode(), 1) for w in ("library", "大桥")
    ]
    assert WORD_CRCS.pairs([]).tolist() == []


def test_folding_characters_keeps_the_nfkc_and_leaves_a_chinese_body_normal():
    body = "\n".join(ZH_PARAGRAPHS) + "（记者　王明）ＣＯＶＩＤ－１９…½ 😀"
    folded = fold_nfkc_characters(body)
    assert unicodedata.normalize("NFKC", folded) == unicodedata.normalize("NFKC", body)
    assert unicodedata.is_normalized("NFKC", folded)  # so the NFKC call after returns at its quick check
    combining = "e\u0301 ｅ\u0301"  # composing is left to that NFKC call
    assert unicodedata.normalize("NFKC", fold_nfkc_characters(combining)) == unicodedata.normalize("NFKC", combining)
    assert "，" not in folded and "(记者 王明)covid-19...1⁄2" in folded.lower()
