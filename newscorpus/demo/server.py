"""Serve the demo news site on 127.0.0.1 in a background thread, with the awkward pages real sites have."""

from __future__ import annotations

import sys
import threading
from collections import Counter
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from newscorpus.crawler.site_config import SiteConfig
from newscorpus.demo.pages import (
    DemoArticle,
    generate_articles,
    render_article,
    render_listing,
    render_rss,
    render_sitemap,
    render_sitemap_index,
)

LISTING_PAGE_SIZE = 10
REDIRECT_PATH = "/old/story-0002.html"
MISSING_PATH = "/missing.html"
BINARY_PATH = "/download/report"
EMPTY_PATH = "/empty/2026/11/04/story-empty.html"
HUGE_PATH = "/huge/2026/11/05/story-huge.html"
PRIVATE_PATH = "/private/secret.html"
ROBOTS = "User-agent: *\nDisallow: /private/\n"
BINARY_BODY = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 16


class QuietServer(ThreadingHTTPServer):
    """A local test site's server (the demo's, the fault tests', the real-site benchmark's)."""

    daemon_threads = True
    # Listen backlog: Python's default of 5 dropped ~200 connection attempts per crawl at 16 concurrent requests
    # (issue 18), so benchmarks measured the server; 128 is the kernel's usual somaxconn floor.
    request_queue_size = 128

    def handle_error(self, request, client_address) -> None:
        # A crawler that stops reading (the huge page over DOWNLOAD_MAXSIZE) resets the connection: expected.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class DemoSite:
    """The demo site: ``articles`` (+ ``flaky_article``, which answers 500 once, then 200) at ``base_url``. Its
    sitemaps list every ``sitemap_every``-th article (all by default); the others are found through listings."""

    def __init__(self, article_count: int = 30, huge_bytes: int = 12 * 1024 * 1024, port: int = 0,
                 sitemap_every: int = 1):
        self.articles: list[DemoArticle] = generate_articles(article_count)
        first = self.articles[min(2, len(self.articles) - 1)]
        self.flaky_article = replace(first, number=9001, folder="flaky",
                                     title=first.title.replace("（", "（重发，").replace("(", "(flaky, ", 1))
        self.huge_bytes = huge_bytes
        self.sitemap_every = sitemap_every
        self.requests: Counter[str] = Counter()
        self.statuses: Counter[tuple[str, int]] = Counter()
        self._lock = threading.Lock()
        self._flaky_failures_left = 1
        self._server = QuietServer(("127.0.0.1", port), self._handler_class())
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def all_articles(self) -> list[DemoArticle]:
        return [*self.articles, self.flaky_article]

    def site_config(self, name: str = "demo", **overrides) -> SiteConfig:
        values = dict(
            name=name, start_urls=(f"{self.base_url}/",), sitemap_urls=(f"{self.base_url}/sitemap_index.xml",),
            feed_urls=(f"{self.base_url}/rss.xml",), allowed_domains=("127.0.0.1",),
            article_patterns=(r"/\d{4}/\d{2}/\d{2}/",), allow_private_addresses=True,
        )
        values.update(overrides)
        return SiteConfig(**values, source="demo site")

    def site_config_toml(self, name: str = "demo") -> str:
        base = self.base_url
        return (
            f'name = "{name}"\nstart_urls = ["{base}/"]\nsitemap_urls = ["{base}/sitemap_index.xml"]\n'
            f'feed_urls = ["{base}/rss.xml"]\nallowed_domains = ["127.0.0.1"]\n'
            "article_patterns = ['/\\d{4}/\\d{2}/\\d{2}/']\nallow_private_addresses = true\n"
        )

    def start(self) -> DemoSite:
        self._thread = threading.Thread(target=self._server.serve_forever, name="demo-site", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> DemoSite:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()

    # --- routing ------------------------------------------------------------------------------------------
    def respond(self, raw_path: str) -> tuple[int, dict[str, str], bytes]:
        parts = urlsplit(raw_path)
        path = parts.path
        html = "text/html; charset=utf-8"
        by_path = {article.path: article for article in self.articles}
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, ROBOTS.encode()
        if path == "/":
            return 200, {"Content-Type": html}, self._home()
        if path.startswith("/section/"):
            section = path.strip("/").split("/")[-1]
            page = int(parse_qs(parts.query).get("page", ["1"])[0] or 1)
            return self._section(section, page)
        if path in by_path:
            article = by_path[path]
            others = [a for a in self.articles if a.lang == article.lang and a is not article]
            content_type = html if article.encoding == "utf-8" else "text/html"
            return 200, {"Content-Type": content_type}, render_article(article, others)
        if path == self.flaky_article.path:
            with self._lock:
                failing, self._flaky_failures_left = self._flaky_failures_left > 0, self._flaky_failures_left - 1
            if failing:
                return 500, {"Content-Type": html}, b"<html><body>Internal Server Error</body></html>"
            return 200, {"Content-Type": html}, render_article(self.flaky_article, self.articles[:3])
        if path == REDIRECT_PATH:
            return 301, {"Location": self.articles[1].path}, b""
        if path == BINARY_PATH:
            return 200, {"Content-Type": "application/octet-stream"}, BINARY_BODY
        if path == EMPTY_PATH:
            return 200, {"Content-Type": html}, b""
        if path == HUGE_PATH:
            filler = "<p>" + "巨大页面的填充文字，" * 50 + "</p>"
            repeats = self.huge_bytes // len(filler.encode()) + 1
            return 200, {"Content-Type": html}, ("<html><body>" + filler * repeats + "</body></html>").encode()
        if path == "/sitemap_index.xml":
            return 200, {"Content-Type": "application/xml"}, render_sitemap_index(self.base_url)
        if path == "/sitemap-china.xml":
            zh = [a for a in self.articles if a.lang == "zh"][::self.sitemap_every]
            return 200, {"Content-Type": "application/xml"}, render_sitemap(self.base_url, zh, news=False)
        if path == "/sitemap-news.xml":
            en = [a for a in self.articles if a.lang == "en"][::self.sitemap_every]
            return 200, {"Content-Type": "application/xml"}, render_sitemap(self.base_url, en, news=True)
        if path == "/rss.xml":
            en = [a for a in self.articles if a.lang == "en"][:10]
            return 200, {"Content-Type": "application/rss+xml"}, render_rss(self.base_url, en)
        return 404, {"Content-Type": html}, b"<html><body><h1>404 Not Found</h1></body></html>"

    def _home(self) -> bytes:
        specials = [REDIRECT_PATH, MISSING_PATH, self.flaky_article.path, BINARY_PATH, EMPTY_PATH, HUGE_PATH]
        links = "".join(f'<a href="{path}">special</a> ' for path in specials)
        latest = self.articles[:10]
        return render_listing("示例新闻网 Demo News", "zh", latest, None).replace(
            b"</ul>", f"</ul><div class=\"more\">{links}</div>".encode(), 1
        )

    def _section(self, section: str, page: int) -> tuple[int, dict[str, str], bytes]:
        members = [a for a in self.articles if a.section == section]
        if not members and section not in ("china", "world"):
            return 404, {"Content-Type": "text/html"}, b"<html><body>no such section</body></html>"
        start = (page - 1) * LISTING_PAGE_SIZE
        chunk = members[start : start + LISTING_PAGE_SIZE]
        more = f"/section/{section}/?page={page + 1}" if start + LISTING_PAGE_SIZE < len(members) else None
        lang = "zh" if section == "china" else "en"
        return 200, {"Content-Type": "text/html; charset=utf-8"}, render_listing(section, lang, chunk, more)

    def _handler_class(self):
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                status, headers, body = site.respond(self.path)
                with site._lock:
                    site.requests[self.path] += 1
                    site.statuses[(self.path, status)] += 1
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format, *args) -> None:  # quiet
                pass

        return Handler
