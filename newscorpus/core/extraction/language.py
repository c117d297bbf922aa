"""Language of a text from its script and, for Latin script, a few English stopwords (cheap heuristic)."""

from __future__ import annotations

import re

_HAN = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_ARABIC = re.compile(r"[\u0600-\u06ff]")
_LETTER = re.compile(r"[^\W\d_]")
# Any character of the scripts counted below; a text without one (most English bodies) skips their counts.
_OTHER_SCRIPT = re.compile(r"[\u0400-\u06ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
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


def detect_language(text: str) -> str | None:
    """ "zh", "ja", "ko", "ru", "ar", "en", or None when unsure (other Latin-script languages)."""
    sample = text[:SAMPLE_CHARS]
    if _OTHER_SCRIPT.search(sample) is None:  # every script share below would be 0
        return _english_or_none(sample)
    letters = len(_LETTER.findall(sample))
    if not letters:
        return None
    kana = len(_KANA.findall(sample))
    han = len(_HAN.findall(sample))
    if kana / letters > MIN_KANA_SHARE:
        return "ja"
    if han / letters > MIN_SCRIPT_SHARE:
        return "zh"
    if len(_HANGUL.findall(sample)) / letters > MIN_SCRIPT_SHARE:
        return "ko"
    if len(_CYRILLIC.findall(sample)) / letters > MIN_SCRIPT_SHARE:
        return "ru"
    if len(_ARABIC.findall(sample)) / letters > MIN_SCRIPT_SHARE:
        return "ar"
    return _english_or_none(sample)


def _english_or_none(sample: str) -> str | None:
    words = [word.lower() for word in _LATIN_WORD.findall(sample)]
    if words and sum(word in _ENGLISH_STOPWORDS for word in words) / len(words) > MIN_STOPWORD_SHARE:
        return "en"
    return None
