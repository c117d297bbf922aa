"""One page parsed once for every site-aware step: decoded, parsed, cleaned and cut into blocks as the generic
extractor does, with what the steps compute from it (generic region, template index, skeleton) cached."""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from pipelines.core.decoding import decode_html
from pipelines.core.extraction import MAX_PAGE_BYTES, looks_binary
from pipelines.core.extraction import default as default_method
from pipelines.core.extraction.metadata import Metadata, head_metadata
from pipelines.core.extraction.normalise import Block, build_blocks, clean_tree, parse_html
from pipelines.core.site_aware.skeleton import Skeleton, build_skeleton, content_root
from pipelines.core.site_aware.templates import PageIndex


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
    _choice: default_method.RegionChoice | None = None
    _index: PageIndex | None = None
    _skeleton: Skeleton | None = None

    def choice(self) -> default_method.RegionChoice:
        if self._choice is None:
            self._choice = default_method.choose_region(self.blocks, titles=self.head.titles)
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
    """Decode, parse, clean and cut into blocks as the generic extractor does; None when it should decide."""
    if not html or not url or len(html) > MAX_PAGE_BYTES:
        return None
    encoding = None
    if isinstance(html, bytes | bytearray):
        if looks_binary(bytes(html)):
            return None
        decoded = decode_html(bytes(html), content_type)
        text, encoding = decoded.text, decoded.encoding
    elif isinstance(html, str):
        text = html
    else:
        return None
    root = parse_html(text) if text.strip() else None
    if root is None:
        return None
    head = head_metadata(root)
    clean_tree(root)
    return ParsedPage(url, root, build_blocks(root), head, encoding)
