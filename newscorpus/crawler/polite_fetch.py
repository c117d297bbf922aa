"""Pages of a URL list fetched one at a time without a crawl (`newscorpus extract -i URLS`), as politely as the
crawl: each host's robots.txt obeyed (its first 500 KiB, the crawl's parser), a delay between two requests to one
host (or the robots.txt Crawl-delay when longer), the crawl's user agent, a timeout and size limit; a redirect is
followed through the same checks. A page that cannot be had comes back with a named outcome, never an exception."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from protego import Protego

from newscorpus.crawler.middlewares.robots_txt import ROBOTS_TXT_PARSE_BYTES, first_lines

# Outcomes of a page not fetched; http_error, fetch_error and too_large are the crawl's outcome names.
OUTCOMES = ("bad_url", "robots_disallowed", "http_error", "fetch_error", "too_large")
MAX_REDIRECTS = 5   # a news page's canonical redirect is one or two hops; more is a loop or a tracker chain


@dataclass(frozen=True)
class FetchConfig:
    user_agent: str
    delay_seconds: float     # between two requests to one host
    timeout_seconds: float
    max_bytes: int


@dataclass(frozen=True)
class FetchedPage:
    url: str                        # after redirects
    body: bytes = b""
    content_type: str | None = None
    outcome: str | None = None      # None when fetched, else one of OUTCOMES
    detail: str | None = None


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Hands a 3xx back to the caller, which checks the target's robots.txt and delay before following it."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


class PoliteFetcher:
    """Fetches pages with ``config``; remembers each host's robots.txt rules and last request for the run."""

    def __init__(self, config: FetchConfig, sleep: Callable[[float], None] = time.sleep):
        self.config, self._sleep = config, sleep
        self._opener = urllib.request.build_opener(_NoRedirect)
        self._robots_opener = urllib.request.build_opener()   # RFC 9309 §2.3.1.2: follow a robots.txt's redirects
        self._robots: dict[str, Protego | None] = {}   # None: robots.txt unreachable, nothing may be fetched
        self._unreachable: dict[str, tuple[str, str]] = {}   # the outcome and why, for those
        self._last_request: dict[str, float] = {}

    def fetch(self, url: str) -> FetchedPage:
        for _ in range(MAX_REDIRECTS + 1):
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                return FetchedPage(url, outcome="bad_url", detail="not an http(s) URL")
            refused = self._robots_refusal(url)
            if refused:
                return FetchedPage(url, outcome=refused[0], detail=refused[1])
            page, location = self._get(url)
            if location is None:
                return page
            url = urljoin(url, location)
        return FetchedPage(url, outcome="fetch_error", detail=f"more than {MAX_REDIRECTS} redirects")

    def _origin(self, url: str) -> str:
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc}".lower()

    def _wait_for(self, origin: str, delay: float) -> None:
        last = self._last_request.get(origin)
        if last is not None:
            self._sleep(max(0.0, last + delay - time.monotonic()))
        self._last_request[origin] = time.monotonic()

    def _delay(self, origin: str) -> float:
        rules = self._robots.get(origin)
        crawl_delay = rules.crawl_delay(self.config.user_agent) if rules is not None else None
        return max(self.config.delay_seconds, float(crawl_delay or 0))

    def _request(self, url: str, opener=None):
        request = urllib.request.Request(url, headers={"User-Agent": self.config.user_agent})
        return (opener or self._opener).open(request, timeout=self.config.timeout_seconds)

    def _robots_refusal(self, url: str) -> tuple[str, str] | None:
        """(outcome, why) when robots.txt forbids ``url``, or None. RFC 9309 §2.3.1: a 4xx robots.txt allows
        everything; a 5xx or an unreachable one forbids everything (a host that does not answer: ``fetch_error``)."""
        origin = self._origin(url)
        if origin not in self._robots:
            self._wait_for(origin, self.config.delay_seconds)
            try:
                with self._request(origin + "/robots.txt", self._robots_opener) as response:
                    body = response.read(ROBOTS_TXT_PARSE_BYTES + 1)
                self._robots[origin] = Protego.parse(first_lines(body).decode("utf-8", "replace"))
            except urllib.error.HTTPError as error:
                self._robots[origin] = Protego.parse("") if error.code < 500 else None
                self._unreachable[origin] = ("robots_disallowed", f"robots.txt answered HTTP {error.code}, so nothing "
                                             "may be fetched")
            except (OSError, ValueError) as error:
                self._robots[origin] = None
                self._unreachable[origin] = ("fetch_error", f"robots.txt unreachable: {_reason(error)}")
        rules = self._robots[origin]
        if rules is None:
            return self._unreachable[origin]
        if not rules.can_fetch(url, self.config.user_agent):
            return "robots_disallowed", "disallowed by robots.txt"
        return None

    def _get(self, url: str) -> tuple[FetchedPage, str | None]:
        """The page, or (its redirect, the Location to follow)."""
        origin = self._origin(url)
        self._wait_for(origin, self._delay(origin))
        try:
            with self._request(url) as response:
                body = response.read(self.config.max_bytes + 1)
                content_type = response.headers.get("Content-Type")
        except urllib.error.HTTPError as error:
            location = error.headers.get("Location") if 300 <= error.code < 400 else None
            error.close()
            if location:
                return FetchedPage(url), location
            return FetchedPage(url, outcome="http_error", detail=f"HTTP {error.code}"), None
        except (OSError, ValueError) as error:   # refused, reset, timed out, a bad port
            return FetchedPage(url, outcome="fetch_error", detail=_reason(error)), None
        if len(body) > self.config.max_bytes:
            return FetchedPage(url, outcome="too_large", detail=f"over {self.config.max_bytes} bytes"), None
        return FetchedPage(url, body, content_type), None


def _reason(error: BaseException) -> str:
    reason = getattr(error, "reason", None) or error
    return str(reason) or type(error).__name__
