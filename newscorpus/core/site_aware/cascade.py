"""The site-aware cascade: matching template -> cluster difference (when a sibling exists) -> a confident
sibling page's body node (sibling_region.py, before the site has a template) -> generic extraction, with
in-memory state per site (templates, a few reference skeletons per cluster, and the observations templates
are induced from). `SiteAwareExtractor.extract` never raises, and keeps to the
per-page time cap: pages over the element cap, or whose site-aware steps run out of their share of the
cap, are finished by the generic method (page_budget.py), the method recorded saying so.
"""

from __future__ import annotations

import copy
import logging
from collections import deque
from dataclasses import dataclass, field

from newscorpus.core.extraction import (
    MIN_BODY_CHARS,
    Extraction,
    body_chars,
    confidence,
    extract,
    no_body_reason,
    page_lines,
    region,
)
from newscorpus.core.extraction.block_tree import Block, build_blocks
from newscorpus.core.extraction.line_kinds import line_kinds, prose_language
from newscorpus.core.extraction.metadata import byline_metadata
from newscorpus.core.extraction.page_kind import is_listing
from newscorpus.core.site_aware import dom_diff, page_budget
from newscorpus.core.site_aware import templates as templates_module
from newscorpus.core.site_aware.clustering import CLUSTER_THRESHOLD, nearest_cluster
from newscorpus.core.site_aware.page_budget import OutOfTime, PageClock, element_count
from newscorpus.core.site_aware.parsed_page import ParsedPage, parse_page
from newscorpus.core.site_aware.sibling_region import ELSEWHERE, sibling_region
from newscorpus.core.site_aware.site_titles import SiteTitles, agrees
from newscorpus.core.site_aware.skeleton import Skeleton, build_skeleton, content_root
from newscorpus.core.site_aware.templates import BODY, Observation, SiteTemplate, TemplateResult
from newscorpus.core.site_aware.tree_similarity import istm, relaxed_istm
from newscorpus.core.site_aware.url_similarity import MATCH_THRESHOLD, similarity, site_of
from newscorpus.core.text import tokenize

log = logging.getLogger(__name__)

METHOD_TEMPLATE = "template"
METHOD_CLUSTER_DIFF = "cluster_diff"
METHOD_SIBLING_REGION = "sibling_region"  # the body node of the site's last confident page (sibling_region.py)
METHOD_GENERIC = "default"  # the generic extractor's default method (newscorpus.core.extraction)
# The generic method's result, the site-aware steps skipped: the page has more than max_elements elements ...
METHOD_LARGE_PAGE = "default_large_page"
# ... or they ran out of their share of the page's time cap.
METHOD_OUT_OF_TIME = "default_out_of_time"
DEFAULT_MAX_SECONDS = 5.0  # as the generic extractor's max_seconds (crawl: NEWSCORPUS_EXTRACTION_MAX_SECONDS)
# Share of the diff region's lines found in the generic region above which both are "the same region".
SAME_REGION_SHARE = 0.5
# A diff region elsewhere than the generic one is taken when it is at least this long (or as long as the
# generic one): half of FULL_BODY_CHARS (a full story). On the dev sets the article nbcnews.com's diff recovers
# has 5,356 characters, the teasers on bbc.co.uk section pages 126 and 139.
MIN_ELSEWHERE_CHARS = 500
# A page is diffed only when the difference can change its result: when at least this share of its generic
# region's lines appeared on the site's last RECENT_PAGES pages (the region may be template text, the case
# the difference is for); otherwise DeleteSame removes little of the region and the generic result stands.
# Half, as SAME_REGION_SHARE. Pages are skeletonised while the site has no cluster with all its references
# (they may become references), then only when they are diffed.
TEMPLATE_TEXT_SHARE = 0.5
RECENT_PAGES = 3  # as many as the references of a cluster
# A template keeps being checked against the page's own evidence: every BODY_CHECK_EVERY-th page it reads is
# also read by the generic method, and the two bodies must share BODY_AGREEMENT of their text (half, as
# SAME_REGION_SHARE); 5 bounds the extra work at a fifth of the template pages' generic region scoring. A field
# that disagrees on FIELD_MAX_MISSES checks in a row is dropped (the body: the whole template), and the page
# that disagrees gets the generic result.
BODY_CHECK_EVERY = 5
BODY_AGREEMENT = 0.5
FIELD_MAX_MISSES = 2


