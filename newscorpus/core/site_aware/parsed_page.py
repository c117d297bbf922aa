"""One page parsed once for every site-aware step: decoded, parsed, cleaned and cut into blocks as the generic
extractor does, with what the steps compute from it (generic region, template index, skeleton) cached."""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from newscorpus.core.extraction import PageFailure, PreparedPage, page_region, prepare_page, region
from newscorpus.core.extraction.block_tree import Block
from newscorpus.core.extraction.metadata import Metadata
from newscorpus.core.site_aware.skeleton import Skeleton, build_skeleton, content_root
from newscorpus.core.site_aware.templates import PageIndex


@dataclass
class ParsedPage:
    """One page parsed, cleaned and cut into blocks once; the generic region, the template index (prose sums
    per subtree) and the skeleton computed at most once, when a step needs them. None of them depends on a
    site's state, so the evaluation reuses one ParsedPage across cascade configurations."""

    url: str
    root: etree._Element
    blocks: list[Block]
    head: Metadata
    encoding: str | None
    marked_article: bool = False
    prepared: PreparedPage | None = None  # what prepare_page gave: the generic region reads its site and hidden blocks
    _choice: region.RegionChoice | None = None
    _index: PageIndex | None = None
    _skeleton: Skeleton | None = None

    def choice(self) -> region.RegionChoice:
        if self._choice is None:
            self._choice = (page_region(self.prepared) if self.prepared is not None
                            else region.choose_region(self.blocks, titles=self.head.titles))
        return self._choice

    def index(self) -> PageIndex:
        if self._index is None:
            self._index = PageIndex(self.root, self.blocks)
        return self._index

    def skeleton(self) -> Skeleton:
        if self._skeleton is None:
            self._skeleton = build_skeleton(content_root(self.root))
        return self._skeleton


def parse_page(html: bytes | str, url: str | None, content_type: str | None = None) -> ParsedPage | None:
    """The page as the generic extractor prepares it (`prepare_page`); None when it should decide (no URL, or
    a page it fails: it names the reason)."""
    if not url:
        return None
    page = prepare_page(html, content_type, url=url)
    if isinstance(page, PageFailure):
        return None
    return ParsedPage(url, page.root, page.blocks, page.head, page.encoding, page.marked_article, page)
