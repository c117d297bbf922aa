"""URL similarity of paper 001 (基于模板的自适应Web数据抽取, §3.2): a page matches a template of the same site
when R = |S(u_page) ∩ S(u_template)| / min(|S(u_page)|, |S(u_template)|) exceeds a threshold t, where S(u)
is the set of the URL path's "/"-separated segments.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

# Digits in a segment are generalised (paper 001 compares raw segments; dates and article ids then
# never match, so "2013", "03" and "22036778" all become "#"): /news/business-21302969 and
# /news/business-22036778 share both segments.
_DIGITS = re.compile(r"\d+")
# t: the paper's figure is an image lost in the text we have. 0.5 means "more than half of the shorter
# path agrees"; on cleanportaleval it joins every bbc article (/news/business-#, /news/world-asia-#) and
# separates them from section pages (/news/health: R = 0.5, not above t).
MATCH_THRESHOLD = 0.5


def site_of(url: str | None) -> str:
    """Host without "www." (lower case), with its port when not the scheme's default (two sites on one host are
    two sites: 127.0.0.1:8001 and 127.0.0.1:8002); "" when the url has none."""
    if not url:
        return ""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname or "", parts.port
    except ValueError:
        return ""
    host = host.lower().removeprefix("www.")
    if host and port is not None and port != _DEFAULT_PORTS.get(parts.scheme.lower()):
        return f"{host}:{port}"
    return host


_DEFAULT_PORTS = {"http": 80, "https": 443}


def segments(url: str | None) -> frozenset[str]:
    """The path's non-empty "/"-separated segments, lower-cased, digit runs generalised to "#"."""
    if not url:
        return frozenset()
    try:
        path = urlsplit(url).path
    except ValueError:
        return frozenset()
    return frozenset(_DIGITS.sub("#", part.lower()) for part in path.split("/") if part)


def similarity(page_url: str | None, template_url: str | None) -> float:
    """R of paper 001; 1.0 when both paths are empty (two home pages), 0.0 when only one is."""
    page, template = segments(page_url), segments(template_url)
    if not page and not template:
        return 1.0
    if not page or not template:
        return 0.0
    return len(page & template) / min(len(page), len(template))


def matches(page_url: str | None, template_url: str | None, threshold: float = MATCH_THRESHOLD) -> bool:
    """Same site and R > t (paper 001: 域名相同且 R(w,m) > t)."""
    site = site_of(page_url)
    return bool(site) and site == site_of(template_url) and similarity(page_url, template_url) > threshold