@dataclass(frozen=True)
class SiteAwareConfig:
    """The cascade's parameters; the crawl reads each from NEWSCORPUS_SITE_AWARE_<FIELD>
    (newscorpus.crawler.stage_settings). On by default in the crawl: at or above the generic extractor on every
    multi-page dev site, with its thresholds as set and fitted leave-one-site-out (`newscorpus eval site-aware
    --held-out`)."""

    url_threshold: float = MATCH_THRESHOLD  # paper 001's t (url_similarity.py)
    cluster_threshold: float = CLUSTER_THRESHOLD  # clustering.py
    strict_istm: bool = False  # definition 8's child-count clause (tree_similarity.py says why it is off)
    induce_k: int = templates_module.INDUCE_K
    induce_min_confidence: float = templates_module.INDUCE_MIN_CONFIDENCE
    same_region_share: float = SAME_REGION_SHARE
    min_elsewhere_chars: int = MIN_ELSEWHERE_CHARS
    diff_shift: int = dom_diff.SHIFT
    keep_paragraph_chars: int = dom_diff.KEEP_PARAGRAPH_CHARS
    # Reference skeletons kept per cluster (the issue: "a few"); 3 bounds ISTM work per page at 3 x clusters.
    references_per_cluster: int = 3
    max_clusters_per_site: int = 8
    max_observations: int = 50  # per site, most recent kept
    template_text_share: float = TEMPLATE_TEXT_SHARE
    recent_pages: int = RECENT_PAGES
    max_elements: int = page_budget.MAX_ELEMENTS
    time_share: float = page_budget.TIME_SHARE
    use_templates: bool = True
    use_cluster_diff: bool = True
    # The last confident page's body node read before the site has a template (sibling_region.py); its
    # guards reuse same_region_share (the node holds at least that share of a generic region around it)
    # and min_elsewhere_chars (a node elsewhere is that long), so the held-out grid varies them too.
    use_sibling_region: bool = True
    body_check_every: int = BODY_CHECK_EVERY
    body_agreement: float = BODY_AGREEMENT
    field_max_misses: int = FIELD_MAX_MISSES
    learn: bool = True  # False: read the state, change nothing (except repairs) - leave-one-out scoring


@dataclass
class SiteState:
    templates: list[SiteTemplate] = field(default_factory=list)
    clusters: list[list[Skeleton]] = field(default_factory=list)
    observations: list[Observation] = field(default_factory=list)
    recent_lines: deque[frozenset[int]] = field(default_factory=deque)  # in-process hashes, newest last
    titles: SiteTitles = field(default_factory=SiteTitles)  # the site's title affix and its own texts
    dropped: list[SiteTemplate] = field(default_factory=list)  # templates that stopped agreeing (store deletes)


@dataclass
class CascadeCounts:
    template: int = 0
    cluster_diff: int = 0
    sibling_region: int = 0
    generic: int = 0
    large_page: int = 0  # site-aware steps skipped: over the element cap
    out_of_time: int = 0  # site-aware steps stopped: past their share of the time cap
    repairs: int = 0
    induced: int = 0
    dropped: int = 0  # templates or template fields dropped for disagreeing with the page's own evidence


