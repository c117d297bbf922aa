"""Named outcomes: why an item left the pipeline (Scrapy counts DropItem subclasses per reason)."""

from __future__ import annotations

from scrapy.exceptions import DropItem


class NotAnArticle(DropItem):
    """The page was recorded in the pages table, but it holds no article (listing, binary, empty, ...)."""

    def __init__(self, outcome: str, url: str):
        super().__init__(f"not an article ({outcome}): {url}", log_level="DEBUG")
        self.outcome = outcome


class EmptyAfterCleaning(DropItem):
    """Every line of the article's body was line noise (newscorpus.stages.line_noise); the page is recorded with the
    outcome ``empty_after_cleaning`` and its lines stay counted."""

    def __init__(self, url: str, lines_removed: int):
        super().__init__(f"empty after line-noise cleaning ({lines_removed} line(s) removed): {url}")
        self.outcome = "empty_after_cleaning"
        self.lines_removed = lines_removed
