"""What an element's class and id words say about it: a content hint (+1 article/content, -1 comment/sidebar/...)
and whether they name a comment section, as bit flags cached per attribute value."""

from __future__ import annotations

import re

from lxml import etree

from newscorpus.core.word_patterns import grouped_by_first_letter

# Class/id words, as readability's positive/negative lists (arc90 readability.js, trimmed to names
# that mean the same thing on every site). Inherited by descendants; the closest hint wins, except that a
# negative hint is kept by everything inside it: a comment list's posts are often class "content" (the
# positive child made macrumors.com's longest comment the article). <body>'s own class/id gives no hint: it
# names the page's layout ("u-has-nav-bar"), and a negative one would then cover the whole page.
# Not "widget" (readability has it): page builders call every block a widget ("elementor-widget-container"
# around the whole article), and sidebar widgets sit inside a "sidebar"/"aside" anyway (without it, pages of
# wcxb_train that had no body get theirs: `newscorpus eval extraction`).
NEGATIVE_HINT = re.compile(
    r"comment|disqus|respond|reply|sidebar|side-bar|related|recommend|footer|foot|masthead|share|social|"
    r"sponsor|advert|promo|popup|outbrain|taboola|breadcrumb|crumb|pagination|pager|newsletter|subscribe|"
    r"hot-?news|tags?-list|rank|nav|menu|cookie|signup|login|"
    # Captions, credits, bylines, author bios, disclaimers, "trending"/"read more" boxes (as trafilatura's
    # discard lists).
    r"caption|credit|byline|author-?bio|bio-?box|about-?the-?author|disclaimer|copyright|statement|"
    r"trending|more-?stories|read-?more|also-?read|"
    # Donation appeals and the related-video box under a story ("support-box donate", "related-videos" is covered by
    # "related").
    r"donat|more-?videos|video-?playlist",
    re.IGNORECASE,
)
POSITIVE_HINT = re.compile(r"article|body|content|entry|main|post|story|text|detail|zhengwen", re.IGNORECASE)


# Both word lists in one pattern, lower case, so a class string is scanned once, not twice with IGNORECASE (class
# strings of utility-CSS sites run to hundreds of characters). Words glued so that one starts inside another
# ("mainav") count once here; the dev sets' extraction is the same as with two scans. One flat alternation, negative
# words first: a match is negative exactly when it is a whole negative word (a negative word matching there would
# have won). The words are grouped by their first letter (grouped_by_first_letter: the same matches, less CPU),
# the groups tried in the order of their letters' frequency in the class/id values of the dev sets.
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


# Comment sections (never the body): a class or id token that names one (WordPress "comments-area",
# "comment-list", "comment", "comment-body", "#respond", Disqus; not "commentary", not a post's state tokens
# "comments-open", "has-comments"). Inherited by descendants; region.comment_sections adds labelled sections.
COMMENT_TOKEN = re.compile(
    r"^(?:comments?|commentlist|replies|respond|pinglun|disqus\w*|(?:comments?|reply)[-_](?!open|closed)\w+)$",
    re.IGNORECASE,
)


def names_comment(names: str) -> bool:
    """Whether class/id words name a comment section."""
    return bool(names_flags(names) & COMMENT)


# What one class/id token says, as bit flags: _HINT_WORDS' matches in it (negative, positive) and whether it names
# a comment section. No hint word holds a space, so the flags of a whole class+id string are the union of its
# tokens' (cached per token: sites and CSS frameworks share tokens across class strings). The caches are emptied
# at _MARKS_SIZE entries so a long crawl's memory stays bounded.
NEGATIVE, POSITIVE, COMMENT = 1, 2, 4
_MARKS_SIZE = 20_000
_token_flags: dict[str, int] = {}
# The flags of one attribute value (a class string, an id), shared across pages (sites repeat their class strings).
# Kept per attribute rather than per class+id string: the flags of "class id" are the union of the two, and ids are
# mostly unique ("post-4711"), so a per-class+id cache would miss whenever the id is new.
VALUE_FLAGS: dict[str, int] = {}
# _hint_of for flags & (NEGATIVE | POSITIVE): none, negative, positive, both.
HINT_OF_FLAGS = (0, -1, 1, 0)


# The comment-section tokens that hold no hint word (every other alternative of COMMENT_TOKEN holds "comment",
# "reply", "respond" or "disqus"): an ASCII token without a hint word names a comment section only when it is one of
# these, in any case (tests/core/extraction/test_fast_forms_of_page_preparation.py checks both).
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
    """The flags of a class/id string: the union of its tokens'."""
    flags = 0
    for token in names.split():
        flag = _token_flags.get(token)
        flags |= _token_flag(token) if flag is None else flag
    return flags


# The hint words a token of COMMENT_TOKEN starts with, and the two of its starts that hold no hint word: findall finds
# the word at the token's start (no hint word holds whitespace, and each of these is the first word of its letter's
# group), so a value whose words include none of these and that holds neither of the two names no comment section:
# the word flags say it (tests/core/extraction/test_fast_forms_of_page_preparation.py checks it).
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
    """names_flags of one attribute value, cached in VALUE_FLAGS. An ASCII value (nearly all) is scanned whole rather
    than token by token: no hint word holds a space, so _HINT_WORDS finds in the value the matches it finds in its
    tokens (read with findall, each word's flag from a dict), and the comment test runs only on a value whose words
    or text may start a comment token (_COMMENT_START_WORDS). Most values asked here are new (ids, generated class
    names), so a per-token cache would seldom answer.

    An ASCII value that ends in digits has the flags of the same value ending in "0" ("menu-item-4711" those of
    "menu-item-0"): no hint word holds a digit, and COMMENT_TOKEN reads a digit only inside a run of word characters.
    That key is cached too and asked first. tests/core/extraction/test_fast_forms_of_page_preparation.py compares
    both with names_flags."""
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
