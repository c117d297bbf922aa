"""Whether a page with a body is a listing (a section, tag or index page) rather than an article.

A news extractor should report a list page as `listing_page`, not return its teasers as an article (the
wcxb_listing set holds 118 list pages). The rule is conservative, since calling an article a listing loses it: a
page is a listing only when it states no article (no og:type "article", no JSON-LD Article/NewsArticle/BlogPosting),
no headline matching its title was found, most of its text is links, the chosen region holds little of its non-link
text, and that region does not hold the page's one paragraph (a short story on a page of teasers). The article mark
is read with the page's other markup (markup.read_markup: PageMarkup.article_marked).
"""

from __future__ import annotations

from newscorpus.core.extraction.block_tree import Block

# Thresholds from the dev sets (`newscorpus eval extraction` over the 1,071 article pages and the 118 wcxb_listing
# pages): these flag listing pages and no article; looser ones (link share 0.4, or no test of the article marks and
# headline) catch more lists but lose articles.
MAX_REGION_SHARE = 0.3
MIN_LINK_SHARE = 0.5


def is_listing(marked: bool, headline_found: bool, body: str, body_chars: int, total_chars: int, link_chars: int,
               blocks: list[Block]) -> bool:
    """A page whose body (of `body_chars` characters but spaces) is a small part of a link-heavy page (its blocks'
    characters and link characters) that states no article, shows no headline and has no lead paragraph in the
    body."""
    if marked or headline_found or not total_chars:
        return False
    content = max(total_chars - link_chars, 1)
    return link_chars / total_chars > MIN_LINK_SHARE and body_chars / content < MAX_REGION_SHARE \
        and not _holds_the_lead(blocks, body)


# A short story beside many teasers: the one paragraph of the page (at least a full paragraph long, and this many
# times longer than any other block's own non-link text). On the 22 wcxb_listing pages the rest of the rule flags,
# the page's longest block is at most 6 times the next (a home page's welcome text).
MIN_LEAD_CHARS = 300
MIN_LEAD_RATIO = 10


def _holds_the_lead(blocks: list[Block], body: str) -> bool:
    """Whether the body holds the page's lead paragraph: its one block of own text MIN_LEAD_RATIO times any other's."""
    first = second = 0
    lead = ""
    for block in blocks:
        own = block.chars - block.link_chars
        if own > first:
            first, second, lead = own, first, block.text
        elif own > second:
            second = own
    return first >= MIN_LEAD_CHARS and first >= MIN_LEAD_RATIO * second and lead[:80] in body
