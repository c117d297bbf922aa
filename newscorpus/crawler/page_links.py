"""The URLs a page links to, exactly as Scrapy's LinkExtractor(deny=..., unique=True) gives them, for less CPU.

The spider only needs each link's URL. Scrapy's extractor also collects every link's text into a Link, and runs its
filter (scheme, deny patterns, a urlparse and the ignored file extensions) again for every link of every page,
though a site's pages mostly link to the same URLs (its menus, its latest articles). Here the page is parsed and
its a/area hrefs are joined and made safe by Scrapy's own code, in the same order; the filter is Scrapy's own
``_link_allowed``, its answer kept per URL (it depends on the URL alone when no ``restrict_text`` is given); the
first occurrence of each URL is kept, as ``unique=True`` does. tests/crawler/test_page_links.py compares both on the
demo site and on real pages; benchmarks/page_links_cpu.py measures the CPU of both.

An href that is absolute (``http(s)://...``) or rooted (``/path``) joins to a URL that depends only on the page's
origin (scheme and host of the base and of the page URL) and encoding, not on the page's path: its joined and
made-safe URL is kept per (origins, encoding, href), as the menus and article lists repeat on every page.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urljoin

from scrapy.http import TextResponse
from scrapy.link import Link
from scrapy.linkextractors import LinkExtractor
from scrapy.selector import Selector
from scrapy.utils.response import get_base_url
from w3lib.html import strip_html5_whitespace
from w3lib.url import safe_url_string

# URLs whose filter answer is kept. A site's menus and latest-article lists are a few hundred URLs; 100,000
# answers (~10 MB at most) bound a long crawl's memory, and the cache is simply emptied when full.
ALLOWED_CACHE_SIZE = 100_000
# Joined URLs kept, under the same bound and for the same reason.
JOINED_CACHE_SIZE = 100_000
_PATH_FREE = ("/", "http://", "https://")  # href starts whose join ignores the page's path ("//" excluded below)


def _origin(url: str) -> str:
    """scheme://host of an absolute URL (what a rooted or absolute href's join reads of it)."""
    scheme, _, rest = url.partition("://")
    return scheme + "://" + rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]


class PageLinks:
    """``urls(response)``: what ``LinkExtractor(deny=deny, unique=True).extract_links(response)`` gives, as URLs."""

    def __init__(self, deny: Iterable[str] = ()):
        self.extractor = LinkExtractor(deny=list(deny), unique=True)
        self._allowed: dict[str, bool] = {}
        self._joined: dict[tuple[str, str, str], str | None] = {}  # (origins, encoding, href) -> URL or None

    def urls(self, response: TextResponse) -> list[str]:
        """The page's link URLs, first occurrence first. Read from a selector of our own, not ``response.selector``:
        Scrapy keeps that parsed tree on the response, which stays alive until the page's item has left the last
        stage; a busy pipeline holds a few hundred pages, and their trees would add megabytes to the crawl's peak RSS
        (benchmarks/crawl_rate.py). (A copy of the response would do that too, but decode the body a second
        time.)"""
        root = Selector(response).root
        base_url = get_base_url(response)
        page_url, encoding = response.url, response.encoding
        seen: set[str] = set()
        found: list[str] = []
        origins = _origin(base_url) + " " + _origin(page_url)
        joined = self._joined
        for _, _, value in self.extractor.link_extractor._iter_links(root):
            value = strip_html5_whitespace(value)
            if value.startswith(_PATH_FREE) and not value.startswith("//"):
                key = (origins, encoding, value)
                url = joined.get(key, "")
                if url == "":
                    if len(joined) >= JOINED_CACHE_SIZE:
                        joined.clear()
                    url = joined[key] = _join(base_url, page_url, value, encoding)
            else:
                url = _join(base_url, page_url, value, encoding)
            if url is None or url in seen:
                continue
            seen.add(url)
            if self._is_allowed(url):
                found.append(url)
        return found

    def _is_allowed(self, url: str) -> bool:
        allowed = self._allowed.get(url)
        if allowed is None:
            if len(self._allowed) >= ALLOWED_CACHE_SIZE:
                self._allowed.clear()
            allowed = self._allowed[url] = self.extractor._link_allowed(Link(url))
        return allowed


def _join(base_url: str, page_url: str, value: str, encoding: str) -> str | None:
    """LxmlParserLinkExtractor._extract_links's URL of a stripped href (no process_value); None where it skips it."""
    try:
        url = urljoin(base_url, value)
    except ValueError:
        return None
    try:
        url = safe_url_string(url, encoding=encoding)
    except ValueError:
        return None
    return urljoin(page_url, url)
