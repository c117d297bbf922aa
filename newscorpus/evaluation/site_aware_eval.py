"""Evaluate the site-aware cascade per site: cascade vs the generic extractor vs anchor tools, a
leave-one-out variant, speed cold and with templates warm, the template-repair experiment, the held-out
(leave-one-site-out) choice of its thresholds and its time cap on generated huge pages.

Speeds are CPU seconds of this process (time.process_time): extraction is single-threaded CPU work on a
shared machine, where wall time depends on the neighbours' load more than on the extractor.
"""

from __future__ import annotations

import platform
import re
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import product

from lxml import etree

from newscorpus.core.site_aware.cascade import SiteAwareConfig, SiteAwareExtractor
from newscorpus.core.site_aware.parsed_page import parse_page
from newscorpus.core.site_aware.templates import BODY
from newscorpus.evaluation.anchors import Extractor, anchor_body
from newscorpus.evaluation.extraction_eval import PageItem
from newscorpus.evaluation.extraction_scoring import bag_of_tokens

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
    from newscorpus.core.extraction import extract

    start = time.process_time()
    bodies = [extract(p.html, p.item.url).body for p in pages]
    return bodies, time.process_time() - start


def cascade_in_order(pages: list[Page], extractor: SiteAwareExtractor) -> tuple[list[str], list[str], float]:
    start = time.process_time()
    results = [extractor.extract(p.html, p.item.url) for p in pages]
    return [r.body for r in results], [r.method or "-" for r in results], time.process_time() - start


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
    sites: dict[str, list[Page]], anchors: dict[str, Extractor]
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
            start = time.process_time()
            outputs = []
            for page in pages:
                try:
                    outputs.append(anchor_body(anchor(page.html, page.item.url, page.item.lang)))
                except Exception:  # noqa: BLE001 - an anchor failing on a page scores 0 there
                    outputs.append("")
            seconds[name] += time.process_time() - start
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
    """Pages/s on pages whose site has a template after one pass: generic vs cascade with templates warm
    (the two interleaved, best of `rounds`: the machine's load changes less between neighbouring runs)."""
    extractor = SiteAwareExtractor()
    for pages in sites.values():
        cascade_in_order(pages, extractor)
    warm = [p for pages in sites.values() for p in pages if extractor.matching_template(p.item.url) is not None]
    if not warm:
        return {}
    generic_seconds = cascade_seconds = float("inf")
    for _ in range(rounds):
        generic_seconds = min(generic_seconds, generic_bodies(warm)[1])
        cascade_seconds = min(cascade_seconds, cascade_in_order(warm, extractor)[2])
    return {"pages": len(warm), "generic": len(warm) / generic_seconds, "cascade_warm": len(warm) / cascade_seconds}


def cold_speed(sites: dict[str, list[Page]], rounds: int = 3) -> dict[str, float]:
    """Pages/s on every page, the cascade starting each site with no state (no template, no cluster)."""
    pages = sum(len(site_pages) for site_pages in sites.values())
    generic_seconds = cascade_seconds = float("inf")
    for _ in range(rounds):
        generic_seconds = min(generic_seconds, sum(generic_bodies(p)[1] for p in sites.values()))
        cold = sum(cascade_in_order(p, SiteAwareExtractor())[2] for p in sites.values())
        cascade_seconds = min(cascade_seconds, cold)
    return {"pages": pages, "generic": pages / generic_seconds, "cascade_cold": pages / cascade_seconds}


def speed_lines(sites: dict[str, list[Page]], rounds: int = 5) -> list[str]:
    """Cold and warm pages/s, generic vs cascade, best of `rounds` (`newscorpus eval site-aware --speed`)."""
    import os

    lines = [f"# speed: load average {os.getloadavg()[0]:.1f} before"]
    cold, warm = cold_speed(sites, rounds), warm_speed(sites, rounds)
    lines.append(f"# cold ({cold['pages']} pages, best of {rounds}): generic {cold['generic']:.1f} pages/s, cascade "
                 f"{cold['cascade_cold']:.1f} ({cold['cascade_cold'] / cold['generic']:.2f} x generic)")
    if warm:
        lines.append(f"# warm ({warm['pages']} template pages, best of {rounds}): generic {warm['generic']:.1f} "
                     f"pages/s, cascade {warm['cascade_warm']:.1f} ({warm['cascade_warm'] / warm['generic']:.2f} x "
                     "generic)")
    else:
        lines.append("# warm: no site has a template after one pass")
    lines.append(f"# speed: load average {os.getloadavg()[0]:.1f} after")
    return lines


