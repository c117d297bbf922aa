"""The site spider's links: followed as before, and the parsed page not kept on the response (which lives until the
page's item has left the last stage: a busy pipeline holds hundreds of them)."""

from scrapy.crawler import Crawler
from scrapy.http import HtmlResponse, Request
from scrapy.settings import Settings
from scrapy.statscollectors import MemoryStatsCollector

from newscorpus.crawler.items import PageItem
from newscorpus.crawler.site_config import SiteConfig
from newscorpus.crawler.spiders.site import SiteSpider

BASE = "http://127.0.0.1:9"
PAGE = b"""<html><head><title>Index</title></head><body>
<a href="/2026/11/24/first.html">first</a> <a href="/2026/11/24/second.html">second</a>
<a href="https://elsewhere.example/x">off site</a></body></html>"""


def spider(**overrides) -> SiteSpider:
    settings = Settings()
    settings.setmodule("newscorpus.crawler.settings", priority="project")
    config = SiteConfig(**({"name": "links", "start_urls": (f"{BASE}/",), "allow_private_addresses": True,
                            "article_patterns": (r"/\d{4}/\d{2}/\d{2}/",)} | overrides))
    crawler = Crawler(SiteSpider, settings)
    crawler.stats = MemoryStatsCollector(crawler)
    return SiteSpider.from_crawler(crawler, site_config=config)


def response() -> HtmlResponse:
    return HtmlResponse(f"{BASE}/", body=PAGE, encoding="utf-8", request=Request(f"{BASE}/", meta={"depth": 0}))


def test_a_page_yields_its_item_and_its_site_links_and_keeps_no_parsed_tree():
    page = response()
    output = list(spider().parse_page(page))
    assert isinstance(output[0], PageItem) and output[0].raw_body == PAGE
    assert sorted(request.url for request in output[1:]) == [f"{BASE}/2026/11/24/first.html",
                                                              f"{BASE}/2026/11/24/second.html"]
    # Scrapy caches the parsed tree on a response whose .selector is used; the spider parses with a selector of its
    # own. (The decoded text is cached on the response by whoever reads it first: in a crawl, Scrapy's
    # MetaRefreshMiddleware, before the spider sees the page.)
    assert page._cached_selector is None


def test_a_page_at_the_depth_limit_counts_its_links_and_keeps_no_parsed_tree():
    page = response()
    site_spider = spider(max_depth=0)
    output = list(site_spider.parse_page(page))
    assert len(output) == 1
    assert site_spider.crawler.stats.get_value("newscorpus/spider/depth_cut") == 2
    assert page._cached_selector is None


class RemoteFrontier:
    """A scheduler with Scrapy's three methods but a queue elsewhere (as scrapy-redis's): its length is a round trip
    that fails while the frontier's server is away."""

    def has_pending_requests(self) -> bool:
        return True

    def enqueue_request(self, request) -> bool:
        return True

    def next_request(self):
        return None

    def __len__(self) -> int:
        raise ConnectionError("the frontier's server is away")


def test_the_queue_bound_never_asks_a_remote_frontier_for_its_length():
    site_spider = spider()
    site_spider.crawler.engine = type("Engine", (), {"scheduler": RemoteFrontier()})()
    output = list(site_spider.parse_page(response()))
    assert len(output) == 3 and site_spider.queued() == 0
