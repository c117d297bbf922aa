"""Evaluate the site-aware cascade per site: cascade vs the generic extractor vs anchor tools, a
leave-one-out variant, speed with templates warm, and the template-repair experiment (issue 5)."""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from lxml import etree

from pipelines.core.site_aware.cascade import METHOD_TEMPLATE, SiteAwareConfig, SiteAwareExtractor
from pipelines.core.site_aware.templates import BODY
from pipelines.evaluation.extraction_eval import PageItem
from pipelines.evaluation.extraction_scoring import bag_of_tokens

_NUMBERED_STEM = re.compile(r"^(?P<site>.+?)_\d+$")
# cleanportaleval marks section pages with this gold text instead of an empty one (bbc.co.uk_news_04, _05);
# any output scores ~0 there, so per-site figures are also given without them.
_NO_ARTICLE_GOLD = re.compile(r"^\s*<!--[^>]*no article[^>]*-->\s*$", re.IGNORECASE)
# Repair experiment: the new class of the body container and the wrapper it is moved into.
RENAMED_CLASS = "relaid-body-x"
WRAPPER_CLASS = "relaid-wrapper"


def site_key(item: PageItem) -> str:
    """cleanportaleval stems carry the site name (bbc.co.uk_news_04); other pages: the url's host."""
    match = _NUMBERED_STEM.match(item.stem)
    if match and "." in match.group("site"):
        return match.group("site")
    return item.site


def multi_page_sites(items: list[PageItem], min_pages: int = 2) -> dict[str, list[PageItem]]:
    """Sites with at least `min_pages` pages that have a url, pages in manifest order (the fixed feed order)."""
    sites: dict[str, list[PageItem]] = defaultdict(list)
    for item in items:
        if item.url:
            sites[site_key(item)].append(item)
    return {site: pages for site, pages in sites.items() if len(pages) >= min_pages}


@dataclass
class Page:
    item: PageItem
    html: bytes
    gold: str


def load_pages(sites: dict[str, list[PageItem]]) -> dict[str, list[Page]]:
    return {
        site: [Page(i, i.html_path.read_bytes(), i.gold_path.read_text("utf-8", errors="replace")) for i in items]
        for site, items in sites.items()
    }


@dataclass
class SiteRow:
    site: str
    pages: int
    f1: dict[str, float] = field(default_factory=dict)
    f1_articles: dict[str, float] = field(default_factory=dict)  # without "no article" gold pages
    articles: int = 0
    methods: Counter = field(default_factory=Counter)  # cascade (in order) methods


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def generic_bodies(pages: list[Page]) -> tuple[list[str], float]:
    from pipelines.core.extraction import extract

    start = time.perf_counter()
    bodies = [extract(p.html, p.item.url).body for p in pages]
    return bodies, time.perf_counter() - start


def cascade_in_order(pages: list[Page], extractor: SiteAwareExtractor) -> tuple[list[str], list[str], float]:
    start = time.perf_counter()
    results = [extractor.extract(p.html, p.item.url) for p in pages]
    return [r.body for r in results], [r.method or "-" for r in results], time.perf_counter() - start


def cascade_leave_one_out(pages: list[Page]) -> list[str]:
    """Each page extracted with the state learned from the other pages of its site (fed in order)."""
    bodies = []
    for index, page in enumerate(pages):
        extractor = SiteAwareExtractor()
        for other in pages[:index] + pages[index + 1 :]:
            extractor.extract(other.html, other.item.url)
        frozen = SiteAwareExtractor(SiteAwareConfig(learn=False))
        frozen.sites = extractor.sites
        bodies.append(frozen.extract(page.html, page.item.url).body)
    return bodies


def evaluate_sites(
    sites: dict[str, list[Page]], anchors: dict[str, Callable[[bytes, str | None, str | None], str]]
) -> tuple[list[SiteRow], dict[str, float]]:
    """Per-site macro F1 of every system; and seconds spent per system (for pages/s)."""
    rows: list[SiteRow] = []
    seconds: Counter = Counter()
    for site, pages in sites.items():
        row = SiteRow(site, len(pages))
        golds = [p.gold for p in pages]
        generic, took = generic_bodies(pages)
        seconds["generic"] += took
        cascade, methods, took = cascade_in_order(pages, SiteAwareExtractor())
        seconds["cascade"] += took
        row.methods.update(methods)
        systems = {"generic": generic, "cascade": cascade, "cascade_loo": cascade_leave_one_out(pages)}
        for name, anchor in anchors.items():
            start = time.perf_counter()
            outputs = []
            for page in pages:
                try:
                    outputs.append(anchor(page.html, page.item.url, page.item.lang) or "")
                except Exception:  # noqa: BLE001 - an anchor failing on a page scores 0 there
                    outputs.append("")
            seconds[name] += time.perf_counter() - start
            systems[name] = outputs
        is_article = [not _NO_ARTICLE_GOLD.match(gold) for gold in golds]
        row.articles = sum(is_article)
        for name, bodies in systems.items():
            scores = [bag_of_tokens(body, gold).f1 for body, gold in zip(bodies, golds, strict=True)]
            row.f1[name] = _mean(scores)
            row.f1_articles[name] = _mean([f for f, keep in zip(scores, is_article, strict=True) if keep])
        rows.append(row)
    return rows, dict(seconds)


