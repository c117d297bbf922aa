"""Body read once as code points: the words and characters it gives equal what the regular expressions found."""

from __future__ import annotations

import random
import re
import sys
import unicodedata
import zlib

import pytest

from newscorpus.core.near_duplicate import body_text
from newscorpus.core.near_duplicate.body_text import (
    CJK_CODES,
    CJK_COUNT,
    CJK_RANK,
    WORD_CRCS,
    BodyText,
    CrcMemo,
    code_points,
    fold_nfkc_characters,
)
from newscorpus.core.near_duplicate.keywords import normalize_text
from tests.core.near_duplicate.texts import EN_PARAGRAPHS, ZH_PARAGRAPHS

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


def test_short_texts_fold_as_the_arrays_fold_them(monkeypatch):
    """fold_nfkc_characters below SHORT_TEXT (str.translate, body_text._fold_short) against its array version, on
    texts cut from the test texts and on random characters of every kind: full-width, compatibility characters
    whose NFKC is several characters (one inside another's: "½" gives "⁄"), astral, surrogates, combining marks."""
    rng = random.Random(18)
    alphabet = "".join(TEXTS) + "（）ＡＢ１２…½¼ﬁ㍿⁄／ｶﾞ\u2460\u33ff\U0001d400\U0002f800\ud800\udfff\u0301\u00a0ß"
    samples = [text[i : i + n] for text in TEXTS for i in range(0, len(text), 7) for n in (1, 5, 20, 63)]
    samples += ["".join(rng.choices(alphabet, k=rng.randint(0, body_text.SHORT_TEXT - 1))) for _ in range(3000)]
    samples += ["".join(chr(rng.randrange(0x110000)) for _ in range(rng.randint(0, 60))) for _ in range(3000)]
    short = [fold_nfkc_characters(text) for text in samples]
    monkeypatch.setattr(body_text, "SHORT_TEXT", 0)  # every text through the arrays
    assert short == [fold_nfkc_characters(text) for text in samples]


def test_bmp_tables_are_those_of_every_character_alone(monkeypatch):
    """_nfkc_of_bmp (chunks checked at once) and _bmp_classes (the BMP's text from an array) against every
    BMP character normalised and matched alone, whatever the chunk size."""
    import numpy as np

    one_char = np.arange(body_text.BMP_SIZE, dtype=np.uint32)
    several_chars = np.zeros(body_text.BMP_SIZE, dtype=bool)
    for code in range(body_text.BMP_SIZE):
        folded = unicodedata.normalize("NFKC", chr(code))
        if len(folded) == 1:
            one_char[code] = ord(folded)
        else:
            several_chars[code] = True
    words = np.array([bool(re.fullmatch(r"\w", chr(code))) for code in range(body_text.BMP_SIZE)])
    assert body_text._bmp_text() == "".join(map(chr, range(body_text.BMP_SIZE)))
    for chunk in (body_text.NFKC_CHUNK, 1, 7, 1000, body_text.BMP_SIZE):
        monkeypatch.setattr(body_text, "NFKC_CHUNK", chunk)
        got_one, got_several = body_text._nfkc_of_bmp.__wrapped__()
        assert got_one.tolist() == one_char.tolist() and got_several.tolist() == several_chars.tolist(), chunk
    classes = body_text._bmp_classes.__wrapped__()
    assert ((classes & body_text.WORD_CHAR) != 0).tolist() == words.tolist()
