"""Downloader middleware: a redirect back to a URL of its own chain ends as a RedirectLoop of the request."""

from __future__ import annotations

from urllib.parse import urldefrag, urljoin

from scrapy.exceptions import IgnoreRequest
from w3lib.url import safe_url_string

REDIRECT_STATUSES = (301, 302, 303, 307, 308)


class RedirectLoop(IgnoreRequest):
    """A redirect back to a URL of its own chain (recorded by the site spider as a fetch error)."""


class RedirectLoopMiddleware:
    """Sees a redirect before Scrapy's RedirectMiddleware does (a higher priority number: responses go through
    middlewares from high to low). A hop back to a URL of the same chain would be dropped silently by the
    duplicate filter, leaving no page row: it ends here instead, as a RedirectLoop of the request."""

    def process_response(self, request, response):
        location = response.headers.get(b"Location")
        if response.status not in REDIRECT_STATUSES or not location:
            return response
        target = urldefrag(urljoin(request.url, safe_url_string(location.decode("latin-1"))))[0]
        chain = [*request.meta.get("redirect_urls", []), request.url]
        if target in {urldefrag(url)[0] for url in chain}:
            raise RedirectLoop(f"redirect loop: {' -> '.join([*chain, target])}"[:500])
        return response
