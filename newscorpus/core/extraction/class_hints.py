"""What an element's class and id words say about it: a content hint (+1 article/content, -1 comment/sidebar/...)
and whether they name a comment section, as bit flags cached per attribute value."""

from __future__ import annotations

import re

from lxml import etree

from newscorpus.core.word_patterns import grouped_by_first_letter

# Class/id words, as readability's positive/negative lists (arc90 readability.js, trimmed to names
# that mean the same thing on every site). Inherited by descendants; the closest hint wins, except that a
# negative hint is kept by everything inside it: a comment list's posts are often class "content" (the
# positive child made macrumors.com's longest comment the article, F1 .26; keeping the negative hint moved
# en .9404 -> .9462, zh flat, dev run of 2026-11-22). <body>'s own class/id gives no hint: it names the
# page's layout ("u-has-nav-bar"), and a negative one would then cover the whole page.
# Not "widget" (readability has it): page builders call every block a widget ("elementor-widget-container"
# around the whole article), and sidebar widgets sit inside a "sidebar"/"aside" anyway. Removing it (issue 16,
# 2026-11-24): wcxb_train .8808 -> .8991 (16 pages better, 10 of them from no body to .98-1.00; 3 a little
# worse, -0.006 to -0.023, a sidebar box joining), cleanportaleval -0.0006, the other dev sets unchanged.
NEGATIVE_HINT = re.compile(
    r"comment|disqus|respond|reply|sidebar|side-bar|related|recommend|footer|foot|masthead|share|social|"
    r"sponsor|advert|promo|popup|outbrain|taboola|breadcrumb|crumb|pagination|pager|newsletter|subscribe|"
    r"hot-?news|tags?-list|rank|nav|menu|cookie|signup|login|"
    # Captions, credits, bylines, author bios, disclaimers, "trending"/"read more" boxes (as trafilatura's
    # discard lists): en F1 .9246 -> .9262, zh .9198 -> .9232 on the dev run of 2026-11-22.
    r"caption|credit|byline|author-?bio|bio-?box|about-?the-?author|disclaimer|copyright|statement|"
    r"trending|more-?stories|read-?more|also-?read",
    re.IGNORECASE,
)
POSITIVE_HINT = re.compile(r"article|body|content|entry|main|post|story|text|detail|zhengwen", re.IGNORECASE)


# Both word lists in one pattern, lower case, so a class string is scanned once, not twice with IGNORECASE
# (class strings of utility-CSS sites run to hundreds of characters; the two scans were a tenth of extraction's
# CPU on wcxb_train). Words glued so that one starts inside another ("mainav") count once here; every page of
# the seven dev sets gets the same extraction as with the two scans (2026-11-24).
# One flat alternation (negative words first, as the two named groups it replaced) rather than two groups: the
# regex engine then skips positions whose letter starts no word, ~27% less CPU per token (issue 16, 2026-11-24).
# A match is negative exactly when it is a whole negative word: a negative word matching there would have won.
# The words are then grouped by their first letter (grouped_by_first_letter: the same matches, half the CPU).


# The groups are tried in the order of their letters' frequency in the class/id values value_flag missed on every
# second dev page ("etnomialrcsudpbghfyw"): findall 1,118 -> 1,000 ns a value (issue 16 round 11, 2026-11-25).
_HINT_LETTER_ORDER = "etnomialrcsudpbghfyw"
_HINT_WORDS = re.compile(grouped_by_first_letter(f"{NEGATIVE_HINT.pattern.lower()}|{POSITIVE_HINT.pattern.lower()}",
                                                 order=_HINT_LETTER_ORDER))
_NEGATIVE_WORD = re.compile(NEGATIVE_HINT.pattern.lower())


def own_hint(names: str) -> int:
    """+1 / -1 from one element's class and id words, 0 when they say nothing."""
    return _hint_of(names_flags(names))


def _hint_of(flags: int) -> int:
    negative, positive = flags & NEGATIVE, flags & POSITIVE
    return 0 if negative and positive else -1 if negative else 1 if positive else 0


# Comment sections (issue 15: never the body): a class or id token that names one (WordPress "comments-area",
# "comment-list", "comment", "comment-body", "#respond", Disqus; not "commentary", not a post's state tokens
# "comments-open", "has-comments"). Inherited by descendants; default.comment_sections adds labelled sections.
COMMENT_TOKEN = re.compile(
    r"^(?:comments?|commentlist|replies|respond|pinglun|disqus\w*|(?:comments?|reply)[-_](?!open|closed)\w+)$",
    re.IGNORECASE,
)


def names_comment(names: str) -> bool:
    """Whether class/id words name a comment section."""
    return bool(names_flags(names) & COMMENT)


# What one class/id token says: _HINT_WORDS' matches in it (negative, positive) and whether it names a comment
# section. No hint word holds a space, so the matches in a whole class+id string are those of its tokens one by
# one: the flags of a string are the union of its tokens' (cached per token, as sites and CSS frameworks share
# tokens across class strings; per-string caching alone re-scanned every new combination of known tokens, a
# third of this step's CPU on the dev sets, issue 16, 2026-11-24). Both caches are emptied at _MARKS_SIZE
# entries so a long crawl's memory stays bounded.
NEGATIVE, POSITIVE, COMMENT = 1, 2, 4
_MARKS_SIZE = 20_000
_token_flags: dict[str, int] = {}
# The flags of one attribute value (a class string, an id), shared across pages (sites repeat their class strings).
# Kept per attribute rather than per class+id string: the flags of "class id" are those of the class's tokens and the
# id's, and ids are mostly unique ("post-4711"), so a per-class+id cache missed whenever the id was new even when
# its class was known (10,409 of its 51,034 misses on every second dev page; A/B against the per-class+id cache on the
# 1,071 dev pages 0.990 and 0.997 CPU; issue 16 round 8, 2026-11-24).
VALUE_FLAGS: dict[str, int] = {}
# _hint_of for flags & (NEGATIVE | POSITIVE): none, negative, positive, both.
HINT_OF_FLAGS = (0, -1, 1, 0)


