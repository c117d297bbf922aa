"""Downloader middleware: the crawl scope (newscorpus.crawler.scope) enforced on every request, redirects
included."""

from __future__ import annotations

import asyncio
import logging
import socket
from urllib.parse import urlsplit

from scrapy.exceptions import IgnoreRequest

from newscorpus.crawler.scope import ALLOWED_SCHEMES, host_in_domains, is_internal_address, is_ip_literal, url_port

logger = logging.getLogger(__name__)


class OutOfScope(IgnoreRequest):
    """A request outside the site's crawl scope (counted as newscorpus/scope/<reason>)."""

    def __init__(self, reason: str, url: str):
        super().__init__(f"out of scope ({reason}): {url[:200]}")
        self.reason = reason


class CrawlScopeMiddleware:
    def __init__(self, crawler, allow_private_default: bool):
        self.crawler = crawler
        self.allow_private_default = allow_private_default
        self._internal_hosts: dict[str, bool] = {}
        self.warned_private = False

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler, crawler.settings.getbool("NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES"))

    def _refuse(self, reason: str, url: str) -> None:
        self.crawler.stats.inc_value(f"newscorpus/scope/{reason}")
        if reason == "internal_address" and not self.warned_private:
            self.warned_private = True  # once: a local site would otherwise end with 0 pages and no word
            logger.warning("not fetching %s: it is on a loopback or private network. To crawl it, set "
                           "allow_private_addresses = true in the site config, or -s "
                           "NEWSCORPUS_ALLOW_PRIVATE_ADDRESSES=True for a -a url= crawl", url[:200])
        raise OutOfScope(reason, url)

    async def process_request(self, request):
        spider = self.crawler.spider
        config = getattr(spider, "site_config", None)
        if config is None:  # not the site spider
            return None
        parts = urlsplit(request.url)
        if parts.scheme not in ALLOWED_SCHEMES:
            self._refuse("scheme", request.url)
        host = parts.hostname or ""
        if not host_in_domains(host, spider.allowed_domains):
            self._refuse("offsite", request.url)
        if not (config.allow_private_addresses or self.allow_private_default) and await self._is_internal(host):
            self._refuse("internal_address", request.url)
        if url_port(request.url) not in config.ports:   # another service on an allowed host
            self._refuse("port", request.url)
        return None

    async def _is_internal(self, host: str) -> bool:
        if host not in self._internal_hosts:
            try:
                addresses = [host] if is_ip_literal(host) else [
                    info[4][0] for info in await asyncio.get_running_loop().getaddrinfo(
                        host, None, type=socket.SOCK_STREAM)
                ]
            except OSError:
                return False  # unresolvable: the download fails and is recorded as a fetch error
            self._internal_hosts[host] = any(is_internal_address(address) for address in addresses)
        return self._internal_hosts[host]
