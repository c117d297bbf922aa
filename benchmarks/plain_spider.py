"""The anchor of benchmarks/crawl_rate.py: a plain Scrapy spider, no project settings, no pipelines.

    python -m benchmarks.plain_spider http://127.0.0.1:PORT/

It follows every link on the start URL's host and yields each page's raw text as an item (which goes nowhere):
what Scrapy itself costs for the same pages, with the crawl settings crawl_rate.py gives the site spider
(robots.txt obeyed, politeness off, 16 requests at a time, the 10 MB page cap, the asyncio reactor).
"""

from __future__ import annotations

import sys
from urllib.parse import urlsplit

import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.linkextractors import LinkExtractor

SETTINGS = {
    "ROBOTSTXT_OBEY": True, "AUTOTHROTTLE_ENABLED": False, "DOWNLOAD_DELAY": 0, "CONCURRENT_REQUESTS": 32,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 16, "HTTPERROR_ALLOW_ALL": True, "LOG_LEVEL": "INFO",
    "TELNETCONSOLE_ENABLED": False, "DOWNLOAD_MAXSIZE": 10 * 1024 * 1024,
    "TWISTED_REACTOR": "twisted.internet.asyncioreactor.AsyncioSelectorReactor",
}


class PlainSpider(scrapy.Spider):
    name = "plain"

    def __init__(self, start: str, **kwargs):
        super().__init__(**kwargs)
        self.start_urls = [start]
        self.origin = "{0.scheme}://{0.netloc}/".format(urlsplit(start))
        self.links = LinkExtractor()

    def parse(self, response):
        yield {"url": response.url, "page": response.text if hasattr(response, "text") else response.body}
        if hasattr(response, "text"):
            for link in self.links.extract_links(response):
                if link.url.startswith(self.origin):  # the start URL's host and port
                    yield response.follow(link)


def main() -> None:
    process = CrawlerProcess(SETTINGS, install_root_handler=True)
    process.crawl(PlainSpider, start=sys.argv[1])
    process.start()


if __name__ == "__main__":
    main()
