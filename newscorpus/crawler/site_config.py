"""Per-site crawl configuration: from ``newscorpus/crawler/sites/NAME.toml`` (or a path), or made for an ad-hoc URL."""

from __future__ import annotations

import logging
import re
import tomllib
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

from newscorpus.core.extraction.config import LANGUAGE_CODE
from newscorpus.crawler.scope import DEFAULT_PORTS, site_ports, url_port

logger = logging.getLogger(__name__)

SITE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$")
_LIST_FIELDS = {"start_urls", "sitemap_urls", "feed_urls", "allowed_domains", "article_patterns",
                "listing_patterns", "skip_patterns", "languages"}
# field -> (type, a list of it?); checked exactly (a bool is not an int here)
_FIELD_TYPES = {"name": (str, False), "max_pages": (int, False), "max_depth": (int, False),
                "follow_links": (bool, False), "allow_private_addresses": (bool, False),
                "allowed_ports": (int, True), "download_delay": (float, False),
                "concurrent_requests_per_domain": (int, False), "user_agent": (str, False),
                **{name: (str, True) for name in _LIST_FIELDS}}
_OPTIONAL = {"max_pages", "max_depth", "download_delay", "concurrent_requests_per_domain", "user_agent"}
_TYPE_NAMES = {str: ("a string", "strings"), int: ("a whole number", "whole numbers"), bool: ("true or false", ""),
               float: ("a number", "numbers")}


def _kind(value) -> str:
    """The TOML name of a value's type, for an error message."""
    kinds = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
             tuple: "a list", dict: "a table"}
    return kinds.get(type(value), type(value).__name__)


class SiteConfigError(ValueError):
    """A site config that is missing or wrong; the message names the file and the field."""


