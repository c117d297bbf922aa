"""The `site` spider: finds a news site's articles through sitemaps, feeds and section pages."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from urllib.parse import urlsplit

import scrapy
from lxml import etree
from scrapy.core.scheduler import Scheduler
from scrapy.exceptions import DownloadCancelledError, IgnoreRequest
from scrapy.http import Request, Response, TextResponse
from scrapy.utils.gz import gunzip
from scrapy.utils.sitemap import Sitemap

from newscorpus.crawler import log_filters
from newscorpus.crawler.canonical_url import canonical_url
from newscorpus.crawler.items import PageItem
from newscorpus.crawler.middlewares.redirect_loop import RedirectLoop
from newscorpus.crawler.page_links import PageLinks
from newscorpus.crawler.scope import host_in_domains, url_port
from newscorpus.crawler.site_config import SiteConfig, SiteConfigError, adhoc_site_config, load_site_config
from newscorpus.crawler.stage_settings import stage_config, stage_enabled
from newscorpus.crawler.url_classes import ARTICLE, LISTING, SKIP, classify_url

logger = logging.getLogger(__name__)

# Feeds are parsed without entity expansion or network access (billion laughs, external entities).
FEED_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, recover=True, huge_tree=False)
FEED_LINKS = etree.XPath(
    "//*[local-name()='item']/*[local-name()='link']/text()"
    " | //*[local-name()='entry']/*[local-name()='link'][not(@rel) or @rel='alternate']/@href"
)
MAX_SITEMAP_BYTES = 50 * 1024 * 1024  # the sitemap protocol's own limit for an uncompressed file
BYTES_RECEIVED = "newscorpus_bytes_received"  # request.meta key: body bytes received so far
SITEMAP_DEPTH = "newscorpus_sitemap_depth"    # request.meta key: sitemap index hops from a configured sitemap
NAMED_URLS = 5                                # unfollowed sitemaps a warning names


def site_config_of(site: str | None, url: str | None, sites_dirs: list[str]) -> SiteConfig:
    """The config of the site to crawl, from the spider's arguments: -a site=NAME (NAME.toml, or a path) or
    -a url=URL (an ad-hoc config); a mistake is a SiteConfigError in one line (the `crawl` command checks the
    arguments with this before the crawl starts)."""
    if site and url:
        raise SiteConfigError("give either -a site=NAME or -a url=URL, not both")
    if site:
        return load_site_config(site, sites_dirs)
    if url:
        return adhoc_site_config(url)
    raise SiteConfigError("the site spider needs -a site=NAME (newscorpus/crawler/sites/NAME.toml) or -a url=URL")


def looks_like_html(content_type: str | None, body: bytes) -> bool:
    """HTML by its Content-Type, or, with none, by a body that starts with a tag."""
    if content_type:
        return "html" in content_type.lower()
    return body.lstrip()[:1] == b"<"


def is_html(response: Response) -> bool:
    if not isinstance(response, TextResponse):
        return False
    return looks_like_html(response.headers.get(b"Content-Type", b"").decode("latin-1"), response.body)


class SiteSpider(scrapy.Spider):
    name = "site"

    def __init__(self, site: str | None = None, url: str | None = None,
                 site_config: SiteConfig | None = None, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._config_arguments = (site, url, site_config)
        self._requested: set[str] = set()
        self._beyond_depth: set[str] = set()   # pages linked only from pages at the depth limit (so far)
        self._over_budget: set[str] = set()    # pages found after the page budget was spent
        self._over_frontier: set[str] = set()  # pages found while the queue was full (so far)
        self._sitemaps: set[str] = set()       # sitemaps requested
        self._sitemaps_cut = 0                 # sitemap entries not followed: past the depth or count bound
        self._unfollowed: list[str] = []       # the first of them, for the warning

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        log_filters.install(crawler)
        spider.configure(crawler.settings)
        # the site's own politeness over the project's defaults (a -s on the command line still wins); Scrapy
        # freezes the crawler's settings only after the spider is made
        crawler.settings.setdict(spider.site_config.crawl_settings(), priority="spider")
        crawler.signals.connect(spider.bytes_received, signal=scrapy.signals.bytes_received)
        return spider

    def bytes_received(self, data: bytes, request: Request, spider) -> None:
        """Counted per request, so that a streamed body cut at the size limit is told from other cancels."""
        request.meta[BYTES_RECEIVED] = request.meta.get(BYTES_RECEIVED, 0) + len(data)

    def configure(self, settings) -> None:
        site, url, config = self._config_arguments
        if config is None:
            config = site_config_of(site, url, settings.getlist("NEWSCORPUS_SITES_DIRS"))
        self.site_config = config
        self.allowed_domains = list(config.domains)
        max_pages = config.max_pages if config.max_pages is not None else settings.getint("NEWSCORPUS_MAX_PAGES")
        self.max_pages = max_pages or None
        self.max_depth = config.max_depth if config.max_depth is not None else settings.getint("NEWSCORPUS_MAX_DEPTH")
        self.max_size = settings.getint("DOWNLOAD_MAXSIZE")
        self.page_links = PageLinks(deny=config.skip_patterns)
        self.bounds = stage_config(settings, "CRAWL_BOUNDS") if stage_enabled(settings, "CRAWL_BOUNDS") else None

    # --- requests ------------------------------------------------------------------------------------------
    def url_kind(self, url: str) -> str:
        config = self.site_config
        return classify_url(
            url, config.patterns("article_patterns"), config.patterns("listing_patterns"),
            config.patterns("skip_patterns"),
        )

    def in_scope(self, url: str) -> bool:
        return (host_in_domains(urlsplit(url).hostname or "", self.allowed_domains)
                and url_port(url) in self.site_config.ports)

    def candidate(self, url: str) -> tuple[str, str] | None:
        """(canonical URL, kind) of a page this crawl would fetch; None when out of scope, skipped or requested."""
        url = canonical_url(url)
        if not self.in_scope(url):
            return None
        kind = self.url_kind(url)
        if kind == SKIP or url in self._requested:
            return None
        return url, kind

    def page_request(self, url: str, *, priority: int = 0) -> Request | None:
        found = self.candidate(url)
        if found is None:
            return None
        url, kind = found
        stats = self.crawler.stats
        if self.max_pages is not None and len(self._requested) >= self.max_pages:
            stats.inc_value("newscorpus/spider/over_page_limit")
            if url not in self._over_budget:
                self._over_budget.add(url)
                stats.inc_value("newscorpus/spider/page_budget_cut")
            return None
        if self.bounds is not None:
            queued = self.queued()
            if queued >= self.bounds.max_queued:
                if url not in self._over_frontier:
                    self._over_frontier.add(url)
                    stats.inc_value("newscorpus/spider/frontier_cut")
                return None
            stats.max_value("newscorpus/spider/queued_max", queued + 1)   # this one included
        self._requested.add(url)
        if url in self._over_frontier:  # found again once the queue had room: fetched after all
            self._over_frontier.discard(url)
            stats.inc_value("newscorpus/spider/frontier_cut", -1)
        if url in self._beyond_depth:  # found again on a shallower page: fetched after all
            self._beyond_depth.discard(url)
            stats.inc_value("newscorpus/spider/depth_cut", -1)
        return Request(
            url, callback=self.parse_page, errback=self.on_error,
            meta={"url_kind": kind}, priority=priority + (1 if kind == ARTICLE else 0),
        )

    def queued(self) -> int:
        """Requests waiting in the scheduler: Scrapy's own by its length; a shared frontier by the estimate it
        keeps (its length is a Redis round trip, too dear per link); 0 when it cannot say (before the engine
        runs, a scheduler with neither)."""
        try:
            scheduler = self.crawler.engine.scheduler
            estimate = getattr(scheduler, "queued_estimate", None)
            if estimate is not None:
                return estimate
            # by the class's own bases: isinstance() says yes to any scheduler with Scrapy's three methods
            if Scheduler not in type(scheduler).__mro__:
                return 0
            return len(scheduler)
        except (RuntimeError, TypeError):   # Crawler.engine before the crawl starts; a scheduler without a length
            return 0

    def sitemap_request(self, url: str, depth: int = 0) -> Request | None:
        """A sitemap may be up to 50 MB uncompressed (the protocol's limit), whatever DOWNLOAD_MAXSIZE says. None
        when requested already or past the sitemap bounds (counted as newscorpus/spider/sitemap_cut)."""
        if url in self._sitemaps:
            return None
        bounds = self.bounds
        if bounds is not None and (depth > bounds.max_sitemap_depth or len(self._sitemaps) >= bounds.max_sitemaps):
            self._sitemaps_cut += 1
            if len(self._unfollowed) < NAMED_URLS:
                self._unfollowed.append(url)
            self.crawler.stats.inc_value("newscorpus/spider/sitemap_cut")
            return None
        self._sitemaps.add(url)
        size = max(self.max_size, MAX_SITEMAP_BYTES) if self.max_size else 0
        return Request(url, callback=self.parse_sitemap, errback=self.on_error, priority=10,
                       meta={"download_maxsize": size, "download_warnsize": size, SITEMAP_DEPTH: depth})

    async def start(self):
        config = self.site_config
        for url in config.sitemap_urls:
            sitemap = self.sitemap_request(url)
            if sitemap is not None:
                yield sitemap
        for url in config.feed_urls:
            yield Request(url, callback=self.parse_feed, errback=self.on_error, priority=10)
        for url in config.start_urls:
            request = self.page_request(url, priority=5)
            if request is not None:
                yield request

    # --- responses -----------------------------------------------------------------------------------------
    def parse_sitemap(self, response: Response):
        yield self.page_item(response, "other", outcome="sitemap")
        body = response.body
        if body[:2] == b"\x1f\x8b":
            try:
                body = gunzip(body, max_size=MAX_SITEMAP_BYTES)
            except Exception as error:  # truncated, bomb or not gzip: counted, the crawl goes on
                self.crawler.stats.inc_value("newscorpus/spider/bad_sitemap")
                logger.warning("cannot gunzip sitemap %s: %s", response.url, error)
                return
        try:
            sitemap = Sitemap(body)
        except Exception as error:
            self.crawler.stats.inc_value("newscorpus/spider/bad_sitemap")
            logger.warning("cannot parse sitemap %s: %s", response.url, error)
            return
        for entry in sitemap:
            loc = (entry.get("loc") or "").strip()
            if not loc:
                continue
            if sitemap.type == "sitemapindex":
                request = self.sitemap_request(response.urljoin(loc), response.meta.get(SITEMAP_DEPTH, 0) + 1)
                if request is not None:
                    yield request
            else:
                request = self.page_request(response.urljoin(loc))
                if request is not None:
                    yield request

    def parse_feed(self, response: Response):
        yield self.page_item(response, "other", outcome="feed")
        try:
            root = etree.fromstring(response.body, parser=FEED_PARSER)
        except etree.XMLSyntaxError:
            root = None
        if root is None:
            self.crawler.stats.inc_value("newscorpus/spider/bad_feed")
            logger.warning("cannot parse feed %s", response.url)
            return
        for link in FEED_LINKS(root):
            request = self.page_request(response.urljoin(str(link).strip()))
            if request is not None:
                yield request

    def page_item(self, response: Response, url_kind: str, outcome: str | None = None) -> PageItem:
        redirects = response.meta.get("redirect_urls") or [response.url]
        return PageItem(
            url=redirects[0], final_url=response.url, site=self.site_config.name, status=response.status,
            fetched_at=datetime.now(UTC),
            content_type=response.headers.get(b"Content-Type", b"").decode("latin-1") or None,
            raw_body=response.body, url_kind=url_kind, depth=response.meta.get("depth", 0), outcome=outcome,
        )

    def parse_page(self, response: Response):
        url_kind = response.meta.get("url_kind", LISTING)
        item = self.page_item(response, url_kind)
        html = is_html(response)
        if response.status >= 400:
            item.outcome, item.outcome_detail = "http_error", f"HTTP {response.status}"
        elif not html:
            item.outcome = "not_html"
        elif url_kind == LISTING:
            item.outcome = "listing"
        yield item
        if html and response.status < 400 and self.site_config.follow_links:
            if response.meta.get("depth", 0) >= self.max_depth:
                self.count_beyond_depth(response)
                return
            for url in self.page_links.urls(response):
                request = self.page_request(url)
                if request is not None:
                    yield request

    def count_beyond_depth(self, response: Response) -> None:
        """The pages a page at the depth limit links to and the crawl has not fetched (counted once each)."""
        for url in self.page_links.urls(response):
            found = self.candidate(url)
            if found is not None and found[0] not in self._beyond_depth:
                self._beyond_depth.add(found[0])
                self.crawler.stats.inc_value("newscorpus/spider/depth_cut")

    def closed(self, reason: str) -> None:
        """Say when a limit, not the site, ended the crawl: the numbers, and the setting to change."""
        if self._beyond_depth:
            logger.warning("the depth limit cut the crawl: %d page(s) linked from pages %d link(s) deep were not "
                           "fetched (raise max_depth in the site config, or -s NEWSCORPUS_MAX_DEPTH=N)",
                           len(self._beyond_depth), self.max_depth)
        if self._over_budget:
            logger.warning("the page budget cut the crawl: %d page(s) found after the first %d were not fetched "
                           "(raise max_pages in the site config, or -s NEWSCORPUS_MAX_PAGES=N)",
                           len(self._over_budget), self.max_pages)
        if self._over_frontier:
            logger.warning("the queue bound cut the crawl: %d page(s) found while %d requests were queued were not "
                           "fetched (raise -s NEWSCORPUS_CRAWL_BOUNDS_MAX_QUEUED=N)",
                           len(self._over_frontier), self.bounds.max_queued)
        if self._sitemaps_cut:
            logger.warning("the sitemap bounds cut the crawl of %s: %d sitemap(s) not followed, first %s (past %d "
                           "index hop(s) or %d sitemaps; raise -s NEWSCORPUS_CRAWL_BOUNDS_MAX_SITEMAP_DEPTH=N or "
                           "NEWSCORPUS_CRAWL_BOUNDS_MAX_SITEMAPS=N)", self.site_config.name, self._sitemaps_cut,
                           ", ".join(self._unfollowed), self.bounds.max_sitemap_depth,
                           self.bounds.max_sitemaps)

    def too_large(self, failure) -> bool:
        request = failure.request
        if type(failure.value) is IgnoreRequest:
            # A compressed body over DOWNLOAD_MAXSIZE once decompressed (a gzip/deflate bomb): Scrapy's
            # HttpCompressionMiddleware stops decompressing at the limit and raises IgnoreRequest.
            return "DOWNLOAD_MAXSIZE" in str(failure.value).rsplit("exceeded", 1)[-1]
        if not failure.check(DownloadCancelledError):
            return False
        # Announced as larger than the limit (a message says so), or streamed past it (a bare cancel).
        limit = request.meta.get("download_maxsize", self.max_size)
        return "max size" in str(failure.value) or bool(limit and request.meta.get(BYTES_RECEIVED, 0) > limit)

    def on_error(self, failure):
        request = failure.request
        too_large = self.too_large(failure)
        # An endless redirect chain, cut by RedirectMiddleware at REDIRECT_MAX_TIMES, or a chain that comes back
        # to one of its URLs (newscorpus.crawler.middlewares.redirect_loop.RedirectLoopMiddleware): a fetch error.
        redirect_loop = failure.check(RedirectLoop) or (
            type(failure.value) is IgnoreRequest and str(failure.value) == "max redirections reached")
        if failure.check(IgnoreRequest) and not (too_large or redirect_loop):  # robots.txt, offsite
            self.crawler.stats.inc_value("newscorpus/spider/ignored")
            return
        outcome = "too_large" if too_large else "fetch_error"
        first_url = (request.meta.get("redirect_urls") or [request.url])[0]
        yield PageItem(
            url=first_url, final_url=request.url, site=self.site_config.name, status=None,
            fetched_at=datetime.now(UTC), content_type=None, raw_body=b"",
            url_kind=request.meta.get("url_kind", "other"), depth=request.meta.get("depth", 0),
            outcome=outcome, outcome_detail=f"{failure.type.__name__}: {failure.value}"[:500],
        )
