"""Hostile input through the real crawl: XML sitemaps and feeds with entity expansion (billion laughs) and
external entities (a local file, a URL on our server, an external DTD), a gzip bomb as a .xml.gz sitemap, and
gzip/deflate/brotli bombs sent with Content-Encoding. Nothing is resolved or fetched, decompression stops at the
size limit (recorded as too_large), the crawl's memory stays bounded and the good articles are stored."""

from __future__ import annotations

import zlib

import psycopg
import pytest

from tests.conftest import fresh_schema
from tests.reliability.crawling import crawl, last_run_counters, outcomes, site_toml
from tests.reliability.hostile_server import HTML, HostileSite, article_html, listing_html

BOMB_BYTES = 512 * 1024 * 1024          # decompressed size of each bomb (about 0.5 MB on the wire)
MAX_SIZE = 2 * 1024 * 1024              # DOWNLOAD_MAXSIZE of tests.local_crawl
PEAK_RSS_LIMIT_MB = 450                 # this crawl peaks far below (VmHWM); a bomb would add 512
SITEMAP_NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
LAUGHS = "".join(
    [' <!ENTITY lol0 "lol">\n']
    + [f' <!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">\n' for i in range(1, 10)]
)


def bomb(wbits: int, size: int = BOMB_BYTES) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
    chunk = b"\0" * (1 << 20)
    return b"".join(compressor.compress(chunk) for _ in range(size >> 20)) + compressor.flush()


def brotli_bomb(size: int = BOMB_BYTES) -> bytes:
    import brotli

    compressor, chunk = brotli.Compressor(quality=5), b"\0" * (1 << 20)
    return b"".join(compressor.process(chunk) for _ in range(size >> 20)) + compressor.finish()


def hostile_xml(base: str, kind: str, article: str, *, laughs: bool = False) -> bytes:
    """External entities (a file, a URL, a parameter entity, an external DTD) around one good entry; with
    ``laughs``, a billion-laughs entity is used too, and libxml2's amplification guard refuses the whole file."""
    doctype = (f'<!DOCTYPE root SYSTEM "{base}/dtd-probe" [\n{LAUGHS}'
               ' <!ENTITY passwd SYSTEM "file:///etc/passwd">\n'
               f' <!ENTITY probe SYSTEM "{base}/xxe-probe">\n'
               f' <!ENTITY % remote SYSTEM "{base}/parameter-probe"> %remote;\n]>\n')
    hostile = ["&passwd;", "&probe;", f"{base}/2026/01/01/x-&passwd;.html", *(["&lol9;"] if laughs else [])]
    if kind == "sitemap":
        urls = "".join(f"<url><loc>{loc}</loc></url>" for loc in [*hostile, f"{base}{article}"])
        return f'<?xml version="1.0"?>\n{doctype}<urlset {SITEMAP_NS}>{urls}</urlset>'.encode()
    items = "".join(f"<item><title>t</title><link>{link}</link></item>" for link in [*hostile, f"{base}{article}"])
    return f'<?xml version="1.0"?>\n{doctype}<rss version="2.0"><channel>{items}</channel></rss>'.encode()


