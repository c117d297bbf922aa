"""Article keywords for near-duplicate detection: title keywords plus body words that co-occur with them.

Method of the research base (`../shared/research/002_*.txt`): segment the title, drop stopwords → title
keywords; in the body, the words found at least `m` times inside a window of `w` tokens around a title
keyword → body keywords. Only the text around title keywords is segmented, so the cost follows the seed
hits, not the body length (the paper's speed argument; it also skips most top/bottom page clutter).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

# A text is Chinese when at least this share of its word characters are CJK ideographs. 0.3 sits far from
# both modes of the dedup data (zh bodies ≥ 0.8, en bodies < 0.01, measured 2026-11 on ../shared/data/dedup).
ZH_CJK_SHARE = 0.3
# Characters per jieba token in Chinese bodies, to turn a window of w tokens into characters
# (1.8 measured 2026-11 on 80 zh bodies of ../shared/data/dedup: CJK characters / jieba words holding one).
ZH_CHARS_PER_TOKEN = 1.8
# Only the first this many title-keyword hits seed windows: jieba cost per Chinese body 2.1 → 1.2 ms at
# w = 5 (200 → 50 hits) → ~0.5 ms (20 hits); labelled-pair F1 identical at 10, 20, 30 and 50 hits
# (eval 2026-11, ../shared/data/dedup); 20 keeps a 2x margin over the smallest value tried.
MAX_SEED_HITS = 20
# Title keywords kept (the longest headlines of the dedup data have ~12 content words).
MAX_TITLE_KEYWORDS = 12

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class KeywordSet:
    title_keywords: tuple[str, ...]
    body_keywords: tuple[str, ...]

    @property
    def all(self) -> frozenset[str]:
        return frozenset(self.title_keywords) | frozenset(self.body_keywords)


def normalize_text(text: str) -> str:
    """NFKC (full-width → ASCII) and case folding: reprints change width and quotes, not words."""
    return unicodedata.normalize("NFKC", text).casefold()


def detect_language(text: str) -> str:
    word_chars = [c for c in text[:2000] if c.isalnum()]
    if not word_chars:
        return "en"
    cjk = sum(1 for c in word_chars if _CJK.match(c))
    return "zh" if cjk / len(word_chars) >= ZH_CJK_SHARE else "en"


@cache
def load_stopwords(lang: str) -> frozenset[str]:
    name = "zh.txt" if lang == "zh" else "en.txt"
    text = resources.files("pipelines.core").joinpath("stopwords", name).read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


@cache
def _jieba():  # noqa: ANN202 - the jieba module, loaded once (its dictionary costs ~1 s)
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba


def tokenize(text: str, lang: str) -> list[str]:
    """Words of an already normalised text: jieba for Chinese, `\\w+` runs otherwise."""
    if lang == "zh":
        return [w for w in _jieba().cut(text) if w.strip()]
    return _WORD.findall(text)


@lru_cache(maxsize=1 << 18)  # ~70 calls per article on a vocabulary that repeats: 0.4 → 0.1 ms per zh body
def is_keyword(token: str, lang: str) -> bool:
    """Content words: zh ≥ 2 characters, en ≥ 3 letters (as the data set's title-keyword diagnostic), no numbers."""
    if len(token) < (2 if lang == "zh" else 3) or not any(c.isalpha() for c in token):
        return False
    if lang == "zh" and not _CJK.search(token) and len(token) < 3:
        return False
    return token not in load_stopwords(lang)


def title_keywords(title: str, lang: str) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for token in tokenize(normalize_text(title), lang):
        if is_keyword(token, lang):
            seen.setdefault(token, None)
    return tuple(seen)[:MAX_TITLE_KEYWORDS]


def _window_words_en(body: str, seeds: frozenset[str], window: int) -> list[set[str]]:
    tokens = _WORD.findall(body)
    hits = [i for i, token in enumerate(tokens) if token in seeds][:MAX_SEED_HITS]
    return [
        {t for t in tokens[max(0, i - window) : i + window + 1] if t not in seeds and is_keyword(t, "en")} for i in hits
    ]


def _window_words_zh(body: str, seeds: frozenset[str], window: int) -> list[set[str]]:
    pattern = re.compile("|".join(re.escape(s) for s in sorted(seeds, key=len, reverse=True)))
    hits = [(m.start(), m.end()) for m in pattern.finditer(body)][:MAX_SEED_HITS]
    reach = int(window * ZH_CHARS_PER_TOKEN)
    spans: list[list[int]] = []  # merged character spans around the hits, the only text segmented
    for start, end in hits:
        lo, hi = max(0, start - reach), end + reach
        if spans and lo <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], hi)
        else:
            spans.append([lo, hi])
    words: list[tuple[int, str]] = []
    for lo, hi in spans:
        words.extend((lo + s, w) for w, s, _ in _jieba().tokenize(body[lo:hi], HMM=False) if is_keyword(w, "zh"))
    positions = [pos for pos, _ in words]
    windows = []
    for start, end in hits:
        first, last = bisect_left(positions, start - reach), bisect_left(positions, end + reach)
        windows.append({w for _, w in words[first:last] if w not in seeds})
    return windows


def body_keywords(
    normalized_body: str, seeds: tuple[str, ...], lang: str, window: int, min_cooccurrence: int, limit: int
) -> tuple[str, ...]:
    """Words found in at least `min_cooccurrence` windows of ±`window` tokens around a title keyword
    (the body already through `normalize_text`)."""
    if not seeds or limit <= 0:
        return ()
    finder = _window_words_zh if lang == "zh" else _window_words_en
    counts: Counter[str] = Counter()
    for words in finder(normalized_body, frozenset(seeds), window):
        counts.update(words)
    ranked = sorted((w for w, n in counts.items() if n >= min_cooccurrence), key=lambda w: (-counts[w], w))
    return tuple(ranked[:limit])


def extract_keywords(
    title: str, normalized_body: str, lang: str, window: int, min_cooccurrence: int, max_keywords: int
) -> KeywordSet:
    """Title keywords ∪ body keywords, at most `max_keywords`; the body already through `normalize_text`."""
    seeds = title_keywords(title, lang)[:max_keywords]
    found = body_keywords(normalized_body, seeds, lang, window, min_cooccurrence, max_keywords - len(seeds))
    return KeywordSet(seeds, found)
