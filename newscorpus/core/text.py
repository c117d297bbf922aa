"""Text concepts shared by every layer: the scripts (code point ranges, each defined once here), a text's language,
its scoring tokens, what Postgres text may hold (NUL), and the content hashes stored with it."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from itertools import product

# Scripts, as (first, last) code points. Regex classes are made from them with `characters`.
HAN_UNIFIED = (0x4E00, 0x9FFF)  # CJK Unified Ideographs: the Han characters of everyday Chinese
HAN_EXTENSION_A = (0x3400, 0x4DBF)  # CJK Unified Ideographs Extension A (rare characters)
HAN_COMPATIBILITY = (0xF900, 0xFAFF)  # CJK Compatibility Ideographs
HAN_RANGES = (HAN_EXTENSION_A, HAN_UNIFIED, HAN_COMPATIBILITY)  # every CJK ideograph of the BMP
KANA = (0x3040, 0x30FF)  # hiragana and katakana
HANGUL = (0xAC00, 0xD7AF)  # hangul syllables
CYRILLIC = (0x0400, 0x04FF)
ARABIC = (0x0600, 0x06FF)


def characters(*ranges: tuple[int, int]) -> str:
    """The inside of a regex character class holding the ranges: f"[{characters(HAN_UNIFIED)}]"."""
    return "".join(f"{chr(first)}-{chr(last)}" for first, last in ranges)


# Tokens for scoring and training: each CJK character (Han, kana, hangul) is one token, other text is lower-cased
# `\w+` words (underscore splits words).
_CJK_CHARS = characters(KANA, *HAN_RANGES, HANGUL)
_TOKEN = re.compile(f"[{_CJK_CHARS}]|[^\\W_{_CJK_CHARS}]+")


def tokenize(text: str) -> list[str]:
    """The scoring tokens of a text (extraction scores, line training, the site-aware title check)."""
    return _TOKEN.findall(text.lower())


# Language: from the script and, for Latin script, a few English stopwords (cheap heuristic).
_HAN = re.compile(f"[{characters(HAN_UNIFIED, HAN_EXTENSION_A)}]")
_KANA = re.compile(f"[{characters(KANA)}]")
_HANGUL = re.compile(f"[{characters(HANGUL)}]")
_CYRILLIC = re.compile(f"[{characters(CYRILLIC)}]")
_ARABIC = re.compile(f"[{characters(ARABIC)}]")
_LETTER = re.compile(r"[^\W\d_]")
_NOT_LETTER = re.compile(r"[\W\d_]")  # every character _LETTER does not match
# Any character of the scripts counted below; a text without one (most English bodies) skips their counts.
_OTHER_SCRIPT = re.compile(f"[{characters(CYRILLIC, ARABIC, KANA, HAN_EXTENSION_A, HAN_UNIFIED, HANGUL)}]")
_LATIN_WORD = re.compile(r"[a-zA-Z\u00c0-\u024f]+")
_ENGLISH_STOPWORDS = frozenset(
    "the of and to in a is that for it was on with as by he his at from are be this have said not".split()
)
# Sample size: the first 5,000 characters decide; longer texts do not change the verdict in practice.
SAMPLE_CHARS = 5000
# Shares chosen by looking at the dev data's zh/en/ja gold texts: Chinese news has > 30 % Han
# characters, Japanese has kana in > 5 % of characters, English prose has > 15 % stopword tokens.
MIN_SCRIPT_SHARE = 0.3
MIN_KANA_SHARE = 0.05
MIN_STOPWORD_SHARE = 0.15
# detect_language counts Han characters this many characters at a time (a speed setting, not a threshold: any size
# gives the same answers; a Chinese sample passes MIN_SCRIPT_SHARE in its first chunk or two).
HAN_CHUNK_CHARS = 1000


def detect_language(text: str, english: bool = True) -> str | None:
    """The language of a text (an article's `language`): "zh", "ja", "ko", "ru", "ar", "en", or None when unsure
    (other Latin-script languages, no letters). With `english` False, None where it would be "en": the stopword
    count is skipped, for a caller that asks only about the other languages (the default method's region choice asks
    only "zh or not", at about half the cost; tests/core/test_text.py compares)."""
    sample = text[:SAMPLE_CHARS]
    if english:
        # one search for the first character of another script or of Latin's extended range: most English samples hold
        # neither, and their words are then read from the ASCII bytes without a second search (test_text.py
        # compares with the two searches)
        first = _BEYOND_ASCII_LETTERS.search(sample)
        if first is None:
            return _english_from(_ascii_words(sample), _STOPWORD_BYTES)
        if _OTHER_SCRIPT.search(sample, first.start()) is None:  # every script share below would be 0
            return _english_or_none(sample)
    elif _OTHER_SCRIPT.search(sample) is None:  # every script share below would be 0
        return None
    # the letters counted as the characters that are not letters (_NOT_LETTER is _LETTER's complement): a sample in
    # another script is ~80% letters, and each match is a string made (test_text.py compares)
    letters = len(sample) - len(_NOT_LETTER.findall(sample))
    if not letters:
        return None
    kana = len(_KANA.findall(sample))
    if kana / letters > MIN_KANA_SHARE:
        return "ja"
    # Han characters counted a chunk at a time, "zh" as soon as the count so far passes the share (the count only
    # grows, and the division is monotonic: the same answer as the whole count). A Chinese sample passes within its
    # first ~2,000 characters, so its count stops early (test_text.py compares)
    han = 0
    for start in range(0, len(sample), HAN_CHUNK_CHARS):
        han += len(_HAN.findall(sample, start, start + HAN_CHUNK_CHARS))
        if han / letters > MIN_SCRIPT_SHARE:
            return "zh"
    if len(_HANGUL.findall(sample)) / letters > MIN_SCRIPT_SHARE:
        return "ko"
    if len(_CYRILLIC.findall(sample)) / letters > MIN_SCRIPT_SHARE:
        return "ru"
    if len(_ARABIC.findall(sample)) / letters > MIN_SCRIPT_SHARE:
        return "ar"
    return _english_or_none(sample) if english else None


# Every spelling of the stopwords in upper and lower case letters: a word of _LATIN_WORD is one of them exactly when
# its lower case is a stopword (no letter of its other ranges has an ASCII lower case; a test checks both), so each
# word is one set lookup, without lower-casing (cheaper than counting distinct words first).
_STOPWORD_SPELLINGS = frozenset(
    "".join(letters) for word in _ENGLISH_STOPWORDS for letters in product(*((c, c.upper()) for c in word))
)


def language_of_texts(texts: Iterable[str], english: bool = True) -> str | None:
    """detect_language of the texts joined by newlines (`english` as there), joining only the texts that fill its
    sample (it reads the first SAMPLE_CHARS characters), not all of them: a page's blocks, a body's lines."""
    sample, size = [], 0
    for text in texts:
        sample.append(text)
        size += len(text) + 1
        if size > SAMPLE_CHARS:  # the joined text (size - 1 characters) fills the sample
            break
    return detect_language("\n".join(sample), english)


# Words of a sample without a letter of _LATIN_WORD's non-ASCII range (most English samples: their other non-ASCII
# characters are quotes, dashes, no-break spaces): the runs of ASCII letters, read from its ASCII encoding (each other
# character one "?") with every byte but a letter made a space, split in C: the same words as _LATIN_WORD.findall in a
# third of the CPU (benchmarks/extraction_cpu_ab.py; tests/core/test_text.py compares).
_LATIN_EXTENDED = re.compile("[\u00c0-\u024f]")
_LETTER_BYTES = bytes(byte if 65 <= byte <= 90 or 97 <= byte <= 122 else 32 for byte in range(256))
_STOPWORD_BYTES = frozenset(spelling.encode("ascii") for spelling in _STOPWORD_SPELLINGS)


# A character of _LATIN_EXTENDED or of _OTHER_SCRIPT (detect_language's first search).
_BEYOND_ASCII_LETTERS = re.compile(
    f"[\u00c0-\u024f{characters(CYRILLIC, ARABIC, KANA, HAN_EXTENSION_A, HAN_UNIFIED, HANGUL)}]"
)


def _ascii_words(sample: str) -> list[bytes]:
    """_LATIN_WORD's words of a sample without a character of _LATIN_EXTENDED (see above)."""
    return sample.encode("ascii", "replace").translate(_LETTER_BYTES).split()


def _latin_words(sample: str) -> tuple[list, frozenset]:
    """The words of _LATIN_WORD in the sample, and the stopword spellings in their type (str or bytes)."""
    if _LATIN_EXTENDED.search(sample) is None:
        return _ascii_words(sample), _STOPWORD_BYTES
    return _LATIN_WORD.findall(sample), _STOPWORD_SPELLINGS


def _english_or_none(sample: str) -> str | None:
    return _english_from(*_latin_words(sample))


def _english_from(words: list, spellings: frozenset) -> str | None:
    stopwords = sum(map(spellings.__contains__, words))
    if words and stopwords / len(words) > MIN_STOPWORD_SHARE:
        return "en"
    return None


def without_nul(text: str | None) -> str | None:
    """Postgres text cannot hold NUL characters."""
    return text.replace("\x00", "") if text else text


def body_hash(text: str) -> str:
    """SHA-256 of a body as stored (articles.body_hash, line-noise per-article rows)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def source_hash(title: str | None, body: str) -> str:
    """What the near-duplicate stage fed the detector: a re-crawl with the same hash changes nothing."""
    return hashlib.sha256(f"{title or ''}\x00{body}".encode()).hexdigest()
