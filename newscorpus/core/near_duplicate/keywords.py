"""Article keywords for near-duplicate detection: title keywords plus body words that co-occur with them.

Method of the research base (`../shared/research/002_*.txt`): segment the title, drop stopwords → title
keywords; in the body, the words found at least `m` times inside a window of `w` tokens around a title
keyword → body keywords. Only the text around title keywords is segmented, so the cost follows the seed
hits, not the body length (the paper's speed argument; it also skips most top/bottom page clutter).
"""

from __future__ import annotations

import heapq
import re
import unicodedata
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import chain, compress, count, islice

import numpy as np

from newscorpus.core.jieba_dictionary import tokens_without_hmm, words_with_hmm
from newscorpus.core.near_duplicate.body_text import CJK_CHAR, WORD_CHAR, classify, code_points, fold_nfkc_characters
from newscorpus.core.text import HAN_RANGES, characters

# A text is Chinese when at least this share of its word characters are CJK ideographs. 0.3 sits far from
# both modes of the dedup data (zh bodies ≥ 0.8, en bodies < 0.01 on ../shared/data/dedup).
ZH_CJK_SHARE = 0.3
# Characters per jieba token in Chinese bodies, to turn a window of w tokens into characters
# (1.8 on 80 zh bodies of ../shared/data/dedup: CJK characters / jieba words holding one).
ZH_CHARS_PER_TOKEN = 1.8
# Only the first this many title-keyword hits seed windows: jieba's cost per Chinese body falls about fourfold
# from 200 hits to 20 at w = 5; labelled-pair F1 is identical at 10, 20, 30 and 50 hits (`newscorpus eval
# near-duplicate ../shared/data/dedup`); 20 keeps a 2x margin over the smallest value tried.
MAX_SEED_HITS = 20
# Title keywords kept (the longest headlines of the dedup data have ~12 content words).
MAX_TITLE_KEYWORDS = 12

_CJK = re.compile(f"[{characters(*HAN_RANGES)}]")
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
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", fold_nfkc_characters(text))
    return text.casefold()


def segmentation_language(text: str) -> str:
    """How the near-duplicate features cut a body into words: "zh" (jieba words, CJK bigrams, Chinese stopwords)
    when CJK ideographs are at least ZH_CJK_SHARE of the first 2000 characters' word characters (those
    `str.isalnum` accepts: `\\w` but "_"), else "en" (`\\w+` words). Not the article's language
    (`newscorpus.core.text.detect_language`): a Japanese or Korean body is cut one of these two ways, and the
    rule is stored with every indexed article's features."""
    codes = code_points(text[:2000])
    # One table lookup per character (body_text.classify): about a tenth of `str.isalnum` over the sample and a
    # regex for its CJK ideographs (benchmarks/near_duplicate_features_ab.py).
    classes = classify(codes)
    word = (classes & WORD_CHAR).astype(bool) & (codes != ord("_"))
    word_chars = int(np.count_nonzero(word))
    if not word_chars:
        return "en"
    cjk = int(np.count_nonzero(word & (classes & CJK_CHAR).astype(bool)))
    return "zh" if cjk / word_chars >= ZH_CJK_SHARE else "en"


@cache
def load_stopwords(lang: str) -> frozenset[str]:
    name = "zh.txt" if lang == "zh" else "en.txt"
    text = resources.files("newscorpus.core").joinpath("stopwords", name).read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def segment(text: str, lang: str) -> list[str]:
    """Words of an already normalised text: jieba for Chinese, `\\w+` runs otherwise."""
    if lang == "zh":
        return [w for w in words_with_hmm(text) if w.strip()]
    return _WORD.findall(text)


# Keyword answers remembered per language rule (~70 asks per zh body, ~1,000 per en body, on a vocabulary that
# repeats), emptied when this many are held: a dict lookup costs about a third of an lru_cache's call
# (benchmarks/near_duplicate_features_ab.py).
KEYWORD_MEMO_SIZE = 1 << 18


def _judge_keyword(token: str, zh: bool) -> bool:
    if len(token) < (2 if zh else 3) or not any(c.isalpha() for c in token):
        return False
    if zh and not _CJK.search(token) and len(token) < 3:
        return False
    return token not in load_stopwords("zh" if zh else "en")


class _KeywordMemo(dict):
    def __init__(self, zh: bool) -> None:
        super().__init__()
        self.zh = zh

    def __missing__(self, token: str) -> bool:
        if len(self) >= KEYWORD_MEMO_SIZE:
            self.clear()
        answer = self[token] = _judge_keyword(token, self.zh)
        return answer


_KEYWORD_MEMOS = (_KeywordMemo(zh=False), _KeywordMemo(zh=True))


def keyword_test(lang: str) -> Callable[[str], bool]:
    """`is_keyword` for one language, as a bare lookup (for loops over a body's words)."""
    return _KEYWORD_MEMOS[lang == "zh"].__getitem__


