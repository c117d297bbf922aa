"""The spider's link reader gives exactly the URLs of Scrapy's LinkExtractor(deny=..., unique=True), in the same
order (the same links for less CPU): on every page of the demo site, fetched from its local server, and on
pages written to hold the odd cases (a <base>, whitespace, a bad IPv6 host, denied and ignored links, GBK text)."""

from __future__ import annotations

import pytest
from scrapy.http import HtmlResponse
from scrapy.linkextractors import LinkExtractor

from benchmarks.page_links_cpu import demo_pages
from newscorpus.crawler import page_links
from newscorpus.crawler.page_links import PageLinks
from newscorpus.demo.server import DemoSite


def scrapy_urls(response: HtmlResponse, deny: list[str]) -> list[str]:
    return [link.url for link in LinkExtractor(deny=deny, unique=True).extract_links(response.replace())]


def test_every_demo_page_gives_scrapys_links():
    with DemoSite(article_count=60) as site:
        pages = demo_pages(site)
        deny = [*site.site_config().skip_patterns, r"/2026/11/0[1-3]/"]  # the site's own, and one that bites
    reader = PageLinks(deny)
    assert len(pages) > 50
    total = 0
    for page in pages:
        expected = scrapy_urls(page, deny)
        assert reader.urls(page) == expected, page.url
        total += len(expected)
    assert 500 < total < sum(len(scrapy_urls(page, [])) for page in pages)  # and the deny patterns bit
    # the second reading answers from the cache: still the same
    assert [reader.urls(page) for page in pages] == [scrapy_urls(page, deny) for page in pages]
    # and no page keeps a parsed tree (Scrapy's cached selector) after its links were read
    assert all(page._cached_selector is None for page in pages)


ODD_PAGE = """<html><head><base href="/news/2026/"><title>t</title></head><body>
<a href="  story-1.html
">一</a> <a href="story-1.html">again</a> <a href="../about.html#team">about</a>
<a href="https://other.example.org/x?a=1&amp;b=2">other host</a> <a href="http://[::1">bad host</a>
<a href="/search?q=新闻">search, denied</a> <a href="/files/report.pdf">ignored extension</a>
<a href="javascript:void(0)">js</a> <a href="mailto:desk@example.com">mail</a> <a>no href</a>
<map><area href="/map/area.html"></map> <a href="//cdn.example.com/asset.html">scheme-relative</a>
<a href="/新闻/中文 路径.html?标签=经济">unicode</a> <a HREF="/Upper.html">upper</a>
<a href="/news/2026/story-1.html">absolute again</a> <link href="/feed.xml"> <img src="/i.html">
</body></html>"""


@pytest.mark.parametrize("encoding", ["utf-8", "gbk"])
def test_odd_links_are_read_as_scrapy_reads_them(encoding):
    page = HtmlResponse("https://example.com/section/page.html?id=3", body=ODD_PAGE.encode(encoding),
                        encoding=encoding)
    deny = [r"/search"]
    expected = scrapy_urls(page, deny)
    assert PageLinks(deny).urls(page) == expected
    assert "https://example.com/news/2026/story-1.html" in expected
    assert not any("search" in url or url.endswith(".pdf") for url in expected)


def test_a_full_cache_is_emptied_and_answers_stay_the_same(monkeypatch):
    monkeypatch.setattr(page_links, "ALLOWED_CACHE_SIZE", 3)
    page = HtmlResponse("https://example.com/section/page.html", body=ODD_PAGE.encode(), encoding="utf-8")
    reader = PageLinks([r"/search"])
    assert reader.urls(page) == reader.urls(page) == scrapy_urls(page, [r"/search"])
    assert len(reader._allowed) <= 3


SHARED_LINKS = """<html><head>{base}<title>t</title></head><body>
<a href="/news/a.html">rooted</a> <a href="/news/../b.html?x=1#top">rooted, dots</a> <a href="c.html">relative</a>
<a href="https://example.com/d.html">absolute</a> <a href="http://example.com/e/../f.html">absolute, other scheme</a>
<a href="/搜索?词=新闻">rooted, unicode query</a> <a href=" /news/a.html ">rooted, spaced</a> <a href="/">home</a>
</body></html>"""


def test_one_reader_over_pages_of_other_paths_hosts_schemes_and_encodings_gives_scrapys_links():
    # the joined URL of a rooted or absolute href is kept per origin and encoding: it must not leak from one page
    # to a page of another host, scheme, <base> or encoding
    pages = [HtmlResponse(url, body=SHARED_LINKS.format(base=base).encode(encoding), encoding=encoding)
             for url in ("https://example.com/", "https://example.com/2026/11/story.html",
                         "http://example.com/section/", "https://other.example.org/x/y.html")
             for base in ("", '<base href="https://mirror.example.net/deep/dir/">')
             for encoding in ("utf-8", "gbk")]
    reader = PageLinks()
    for _ in range(2):
        for page in pages:
            assert reader.urls(page) == scrapy_urls(page, []), (page.url, page.encoding)
    assert len({tuple(scrapy_urls(page, [])) for page in pages}) > 8  # the pages do differ


def test_a_full_join_cache_is_emptied_and_answers_stay_the_same(monkeypatch):
    monkeypatch.setattr(page_links, "JOINED_CACHE_SIZE", 2)
    page = HtmlResponse("https://example.com/section/page.html", body=SHARED_LINKS.format(base="").encode(),
                        encoding="utf-8")
    reader = PageLinks()
    assert reader.urls(page) == reader.urls(page) == scrapy_urls(page, [])
    assert len(reader._joined) <= 2
