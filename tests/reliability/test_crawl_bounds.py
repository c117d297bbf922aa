"""A hostile site that would make the crawl queue without end: sitemap indexes that each name two new indexes,
and a page of 20,000 unique links. The crawl ends by itself within its bounds, and counts and names what it did not
follow."""

from __future__ import annotations

import itertools

from tests.conftest import fresh_schema
from tests.reliability.crawling import crawl, last_run_counters, site_toml
from tests.reliability.hostile_server import HTML, HostileSite, listing_html, send

MAX_SITEMAP_DEPTH, MAX_SITEMAPS = 3, 40
LINKS, MAX_QUEUED = 20_000, 1_000


def endless_index(base: str):
    """/idx/N names two new indexes every time it is asked."""
    numbers = itertools.count(1)

    def answer(handler) -> None:
        children = "".join(f"<sitemap><loc>{base}/idx/{next(numbers)}</loc></sitemap>" for _ in range(2))
        send(handler, 200, {"Content-Type": "application/xml"},
             ('<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
              f"{children}</sitemapindex>").encode())
    return answer


def sitemap_fetches(site: HostileSite) -> int:
    return sum(count for path, count in site.requests.items() if path.startswith("/idx/"))


def test_an_endless_chain_of_sitemap_indexes_stops_at_the_depth_bound(postgres_server_dsn, tmp_path):
    with HostileSite() as site, fresh_schema(postgres_server_dsn) as dsn:
        site.prefix_routes["/idx/"] = endless_index(site.base_url)
        config = site_toml(tmp_path / "chain.toml", "chain", sitemap_urls=[f"{site.base_url}/idx/0"])
        result = crawl(dsn, config, tmp_path / "crawl.log",
                       {"NEWSCORPUS_CRAWL_BOUNDS_MAX_SITEMAP_DEPTH": str(MAX_SITEMAP_DEPTH)})
        counters = last_run_counters(dsn)
    assert result.returncode == 0, result.stderr[-3000:]
    assert sitemap_fetches(site) == 2 ** (MAX_SITEMAP_DEPTH + 1) - 1             # 1 + 2 + 4 + 8
    assert counters["newscorpus/spider/sitemap_cut"] == 2 ** (MAX_SITEMAP_DEPTH + 1)  # the 16 named by the last 8
    warnings = [line for line in result.stderr.splitlines() if "the sitemap bounds cut the crawl of chain" in line]
    assert len(warnings) == 1 and "16 sitemap(s) not followed" in warnings[0] and f"{site.base_url}/idx/" in warnings[0]


def test_an_endless_chain_of_sitemap_indexes_stops_at_the_count_bound(postgres_server_dsn, tmp_path):
    with HostileSite() as site, fresh_schema(postgres_server_dsn) as dsn:
        site.prefix_routes["/idx/"] = endless_index(site.base_url)
        config = site_toml(tmp_path / "chain.toml", "chain", sitemap_urls=[f"{site.base_url}/idx/0"])
        result = crawl(dsn, config, tmp_path / "crawl.log", {"NEWSCORPUS_CRAWL_BOUNDS_MAX_SITEMAP_DEPTH": "100",
                                                             "NEWSCORPUS_CRAWL_BOUNDS_MAX_SITEMAPS": str(MAX_SITEMAPS)})
        counters = last_run_counters(dsn)
    assert result.returncode == 0, result.stderr[-3000:]
    assert sitemap_fetches(site) == MAX_SITEMAPS
    assert counters["newscorpus/spider/sitemap_cut"] > 0
    assert "NEWSCORPUS_CRAWL_BOUNDS_MAX_SITEMAPS" in result.stderr


def test_a_page_of_20000_links_queues_at_most_the_bound(postgres_server_dsn, tmp_path):
    links = [f"/2026/06/01/story-{n}.html" for n in range(LINKS)]
    with HostileSite() as site, fresh_schema(postgres_server_dsn) as dsn:
        site.routes["/"] = (200, {"Content-Type": HTML}, listing_html(links))
        config = site_toml(tmp_path / "wide.toml", "wide", start_urls=[f"{site.base_url}/"])
        result = crawl(dsn, config, tmp_path / "crawl.log", {"NEWSCORPUS_CRAWL_BOUNDS_MAX_QUEUED": str(MAX_QUEUED),
                                                            "NEWSCORPUS_MAX_DEPTH": "1"}, timeout=300)
        counters = last_run_counters(dsn)
    fetched = sum(site.requests[link] for link in links)
    print(f"links {LINKS}, fetched {fetched}, queued at most {counters.get('newscorpus/spider/queued_max')}, "
          f"frontier_cut {counters.get('newscorpus/spider/frontier_cut')}, "
          f"peak RSS {result.peak_rss_mb:.0f} MB")
    assert result.returncode == 0, result.stderr[-3000:]
    assert 0 < counters["newscorpus/spider/queued_max"] <= MAX_QUEUED     # never more waiting at once
    assert fetched < 2 * MAX_QUEUED                                        # the rest were never requested
    assert fetched + counters["newscorpus/spider/frontier_cut"] == LINKS      # every link fetched or counted
    assert "the queue bound cut the crawl" in result.stderr
