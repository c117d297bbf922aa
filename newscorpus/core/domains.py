"""A host's registrable domain, approximately: the site a host belongs to, without the public suffix list."""

from __future__ import annotations

from urllib.parse import urlsplit

# Second-level labels under which a country's sites register (example.co.uk, example.com.cn).
_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "gov", "ac", "edu", "or", "ne", "go"})


def registrable_domain(host: str) -> str:
    """The host's registrable domain, approximately (last two labels, three under a country's second level such
    as co.uk / com.cn): every sub-domain of a site is that site."""
    labels = host.lower().removeprefix("www.").split(".")
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVEL:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


def url_site(url: str | None) -> str | None:
    """The registrable domain of an absolute http(s) or scheme-relative URL, None for a relative one or no URL."""
    if not url or not (url.startswith(("http://", "https://", "//"))):
        return None
    try:
        host = urlsplit(url).hostname
    except ValueError:  # a malformed authority ("http://[x")
        return None
    return registrable_domain(host) if host else None
