"""What a site's pages say about their titles: the affix the site adds to its page titles (` | Site name`,
`Site name - `), learnt from many pages, and the texts that are the same on the site's pages (its name, a logo
heading, a section label), which are never an article's title.

Evidence only from the site's own pages: an affix is learnt when at least AFFIX_MIN_PAGES pages, and at least
AFFIX_SHARE of the recent pages with a title, end (or start) with it; a text is the site's when it stands on
CONSTANT_MIN_PAGES pages whose titles differ from it. Before that the generic title stands.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

# Separators sites put between a headline and their name: "|", "｜", "_", "·", "»", "::", dashes (spaced or
# not: "标题-中国新闻网"). A hyphen inside a word ("COVID-19") is a cut point too; an affix there is learnt
# only if that many pages end with the same text, which is then the site's by the same evidence.
_SEPARATOR = re.compile(r"\s*(?:\||｜|_|·|»|::|—|–|-)\s*")
_DASHES = str.maketrans({"–": "-", "—": "-", "―": "-", "‐": "-", "‑": "-", "｜": "|"})
_SPACES = re.compile(r"\s+")
_HAS_WORD = re.compile(r"[^\W\d_]")  # an affix holds a letter or a CJK character, not only digits
# An affix or a constant text needs this many pages: as INDUCE_K (templates.py), the fewest where agreement
# is not chance.
AFFIX_MIN_PAGES = 3
# ... and at least this share of the recent pages that state a title: a site's suffix is on (nearly) every
# page; a half leaves room for sections that spell it differently and keeps a series word ("Part 2") out.
AFFIX_SHARE = 0.5
CONSTANT_MIN_PAGES = 3
RECENT_PAGES = 50  # pages remembered per site (the same bound as the cascade's observations)
# Folded texts kept: a page's title and headings are folded ~16 times per page as it is learnt and its title
# chosen; 4,096 texts of a few hundred characters at most is ~2 MB.
FOLD_CACHE_SIZE = 4096
_KINDS = ("suffixes", "prefixes")


@lru_cache(maxsize=FOLD_CACHE_SIZE)
def fold(text: str) -> str:
    """The form texts are compared in: NFKC, dashes unified, case folded, spaces collapsed."""
    text = unicodedata.normalize("NFKC", text).translate(_DASHES).casefold()
    return _SPACES.sub(" ", text).strip()


def _affix_key(text: str) -> str:
    """An affix folded, every separator spelled " | " (the same affix with - or – counts once)."""
    return _SEPARATOR.sub(" | ", fold(text)).strip()


def cut_points(title: str) -> list[tuple[int, int]]:
    """(start, end) of each separator inside the title (not at its ends)."""
    return [(m.start(), m.end()) for m in _SEPARATOR.finditer(title) if 0 < m.start() and m.end() < len(title)]


def affixes_of(title: str) -> tuple[set[str], set[str]]:
    """Every suffix (from a separator to the end) and prefix (from the start to a separator's end) of a title."""
    suffixes, prefixes = set(), set()
    for start, end in cut_points(title):
        suffix, prefix = title[start:], title[:end]
        if _HAS_WORD.search(suffix):
            suffixes.add(_affix_key(suffix))
        if _HAS_WORD.search(prefix):
            prefixes.add(_affix_key(prefix))
    return suffixes, prefixes


@dataclass
class _PageTitles:
    suffixes: frozenset[str]
    prefixes: frozenset[str]
    texts: frozenset[str]   # folded title candidates of the page (stated titles, headings, chosen titles)
    stated: frozenset[str]  # folded stated titles, affixes removed with what was learnt when the page came


@dataclass
class SiteTitles:
    """One site's recent pages' titles; `learn` adds a page, the other methods read what was learnt."""

    recent: deque[_PageTitles] = field(default_factory=lambda: deque(maxlen=RECENT_PAGES))
    _learnt_cache: dict[str, set[str]] = field(default_factory=dict, repr=False)
    # Over `recent`, kept as pages come and go: on how many pages each affix stands, and how many pages state a title.
    _counts: dict[str, Counter[str]] = field(default_factory=lambda: {kind: Counter() for kind in _KINDS}, repr=False)
    _stating: int = field(default=0, repr=False)

    def learn(self, stated: Iterable[str], texts: Iterable[str]) -> None:
        """Add a page's stated titles and title-like texts. A page whose texts are all those of a page already
        remembered (a copy at another URL: ?replytocom=, print versions) adds no evidence and is skipped."""
        stated = [title for title in stated if title]
        texts = list(texts)
        folded = frozenset(fold(text) for text in (*stated, *texts) if text and text.strip())
        if any(page.texts == folded for page in self.recent):
            return
        suffixes: set[str] = set()
        prefixes: set[str] = set()
        for title in stated:
            found = affixes_of(title)
            suffixes |= found[0]
            prefixes |= found[1]
        page = _PageTitles(frozenset(suffixes), frozenset(prefixes), folded,
                           frozenset(fold(self.without_affixes(title)) for title in stated))
        if len(self.recent) == self.recent.maxlen:
            self._count(self.recent[0], -1)  # the page the append pushes out
        self.recent.append(page)
        self._count(page, 1)
        self._learnt_cache.clear()

    def _count(self, page: _PageTitles, step: int) -> None:
        for kind in _KINDS:
            counts = self._counts[kind]
            for affix in getattr(page, kind):
                counts[affix] += step
                if not counts[affix]:
                    del counts[affix]
        self._stating += step if page.stated else 0

    def _learnt(self, kind: str) -> set[str]:
        if kind not in self._learnt_cache:
            counts = self._counts[kind]
            needed = max(AFFIX_MIN_PAGES, AFFIX_SHARE * self._stating)
            learnt = {affix for affix, count in counts.items() if count >= needed}
            # The site's name spelled shorter on some pages (" | 酷 壳" beside " | 酷 壳 - CoolShell"): an affix
            # on AFFIX_MIN_PAGES pages that a learnt one starts (suffix) or ends (prefix) with.
            shorter = (str.startswith if kind == "suffixes" else str.endswith)
            learnt |= {affix for affix, count in counts.items()
                       if count >= AFFIX_MIN_PAGES and any(shorter(long, affix) for long in learnt)}
            self._learnt_cache[kind] = learnt
        return self._learnt_cache[kind]

    def learnt_affixes(self) -> tuple[frozenset[str], frozenset[str]]:
        """(suffixes, prefixes) learnt from the recent pages."""
        return frozenset(self._learnt("suffixes")), frozenset(self._learnt("prefixes"))

    def without_affixes(self, title: str) -> str:
        """The title without the site's learnt suffix and prefix (the longest that leaves text)."""
        suffixes, prefixes = self._learnt("suffixes"), self._learnt("prefixes")
        if not suffixes and not prefixes:
            return title
        points = cut_points(title)
        for start, _end in points:  # leftmost cut first: the longest suffix
            if _affix_key(title[start:]) in suffixes and _HAS_WORD.search(title[:start]):
                title = title[:start].strip()
                break
        for _start, end in reversed(cut_points(title)):  # rightmost cut first: the longest prefix
            if _affix_key(title[:end]) in prefixes and _HAS_WORD.search(title[end:]):
                title = title[end:].strip()
                break
        return title

    def is_site_text(self, text: str) -> bool:
        """The site's name, a logo heading, a section label, not an article's title: the text is on at least
        CONSTANT_MIN_PAGES recent pages and on AFFIX_SHARE of them (a page title the whole site repeats), or
        on CONSTANT_MIN_PAGES pages whose own stated titles (affixes removed) are other texts (a heading above
        different articles; a series whose pages are all titled so keeps its title). Also a learnt affix
        itself (the site's name as the whole title)."""
        key = fold(text)
        if not key:
            return False
        holding = [page for page in self.recent if key in page.texts]
        if len(holding) >= max(CONSTANT_MIN_PAGES, AFFIX_SHARE * len(self.recent)):
            return True
        if sum(1 for page in holding if page.stated and key not in page.stated) >= CONSTANT_MIN_PAGES:
            return True
        return _affix_key(text) in self._learnt_bare()

    def _learnt_bare(self) -> set[str]:
        """The learnt suffixes and prefixes without their separators."""
        if "bare" not in self._learnt_cache:
            self._learnt_cache["bare"] = {a.strip(" |") for a in self._learnt("suffixes") | self._learnt("prefixes")}
        return self._learnt_cache["bare"]

    def choose(self, candidates: Iterable[str | None]) -> str | None:
        """The first candidate that is not the site's own text and, its affixes removed, is text and not the site's
        own or a part of its name (what is left of "Site Name – its motto" once " – its motto" goes); None when
        none is."""
        for candidate in candidates:
            if not candidate or not candidate.strip() or self.is_site_text(candidate.strip()):
                continue
            stripped = self.without_affixes(candidate.strip())
            if _HAS_WORD.search(stripped) and not self.is_site_text(stripped) and not self._in_affix(stripped):
                return stripped
        return None

    def _in_affix(self, text: str) -> bool:
        key = _affix_key(text).strip(" |")
        return bool(key) and any(key in affix for affix in self._learnt("suffixes") | self._learnt("prefixes"))


_NOT_WORD = re.compile(r"[\W_]+")
# A title agrees with a stated title when one contains the other and the shorter has at least this many word
# characters (as MIN_MATCH_CHARS of newscorpus.core.extraction.headline: "新闻"/"News" labels do not match).
AGREE_MIN_CHARS = 6


def agrees(text: str, stated: Iterable[str]) -> bool:
    """The text is (part of) one of the page's stated titles, or holds one: page-level evidence for a title."""
    key = _NOT_WORD.sub("", fold(text))
    if len(key) < AGREE_MIN_CHARS:
        return False
    for title in stated:
        other = _NOT_WORD.sub("", fold(title))
        if min(len(key), len(other)) >= AGREE_MIN_CHARS and (key in other or other in key):
            return True
    return False
