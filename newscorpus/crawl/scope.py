"""Crawl scope, enforced on every request (redirects included): http(s) only, the site's own hosts and ports
only, and no private, loopback or link-local addresses unless the site config allows them."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
from urllib.parse import urlsplit

from scrapy.exceptions import IgnoreRequest

logger = logging.getLogger(__name__)

ALLOWED_SCHEMES = frozenset({"http", "https"})
DEFAULT_PORTS = {"http": 80, "https": 443}


def url_port(url: str) -> int | None:
    """The port a URL connects to (its scheme's default when none is written); None when it cannot say."""
    parts = urlsplit(url)
    try:
        return parts.port or DEFAULT_PORTS.get(parts.scheme)
    except ValueError:  # a port that is not a number
        return None


def site_ports(urls, extra_ports=()) -> frozenset[int]:
    """The ports a site is crawled on: those of its configured URLs, and ``extra_ports``. The default ports of
    http and https go together (a site served on one links to, and redirects to, the other)."""
    ports = {url_port(url) for url in urls} | set(extra_ports)
    if ports & set(DEFAULT_PORTS.values()):
        ports |= set(DEFAULT_PORTS.values())
    return frozenset(port for port in ports if port is not None)


def is_internal_address(address: str) -> bool:
    """True for loopback, private, link-local, multicast, reserved and unspecified addresses (v4 and v6)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


def host_in_domains(host: str, domains: tuple[str, ...] | list[str]) -> bool:
    host = host.lower().rstrip(".")
    return any(host == domain or host.endswith("." + domain) for domain in domains)


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
                addresses = [host] if _is_ip_literal(host) else [
                    info[4][0] for info in await asyncio.get_running_loop().getaddrinfo(
                        host, None, type=socket.SOCK_STREAM)
                ]
            except OSError:
                return False  # unresolvable: the download fails and is recorded as a fetch error
            self._internal_hosts[host] = any(is_internal_address(address) for address in addresses)
        return self._internal_hosts[host]


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    return True
