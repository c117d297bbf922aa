"""Crawl scope through a real crawl: redirects to another host, to file: and data: URLs, to the cloud
metadata address and to IPv6 loopback are refused and counted (newscorpus/scope/*), a site whose config
does not allow private addresses cannot reach a server on loopback at all, even under an allowed host name,
and another port of an allowed host is out of scope, by link and by redirect, unless allowed_ports lists it."""

from __future__ import annotations

import asyncio

import pytest
from scrapy.http import Request

from newscorpus.crawler.middlewares.scope import CrawlScopeMiddleware, OutOfScope
from newscorpus.crawler.site_config import SiteConfig
from tests.conftest import fresh_schema
from tests.reliability.crawling import crawl, last_run_counters, outcomes, site_toml
from tests.reliability.hostile_server import HTML, HostileSite, article_html, listing_html

ARTICLE = "/2026/03/01/story-1.html"


def redirect(location: str):
    return (302, {"Location": location, "Content-Type": HTML}, b"")


def redirects(port: int) -> dict[str, tuple]:
    return {
        "/2026/03/02/to-other-host.html": redirect(f"http://other-host.example:{port}{ARTICLE}"),
        "/2026/03/03/to-file.html": redirect("file:///etc/passwd"),
        "/2026/03/04/to-data.html": redirect("data:text/html,<html><body><p>injected</p></body></html>"),
        "/2026/03/05/to-metadata.html": redirect("http://169.254.169.254/latest/meta-data/"),
        "/2026/03/06/to-ipv6-loopback.html": redirect(f"http://[::1]:{port}{ARTICLE}"),
        "/2026/03/07/to-lookalike.html": redirect(f"http://127.0.0.1.evil.example:{port}{ARTICLE}"),
    }


@pytest.fixture
def scope_site():
    with HostileSite() as site:
        hops = redirects(site.port)
        site.routes.update(hops)
        site.routes["/"] = (200, {"Content-Type": HTML}, listing_html([ARTICLE, *hops]))
        site.routes[ARTICLE] = (200, {"Content-Type": HTML}, article_html(1))
        yield site, hops


def test_redirects_out_of_scope_are_refused_and_counted(scope_site, postgres_server_dsn, tmp_path):
    site, hops = scope_site
    config = site_toml(tmp_path / "scope.toml", "scope", start_urls=[f"{site.base_url}/"])
    with fresh_schema(postgres_server_dsn) as dsn:
        result = crawl(dsn, config, tmp_path / "crawl.log")
        assert result.returncode == 0, result.stderr[-3000:]
        counters = last_run_counters(dsn)
        found = outcomes(dsn, site.base_url)
    assert all(site.requests[path] == 1 for path in hops)       # each redirect answered once, not retried
    # Nothing is stored from beyond a redirect. Scrapy's RedirectMiddleware does not follow non-http(s)
    # Locations: the 302 itself is recorded (empty), file: and data: are never opened.
    assert found == {"/": "listing", ARTICLE: "article", "/2026/03/03/to-file.html": "empty",
                     "/2026/03/04/to-data.html": "empty"}
    assert "injected" not in result.stderr and "root:" not in result.stderr
    refused = {name.removeprefix("newscorpus/scope/"): value for name, value in counters.items()
               if name.startswith("newscorpus/scope/")}
    # Other host, metadata address, [::1] and the look-alike host are offsite: Scrapy's own OffsiteMiddleware
    # (same priority as ours) gets them first and counts offsite/filtered; ours counts what it sees.
    assert counters.get("offsite/filtered", 0) + refused.pop("offsite", 0) == 4, counters
    assert refused == {}, refused


def test_loopback_under_an_allowed_name_is_refused_without_the_private_switch(scope_site, postgres_server_dsn,
                                                                              tmp_path):
    site, _ = scope_site
    config = site_toml(tmp_path / "local.toml", "local", start_urls=[f"http://localhost:{site.port}/"],
                       domains=("localhost",), allow_private=False)
    with fresh_schema(postgres_server_dsn) as dsn:
        result = crawl(dsn, config, tmp_path / "crawl.log")
        assert result.returncode == 0, result.stderr[-3000:]
        counters = last_run_counters(dsn)
    assert sum(site.requests.values()) == 0
    assert counters["newscorpus/scope/internal_address"] >= 1


@pytest.mark.parametrize("url, reason", [
    ("http://169.254.169.254/latest/meta-data/", "internal_address"), ("http://[::1]:8080/", "internal_address"),
    ("http://10.0.0.1/", "internal_address"), ("http://[::ffff:127.0.0.1]/", "internal_address"),
    ("http://0.0.0.0/", "internal_address"), ("file:///etc/passwd", "scheme"),
    ("data:text/html,<p>x</p>", "scheme"), ("ftp://10.0.0.1/", "scheme"),
])
def test_internal_addresses_and_other_schemes_are_refused_even_when_their_host_is_allowed(url, reason):
    class Spider:
        site_config = SiteConfig(name="internal", start_urls=("http://example.com/",))
        allowed_domains = ["169.254.169.254", "::1", "10.0.0.1", "::ffff:127.0.0.1", "0.0.0.0"]

    class Stats(dict):
        def inc_value(self, key, count=1):
            self[key] = self.get(key, 0) + count

    class Crawler:
        spider, stats = Spider(), Stats()

    middleware = CrawlScopeMiddleware(Crawler(), allow_private_default=False)
    with pytest.raises(OutOfScope, match=reason):
        asyncio.run(middleware.process_request(Request(url)))
    assert Crawler.stats == {f"newscorpus/scope/{reason}": 1}


@pytest.mark.parametrize("allowed", [False, True])
def test_another_port_of_an_allowed_host_is_out_of_scope_unless_allowed(allowed, postgres_server_dsn, tmp_path):
    """The scope is the host and its port: a link or a redirect to another service on the same machine (another
    port of 127.0.0.1 here) is not followed unless allowed."""
    with HostileSite() as site, HostileSite() as other:
        linked, redirected = "/2026/03/10/linked.html", "/2026/03/11/redirected.html"
        other.routes.update({path: (200, {"Content-Type": HTML}, article_html(10 + n))
                             for n, path in enumerate((linked, redirected))})
        hop = "/2026/03/12/to-other-port.html"
        site.routes.update({
            "/": (200, {"Content-Type": HTML}, listing_html([ARTICLE, hop, f"{other.base_url}{linked}"])),
            ARTICLE: (200, {"Content-Type": HTML}, article_html(1)),
            hop: redirect(f"{other.base_url}{redirected}"),
        })
        extra = f"allowed_ports = [{other.port}]\n" if allowed else ""
        config = site_toml(tmp_path / "ports.toml", "ports", start_urls=[f"{site.base_url}/"], extra=extra)
        with fresh_schema(postgres_server_dsn) as dsn:
            result = crawl(dsn, config, tmp_path / "crawl.log")
            assert result.returncode == 0, result.stderr[-3000:]
            counters = last_run_counters(dsn)
    if allowed:
        assert other.requests[linked] == other.requests[redirected] == 1
    else:
        assert sum(other.requests.values()) == 0
        assert counters["newscorpus/scope/port"] == 1                  # the redirect; the link is never requested
    assert site.requests[ARTICLE] == 1
