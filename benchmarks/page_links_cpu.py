"""CPU of the spider's link reading: Scrapy's LinkExtractor(deny, unique=True) against newscorpus.crawler.page_links
on the same pages, and a check that both give the same URLs in the same order.

    python -m benchmarks.page_links_cpu [--articles 300] [--html-dir ../shared/data/extraction] [--rounds 3]

The demo site's pages are fetched from its local server once (breadth first from its home page); --html-dir adds
every *.html file under that folder, read as pages of one made-up URL. CPU is process time per page, each reader
new for each round (its cache empty).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import urllib.request
from pathlib import Path

from scrapy.http import HtmlResponse
from scrapy.linkextractors import LinkExtractor

from newscorpus.crawler.page_links import PageLinks
from newscorpus.demo.server import DemoSite

DENY = [r"/search", r"\?share="]


def scrapy_urls(extractor: LinkExtractor, page: HtmlResponse) -> list[str]:
    return [link.url for link in extractor.extract_links(page.replace())]


def demo_pages(site: DemoSite, limit: int = 200) -> list[HtmlResponse]:
    """The demo site's HTML pages, breadth first from its home page."""
    queue, seen, pages = [f"{site.base_url}/"], set(), []
    while queue and len(pages) < limit:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        try:
            with urllib.request.urlopen(url, timeout=10) as answer:
                body, content_type = answer.read(), answer.headers.get("Content-Type", "")
        except OSError:  # the demo's 404 and 500 pages
            continue
        if "html" not in content_type:
            continue
        page = HtmlResponse(url, body=body, headers={"Content-Type": content_type})
        pages.append(page)
        queue += [url for url in scrapy_urls(LinkExtractor(unique=True), page) if url.startswith(site.base_url)]
    return pages


def measure(name: str, pages: list[HtmlResponse], rounds: int) -> bool:
    expected = [scrapy_urls(LinkExtractor(deny=DENY, unique=True), page) for page in pages]
    reader = PageLinks(DENY)
    same = [reader.urls(page) for page in pages] == expected
    old, new = [], []
    for _ in range(rounds):
        extractor, reader = LinkExtractor(deny=DENY, unique=True), PageLinks(DENY)
        started = time.process_time()
        for page in pages:
            scrapy_urls(extractor, page)
        old.append((time.process_time() - started) / len(pages))
        started = time.process_time()
        for page in pages:
            reader.urls(page)
        new.append((time.process_time() - started) / len(pages))
    print(f"{name}: {len(pages)} pages, {sum(map(len, expected))} links, same URLs: {same}; CPU ms/page "
          f"LinkExtractor {1000 * statistics.median(old):.3f} ({', '.join(f'{1000 * t:.3f}' for t in old)}), "
          f"page_links {1000 * statistics.median(new):.3f} ({', '.join(f'{1000 * t:.3f}' for t in new)})")
    return same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--articles", type=int, default=300)
    parser.add_argument("--html-dir", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with DemoSite(article_count=args.articles) as site:
        pages = demo_pages(site, limit=10 * args.articles)
    same = measure("demo site", pages, args.rounds)
    if args.html_dir is not None:
        files = sorted(args.html_dir.rglob("*.html"))
        real = [HtmlResponse("https://news.example.com/section/2024/page.html?id=3", body=path.read_bytes())
                for path in files]
        same = measure(f"{args.html_dir}", real, args.rounds) and same
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
