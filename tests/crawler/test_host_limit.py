"""A host never has more of the crawl's requests at once than CONCURRENT_REQUESTS_PER_DOMAIN, with no download
delay and no AutoThrottle: counted by the server itself, from a request's arrival to its answer."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler

from newscorpus.demo.server import QuietServer
from tests.conftest import fresh_schema
from tests.local_crawl import run_crawl
from tests.reliability.crawling import site_toml
from tests.reliability.hostile_server import article_html, listing_html

LIMIT = 3
ARTICLES = 30
HOLD_SECONDS = 0.05   # 10 rounds of 3 requests: half a second of the test
PATHS = [f"/2026/06/{number % 28 + 1:02d}/story-{number}.html" for number in range(ARTICLES)]


class CountingServer:
    """Answers a listing of PATHS and their articles, counting the requests in flight. Each is held a moment, so
    that the crawler sits at its limit and every request it sends past it overlaps the others."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now = self.peak = self.requests = 0
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 - the http.server name
                with owner.lock:
                    owner.now += 1
                    owner.requests += 1
                    owner.peak = max(owner.peak, owner.now)
                time.sleep(HOLD_SECONDS)
                with owner.lock:
                    owner.now -= 1
                path = self.path.split("?")[0]
                if path == "/":
                    status, body = 200, listing_html(PATHS)
                elif path in PATHS:
                    status, body = 200, article_html(PATHS.index(path))
                else:
                    status, body = 404, b"not found"
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = QuietServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> CountingServer:
        self.server.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.stop()


def test_a_host_never_has_more_requests_at_once_than_its_limit_with_no_delay(postgres_server_dsn, tmp_path):
    with CountingServer() as server, fresh_schema(postgres_server_dsn) as dsn:
        config = site_toml(tmp_path / "limit.toml", "limit", start_urls=[f"{server.base_url}/"])
        result = run_crawl(dsn, f"site={config}", settings={
            "DOWNLOAD_DELAY": "0", "AUTOTHROTTLE_ENABLED": "0", "CONCURRENT_REQUESTS_PER_DOMAIN": str(LIMIT),
            "LOG_LEVEL": "WARNING"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert server.requests >= ARTICLES + 1                  # robots.txt, the listing and every article
    assert server.peak == LIMIT                             # reached, so one request more would have been seen
