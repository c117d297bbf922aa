"""A site's articles as a function of its stored pages: every page extracted again, in URL order, by one
extractor whose per-site state starts from the site config's hand-written templates only.

The crawl extracts pages in the order they arrive, and a concurrent crawl's order is not fixed, so what the
site-aware cascade learns (templates, clusters, the site's title affix) and the articles it reads with it depend
on that order. Derived here in a fixed order from a fixed start, the same pages give the same articles whatever
the crawl's concurrency, worker count or resumes (newscorpus.store.derivation writes them).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from newscorpus.core.extraction import Extraction, extract
from newscorpus.core.site_aware.cascade import SiteAwareConfig, SiteAwareExtractor
from newscorpus.core.site_aware.templates import SiteTemplate

# Bumped with any change that can change what a stored page derives to (the extractor's rules, this order),
# so a derivation can tell which articles are stale (articles.extractor_version).
EXTRACTOR_REVISION = "1"


@dataclass(frozen=True)
class StoredPage:
    """A stored page's latest content, as derivation reads it."""

    page_id: int
    url: str                 # the URL asked for (pages.url)
    final_url: str           # the URL that answered: the article's URL
    content_type: str | None
    content_hash: str
    raw_body: bytes
    fetched_at: object       # datetime: when this content was first fetched


def extractor_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        package = version("newscorpus")
    except PackageNotFoundError:
        package = "0"
    return f"{package}+{EXTRACTOR_REVISION}"


class Derivation:
    """Extract a site's pages, given in URL order, with one cascade (or the generic extractor when
    ``site_aware`` is None); :meth:`model_version` names the state the cascade ended with."""

    def __init__(self, site_aware: SiteAwareConfig | None, templates: Iterable[SiteTemplate] = (),
                 max_seconds: float = 5.0):
        self.max_seconds = max_seconds
        self.cascade = SiteAwareExtractor(site_aware, templates=list(templates)) if site_aware else None

    def extract_all(self, pages: Iterable[StoredPage]) -> Iterator[tuple[StoredPage, Extraction]]:
        previous = None
        for page in pages:
            if previous is not None and (page.url, page.page_id) <= previous:
                raise ValueError(f"pages must come in URL order: {page.url!r} after {previous[0]!r}")
            previous = (page.url, page.page_id)
            yield page, self.extract(page)

    def extract(self, page: StoredPage) -> Extraction:
        if self.cascade is None:
            return extract(page.raw_body, page.final_url, content_type=page.content_type,
                           max_seconds=self.max_seconds)
        return self.cascade.extract(page.raw_body, page.final_url, page.content_type, self.max_seconds)

    def model_version(self) -> str:
        """A digest of the learnt state the derivation ended with: its templates and each site's title affixes."""
        if self.cascade is None:
            return "generic"
        state = {
            site: {
                "templates": sorted(json.dumps(t.to_dict(), ensure_ascii=False, sort_keys=True)
                                    for t in site_state.templates),
                "affixes": [sorted(affixes) for affixes in site_state.titles.learnt_affixes()],
            }
            for site, site_state in sorted(self.cascade.sites.items())
        }
        return hashlib.sha256(json.dumps(state, ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:16]