@dataclass(frozen=True)
class SiteConfig:
    name: str
    start_urls: tuple[str, ...] = ()
    sitemap_urls: tuple[str, ...] = ()
    feed_urls: tuple[str, ...] = ()
    allowed_domains: tuple[str, ...] = ()
    article_patterns: tuple[str, ...] = ()   # regexes (searched in the URL) that mark article pages
    listing_patterns: tuple[str, ...] = ()   # regexes that mark listing pages (followed, not stored as articles)
    skip_patterns: tuple[str, ...] = ()      # regexes of URLs never fetched
    max_pages: int | None = None             # stop after this many responses (CLOSESPIDER_PAGECOUNT)
    max_depth: int | None = None             # link depth from the start URLs (DEPTH_LIMIT)
    follow_links: bool = True                # follow in-domain links of fetched pages
    allow_private_addresses: bool = False    # allow hosts on loopback/private networks (test sites only)
    # ports allowed on the allowed hosts besides those of the configured URLs (http and https default ports go
    # together: a site on 443 may link to 80 and the reverse)
    allowed_ports: tuple[int, ...] = ()
    # only articles in these languages are stored (ISO 639-1, as the extraction detects them); others are counted
    # as other_language. Empty: every language (NEWSCORPUS_EXTRACTION_LANGUAGES applies).
    languages: tuple[str, ...] = ()
    # politeness for this site only, over the crawl's settings (DOWNLOAD_DELAY, CONCURRENT_REQUESTS_PER_DOMAIN,
    # USER_AGENT); a -s on the command line still wins
    download_delay: float | None = None
    concurrent_requests_per_domain: int | None = None
    user_agent: str | None = None
    # hand-written site-aware templates ([[templates]] tables: url, page_type, fields.<name>.xpaths/rules),
    # see newscorpus.core.site_aware.templates.SiteTemplate; used when NEWSCORPUS_SITE_AWARE_ENABLED is on
    templates: tuple = field(default=(), compare=False)
    source: str = "<built-in>"
    compiled: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._check_types()
        if not SITE_NAME.match(self.name):
            raise SiteConfigError(f"{self.source}: site name {self.name!r} must be 1-63 letters, digits, _ . -")
        if not (self.start_urls or self.sitemap_urls or self.feed_urls):
            raise SiteConfigError(f"{self.source}: give at least one of start_urls, sitemap_urls, feed_urls")
        for url in (*self.start_urls, *self.sitemap_urls, *self.feed_urls):
            if urlsplit(url).scheme not in ("http", "https"):
                raise SiteConfigError(f"{self.source}: {url!r} is not an http(s) URL")
        for name in ("article_patterns", "listing_patterns", "skip_patterns"):
            try:
                self.compiled[name] = tuple(re.compile(pattern) for pattern in getattr(self, name))
            except re.error as error:
                raise SiteConfigError(f"{self.source}: bad regex in {name}: {error}") from None
        for name in ("max_pages", "max_depth"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise SiteConfigError(f"{self.source}: {name} must be a whole number >= 0, not {value!r}")
        if self.download_delay is not None and self.download_delay < 0:
            raise SiteConfigError(f"{self.source}: download_delay must be >= 0, not {self.download_delay!r}")
        if self.concurrent_requests_per_domain is not None and self.concurrent_requests_per_domain < 1:
            raise SiteConfigError(f"{self.source}: concurrent_requests_per_domain must be >= 1, "
                                  f"not {self.concurrent_requests_per_domain!r}")
        for language in self.languages:
            if not LANGUAGE_CODE.match(language):
                raise SiteConfigError(f"{self.source}: languages must hold ISO 639-1 codes such as \"zh\" or "
                                      f"\"en\", not {language!r}")
        for port in self.allowed_ports:
            if not 1 <= port <= 65535:
                raise SiteConfigError(f"{self.source}: allowed_ports must hold ports 1-65535, not {port!r}")
        self.compiled["ports"] = site_ports((*self.start_urls, *self.sitemap_urls, *self.feed_urls),
                                            self.allowed_ports)
        object.__setattr__(self, "templates", tuple(self._checked_template(t) for t in self.templates))

    def _check_types(self) -> None:
        """Each field has its type: ``follow_links = "no"`` or ``max_depth = true`` is a mistake to report, not a
        value to guess from (a non-empty string is true, a boolean is the integer 1)."""
        def wrong(name: str, value) -> SiteConfigError:
            expected = f"a list of {_TYPE_NAMES[kind][1]}" if listed else _TYPE_NAMES[kind][0]
            return SiteConfigError(f"{self.source}: {name} must be {expected}, not {value!r} ({_kind(value)})")

        for name, (kind, listed) in _FIELD_TYPES.items():
            value = getattr(self, name)
            if listed:
                if not isinstance(value, tuple):
                    raise wrong(name, value)
                for element in value:
                    if type(element) is not kind:
                        raise wrong(name, element)
            elif (type(value) is not kind and not (value is None and name in _OPTIONAL)
                  and not (kind is float and type(value) is int)):   # TOML's 2 for 2.0
                raise wrong(name, value)

    def _checked_template(self, data) -> dict:
        """A hand-written template as SiteTemplate.to_dict() (site = the url's host, source = "config")."""
        from newscorpus.core.site_aware.templates import SiteTemplate
        from newscorpus.core.site_aware.url_similarity import site_of

        if not isinstance(data, dict) or urlsplit(str(data.get("url", ""))).scheme not in ("http", "https"):
            raise SiteConfigError(f"{self.source}: each of templates needs an http(s) url and fields")
        try:
            template = SiteTemplate.from_dict({**data, "site": site_of(data["url"]), "source": "config"})
        except (TypeError, ValueError, AttributeError) as error:
            raise SiteConfigError(f"{self.source}: bad template for {data['url']}: {error}") from None
        if not template.fields or not all(f.xpaths for f in template.fields.values()):
            raise SiteConfigError(f"{self.source}: template for {data['url']} needs fields with xpaths")
        return template.to_dict()

    @property
    def domains(self) -> tuple[str, ...]:
        """Allowed domains, defaulting to the hosts of the configured URLs."""
        if self.allowed_domains:
            return self.allowed_domains
        hosts = {urlsplit(url).hostname for url in (*self.start_urls, *self.sitemap_urls, *self.feed_urls)}
        return tuple(sorted(host for host in hosts if host))

    @property
    def ports(self) -> frozenset[int]:
        """Allowed ports: those of the configured URLs (80 and 443 together) and ``allowed_ports``."""
        return self.compiled["ports"]

    def crawl_settings(self) -> dict:
        """The Scrapy settings this site sets for its own crawl (its politeness fields that are set)."""
        named = {"DOWNLOAD_DELAY": self.download_delay,
                 "CONCURRENT_REQUESTS_PER_DOMAIN": self.concurrent_requests_per_domain, "USER_AGENT": self.user_agent}
        return {name: value for name, value in named.items() if value is not None}

    def patterns(self, name: str) -> tuple[re.Pattern, ...]:
        return self.compiled[name]


_KNOWN_FIELDS = {f.name for f in fields(SiteConfig)} - {"source", "compiled"}


def site_config_from_mapping(data: dict, source: str) -> SiteConfig:
    unknown = set(data) - _KNOWN_FIELDS
    if unknown:
        raise SiteConfigError(f"{source}: unknown field(s) {sorted(unknown)}; known: {sorted(_KNOWN_FIELDS)}")
    if "name" not in data:
        raise SiteConfigError(f"{source}: missing field 'name'")
    values = dict(data)
    for name in (_LIST_FIELDS | {"allowed_ports"}) & set(values):
        value = values[name]
        if isinstance(value, str) and name in _LIST_FIELDS:
            value = [value]
        values[name] = tuple(value) if isinstance(value, list) else value   # checked by SiteConfig
    return SiteConfig(**values, source=source)


def site_config_dirs(extra_dirs: list[str] | tuple[str, ...] = ()) -> list[Path]:
    packaged = Path(str(resources.files("newscorpus.crawler").joinpath("sites")))
    return [Path(d) for d in extra_dirs] + [packaged]


def load_site_config(name_or_path: str, extra_dirs: list[str] | tuple[str, ...] = ()) -> SiteConfig:
    """A site's config by name (looked up in ``extra_dirs`` then the packaged ``newscorpus/crawler/sites``) or by
    path."""
    candidates: list[Path]
    if name_or_path.endswith(".toml") or "/" in name_or_path:
        candidates = [Path(name_or_path)]
    else:
        candidates = [directory / f"{name_or_path}.toml" for directory in site_config_dirs(extra_dirs)]
    for path in candidates:
        if path.is_file():
            try:
                data = tomllib.loads(path.read_text("utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
                raise SiteConfigError(f"{path}: not valid TOML: {error}") from None
            return site_config_from_mapping(data, str(path))
    searched = ", ".join(str(path) for path in candidates)
    raise SiteConfigError(f"no site config {name_or_path!r} (looked for {searched})")


# What an ad-hoc crawl never fetches, as a site config's skip_patterns would say: comment pages and threads,
# feeds (not pages; a config names its feeds in feed_urls), the WordPress REST API, admin and login pages,
# trackbacks (a blog crawl would follow them and store comment threads and API JSON).
ADHOC_SKIP_PATTERNS = (
    r"/comment-page-\d+", r"/comments?(?:/|$)", r"[?&](?:replytocom|share)=",
    r"/feed(?:/|$)", r"/(?:rss|atom)(?:\.xml)?/?$", r"[?&](?:feed|rest_route)=",
    r"/wp-json(?:/|$)", r"/wp-admin(?:/|$)", r"/wp-login\.php", r"/xmlrpc\.php", r"/trackback/?$",
)


def adhoc_site_name(url: str) -> str:
    """The site name of an ad-hoc crawl: the host without ``www.``, and its port unless it is the scheme's
    default (two local sites on two ports are two sites)."""
    parts = urlsplit(url)
    name = parts.hostname.removeprefix("www.")
    port = url_port(url)
    if port is not None and port != DEFAULT_PORTS.get(parts.scheme):
        name = f"{name}-{port}"
    return re.sub(r"[^A-Za-z0-9_.-]", "-", name)[:63]


def adhoc_site_config(url: str) -> SiteConfig:
    """A config for ``-a url=...``: start at the URL, stay on its host and port, classify URLs by their shape."""
    host = urlsplit(url).hostname
    if urlsplit(url).scheme not in ("http", "https") or not host:
        raise SiteConfigError(f"-a url={url!r}: need an http(s) URL with a host")
    return SiteConfig(name=adhoc_site_name(url), start_urls=(url,), allowed_domains=(host,),
                      skip_patterns=ADHOC_SKIP_PATTERNS, source=f"ad-hoc {url}")


def registered_domain(host: str) -> str:
    """The domain a host is registered under (news.bbc.co.uk: bbc.co.uk), by the public suffix list the `tld`
    package ships (no network); an IP address or an unknown suffix is its own."""
    from tld import get_fld

    return get_fld(host, fix_protocol=True, fail_silently=True) or host


def adhoc_domain_config(url: str) -> SiteConfig:
    """The site of a page read from a WARC file that no site config claims: its registered domain (and port,
    unless the scheme's default), URLs classified by their shape as in an ad-hoc crawl."""
    parts = urlsplit(url)
    domain = registered_domain(parts.hostname or "")
    port = url_port(url)
    base = f"{parts.scheme}://{domain}" + (f":{port}" if port is not None and port != DEFAULT_PORTS.get(parts.scheme)
                                         else "")
    return SiteConfig(name=adhoc_site_name(base + "/"), start_urls=(base + "/",), allowed_domains=(domain,),
                      skip_patterns=ADHOC_SKIP_PATTERNS, follow_links=False, source=f"ad-hoc WARC site {domain}")


def all_site_configs(extra_dirs: list[str] | tuple[str, ...] = ()) -> list[SiteConfig]:
    """Every site config in ``extra_dirs`` and the packaged folder (a name found twice: the first); a config that
    does not load is left out with a warning."""
    configs: dict[str, SiteConfig] = {}
    for directory in site_config_dirs(extra_dirs):
        for path in sorted(directory.glob("*.toml")) if directory.is_dir() else ():
            try:
                config = load_site_config(str(path))
            except SiteConfigError as error:
                logger.warning("site config left out: %s", error)
                continue
            configs.setdefault(config.name, config)
    return list(configs.values())