# The comment-section tokens that hold no hint word (every other alternative of COMMENT_TOKEN holds "comment",
# "reply", "respond" or "disqus"): an ASCII token without a hint word names a comment section only when it is one of
# these, in any case (tests/core/extraction/test_fast_parse.py checks both).
_COMMENT_ONLY_TOKENS = frozenset({"replies", "pinglun"})


def _token_flag(token: str) -> int:
    flags = _token_flags.get(token)
    if flags is None:
        lowered = token.lower()
        if token.isascii() and _HINT_WORDS.search(lowered) is None:  # most new tokens: one search, no iterator
            flags = COMMENT if lowered in _COMMENT_ONLY_TOKENS else 0
        else:
            flags = COMMENT if COMMENT_TOKEN.match(token) else 0
            for match in _HINT_WORDS.finditer(lowered):
                flags |= NEGATIVE if _NEGATIVE_WORD.fullmatch(match.group()) else POSITIVE
        if len(_token_flags) >= _MARKS_SIZE:
            _token_flags.clear()
        _token_flags[token] = flags
    return flags


def names_flags(names: str) -> int:
    flags = 0
    for token in names.split():
        flag = _token_flags.get(token)
        flags |= _token_flag(token) if flag is None else flag
    return flags


# The hint words a token of COMMENT_TOKEN starts with, and the two of its starts that hold no hint word: findall finds
# the word at the token's start (no hint word holds whitespace, and each of these is the first word of its letter's
# group), so a value whose words include none of these and that holds neither of the two names no comment section:
# the word flags say it, not five substring tests (test_fast_paths.py checks it; issue 16 round 11, 2026-11-25).
_COMMENT_START_WORDS = frozenset({"comment", "respond", "reply", "disqus"})
_COMMENT_ONLY_STARTS = ("replies", "pinglun")
_MAYBE_COMMENT = 8  # in _word_flags only: the word is one of _COMMENT_START_WORDS


_find_hint_words = _HINT_WORDS.findall
# NEGATIVE or POSITIVE per word _HINT_WORDS finds (a few hundred spellings at most: "side-bar", "sidebar", ...), with
# _MAYBE_COMMENT.
_word_flags: dict[str, int] = {}


def _word_flag(word: str) -> int:
    flag = NEGATIVE if _NEGATIVE_WORD.fullmatch(word) else POSITIVE
    if word in _COMMENT_START_WORDS:
        flag |= _MAYBE_COMMENT
    _word_flags[word] = flag
    return flag


_DIGITS = "0123456789"


def value_flag(value: str) -> int:
    """names_flags of one attribute value, cached in VALUE_FLAGS. An ASCII value (all but ~0.2% on the dev sets) is
    scanned whole rather than token by token: no hint word holds a space, so _HINT_WORDS finds in the value the
    matches it finds in its tokens (read with findall, each word's flag from a dict), and the comment test runs only
    on a value whose words or text may start a comment token (_COMMENT_START_WORDS). Most values missed here are new
    (ids, generated class names: ~100 a page, ~2.3 tokens each), so the per-token cache seldom answered; on the values
    missed on every second dev page 1.76 against 2.14-2.30 us each (issue 16 round 9, 2026-11-24; test_fast_parse.py
    compares the two).

    An ASCII value that ends in digits has the flags of the same value ending in "0" ("menu-item-4711" those of
    "menu-item-0"): no hint word holds a digit, and COMMENT_TOKEN reads a digit only inside a run of word characters.
    That key is cached too and asked first: a fifth of the values missed on every second dev page are answered by it;
    with the comment test above, 1.70 -> 1.44 us a missed value there (issue 16 round 11, 2026-11-25; test_fast_parse.py
    compares)."""
    if len(VALUE_FLAGS) >= _MARKS_SIZE:
        VALUE_FLAGS.clear()
    if value.isascii():
        stem = value.rstrip(_DIGITS)
        key = None
        if len(stem) != len(value):
            key = stem + "0"
            flags = VALUE_FLAGS.get(key)
            if flags is not None:
                VALUE_FLAGS[value] = flags
                return flags
        lowered = value.lower()
        flags = 0
        for word in _find_hint_words(lowered):  # the words as strings: no match objects (findall)
            flags |= _word_flags.get(word) or _word_flag(word)
        if flags & _MAYBE_COMMENT or _COMMENT_ONLY_STARTS[0] in lowered or _COMMENT_ONLY_STARTS[1] in lowered:
            flags &= ~_MAYBE_COMMENT
            for token in lowered.split():
                if COMMENT_TOKEN.match(token):
                    flags |= COMMENT
                    break
        if key is not None:
            VALUE_FLAGS[key] = flags
    else:
        flags = names_flags(value)
    VALUE_FLAGS[value] = flags
    return flags


def class_and_flags(element: etree._Element) -> tuple[str, int]:
    """An element's class attribute ("" without one) and the flags of its class and id (Block.class_names,
    Block.name_flags)."""
    names = element.get("class") or ""
    return names, names_flags(names + " " + (element.get("id") or ""))