def relayout(html: bytes, xpath: str) -> bytes | None:
    """Rename the body container's class and nest it one level deeper (a new wrapper in its place)."""
    from newscorpus.core.decoding import decode_html
    from newscorpus.core.extraction.parse import parse_html

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
    rows = []
    for site, pages in sites.items():
        if len(pages) >= min_pages:
            row = _repair_site(site, pages)
            if row is not None:
                rows.append(row)
    return rows


def _repair_site(site: str, pages: list[Page]) -> RepairRow | None:
    """The repair experiment on one site; None when no template was induced or no page could be relaid."""
    from newscorpus.core.extraction import extract
    from newscorpus.core.site_aware.cascade import SiteAwareExtractor as Cascade

    half = len(pages) // 2
    extractor = Cascade()
    for page in pages[:half]:
        extractor.extract(page.html, page.item.url)
    changed_pages = pages[half:]
    template = next((extractor.matching_template(p.item.url) for p in changed_pages), None)
    if template is None:
        return None
    xpath = template.fields[BODY].xpaths[0]
    before_state = template.to_json()
    original = [extractor.extract(p.html, p.item.url).body for p in changed_pages]
    relaid = [relayout(p.html, xpath) for p in changed_pages]
    kept = [(p, r, o) for p, r, o in zip(changed_pages, relaid, original, strict=True) if r is not None]
    if not kept:
        return None
    no_repair = _static_template_bodies(before_state, [html for _, html, _ in kept])
    repairs_before = template.repairs
    results = [extractor.extract(html, page.item.url) for page, html, _ in kept]
    stale = sum(1 for _, html, _ in kept if _page_index(html)[0].xpath(xpath))
    kept_golds = [page.gold for page, _, _ in kept]
    return RepairRow(
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


def _static_template_bodies(template_state: str, pages: list[bytes]) -> list[str]:
    """The no-repair baseline: the bodies a fresh copy of the template as it was before the changed pages reads
    through its XPath queue alone (what a static template gives)."""
    from newscorpus.core.site_aware import templates as templates_module

    static = templates_module.SiteTemplate.from_json(template_state)
    bodies = []
    for html in pages:
        root, blocks = _page_index(html)
        index = templates_module.PageIndex(root, blocks)
        body = ""
        for candidate in static.fields[BODY].xpaths:
            found = templates_module.field_value(index, BODY, root.xpath(candidate))
            if found:
                body = found[0]
                break
        bodies.append(body)
    return bodies


def _page_index(html: bytes):
    from newscorpus.core.decoding import decode_html
    from newscorpus.core.extraction.block_tree import build_blocks
    from newscorpus.core.extraction.cleaning import clean_tree
    from newscorpus.core.extraction.parse import parse_html

    root = parse_html(decode_html(html).text)
    clean_tree(root)
    return root, build_blocks(root)


# Held-out check of the thresholds (they were set on these pages). The thresholds the cascade's F1
# depends on, at the value set and around it; the default configuration is first. Not varied: induce_k and
# induce_min_confidence (templates read what the generic method reads from their node, so they move which
# method reads a page more than F1) and the repair thresholds (the repair experiment covers them).
THRESHOLD_GRID: dict[str, tuple] = {
    "cluster_threshold": (0.4, 0.3, 0.5, 0.6),  # clustering.py (swept 0.3-0.6 on these pages)
    "same_region_share": (0.5, 0.3, 0.7),  # cascade.py (also sibling_region.py's inside share)
    "min_elsewhere_chars": (500, 250, 1000),  # cascade.py (also sibling_region.py's node elsewhere)
    "keep_paragraph_chars": (80, 40, 160),  # dom_diff.py
    "template_text_share": (0.5, 0.3, 0.7),  # cascade.py
    "url_threshold": (0.5, 0.3, 0.7),  # url_similarity.py
}


def grid_configs(grid: dict[str, tuple] = THRESHOLD_GRID) -> list[SiteAwareConfig]:
    """Every combination of the grid's values; the first is the default configuration."""
    names = list(grid)
    return [SiteAwareConfig(**dict(zip(names, values, strict=True))) for values in product(*grid.values())]


def grid_scores(sites: dict[str, list[Page]], configs: list[SiteAwareConfig]) -> dict[str, list[float]]:
    """Per site, the cascade's macro F1 (pages fed in order, a fresh state) under each configuration. Pages
    are parsed once and reused (a ParsedPage holds nothing that depends on the configuration)."""
    scores: dict[str, list[float]] = {}
    for site, pages in sites.items():
        parsed = [parse_page(p.html, p.item.url) for p in pages]
        scores[site] = []
        for config in configs:
            extractor = SiteAwareExtractor(config)
            bodies = [extractor.extract(p.html, p.item.url, parsed=q).body for p, q in zip(pages, parsed, strict=True)]
            scores[site].append(_mean([bag_of_tokens(b, p.gold).f1 for b, p in zip(bodies, pages, strict=True)]))
    return scores


@dataclass
class HeldOutRow:
    site: str
    generic: float
    in_sample: float  # the default configuration (set on all the sites, this one included)
    held_out: float  # the configuration best on the other sites
    chosen: int  # its index in the grid


def leave_one_site_out(scores: dict[str, list[float]], generic: dict[str, float]) -> list[HeldOutRow]:
    """For each site: the configuration with the best mean F1 over the *other* sites (ties: the earliest in
    the grid, i.e. the default when it ties), scored on the site."""
    rows = []
    count = len(next(iter(scores.values())))
    for site in scores:
        others = [s for s in scores if s != site]
        means = [_mean([scores[s][c] for s in others]) for c in range(count)]
        best = max(range(count), key=lambda c: (round(means[c], 9), -c))
        rows.append(HeldOutRow(site, generic[site], scores[site][0], scores[site][best], best))
    return rows


def held_out_lines(sites: dict[str, list[Page]], grid: dict[str, tuple] = THRESHOLD_GRID) -> list[str]:
    """The held-out protocol and the spread of F1 over the grid, as markdown lines."""
    configs = grid_configs(grid)
    start = time.perf_counter()
    scores = grid_scores(sites, configs)
    seconds = time.perf_counter() - start
    generic = _generic_f1(sites)
    rows = leave_one_site_out(scores, generic)
    sizes = " x ".join(f"{name} {len(values)}" for name, values in grid.items())
    return [
        f"# {len(configs)} configurations ({sizes}), {seconds:.0f} s",
        *_held_out_table(rows, configs, grid),
        *_grid_spread_lines(scores, generic, configs, grid),
    ]


def _generic_f1(sites: dict[str, list[Page]]) -> dict[str, float]:
    """Per site, the generic extractor's macro F1."""
    generic = {}
    for site, pages in sites.items():
        bodies = generic_bodies(pages)[0]
        generic[site] = _mean([bag_of_tokens(body, page.gold).f1 for body, page in zip(bodies, pages, strict=True)])
    return generic


def _changed_thresholds(config: SiteAwareConfig, default: SiteAwareConfig, grid: dict[str, tuple]) -> str:
    """The grid's thresholds where ``config`` differs from the default, as "name value, ..."."""
    return ", ".join(f"{n} {getattr(config, n)}" for n in grid if getattr(config, n) != getattr(default, n))


def _held_out_table(rows: list[HeldOutRow], configs: list[SiteAwareConfig], grid: dict[str, tuple]) -> list[str]:
    """Per site: generic, the cascade as set and with the thresholds fitted on the other sites; their means."""
    lines = [
        "| site | generic | cascade, thresholds as set | cascade, thresholds fitted on the other sites | fitted |",
        "|---|---:|---:|---:|---|",
    ]
    for row in rows:
        changed = _changed_thresholds(configs[row.chosen], configs[0], grid)
        scores_cells = f"{row.generic:.3f} | {row.in_sample:.3f} | {row.held_out:.3f}"
        lines.append(f"| {row.site} | {scores_cells} | {changed or 'as set'} |")
    means = [_mean([getattr(row, name) for row in rows]) for name in ("generic", "in_sample", "held_out")]
    lines.append(f"| mean over sites | {means[0]:.3f} | {means[1]:.3f} | {means[2]:.3f} | |")
    below = [row.site for row in rows if row.held_out < row.generic - 1e-9]
    lines.append(f"# sites where the held-out cascade is below generic: {below or 'none'}")
    return lines


def _grid_spread_lines(scores: dict[str, list[float]], generic: dict[str, float], configs: list[SiteAwareConfig],
                       grid: dict[str, tuple]) -> list[str]:
    """The mean F1 over sites across the grid, the largest loss against generic, and each threshold's marginals."""
    per_config = [_mean([scores[site][c] for site in scores]) for c in range(len(configs))]
    ordered = sorted(per_config)
    at_or_above = sum(all(scores[site][c] >= generic[site] - 1e-9 for site in scores) for c in range(len(configs)))
    lines = [
        f"# mean over sites across the grid: min {ordered[0]:.4f}, median {ordered[len(ordered) // 2]:.4f}, "
        f"max {ordered[-1]:.4f} (as set {per_config[0]:.4f}); at or above generic on every site: "
        f"{at_or_above} of {len(configs)} configurations"
    ]
    losses = [(scores[site][c] - generic[site], site, c) for site in scores for c in range(len(configs))]
    loss, site, worst = min(losses)
    if loss < -1e-9:
        changed = _changed_thresholds(configs[worst], configs[0], grid)
        lines.append(f"# largest loss against generic on one site over the grid: {site} {loss:+.3f} ({changed})")
    for name, values in grid.items():
        marginal = []
        for value in values:
            picked = [c for c, config in enumerate(configs) if getattr(config, name) == value]
            marginal.append(f"{value}: {_mean([per_config[c] for c in picked]):.4f}")
        lines.append(f"# {name}, mean over the configurations with each value: {', '.join(marginal)}")
    return lines


def generated_page(items: int, variant: int) -> str:
    """A page of `items` teasers (5 elements each) whose headlines and summaries repeat on every variant and
    whose dates differ: the worst case for the site-aware steps (the generic region repeats the site's lines,
    so the page is diffed; every teaser differs, so ISTM and DeleteSame descend into all of them)."""
    rows = "".join(
        f'<div class="item"><h3><a href="/n/{i}">Headline {i} of the section</a></h3><p>Summary {i}, a sentence '
        f'of teaser text, with commas.</p><span class="meta">May {variant}, {i}</span></div>'
        for i in range(items)
    )
    return (
        f'<html><head><title>Story {variant}</title></head><body><div class="nav"><a href="/">Home</a></div>'
        f'<div class="main"><h1>Story {variant}</h1><div class="article-body">{rows}</div></div>'
        f'<div class="footer"><p>Copyright</p></div></body></html>'
    )


# Teasers per generated page of the time-cap table (`--time-cap`): 2.5k to 50k elements, around the element
# cap (page_budget.MAX_ELEMENTS = 10,000).
TIME_CAP_SIZES = (500, 1000, 1900, 4000, 10_000)


def time_cap_lines(sizes: tuple[int, ...] = TIME_CAP_SIZES, rounds: int = 3) -> list[str]:
    """Seconds per generated page (`items` teasers of 5 elements): generic; the cascade with a cluster of 3
    references and no element cap (the site-aware steps' worst case); the cascade as set (templates off, so the
    pages under the element cap take the cluster path). Best of `rounds`."""
    from newscorpus.core.extraction import extract
    from newscorpus.core.site_aware.page_budget import element_count

    uncapped_config = SiteAwareConfig(max_elements=10**9, time_share=1.0, use_templates=False)
    lines = [
        "| elements | generic s | cascade, 3 references, no cap s | site-aware extra s | cascade, as set s | method |",
        "|---:|---:|---:|---:|---:|---|",
    ]
    for items in sizes:
        pages = [generated_page(items, variant) for variant in range(5)]
        urls = [f"https://generated.example/a/{variant}.html" for variant in range(5)]
        best = {"generic": 1e9, "uncapped": 1e9, "capped": 1e9}
        method = "-"
        for _ in range(rounds):
            extractors = {
                "uncapped": SiteAwareExtractor(uncapped_config),
                "capped": SiteAwareExtractor(SiteAwareConfig(use_templates=False)),
            }
            for extractor in extractors.values():
                for variant in range(3):
                    extractor.extract(pages[variant], urls[variant], max_seconds=1e6)
            for name in best:
                started = time.process_time()
                if name == "generic":
                    extract(pages[4], urls[4], max_seconds=1e6)
                elif name == "uncapped":
                    extractors[name].extract(pages[4], urls[4], max_seconds=1e6)
                else:
                    result = extractors[name].extract(pages[4], urls[4])
                    method = result.method or result.reason or "-"
                best[name] = min(best[name], time.process_time() - started)
        elements = element_count(parse_page(pages[4], urls[4]).root)
        extra = best["uncapped"] - best["generic"]
        lines.append(f"| {elements} | {best['generic']:.2f} | {best['uncapped']:.2f} | {extra:.2f} | "
                     f"{best['capped']:.2f} | {method} |")
    return lines


def report(sites: dict[str, list[Page]], anchors: dict[str, Extractor],
           data_dirs: list[str], *, speed_rounds: int | None = None, held_out: bool = False, time_cap: bool = False,
           repair: bool = False) -> Iterator[str]:
    """The lines of `newscorpus eval site-aware`, each given as soon as it is known: the per-site F1 table of
    generic, cascade, cascade_loo and the anchors, the speeds, then the sections asked for."""
    yield f"# {time.strftime('%Y-%m-%d %H:%M:%S')} on {platform.node()} ({platform.machine()}, {platform.processor()})"
    yield f"# {sum(len(p) for p in sites.values())} pages on {len(sites)} sites from {', '.join(data_dirs)}"
    rows, seconds = evaluate_sites(sites, anchors)
    systems = ["generic", "cascade", "cascade_loo", *anchors]
    yield from _f1_table(rows, systems)
    pages = sum(r.pages for r in rows)
    yield "# pages/s (whole run, cold state): " + ", ".join(f"{k} {pages / v:.1f}" for k, v in seconds.items() if v)
    speed = warm_speed(sites)
    if speed:
        yield (f"# pages/s with templates warm ({speed['pages']} pages of sites with a template, best of 3): "
               f"generic {speed['generic']:.1f}, cascade {speed['cascade_warm']:.1f}")
    yield from _sections(sites, speed_rounds=speed_rounds, held_out=held_out, time_cap=time_cap, repair=repair)


def _f1_table(rows: list[SiteRow], systems: list[str]) -> Iterator[str]:
    """The per-site F1 of every system, its means over sites and over pages, and the sites the cascade loses."""
    yield f"| site | pages | {' | '.join(systems)} | cascade methods |"
    yield "|---|---:|" + "---:|" * len(systems) + "---|"
    for row in rows:
        methods = ", ".join(f"{m} {n}" for m, n in sorted(row.methods.items()))
        cells = " | ".join(f"{row.f1[s]:.3f}" for s in systems)
        yield f"| {row.site} | {row.pages} | {cells} | {methods} |"
    pages = sum(r.pages for r in rows)
    site_mean = " | ".join(f"{sum(r.f1[s] for r in rows) / len(rows):.3f}" for s in systems)
    page_mean = " | ".join(f"{sum(r.f1[s] * r.pages for r in rows) / pages:.3f}" for s in systems)
    yield f"| mean over sites | {pages} | {site_mean} | |"
    yield f"| mean over pages | {pages} | {page_mean} | |"
    worse = [r.site for r in rows if r.f1["cascade"] < r.f1["generic"] - 1e-9]
    yield f"# sites where the cascade (in order) is below generic: {worse or 'none'}"
    for row in rows:
        if row.articles < row.pages:
            cells = ", ".join(f"{s} {row.f1_articles[s]:.3f}" for s in systems)
            yield f"# {row.site} without its {row.pages - row.articles} 'no article' gold page(s): {cells}"


def _sections(sites: dict[str, list[Page]], *, speed_rounds: int | None, held_out: bool, time_cap: bool,
              repair: bool) -> Iterator[str]:
    """The sections asked for: speeds, held-out thresholds, the time cap, the repair experiment."""
    if speed_rounds is not None:
        yield ""
        yield from speed_lines(sites, speed_rounds)
    if held_out:
        yield "\n# held-out thresholds: each site scored with the grid combination best on the other sites"
        yield from held_out_lines(sites, THRESHOLD_GRID)
    if time_cap:
        yield "\n# time cap: CPU seconds per generated page, best of 3"
        yield from time_cap_lines(TIME_CAP_SIZES)
    if repair:
        yield from repair_lines(sites)


def repair_lines(sites: dict[str, list[Page]]) -> Iterator[str]:
    """The repair experiment as a markdown table (`--repair-experiment`)."""
    yield "\n# repair experiment: first half of each site's pages fed as is, second half relaid"
    yield ("| site | learned | changed | template XPath | stale XPath hits | repairs | repaired XPath | "
           "methods | F1 before change | F1 changed: cascade | generic | template without repair |")
    yield "|---|---:|---:|---|---:|---:|---|---|---:|---:|---:|---:|"
    for r in repair_experiment(sites):
        methods = ", ".join(f"{m} {n}" for m, n in sorted(r.methods.items()))
        yield (f"| {r.site} | {r.learned} | {r.changed} | `{r.template_xpath}` | {r.stale_xpath_hits} | {r.repairs} | "
               f"{', '.join(f'`{x}`' for x in r.repaired_xpaths) or '-'} | {methods} | {r.f1_original:.3f} | "
               f"{r.f1_changed_cascade:.3f} | {r.f1_changed_generic:.3f} | {r.f1_changed_no_repair:.3f} |")
