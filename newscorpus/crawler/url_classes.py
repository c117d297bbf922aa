"""Tell article URLs from listing pages and from URLs not worth fetching, by site patterns or by URL shape."""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlsplit

ARTICLE = "article"
LISTING = "listing"
SKIP = "skip"

# File types that are never pages of a news site's text.
SKIPPED_EXTENSIONS = re.compile(
    r"\.(?:jpe?g|png|gif|webp|svg|ico|bmp|tiff?|mp[34]|m4a|avi|mov|wmv|flv|webm|wav|ogg|pdf|docx?|xlsx?|pptx?"
    r"|zip|rar|7z|gz|tgz|bz2|xz|exe|dmg|apk|msi|iso|css|js|json|woff2?|ttf|eot|swf)$",
    re.IGNORECASE,
)
# Shapes of article URLs seen across Chinese and English news sites (sina doc-i…, news.cn content_…,
# /2024/05/09/slug, /20240509/123.html, /a/123456_789, /article/…, long slugs): a date, a long id, or a
# long hyphenated slug in the path.
ARTICLE_SHAPES = (
    re.compile(r"/(?:19|20)\d\d[-/_]?(?:0[1-9]|1[0-2])(?:[-/_]?(?:0[1-9]|[12]\d|3[01]))?/.+"),
    re.compile(r"/(?:19|20)\d\d/(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*/\d\d?/.+", re.I),
    re.compile(r"(?:^|[/_-])\d{5,}(?:[_-]\d+)?(?:\.s?html?|\.php|\.aspx?)?/?$"),
    re.compile(r"/(?:article|articles|story|stories|news|content|doc|detail|post|p|a|c)[/_-][^/]*\d[^/]*/?$"),
    re.compile(r"/[a-z0-9]+(?:-[a-z0-9]+){4,}(?:\.s?html?)?/?$"),
    re.compile(r"/(?:doc-i[a-z0-9]+|content_\d+)\.s?html?$"),
)
LISTING_SHAPES = (
    re.compile(r"/(?:index|default|list|more)(?:_\d+)?\.(?:s?html?|php|aspx?)$"),
    re.compile(r"/(?:tag|tags|category|categories|section|sections|topic|topics|author|authors|page|list)/"),
    re.compile(r"[?&](?:page|p|pn)=\d+"),
)


def classify_url(
    url: str,
    article_patterns: Sequence[re.Pattern] = (),
    listing_patterns: Sequence[re.Pattern] = (),
    skip_patterns: Sequence[re.Pattern] = (),
) -> str:
    """``article``, ``listing`` or ``skip`` for ``url``: site patterns first, then the URL's shape."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or any(p.search(url) for p in skip_patterns):
        return SKIP
    if SKIPPED_EXTENSIONS.search(parts.path):
        return SKIP
    if any(p.search(url) for p in article_patterns):
        return ARTICLE
    if any(p.search(url) for p in listing_patterns):
        return LISTING
    if article_patterns:  # the site says what its articles look like: anything else is a listing
        return LISTING
    path = parts.path or "/"
    if path == "/" or any(shape.search(url) for shape in LISTING_SHAPES):
        return LISTING
    if any(shape.search(path) for shape in ARTICLE_SHAPES):
        return ARTICLE
    return LISTING