def warm_speed(sites: dict[str, list[Page]], rounds: int = 3) -> dict[str, float]:
    """Pages/s on pages whose site has a template after one pass: generic vs cascade with templates warm."""
    extractor = SiteAwareExtractor()
    for pages in sites.values():
        cascade_in_order(pages, extractor)
    warm = [p for pages in sites.values() for p in pages if extractor.matching_template(p.item.url) is not None]
    if not warm:
        return {}
    generic_seconds = min(generic_bodies(warm)[1] for _ in range(rounds))
    cascade_seconds = min(cascade_in_order(warm, extractor)[2] for _ in range(rounds))
    return {"pages": len(warm), "generic": len(warm) / generic_seconds, "cascade_warm": len(warm) / cascade_seconds}


def relayout(html: bytes, xpath: str) -> bytes | None:
    """Rename the body container's class and nest it one level deeper (a new wrapper in its place)."""
    from pipelines.core.decoding import decode_html
    from pipelines.core.extraction.normalise import parse_html

    root = parse_html(decode_html(html).text)
    if root is None:
        return None
    found = root.xpath(xpath)
    if not found:
        return None
    container = found[0]
    parent = container.getparent()
    if parent is None:
        return None
    wrapper = etree.Element("div", {"class": WRAPPER_CLASS})
    parent.replace(container, wrapper)
    wrapper.tail, container.tail = container.tail, None
    wrapper.append(container)
    container.set("class", RENAMED_CLASS)
    return etree.tostring(root, method="html", encoding="utf-8")


@dataclass
class RepairRow:
    site: str
    learned: int  # original pages fed first
    changed: int  # relaid pages extracted
    template_xpath: str
    stale_xpath_hits: int  # changed pages where the original XPath still selects a node
    repairs: int
    repaired_xpaths: list[str]
    methods: Counter
    f1_original: float  # the changed pages before the change, cascade (template)
    f1_changed_cascade: float
    f1_changed_generic: float
    f1_changed_no_repair: float  # the template's XPath queue only, no search (what a static template gives)


def repair_experiment(sites: dict[str, list[Page]], min_pages: int = 4) -> list[RepairRow]:
    """Per site: feed the first half of the pages (template induced), relay the second half, extract them."""
    from pipelines.core.site_aware import templates as templates_module
    from pipelines.core.site_aware.cascade import SiteAwareExtractor as Cascade

    rows = []
    for site, pages in sites.items():
        if len(pages) < min_pages:
            continue
        half = len(pages) // 2
        extractor = Cascade()
        for page in pages[:half]:
            extractor.extract(page.html, page.item.url)
        changed_pages = pages[half:]
        template = next((extractor.matching_template(p.item.url) for p in changed_pages), None)
        if template is None:
            continue
        xpath = template.fields[BODY].xpaths[0]
        before_state = template.to_json()
        original = [extractor.extract(p.html, p.item.url).body for p in changed_pages]
        relaid = [relayout(p.html, xpath) for p in changed_pages]
        kept = [(p, r, o) for p, r, o in zip(changed_pages, relaid, original, strict=True) if r is not None]
        if not kept:
            continue
        # A fresh copy of the template as it was before the changed pages: no-repair baseline.
        static = templates_module.SiteTemplate.from_json(before_state)
        no_repair = []
        for _page, html, _ in kept:
            root, blocks = _page_index(html)
            index = templates_module.PageIndex(root, blocks)
            body = ""
            for candidate in static.fields[BODY].xpaths:
                found = templates_module.field_value(index, BODY, root.xpath(candidate))
                if found:
                    body = found[0]
                    break
            no_repair.append(body)
        from pipelines.core.extraction import extract

        repairs_before = template.repairs
        results = [extractor.extract(html, page.item.url) for page, html, _ in kept]
        stale = sum(1 for _, html, _ in kept if _page_index(html)[0].xpath(xpath))
        kept_golds = [page.gold for page, _, _ in kept]
        rows.append(
            RepairRow(
                site,
                half,
                len(kept),
                xpath,
                stale,
                template.repairs - repairs_before,
                template.fields[BODY].xpaths[1:],
                Counter(r.method for r in results),
                _mean([bag_of_tokens(o, g).f1 for (_, _, o), g in zip(kept, kept_golds, strict=True)]),
                _mean([bag_of_tokens(r.body, g).f1 for r, g in zip(results, kept_golds, strict=True)]),
                _mean([bag_of_tokens(extract(html, page.item.url).body, page.gold).f1 for page, html, _ in kept]),
                _mean([bag_of_tokens(b, g).f1 for b, g in zip(no_repair, kept_golds, strict=True)]),
            )
        )
    return rows


def _page_index(html: bytes):
    from pipelines.core.decoding import decode_html
    from pipelines.core.extraction.normalise import build_blocks, clean_tree, parse_html

    root = parse_html(decode_html(html).text)
    clean_tree(root)
    return root, build_blocks(root)


def template_share(rows: list[SiteRow]) -> float:
    total = sum(sum(r.methods.values()) for r in rows)
    return sum(r.methods[METHOD_TEMPLATE] for r in rows) / total if total else 0.0
