"""`newscorpus reextract` and `newscorpus clean`: every site's articles derived again from its stored pages by the
code the crawl's end runs (newscorpus.store.derivation), with the site config's hand-written templates when the
site has a config of that name. Both leave the corpus as a fresh crawl of the same pages would; run again, they
change nothing."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable

from newscorpus.core.line_noise import LineNoiseConfig
from newscorpus.core.site_aware.templates import SiteTemplate
from newscorpus.crawler.site_config import SiteConfigError, load_site_config
from newscorpus.store.corpus_reader import site_names
from newscorpus.store.derivation import DerivationSettings, derive_site, has_provisional_articles

logger = logging.getLogger(__name__)


def site_settings(site: str, line_noise: LineNoiseConfig) -> DerivationSettings:
    """What the site config named ``site`` derives with: its hand-written templates and its languages (for an
    ad-hoc site, or a config not found by name, the languages the site was last derived with)."""
    try:
        config = load_site_config(site)
    except SiteConfigError:
        return DerivationSettings(line_noise=line_noise)
    return DerivationSettings(templates=tuple(SiteTemplate.from_dict(data) for data in config.templates),
                              languages=config.languages or None, line_noise=line_noise)


def derive(dsn: str, site: str | None = None, *, extract: bool = True, line_noise: LineNoiseConfig | None = None,
           progress: Callable[[Counter], None] | None = None) -> Counter:
    """Derive ``site`` (every stored site when None); ``extract=False``: clean and check near-duplicates only."""
    totals: Counter = Counter()
    for name in site_names(dsn):
        if site is not None and name != site:
            continue
        settings = site_settings(name, line_noise or LineNoiseConfig())
        counts = derive_site(dsn, name, settings, extract=extract,
                             progress=(lambda c, done=Counter(totals): progress(done + c)) if progress else None)
        totals.update(counts)
        totals["sites"] += 1
    return totals


def reextract(dsn: str, site: str | None = None, progress: Callable[[Counter], None] | None = None) -> Counter:
    return derive(dsn, site, progress=progress)


def clean(dsn: str, site: str | None = None, line_noise: LineNoiseConfig | None = None,
          progress: Callable[[Counter], None] | None = None) -> Counter:
    return derive(dsn, site, extract=False, line_noise=line_noise, progress=progress)


def clean_step(dsn: str, sites: list[str]) -> dict:
    """Build maintenance (newscorpus.builds.maintenance): a site whose crawl stopped before its end, leaving
    provisional articles, is derived here. A site its crawl's end derived is left as it is: deriving it again
    would change nothing (its texts and line statistics come from its own pages; links across sites are the
    near-duplicate step's), at ~45 ms a site."""
    totals: Counter = Counter()
    already = 0
    for site in sites:
        if has_provisional_articles(dsn, site):
            totals.update(derive(dsn, site))
        else:
            already += 1
    return {"sites": totals["sites"], "articles": totals["articles"], "articles_changed": totals["changed"],
            "noise_lines_removed": totals["lines_removed"], "sites_already_derived": already}
