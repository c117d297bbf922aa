"""The anchor of benchmarks/crawl_rate.py: a plain Scrapy spider, no project settings, no pipelines.

    python -m benchmarks.plain_spider http://127.0.0.1:PORT/ [more start URLs] [-s NAME=VALUE ...]

It follows every link on a start URL's host and port and yields each page's raw text as an item (which goes
nowhere): what Scrapy itself costs for the same pages, with the crawl settings crawl_rate.py gives the site spider
(robots.txt obeyed, politeness off, 16 requests at a time, the 10 MB page cap, the asyncio reactor); ``-s`` changes
one (benchmarks/many_sites.py: 4 a host, as its builds).
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

    def __init__(self, starts: list[str], **kwargs):
        super().__init__(**kwargs)
        self.start_urls = list(starts)
        self.origins = tuple("{0.scheme}://{0.netloc}/".format(urlsplit(start)) for start in starts)
        self.links = LinkExtractor()

    def parse(self, response):
        yield {"url": response.url, "page": response.text if hasattr(response, "text") else response.body}
        if hasattr(response, "text"):
            for link in self.links.extract_links(response):
                if link.url.startswith(self.origins):  # a start URL's host and port
                    yield response.follow(link)


def main(argv: list[str]) -> None:
    starts, changed, arguments = [], {}, iter(argv)
    for argument in arguments:
        if argument == "-s":
            name, _, value = next(arguments).partition("=")
            changed[name] = value
        else:
            starts.append(argument)
    process = CrawlerProcess({**SETTINGS, **changed}, install_root_handler=True)
    process.crawl(PlainSpider, starts=starts)
    process.start()


if __name__ == "__main__":
    main(sys.argv[1:])