@pytest.fixture(scope="module")
def hostile_crawl(postgres_server_dsn, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile")
    with HostileSite() as site, fresh_schema(postgres_server_dsn) as dsn:
        base = site.base_url
        articles = [f"/2026/01/0{n}/story-{n}.html" for n in range(1, 4)]
        unreachable = "/2026/01/09/story-9.html"  # listed only in the billion-laughs files
        gzip_bomb, deflate_bomb = "/2026/02/01/bomb-gzip.html", "/2026/02/02/bomb-deflate.html"
        brotli_bomb_path = "/2026/02/03/bomb-brotli.html"
        site.routes.update({
            "/": (200, {"Content-Type": HTML}, listing_html([articles[0], gzip_bomb, deflate_bomb, brotli_bomb_path])),
            articles[0]: (200, {"Content-Type": HTML}, article_html(1)),
            articles[1]: (200, {"Content-Type": HTML}, article_html(2)),
            articles[2]: (200, {"Content-Type": HTML}, article_html(3)),
            unreachable: (200, {"Content-Type": HTML}, article_html(9)),
            "/sitemap.xml": (200, {"Content-Type": "application/xml"}, hostile_xml(base, "sitemap", articles[1])),
            "/feed.xml": (200, {"Content-Type": "application/rss+xml"}, hostile_xml(base, "feed", articles[2])),
            "/sitemap-bomb.xml.gz": (200, {"Content-Type": "application/x-gzip"},
                                     bomb(31, 64 * 1024 * 1024)),  # over the 50 MB sitemap limit
            "/sitemap-laughs.xml": (200, {"Content-Type": "application/xml"},
                                    hostile_xml(base, "sitemap", unreachable, laughs=True)),
            "/feed-laughs.xml": (200, {"Content-Type": "application/xml"},
                                 hostile_xml(base, "feed", unreachable, laughs=True)),
            gzip_bomb: (200, {"Content-Type": HTML, "Content-Encoding": "gzip"}, bomb(31)),
            deflate_bomb: (200, {"Content-Type": HTML, "Content-Encoding": "deflate"}, bomb(15)),
            brotli_bomb_path: (200, {"Content-Type": HTML, "Content-Encoding": "br"}, brotli_bomb()),
        })
        config = site_toml(tmp / "hostile.toml", "hostile", start_urls=[f"{base}/"],
                           sitemap_urls=[f"{base}/sitemap.xml", f"{base}/sitemap-bomb.xml.gz",
                                         f"{base}/sitemap-laughs.xml"],
                           feed_urls=[f"{base}/feed.xml", f"{base}/feed-laughs.xml"])
        result = crawl(dsn, config, tmp / "crawl.log")
        assert result.returncode == 0, result.stderr[-3000:]
        yield site, dsn, result, articles


def test_no_entity_is_resolved_and_nothing_external_is_fetched(hostile_crawl):
    site, dsn, result, articles = hostile_crawl
    for probe in ("/dtd-probe", "/xxe-probe", "/parameter-probe"):
        assert site.requests[probe] == 0, probe
    with psycopg.connect(dsn) as connection:
        urls = [row[0] for row in connection.execute("SELECT url FROM pages")]
        bodies = connection.execute("SELECT string_agg(title || body, '') FROM articles").fetchone()[0]
    assert not any("root:" in url or "lol" in url or url.startswith("file:") for url in urls)
    assert "root:" not in bodies and "root:" not in result.stderr
    assert all(site.requests[path] == 1 for path in articles)  # the good entries around them were followed
    # Billion laughs: not expanded (the crawl's memory is checked below); the file yields no entry at all.
    assert site.requests["/sitemap-laughs.xml"] == site.requests["/feed-laughs.xml"] == 1
    assert site.requests["/2026/01/09/story-9.html"] == 0


def test_bombs_stop_at_the_size_limit_and_memory_stays_bounded(hostile_crawl):
    site, dsn, result, _ = hostile_crawl
    found = outcomes(dsn, site.base_url)
    assert found["/2026/02/01/bomb-gzip.html"] == "too_large"
    assert found["/2026/02/02/bomb-deflate.html"] == "too_large"
    assert found["/2026/02/03/bomb-brotli.html"] == "too_large"
    counters = last_run_counters(dsn)
    assert counters["newscorpus/spider/bad_sitemap"] == 1          # the .xml.gz bomb
    assert result.peak_rss_mb < PEAK_RSS_LIMIT_MB, result.peak_rss_mb
    print(f"crawl peak RSS {result.peak_rss_mb:.0f} MB")
    assert BOMB_BYTES > 100 * MAX_SIZE


def test_every_good_article_is_stored_once(hostile_crawl):
    site, dsn, _, articles = hostile_crawl
    with psycopg.connect(dsn) as connection:
        stored = [row[0].removeprefix(site.base_url) for row in connection.execute("SELECT url FROM articles")]
    assert sorted(stored) == sorted(articles)