def is_keyword(token: str, lang: str) -> bool:
    """Content words: zh ≥ 2 characters, en ≥ 3 letters (as the data set's title-keyword diagnostic), no numbers."""
    return _KEYWORD_MEMOS[lang == "zh"][token]


def title_keywords(title: str, lang: str) -> tuple[str, ...]:
    keep = keyword_test(lang)
    seen: dict[str, None] = {}
    for token in segment(normalize_text(title), lang):
        if keep(token):
            seen.setdefault(token, None)
    return tuple(seen)[:MAX_TITLE_KEYWORDS]


_DIGITS = re.compile(r"\d+")


def title_numbers(title: str) -> tuple[str, ...]:
    """The numbers of a title, sorted (NFKC: full-width digits fold): what tells a series' issues apart (week 10,
    the 2022 guide, v7.3.14) when their keywords are the same; leading zeros dropped ("05" = "5")."""
    return tuple(sorted(str(int(number)) for number in _DIGITS.findall(normalize_text(title))))


def seed_hits(text: str, seeds: Iterable[str], limit: int) -> list[tuple[int, int]]:
    """The first `limit` (start, end) of seeds in text, as `re.finditer` of their alternation, longest first, finds
    them: leftmost, the longest seed at a position, not overlapping. Found with `str.find` instead: compiling that
    pattern for every title would cost more than the rest of the windows."""
    heap = [(start, -len(seed), seed) for seed in seeds if (start := text.find(seed)) >= 0]
    heapq.heapify(heap)  # each seed's next occurrence at or after `position`, or an earlier one not yet skipped
    hits: list[tuple[int, int]] = []
    position = 0
    while heap and len(hits) < limit:
        start, negative_length, seed = heap[0]
        if start >= position:  # no stale entry is left below it, so it is the leftmost, longest match
            position = start - negative_length
            hits.append((start, position))
        if (start := text.find(seed, position)) >= 0:
            heapq.heapreplace(heap, (start, negative_length, seed))
        else:
            heapq.heappop(heap)
    return hits


def _window_words_en(words: list[str], seeds: frozenset[str], window: int) -> list[set[str]]:
    hits = list(islice(compress(count(), map(seeds.__contains__, words)), MAX_SEED_HITS))
    keep = keyword_test("en")
    return [{t for t in words[max(0, i - window) : i + window + 1] if t not in seeds and keep(t)} for i in hits]


def _window_words_zh(body: str, seeds: frozenset[str], window: int) -> list[set[str]]:
    hits = seed_hits(body, seeds, MAX_SEED_HITS)
    reach = int(window * ZH_CHARS_PER_TOKEN)
    spans: list[list[int]] = []  # merged character spans around the hits, the only text segmented
    for start, end in hits:
        lo, hi = max(0, start - reach), end + reach
        if spans and lo <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], hi)
        else:
            spans.append([lo, hi])
    keep = keyword_test("zh")
    words: list[tuple[int, str]] = []
    for lo, hi in spans:
        words.extend((lo + s, w) for s, w in tokens_without_hmm(body[lo:hi]) if keep(w))
    positions = [pos for pos, _ in words]
    windows = []
    for start, end in hits:
        first, last = bisect_left(positions, start - reach), bisect_left(positions, end + reach)
        windows.append({w for _, w in words[first:last] if w not in seeds})
    return windows


def body_keywords(
    normalized_body: str,
    seeds: tuple[str, ...],
    lang: str,
    window: int,
    min_cooccurrence: int,
    limit: int,
    words: list[str] | None = None,
) -> tuple[str, ...]:
    """Words found in at least `min_cooccurrence` windows of ±`window` tokens around a title keyword
    (the body already through `normalize_text`; `words`: its `\\w+` words, when the caller has them)."""
    if not seeds or limit <= 0:
        return ()
    if lang == "zh":
        windows = _window_words_zh(normalized_body, frozenset(seeds), window)
    else:
        windows = _window_words_en(_WORD.findall(normalized_body) if words is None else words, frozenset(seeds), window)
    # One count over all windows (in window order: the same counts in the same insertion order), not a
    # Counter.update per window (~11 a body): about half the CPU.
    counts = Counter(chain.from_iterable(windows))
    ranked = sorted((w for w, n in counts.items() if n >= min_cooccurrence), key=lambda w: (-counts[w], w))
    return tuple(ranked[:limit])


def extract_keywords(
    title: str,
    normalized_body: str,
    lang: str,
    window: int,
    min_cooccurrence: int,
    max_keywords: int,
    words: list[str] | None = None,
) -> KeywordSet:
    """Title keywords ∪ body keywords, at most `max_keywords`; the body already through `normalize_text`
    (`words`: its `\\w+` words, when the caller has them)."""
    seeds = title_keywords(title, lang)[:max_keywords]
    found = body_keywords(normalized_body, seeds, lang, window, min_cooccurrence, max_keywords - len(seeds), words)
    return KeywordSet(seeds, found)
