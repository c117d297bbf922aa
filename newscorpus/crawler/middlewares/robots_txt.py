"""robots.txt of any size: its first 500 KiB fetched and parsed, as RFC 9309 §2.5 allows, never the whole file.

Scrapy's RobotsTxtMiddleware downloads robots.txt under DOWNLOAD_MAXSIZE and, when the file is larger, ignores it
(every URL allowed). Here the robots.txt request is downloaded without the size limit but stopped once the first
:data:`ROBOTS_TXT_PARSE_BYTES` have arrived, and the parser reads only the lines within them."""

from __future__ import annotations

from scrapy import signals
from scrapy.exceptions import StopDownload
from scrapy.http.request import NO_CALLBACK
from scrapy.robotstxt import ProtegoRobotParser
from scrapy.utils.httpobj import urlparse_cached

# RFC 9309 §2.5: "crawlers MUST be able to parse at least 500 kibibytes".
ROBOTS_TXT_PARSE_BYTES = 500 * 1024
RECEIVED = "newscorpus_robots_txt_received"     # bytes of a robots.txt download so far (request meta)
MAXSIZE = "newscorpus_robots_txt_maxsize"       # the limit the download ran without, put back for decompression


def is_robots_txt_request(request) -> bool:
    """The request Scrapy's RobotsTxtMiddleware makes for a host's robots.txt (not a page the site links to)."""
    return (request.meta.get("dont_obey_robotstxt") and request.callback is NO_CALLBACK
            and urlparse_cached(request).path == "/robots.txt")


def first_lines(body: bytes, limit: int = ROBOTS_TXT_PARSE_BYTES) -> bytes:
    """The lines of ``body`` within its first ``limit`` bytes: a rule cut in half is not parsed."""
    if len(body) <= limit:
        return body
    head = body[:limit]
    end = head.rfind(b"\n")
    return head[:end + 1] if end >= 0 else b""


class BoundedRobotParser(ProtegoRobotParser):
    """Scrapy's default parser (Protego) over the first 500 KiB of the file (ROBOTSTXT_PARSER)."""

    @classmethod
    def from_crawler(cls, crawler, robotstxt_body: bytes):
        return super().from_crawler(crawler, first_lines(robotstxt_body))


class RobotsTxtFetchMiddleware:
    """Downloads a robots.txt past DOWNLOAD_MAXSIZE (a Content-Length above it would cancel the download before
    its first byte) and stops it after its first 500 KiB, counted as ``newscorpus/robots_txt/truncated``."""

    def __init__(self, crawler):
        self.stats = crawler.stats
        crawler.signals.connect(self.bytes_received, signal=signals.bytes_received)

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def process_request(self, request):
        if is_robots_txt_request(request) and RECEIVED not in request.meta:
            request.meta[MAXSIZE] = request.meta.get("download_maxsize")
            request.meta[RECEIVED] = 0
            request.meta["download_maxsize"] = 0
            request.meta["download_warnsize"] = 0
        return None

    def bytes_received(self, data: bytes, request, spider=None) -> None:
        if RECEIVED not in request.meta:
            return
        request.meta[RECEIVED] += len(data)
        if request.meta[RECEIVED] >= ROBOTS_TXT_PARSE_BYTES:
            self.stats.inc_value("newscorpus/robots_txt/truncated")
            raise StopDownload(fail=False)

    def process_response(self, request, response):
        if MAXSIZE in request.meta:   # a compressed robots.txt is decompressed under the usual limit
            maxsize = request.meta.pop(MAXSIZE)
            if maxsize is None:
                request.meta.pop("download_maxsize", None)
            else:
                request.meta["download_maxsize"] = maxsize
        return response
