"""A local HTTP server (127.0.0.1) whose routes misbehave on purpose: bombs, hostile XML, slow answers, 5xx
bursts, connection resets, redirects to other hosts, schemes and internal addresses. It counts every request."""

from __future__ import annotations

import random
import socket
import struct
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler

from newscorpus.demo.server import QuietServer

Route = tuple[int, dict[str, str], bytes] | Callable[[BaseHTTPRequestHandler], None]
HTML = "text/html; charset=utf-8"


WORDS = ("river harbour council budget storm election festival railway market school hospital bridge "
         "museum farmer factory vaccine orchestra satellite glacier library tournament drought lantern").split()


def article_html(number: int) -> bytes:
    """An article page whose lines no other article shares (line noise would empty look-alike articles)."""
    rng = random.Random(number)
    paragraphs = "".join("<p>" + " ".join(rng.choice(WORDS) for _ in range(40)) + ".</p>" for _ in range(6))
    return (f"<html><head><title>Story {number}</title></head><body><article><h1>Story {number}</h1>"
            f"{paragraphs}</article></body></html>").encode()


def listing_html(links: list[str]) -> bytes:
    return ("<html><body><ul>" + "".join(f'<li><a href="{link}">link</a></li>' for link in links)
            + "</ul></body></html>").encode()


def slow(seconds: float, body: bytes = b"<html><body>late</body></html>") -> Route:
    def answer(handler: BaseHTTPRequestHandler) -> None:
        time.sleep(seconds)
        send(handler, 200, {"Content-Type": HTML}, body)
    return answer


def reset(handler: BaseHTTPRequestHandler) -> None:
    """Start an answer, then close the socket with RST (SO_LINGER 0) in the middle of the body."""
    handler.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n<html>")
    handler.wfile.flush()
    handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    handler.close_connection = True
    handler.connection.close()


def send(handler: BaseHTTPRequestHandler, status: int, headers: dict[str, str], body: bytes) -> None:
    handler.send_response(status)
    for name, value in headers.items():
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    try:
        handler.wfile.write(body)
    except ConnectionError:  # the crawler stopped reading (size limit): expected
        pass


class _Server(QuietServer):
    # The demo server's backlog of 128 matters here: at 5 a dropped SYN is resent after 1 s, past the fault
    # tests' 1 s DOWNLOAD_TIMEOUT. Any socket error of a hostile answer is expected, not only a reset.
    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], (ConnectionError, OSError)):
            super().handle_error(request, client_address)


class HostileSite:
    """Routes by path (query string ignored), then by the longest prefix in ``prefix_routes`` (endless families of
    URLs); both may be changed before the crawl starts."""

    def __init__(self, routes: dict[str, Route] | None = None):
        self.routes: dict[str, Route] = dict(routes or {})
        self.prefix_routes: dict[str, Route] = {}
        self.requests: Counter[str] = Counter()
        self.user_agents: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), self._handler_class())
        self.port = self._server.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> HostileSite:
        threading.Thread(target=self._server.serve_forever, name="hostile-site", daemon=True).start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler_class(self):
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                path = self.path.split("?", 1)[0]
                with site._lock:
                    site.requests[path] += 1
                    site.user_agents[self.headers.get("User-Agent", "")] += 1
                route = site.routes.get(path)
                if route is None:
                    prefixes = [prefix for prefix in site.prefix_routes if path.startswith(prefix)]
                    route = site.prefix_routes[max(prefixes, key=len)] if prefixes else None
                if route is None:
                    route = (404, {"Content-Type": HTML}, b"<html><body>404</body></html>")
                if callable(route):
                    route(self)
                else:
                    send(self, *route)

            def log_message(self, format, *args) -> None:  # quiet
                pass

        return Handler
