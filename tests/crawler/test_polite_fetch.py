"""The URL-list fetcher of `newscorpus extract -i` against local servers: robots.txt answers as RFC 9309 reads them,
the delay asked for between two requests to one host, redirects checked hop by hop, the size limit."""

from __future__ import annotations

import http.server
import threading

import pytest

from newscorpus.crawler import polite_fetch
from newscorpus.crawler.polite_fetch import FetchConfig, PoliteFetcher


def serve(robots_status: int, robots: bytes = b""):
    """A server whose robots.txt answers ``robots_status``; /loop redirects to itself, /big is 2 KB, /a.html and
    /b.html are pages; /away redirects to /private/x."""
    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            seen.append(self.path)
            if self.path in ("/loop", "/away"):
                self.send_response(302)
                self.send_header("Location", "/loop" if self.path == "/loop" else "/private/x")
                self.end_headers()
                return
            status, body = {"/robots.txt": (robots_status, robots), "/big": (200, b"x" * 2048)}.get(
                self.path, (200, b"<p>page</p>"))
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}", seen


@pytest.fixture
def fetcher():
    return PoliteFetcher(FetchConfig(user_agent="probe/1", delay_seconds=0.0, timeout_seconds=10, max_bytes=1024))


@pytest.mark.parametrize("status, outcome", [(404, None), (503, "robots_disallowed"), (200, None)])
def test_a_missing_robots_txt_allows_and_a_failing_one_forbids(fetcher, status, outcome):
    server, site, seen = serve(status)
    try:
        assert fetcher.fetch(f"{site}/a.html").outcome == outcome
        assert fetcher.fetch(f"{site}/b.html").outcome == outcome
        assert seen.count("/robots.txt") == 1
    finally:
        server.shutdown()
        server.server_close()


def test_redirects_are_checked_and_bounded_and_the_size_is_limited(fetcher):
    server, site, seen = serve(200, b"User-agent: *\nDisallow: /private/\n")
    try:
        loop = fetcher.fetch(f"{site}/loop")
        assert (loop.outcome, loop.detail) == ("fetch_error", f"more than {polite_fetch.MAX_REDIRECTS} redirects")
        away = fetcher.fetch(f"{site}/away")
        assert (away.outcome, away.url) == ("robots_disallowed", f"{site}/private/x")
        assert "/private/x" not in seen
        assert fetcher.fetch(f"{site}/big").outcome == "too_large"
        page = fetcher.fetch(f"{site}/a.html")
        assert (page.outcome, page.body) == (None, b"<p>page</p>")
    finally:
        server.shutdown()
        server.server_close()


def test_the_delay_is_asked_for_between_requests_to_one_host_only():
    waits: list[float] = []
    servers = [serve(200, b"User-agent: *\nCrawl-delay: 7\n"), serve(404)]
    try:
        fetcher = PoliteFetcher(FetchConfig(user_agent="probe/1", delay_seconds=3.0, timeout_seconds=10,
                                            max_bytes=1024), sleep=waits.append)
        (_, first, _), (_, second, _) = servers
        for url in (f"{first}/a.html", f"{second}/a.html", f"{first}/b.html"):
            assert fetcher.fetch(url).outcome is None
        # first host: robots.txt, then a.html after its Crawl-delay of 7 s (longer than 3), then b.html after 7 s;
        # the second host waits 3 s after its own robots.txt only, not after the first host's requests
        assert len(waits) == 3
        assert 6 < waits[0] <= 7 and 2 < waits[1] <= 3 and 6 < waits[2] <= 7
    finally:
        for server, _, _ in servers:
            server.shutdown()
            server.server_close()
