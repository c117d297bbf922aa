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
HTML = "text/html; charset=utf-8"
Response = tuple[int, dict[str, str], bytes]  # status, headers, body


class QuietServer(ThreadingHTTPServer):
    """A local test site's server (the demo's, the fault tests', the real-site benchmark's)."""

    daemon_threads = True
    # Listen backlog: Python's default of 5 drops connection attempts at 16 concurrent requests, so a benchmark would
    # measure the server (benchmarks/crawl_rate.py); 128 is the kernel's usual somaxconn floor.
    request_queue_size = 128

    def handle_error(self, request, client_address) -> None:
        # A crawler that stops reading (the huge page over DOWNLOAD_MAXSIZE) resets the connection: expected.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def start(self, name: str | None = None) -> QuietServer:
        """Serve from a daemon thread until :meth:`stop`."""
        threading.Thread(target=self.serve_forever, name=name, daemon=True).start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


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
        self._server.start("demo-site")
        return self

    def stop(self) -> None:
        self._server.stop()

    def __enter__(self) -> DemoSite:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()

    # --- routing ------------------------------------------------------------------------------------------
    def respond(self, raw_path: str) -> Response:
        """The answer to a GET of ``raw_path``: the first route of :attr:`ROUTES` that knows the path, else 404."""
        parts = urlsplit(raw_path)
        for route in self.ROUTES:
            answer = route(self, parts.path, parts.query)
            if answer is not None:
                return answer
        return 404, {"Content-Type": HTML}, b"<html><body><h1>404 Not Found</h1></body></html>"

    def _robots(self, path: str, query: str) -> Response | None:
        return (200, {"Content-Type": "text/plain"}, ROBOTS.encode()) if path == "/robots.txt" else None

    def _front_page(self, path: str, query: str) -> Response | None:
        return (200, {"Content-Type": HTML}, self._home()) if path == "/" else None

    def _section_page(self, path: str, query: str) -> Response | None:
        if not path.startswith("/section/"):
            return None
        section = path.strip("/").split("/")[-1]
        page = int(parse_qs(query).get("page", ["1"])[0] or 1)
        return self._section(section, page)

    def _article_page(self, path: str, query: str) -> Response | None:
        article = {article.path: article for article in self.articles}.get(path)
        if article is None:
            return None
        others = [a for a in self.articles if a.lang == article.lang and a is not article]
        content_type = HTML if article.encoding == "utf-8" else "text/html"
        return 200, {"Content-Type": content_type}, render_article(article, others)

    def _flaky_page(self, path: str, query: str) -> Response | None:
        """The flaky article: 500 the first time, then 200."""
        if path != self.flaky_article.path:
            return None
        with self._lock:
            failing, self._flaky_failures_left = self._flaky_failures_left > 0, self._flaky_failures_left - 1
        if failing:
            return 500, {"Content-Type": HTML}, b"<html><body>Internal Server Error</body></html>"
        return 200, {"Content-Type": HTML}, render_article(self.flaky_article, self.articles[:3])

    def _special_page(self, path: str, query: str) -> Response | None:
        """The redirect, the binary, empty and huge pages, the sitemaps and the feed."""
        answer = {
            REDIRECT_PATH: self._redirect, BINARY_PATH: self._binary, EMPTY_PATH: self._empty, HUGE_PATH: self._huge,
            "/sitemap_index.xml": self._sitemap_index, "/sitemap-china.xml": self._sitemap_china,
            "/sitemap-news.xml": self._sitemap_news, "/rss.xml": self._rss,
        }.get(path)
        return None if answer is None else answer()

    ROUTES = (_robots, _front_page, _section_page, _article_page, _flaky_page, _special_page)

    def _redirect(self) -> Response:
        return 301, {"Location": self.articles[1].path}, b""

    def _binary(self) -> Response:
        return 200, {"Content-Type": "application/octet-stream"}, BINARY_BODY

    def _empty(self) -> Response:
        return 200, {"Content-Type": HTML}, b""

    def _huge(self) -> Response:
        filler = "<p>" + "巨大页面的填充文字，" * 50 + "</p>"
        repeats = self.huge_bytes // len(filler.encode()) + 1
        return 200, {"Content-Type": HTML}, ("<html><body>" + filler * repeats + "</body></html>").encode()

    def _sitemap_index(self) -> Response:
        return 200, {"Content-Type": "application/xml"}, render_sitemap_index(self.base_url)

    def _sitemap_china(self) -> Response:
        zh = [a for a in self.articles if a.lang == "zh"][::self.sitemap_every]
        return 200, {"Content-Type": "application/xml"}, render_sitemap(self.base_url, zh, news=False)

    def _sitemap_news(self) -> Response:
        en = [a for a in self.articles if a.lang == "en"][::self.sitemap_every]
        return 200, {"Content-Type": "application/xml"}, render_sitemap(self.base_url, en, news=True)

    def _rss(self) -> Response:
        en = [a for a in self.articles if a.lang == "en"][:10]
        return 200, {"Content-Type": "application/rss+xml"}, render_rss(self.base_url, en)

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
