"""The extraction stage's parameters (newscorpus.pipelines.extraction): the per-page time cap and the worker pool."""

from __future__ import annotations

import re
from dataclasses import dataclass

from newscorpus.core.config_checks import at_least

LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}$")   # what detect_language gives: ISO 639-1 ("zh", "en")


@dataclass(frozen=True)
class ExtractionConfig:
    """Read by the crawl from NEWSCORPUS_EXTRACTION_<FIELD> (newscorpus.crawler.stage_settings)."""

    # Per page, as `extract`'s own default; the slowest dev page takes < 0.5 s.
    max_seconds: float = 5.0
    # 0 = in the crawl process; N = a pool of N processes (BENCHMARKS.md, benchmarks/crawl_rate.py).
    workers: int = 0
    # At the crawl's end, the site's articles derived again from its stored pages in URL order
    # (newscorpus.store.derivation): the corpus then depends on the pages, not on the order they arrived in.
    derive_at_close: bool = True
    # A WARNING once this share of a site's extracted pages are bot walls (challenge, captcha, access denied;
    # newscorpus.core.extraction.bot_wall), after at least bot_wall_warn_after of them: the site is blocking
    # the crawl. 5 %: a site serving its pages answers no crawl page so, one blocking it soon passes it.
    bot_wall_warn_share: float = 0.05
    bot_wall_warn_after: int = 5
    # Comma-separated ISO 639-1 codes ("zh,en"): only articles in them are stored, the others counted as
    # other_language; empty: every language. A site config's `languages` replaces it for that site.
    languages: str = ""

    def __post_init__(self) -> None:
        if not self.max_seconds > 0:
            raise ValueError(f"max_seconds must be > 0, not {self.max_seconds}")
        at_least(self, 0, "workers")
        at_least(self, 1, "bot_wall_warn_after")
        for code in self.language_codes:
            if not LANGUAGE_CODE.match(code):
                raise ValueError(f"languages must be ISO 639-1 codes such as zh,en, not {self.languages!r}")
        if not 0 < self.bot_wall_warn_share <= 1:
            raise ValueError(f"bot_wall_warn_share must be in (0, 1], not {self.bot_wall_warn_share}")

    @property
    def language_codes(self) -> tuple[str, ...]:
        return tuple(code.strip() for code in self.languages.split(",") if code.strip())
