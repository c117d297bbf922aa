"""Whether a page with a body is a listing (a section, tag or index page) rather than an article.

A news extractor should report a list page as `listing_page`, not return its teasers as an article (the
wcxb_listing set holds 118 list pages). The rule is conservative, since calling an
article a listing loses it: a page is a listing only when it states no article (no og:type "article", no
JSON-LD Article/NewsArticle/BlogPosting), no headline matching its title was found, most of its text is links,
and the chosen region holds little of its non-link text. The article mark is read with the page's other markup
(markup.read_markup: PageMarkup.article_marked).
"""

from __future__ import annotations

# Thresholds from the dev sets (`newscorpus eval extraction` over the 1,071 article pages and the 118 wcxb_listing
# pages): these flag listing pages and no article; looser ones (link share 0.4, or no test of the article marks and
# headline) catch more lists but lose articles.
MAX_REGION_SHARE = 0.3
MIN_LINK_SHARE = 0.5


def is_listing(marked: bool, headline_found: bool, body_chars: int, total_chars: int, link_chars: int) -> bool:
    """A page whose body is a small part of a link-heavy page that states no article and shows no headline."""
    if marked or headline_found or not total_chars:
        return False
    content = max(total_chars - link_chars, 1)
    return link_chars / total_chars > MIN_LINK_SHARE and body_chars / content < MAX_REGION_SHARE
