"""Per-page budget of the site-aware steps: an element cap and a deadline. Past either, the cascade hands the
page to the generic method, so one huge page costs what the generic extractor costs and no more.

The element cap bounds each step (skeleton, ISTM against the references, DeleteSame, the repair search are
linear in the page's elements); the deadline bounds their sum. It is a share of the per-page time cap of the
crawl (NEWSCORPUS_EXTRACTION_MAX_SECONDS), the rest being kept for the generic method that finishes the page.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from lxml import etree

# Elements (after cleaning, under <body>) above which the site-aware steps are skipped. The dev pages
# (289 pages of the four ../shared/data/extraction sets) have at most 5,757 (median 566, p99 2,323), so no
# real page is skipped. On a generated worst case (`newscorpus eval site-aware --time-cap`) the site-aware steps'
# CPU grows with the elements: at 10,000 one step overruns the deadline by a fraction of a second at most.
MAX_ELEMENTS = 10_000
# Share of the per-page time cap the site-aware steps may use; the generic method finishing the page needs
# less than the site-aware part of it (it is one of its steps), so half is kept for it.
TIME_SHARE = 0.5


class OutOfTime(Exception):
    """The site-aware steps used up their share of the page's time cap."""


def element_count(root: etree._Element) -> int:
    """Elements of the cleaned page under <body> (or the root), counted by libxml2 (milliseconds for 50k)."""
    body = root.find("body")
    return int((body if body is not None else root).xpath("count(descendant-or-self::*)"))


class PageClock:
    """Deadlines of one page: `check` raises OutOfTime past the site-aware share; `page_over` is the whole cap."""

    def __init__(self, max_seconds: float, share: float = TIME_SHARE, now: Callable[[], float] = time.perf_counter):
        self.now = now
        start = now()
        self.page_deadline = start + max_seconds
        self.site_aware_deadline = start + share * max_seconds

    def check(self) -> None:
        if self.now() >= self.site_aware_deadline:
            raise OutOfTime

    def page_over(self) -> bool:
        return self.now() > self.page_deadline

    def remaining(self) -> float:
        return max(self.page_deadline - self.now(), 0.0)
