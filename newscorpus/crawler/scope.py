"""Crawl scope rules: http(s) only, the site's own hosts and ports only, and no private, loopback or link-local
addresses unless the site config allows them (enforced by newscorpus.crawler.middlewares.scope)."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

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


def is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    return True


def resolves_internal(host: str) -> bool:
    """True when ``host`` (a name or an address) is on a loopback, private or link-local network; an unresolvable
    name is not (its download fails and is recorded as a fetch error)."""
    if is_ip_literal(host):
        return is_internal_address(host)
    try:
        addresses = [info[4][0] for info in socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)]
    except OSError:
        return False
    return any(is_internal_address(address) for address in addresses)
