"""Named outcomes: why a page left the pipeline. A stage raises one (a DropItem, so Scrapy logs it by URL and
reason and counts it per reason); one place records it: newscorpus.crawler.extensions.crawl_database.CrawlDatabase, on
Scrapy's
item_dropped signal, stores the page with its outcome (no article) and counts ``newscorpus/outcome/<outcome>``."""

from __future__ import annotations

from scrapy.exceptions import DropItem


class PageOutcome(DropItem):
    """A page dropped with the outcome ``outcome`` (stored in pages.outcome) and, when given, the ``detail`` that
    replaces the item's outcome_detail."""

    def __init__(self, outcome: str, message: str, detail: str | None = None, log_level: str | None = None):
        super().__init__(message, log_level=log_level)
        self.outcome = outcome
        self.detail = detail


class NotAnArticle(PageOutcome):
    """The page holds no article (listing, sitemap, binary, empty, an HTTP error, ...): its outcome is the one the
    spider or the extraction gave it."""

    def __init__(self, outcome: str, url: str):
        super().__init__(outcome, f"not an article ({outcome}): {url}", log_level="DEBUG")


class EmptyAfterCleaning(PageOutcome):
    """Every line of the article's body was line noise (``nothing_left``), or what is left is no text (`}`, "——")
    (newscorpus.pipelines.line_noise); its lines stay counted."""

    def __init__(self, url: str, lines_removed: int, nothing_left: bool = True):
        detail = (f"{lines_removed} noise line(s) removed" if nothing_left
                  else f"no text left after removing {lines_removed} noise line(s)")
        super().__init__("empty_after_cleaning",
                         f"empty after line-noise cleaning ({lines_removed} line(s) removed): {url}", detail)
        self.lines_removed = lines_removed
