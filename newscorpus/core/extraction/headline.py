"""Locate the article's headline: the first <h1>/<h2> block whose text matches a title the page states.

Multi-item pages (blogs, live blogs, pages with "next article" teasers) hold several items; the gold
article is the one under the headline that matches <title>/og:title. The default method then scores
only the content that follows the headline, up to the next heading of the same kind (same tag and
class), which starts the next item.
"""

from __future__ import annotations

import re

from newscorpus.core.extraction.block_tree import Block

HEADLINE_TAGS = ("h1",)
# A heading matches a title when one contains the other (after removing spaces/punctuation) and the
# shorter is at least this long: 6 characters is two or three Chinese words or one English word pair,
# so "新闻"/"News" section labels do not match.
MIN_MATCH_CHARS = 6
_NOT_WORD = re.compile(r"[\W_]+")


def _key(text: str) -> str:
    return _NOT_WORD.sub("", text).lower()


# A heading contained in a title must cover at least this share of it (in characters of the keys): a site-name
# or section <h1> ("Harbour News" in "Harbour News: <headline>") is contained in the title too, and taking it
# as the headline ends the body window before the article. Swept 0-0.6 with `newscorpus eval extraction` on the
# six dev sets: the middle of the 0.3-0.6 plateau. A headline followed by a long site name ("<headline> - Center
# for Career & Professional Development | X") covers less than that and loses its window.
MIN_TITLE_COVER = 0.4


def _matches(heading: str, titles: list[str]) -> bool:
    if len(heading) < MIN_MATCH_CHARS:
        return False
    for title in titles:
        shorter = min(len(heading), len(title))
        if shorter < MIN_MATCH_CHARS:
            continue
        if title in heading or (heading in title and len(heading) >= MIN_TITLE_COVER * len(title)):
            return True
    return False


def find_headline(blocks: list[Block], titles: tuple[str, ...]) -> int | None:
    """Index of the headline block, or None when no <h1>/<h2> matches a stated title."""
    keys = [key for key in (_key(title) for title in titles) if key]
    if not keys:
        return None
    for tag in HEADLINE_TAGS:
        for index, block in enumerate(blocks):
            if block.tag == tag and block.chars and _matches(_key(block.text), keys):
                return index
    return None


def item_end(blocks: list[Block], headline: int) -> int:
    """Index of the next heading of the same tag and class after the headline (len(blocks) if none)."""
    head = blocks[headline]
    signature = head.class_names
    for index in range(head.end, len(blocks)):
        block = blocks[index]
        if block.tag == head.tag and block.chars and block.class_names == signature:
            return index
    return len(blocks)
