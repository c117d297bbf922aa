"""Named outcomes: why an item left the pipeline (Scrapy counts DropItem subclasses per reason)."""

from __future__ import annotations

from scrapy.exceptions import DropItem


class NotAnArticle(DropItem):
    """The page was recorded in the pages table, but it holds no article (listing, binary, empty, ...)."""

    def __init__(self, outcome: str, url: str):
        super().__init__(f"not an article ({outcome}): {url}", log_level="DEBUG")
        self.outcome = outcome