class SiteAwareExtractor:
    def __init__(self, config: SiteAwareConfig | None = None, templates: list[SiteTemplate] | None = None) -> None:
        self.config = config or SiteAwareConfig()
        self.sites: dict[str, SiteState] = {}
        self.counts = CascadeCounts()
        for template in templates or []:
            self.state(template.site).templates.append(template)

    def state(self, site: str) -> SiteState:
        return self.sites.setdefault(site, SiteState())

    def templates(self) -> list[SiteTemplate]:
        return [t for state in self.sites.values() for t in state.templates]

    def matching_template(self, url: str | None) -> SiteTemplate | None:
        site = site_of(url)
        state = self.sites.get(site)
        if not state or not state.templates:
            return None
        scored = [(similarity(url, t.url), t) for t in state.templates]
        score, best = max(scored, key=lambda pair: pair[0])
        return best if score > self.config.url_threshold else None

    def extract(
        self,
        html: bytes | str,
        url: str | None = None,
        content_type: str | None = None,
        max_seconds: float = DEFAULT_MAX_SECONDS,
        parsed: ParsedPage | None = None,
    ) -> Extraction:
        """Extract one page with the site's state, learning from it. Never raises; keeps to `max_seconds`
        as the generic extractor does (a `timeout` failure past it). `parsed`: the page from `parse_page`."""
        clock = PageClock(max_seconds, self.config.time_share)
        try:
            result = self._extract(parsed or parse_page(html, url, content_type), clock)
        except Exception:  # noqa: BLE001 - the contract is "never raises"; fall back to the generic extractor
            log.exception("site-aware extraction failed for %s", url)
            result = None
        if result is not None:
            return result
        return extract(html, url, content_type=content_type, max_seconds=clock.remaining())

    def _extract(self, page: ParsedPage | None, clock: PageClock) -> Extraction | None:
        if page is None:
            return None  # the generic extractor names the failure (empty, not_html, too_large)
        if clock.page_over():
            return Extraction.failure("timeout", page.encoding, METHOD_GENERIC)
        if element_count(page.root) > self.config.max_elements:
            self.counts.large_page += 1
            log.info("site-aware steps skipped for %s: over %d elements", page.url, self.config.max_elements)
            return self._generic(page, METHOD_LARGE_PAGE, clock)
        try:
            return self._site_aware(page, clock)
        except OutOfTime:
            self.counts.out_of_time += 1
            log.info("site-aware steps stopped for %s: past their share of the time cap", page.url)
            return self._generic(page, METHOD_OUT_OF_TIME, clock)

    def _site_aware(self, page: ParsedPage, clock: PageClock) -> Extraction:
        clock.check()
        state = self.state(site_of(page.url))
        if self.config.learn:
            state.titles.learn(page.head.titles, [page.head.title or "", *headings(page)])
        template = self.matching_template(page.url) if self.config.use_templates else None
        if template is not None:
            applied = templates_module.apply(template, page.index())
            self.counts.repairs += len(applied.repairs)
            if BODY in applied.values and self._body_agrees(template, page, applied, state):
                template.hits += 1
                self.counts.template += 1
                return self._result(applied.values[BODY], page, applied, METHOD_TEMPLATE, template)
            clock.check()
        choice = page.choice()
        recent = self._remember_lines(page, state)
        diff = self._region_repeats(choice.lines, recent)
        collecting = not any(len(members) >= self.config.references_per_cluster for members in state.clusters)
        if self.config.use_cluster_diff and (diff or collecting):
            body = self._cluster_step(page, state, clock, diff)
            if body is not None:
                self.counts.cluster_diff += 1
                clock.check()
                self._observe(page, state, choice)
                return self._result(body, page, None, METHOD_CLUSTER_DIFF)
        clock.check()
        sibling = self._sibling_region(page, state, choice, diff, recent)
        if sibling is not None:
            return sibling
        self._observe_if_confident(page, state, choice)
        return self._generic(page, METHOD_GENERIC, clock)

    def _sibling_region(
        self,
        page: ParsedPage,
        state: SiteState,
        choice: region.RegionChoice,
        template_text: bool,
        recent: frozenset[int],
    ) -> Extraction | None:
        """The last confident page's body node when it replaces the generic region (sibling_region.py). A page
        read so is not observed: what the site learns (the next sibling node, templates) comes from pages whose
        own generic region stood, never from its own overrides (one wrong node would else steer the next pages).
        A node elsewhere than the generic region (not the site's repeated text) replaces it only when it holds
        at least as much of the page's own title as the generic region does: the 18F blog's related-posts section
        (other posts' excerpts) had replaced articles."""
        config = self.config
        if not config.use_sibling_region or not config.use_templates or not state.observations:
            return None
        found = sibling_region(
            page.index(),
            choice.roots,
            choice.lines,
            state.observations[-1],
            config.same_region_share,
            config.min_elsewhere_chars,
            template_text,
            recent,
        )
        if found is None:
            return None
        if found.relation == ELSEWHERE and not template_text and \
                title_coverage(page, found.lines) < title_coverage(page, choice.lines):
            return None  # the page's own title speaks for its generic region more than for the sibling's node
        self.counts.sibling_region += 1
        return self._result(found.body, page, None, METHOD_SIBLING_REGION)

    def _generic(self, page: ParsedPage, method: str, clock: PageClock) -> Extraction:
        """The generic default method on the parsed page, failures named as newscorpus.core.extraction names them."""
        body = "\n".join(page.choice().lines)
        total = sum(block.chars for block in page.blocks)
        links = sum(block.link_chars for block in page.blocks)
        if body_chars(body) < MIN_BODY_CHARS or is_listing(
                page.marked_article, page.choice().headline is not None, body, body_chars(body), total, links,
                page.blocks):
            # No article; the page's metadata is still its own (a listing's JSON-LD date is its date).
            reason = no_body_reason(total, links) if body_chars(body) < MIN_BODY_CHARS else "listing_page"
            failure = Extraction.failure(reason, page.encoding, METHOD_GENERIC)
            return failure.with_metadata(byline_metadata(page_lines(page.blocks), page.head, page.choice().lines))
        if clock.page_over():
            return Extraction.failure("timeout", page.encoding, METHOD_GENERIC)
        self.counts.generic += 1
        return self._result(body, page, None, method)

    def _remember_lines(self, page: ParsedPage, state: SiteState) -> frozenset[int]:
        """Hashes of the lines of the site's recent pages before this one; this page's are added (learning)."""
        before = frozenset().union(*state.recent_lines)
        if self.config.learn:
            state.recent_lines.append(frozenset(hash(line) for line in page_lines(page.blocks)))
            while len(state.recent_lines) > self.config.recent_pages:
                state.recent_lines.popleft()
        return before

    def _region_repeats(self, generic: list[str], recent: frozenset[int]) -> bool:
        """The generic region may be template text: TEMPLATE_TEXT_SHARE of its lines are on recent pages."""
        repeated = sum(hash(line) in recent for line in generic)
        return bool(generic) and repeated >= self.config.template_text_share * len(generic)

    def _cluster_step(self, page: ParsedPage, state: SiteState, clock: PageClock, diff: bool) -> str | None:
        """Skeleton, nearest cluster, its difference (when `diff`); the page joins (or starts) a cluster as a
        reference while the cluster has fewer than its references."""
        skeleton = page.skeleton()
        clock.check()
        similarity_of = istm if self.config.strict_istm else relaxed_istm

        def timed_similarity(first: Skeleton, second: Skeleton) -> float:
            clock.check()
            return similarity_of(first, second)

        index, _score = nearest_cluster(skeleton, state.clusters, timed_similarity, self.config.cluster_threshold)
        if index is None:
            if self.config.learn and len(state.clusters) < self.config.max_clusters_per_site:
                state.clusters.append([skeleton])
            return None
        references = state.clusters[index]
        body = self._cluster_diff(page, skeleton, list(references), clock) if diff else None
        if self.config.learn and len(references) < self.config.references_per_cluster:
            references.append(skeleton)
        return body

    def _cluster_diff(
        self, page: ParsedPage, skeleton: Skeleton, references: list[Skeleton], clock: PageClock
    ) -> str | None:
        """DeleteSame against each reference of the cluster, then the default method on what remains: the
        pruned page's region when it lies elsewhere than the generic region, else None (the generic result).

        Elsewhere (less than half its lines are generic lines), the generic region was template text
        (nbcnews.com: 0.25 -> 0.98) and the diff's region is
        taken when it is long enough (a short one is a teaser: bbc.co.uk_news_04, a section page). When it is
        the generic region, the generic lines are kept as they are, lines repeated across the site's pages
        included: removing those is the line-noise stage's job (newscorpus/pipelines/line_noise.py), and a page must
        read
        the same whichever method extracts it, or a re-crawl would change stored bodies (a page extracted by
        difference first and by template later).
        """
        config = self.config
        pruned = copy.deepcopy(page.root)
        body = content_root(pruned)
        for position, reference in enumerate(references):
            clock.check()
            dom_diff.delete_same(body, skeleton, reference, config.diff_shift, config.keep_paragraph_chars)
            if position + 1 < len(references):  # the next reference is compared with the pruned page
                skeleton = build_skeleton(body)
        clock.check()
        lines = region.choose_region(build_blocks(pruned), titles=page.head.titles).lines
        generic = page.choice().lines
        known = set(generic)
        if not lines or sum(line in known for line in lines) >= config.same_region_share * len(lines):
            return None
        text = "\n".join(lines)
        chars = body_chars(text)
        if chars < min(body_chars("\n".join(generic)), config.min_elsewhere_chars):
            return None  # a short region elsewhere is a teaser, not an article the template text hid
        return text if chars >= MIN_BODY_CHARS else None

    def _observe_if_confident(self, page: ParsedPage, state: SiteState, choice: region.RegionChoice) -> None:
        """Observe a page read without a template when its body is an article the generic method is sure of."""
        body = "\n".join(choice.lines)
        minimum = self.config.induce_min_confidence
        if body_chars(body) >= MIN_BODY_CHARS and _page_confidence(body, page.blocks) >= minimum:
            self._observe(page, state, choice)

    def _observe(self, page: ParsedPage, state: SiteState, choice: region.RegionChoice) -> None:
        if not self.config.learn or not self.config.use_templates:
            return
        url = page.url
        observation = templates_module.observe(url, page.index(), choice.roots, choice.headline)
        if observation is None:
            return
        state.observations.append(observation)
        del state.observations[: -self.config.max_observations]
        if self.matching_template(url) is not None:
            return
        similar = [o for o in state.observations if similarity(url, o.url) > self.config.url_threshold]
        template = templates_module.induce(site_of(url), similar, self.config.induce_k)
        if template is not None:
            template.url = url
            state.templates.append(template)
            self.counts.induced += 1
            log.info("template induced for %s: %s", template.site, template.fields[BODY].xpaths)

    def _body_agrees(self, template: SiteTemplate, page: ParsedPage, applied: TemplateResult,
                     state: SiteState) -> bool:
        """Every body_check_every-th page a template reads, its body must share body_agreement of its text with
        the generic body; a template that disagrees field_max_misses times in a row is dropped."""
        every = self.config.body_check_every
        if not every or template.hits % every:
            return True
        body = template.fields[BODY]
        if templates_module.line_agreement(applied.body_lines, page.choice().lines) >= self.config.body_agreement:
            body.misses = 0
            return True
        body.misses += 1
        if body.misses >= self.config.field_max_misses and self.config.learn:
            state.templates.remove(template)
            state.dropped.append(template)
            self.counts.dropped += 1
            log.info("template dropped for %s: its body disagreed with the generic one %d times in a row (%s)",
                     template.site, body.misses, body.xpaths)
        return False

    def _title(self, page: ParsedPage, applied: TemplateResult | None, template: SiteTemplate | None) -> str | None:
        """The first of (the template's title, the generic title, the page's stated titles, its <h1>s) that, the
        site's learnt affix removed, is text and not the site's own; else the generic title. A template title
        must agree with a stated title and not be the site's text; a title field that fails field_max_misses
        times in a row is dropped."""
        state = self.state(site_of(page.url))
        stated = page.head.titles
        from_template = applied.values.get("title") if applied is not None else None
        if from_template and template is not None and "title" in template.fields:
            title_field = template.fields["title"]
            if agrees(from_template, stated) and not state.titles.is_site_text(from_template):
                title_field.misses = 0
            else:
                from_template = None
                title_field.misses += 1
                if title_field.misses >= self.config.field_max_misses and self.config.learn:
                    del template.fields["title"]
                    self.counts.dropped += 1
                    log.info("template title dropped for %s: %s disagreed with the pages' titles %d times in a row",
                             template.site, title_field.xpaths, title_field.misses)
        chosen = state.titles.choose([from_template, page.head.title, *stated, *headings(page)])
        return chosen or page.head.title

    def _result(self, body: str, page: ParsedPage, applied: TemplateResult | None, method: str,
                template: SiteTemplate | None = None) -> Extraction:
        meta = byline_metadata(page_lines(page.blocks), page.head, body.split("\n"))
        title = self._title(page, applied, template)
        template_author = applied.values.get("author") if applied else None
        kinds = line_kinds(body, page.blocks)
        published = (applied.values.get("time") if applied else None) or meta.published_at
        return Extraction(
            title=title,
            author=template_author or meta.author,
            published_at=published,
            authors=(template_author,) if template_author else meta.authors,
            modified_at=meta.modified_at,
            site_name=meta.site_name,
            body=body,
            language=prose_language(body.split("\n"), kinds),
            method=method,
            confidence=_page_confidence(body, page.blocks),
            reason=None,
            encoding=page.encoding,
            line_kinds=kinds,
        )


def title_coverage(page: ParsedPage, lines: list[str]) -> float:
    """Share of the page's title words (CJK: characters) that the lines hold: page-level evidence for a region."""
    title = set(tokenize(page.head.title or ""))
    return len(title & set(tokenize("\n".join(lines)))) / len(title) if title else 0.0


def headings(page: ParsedPage) -> list[str]:
    """The texts of the page's <h1> blocks, in document order."""
    return [block.text for block in page.blocks if block.tag == "h1" and block.text]


def _page_confidence(body: str, blocks: list[Block]) -> float:
    total = sum(block.chars for block in blocks)
    links = sum(block.link_chars for block in blocks)
    return confidence(body_chars(body), total, links)


__all__ = [
    "SiteAwareExtractor",
    "SiteAwareConfig",
    "METHOD_TEMPLATE",
    "METHOD_CLUSTER_DIFF",
    "METHOD_SIBLING_REGION",
    "METHOD_GENERIC",
    "METHOD_LARGE_PAGE",
    "METHOD_OUT_OF_TIME",
]
