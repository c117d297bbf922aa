"""Body extraction: title, author, time and main text of a news page, never raising on any input."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from operator import attrgetter

from newscorpus.core.decoding import decode_html
from newscorpus.core.domains import url_site
from newscorpus.core.extraction import block_scoring, region
from newscorpus.core.extraction import punctuation as punctuation_method
from newscorpus.core.extraction.block_tree import Block, build_blocks
from newscorpus.core.extraction.bot_wall import MAX_WALL_CHARS, bot_wall
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.line_kinds import line_kinds, prose_language
from newscorpus.core.extraction.markup import read_markup
from newscorpus.core.extraction.metadata import Metadata, byline_metadata, head_metadata
from newscorpus.core.extraction.page_kind import is_listing
from newscorpus.core.extraction.parse import parse_html

__all__ = ["Extraction", "extract", "in_languages", "prepare_page", "PreparedPage", "PageFailure", "METHODS",
           "REASONS"]

log = logging.getLogger(__name__)

METHODS = ("default", "punctuation", "blocks")
REASONS = ("empty", "not_html", "no_body", "listing_page", "too_large", "decode_error", "timeout", "bot_wall",
           "other_language")

# A page is "not HTML" when its first 1 KB has this share of control bytes (binary formats);
# text pages have none besides tab/CR/LF.
_SNIFF_BYTES = 1024
MAX_CONTROL_SHARE = 0.1
# A body shorter than this many non-space characters is not an article (a caption, a teaser).
# 20 CJK characters is about one sentence; set from the shortest gold bodies in the dev data.
MIN_BODY_CHARS = 20
# Share of anchor text above which a page without a long body is a listing (section/home page).
LISTING_LINK_SHARE = 0.5


# Extraction reasons that have another name among page outcomes.
OUTCOME_OF_REASON = {"listing_page": "listing"}


@dataclass
class Extraction:
    title: str | None
    author: str | None
    published_at: str | None  # ISO 8601 string when found (date or datetime), else None
    body: str  # paragraphs separated by "\n"; "" when no article
    language: str | None  # "zh", "en", ... of the body
    method: str | None  # which method produced the body
    confidence: float  # 0..1
    reason: str | None  # None when there is an article, else one of REASONS
    encoding: str | None  # from decoding (None when given str)
    # Metadata (newscorpus/core/extraction/metadata.py); kept on failures too: a listing's JSON-LD date is its date.
    authors: tuple[str, ...] = ()
    modified_at: str | None = None
    site_name: str | None = None
    line_kinds: str | None = None  # one character per body line: its markup (line_kinds.py); None = unknown

    @property
    def is_article(self) -> bool:
        return self.reason is None

    @property
    def outcome(self) -> str:
        """The page's outcome (pages.outcome): ``article``, or the reason under its outcome name."""
        return "article" if self.is_article else OUTCOME_OF_REASON.get(self.reason, self.reason)

    @classmethod
    def failure(cls, reason: str, encoding: str | None = None, method: str | None = None) -> Extraction:
        """No article, for ``reason`` (one of REASONS)."""
        return cls(None, None, None, "", None, method, 0.0, reason, encoding)

    def with_metadata(self, meta: Metadata) -> Extraction:
        """This result with the page's title, authors, dates and site name."""
        self.title, self.author, self.published_at = meta.title, meta.author, meta.published_at
        self.authors, self.modified_at, self.site_name = meta.authors, meta.modified_at, meta.site_name
        return self


def in_languages(result: Extraction, languages: tuple[str, ...]) -> Extraction:
    """``result``, or reason ``other_language`` when it is an article in none of ``languages`` (empty: any);
    the detected language is kept, for the count."""
    if not languages or not result.is_article or result.language in languages:
        return result
    other = Extraction.failure("other_language", result.encoding, result.method)
    other.language = result.language
    return other


# Pages larger than this (bytes or characters) are not extracted: reason too_large.
MAX_PAGE_BYTES = 20_000_000


# The control bytes looks_binary counts: below 32, but not tab, LF, form feed, CR or ESC.
_CONTROL_BYTES = bytes(byte for byte in range(32) if byte not in (9, 10, 12, 13, 27))


def looks_binary(data: bytes) -> bool:
    head = data[:_SNIFF_BYTES]
    if not head:
        return False
    # the control bytes counted as those `translate` deletes: in C, not by a Python loop over the 1 KB
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    return controls / len(head) > MAX_CONTROL_SHARE


# Confidence: share of the page's non-link text that the body holds, blended with a length term that
# saturates at 1,000 characters (a full news story); a plain heuristic, not calibrated probabilities.
FULL_BODY_CHARS = 1000


def body_chars(body: str) -> int:
    """Characters of a body, spaces and line breaks not counted (what MIN_BODY_CHARS and the confidence see)."""
    return len(body) - body.count(" ") - body.count("\n")


def no_body_reason(total_chars: int, link_chars: int) -> str:
    """Why a page whose body is under MIN_BODY_CHARS has no article: a listing when links are most of its text."""
    return "listing_page" if total_chars and link_chars / total_chars > LISTING_LINK_SHARE else "no_body"


def confidence(body_chars: int, total_chars: int, link_chars: int) -> float:
    content = max(total_chars - link_chars, 1)
    share = min(body_chars / content, 1.0)
    length = min(body_chars / FULL_BODY_CHARS, 1.0)
    return round(0.5 * share + 0.5 * length, 4)


# The blocks' counts read in C (sum over map), not by a generator: they are summed over every block of a page.
_CHARS, _LINK_CHARS = attrgetter("chars"), attrgetter("link_chars")


def page_lines(blocks: list) -> list[str]:
    lines: list[str] = []
    for block in blocks:
        if block.text:
            lines.extend(block.text.split("\n"))
    return lines


class _Budget:
    def __init__(self, max_seconds: float) -> None:
        self.deadline = time.perf_counter() + max_seconds

    def exceeded(self) -> bool:
        return time.perf_counter() > self.deadline


def extract(
    html: bytes | str,
    url: str | None = None,
    *,
    content_type: str | None = None,
    method: str = "default",
    max_seconds: float = 5.0,
    max_bytes: int = MAX_PAGE_BYTES,
    model: block_scoring.BlockModel | None = None,
    learned: object = True,
) -> Extraction:
    """Extract the article of one page. Never raises: failures come back with a `reason`.

    `model` overrides the shipped block model (cross-validation passes a model fitted without the page); `learned`
    the default method's learned block model (block_classifier.py: True the shipped one, False none, or a model).
    """
    try:
        return _extract(html, url, content_type, method, max_seconds, max_bytes, model, learned)
    except Exception:  # noqa: BLE001 - the contract is "never raises"; log and report no body
        log.exception("extraction failed for %s", url)
        return Extraction.failure("no_body", method=method)


@dataclass(frozen=True)
class PreparedPage:
    """A page decoded, parsed, cleaned and cut into blocks: what every method (and the site-aware cascade)
    reads."""

    root: object  # the cleaned lxml tree
    blocks: list[Block]
    head: Metadata  # read before cleaning (it removes <head>)
    encoding: str | None  # from decoding (None when given str)
    marked_article: bool = False  # og:type / JSON-LD say "article" (read before cleaning)
    site: str | None = None  # the URL's registrable domain (domains.url_site), None without a URL
    hidden: tuple = ()  # the elements hidden by their inline style (PageMarkup.hidden)


def page_region(page: PreparedPage, learned: object = True) -> region.RegionChoice:
    """The default method's region of a prepared page (region.choose_region with the page's titles, site and
    hidden elements)."""
    return region.choose_region(page.blocks, titles=page.head.titles, learned=learned, site=page.site,
                                hidden=region.hidden_blocks(page.blocks, page.hidden))


@dataclass(frozen=True)
class PageFailure:
    reason: str  # one of REASONS
    encoding: str | None


def prepare_page(html: bytes | str | None, content_type: str | None = None, max_bytes: int = MAX_PAGE_BYTES,
                 budget: _Budget | None = None, url: str | None = None) -> PreparedPage | PageFailure:
    """Decode (header, meta, detection), parse, read the head, clean and cut into blocks; or why not."""
    if html is None or len(html) == 0:
        return PageFailure("empty", None)
    encoding: str | None = None
    utf8: bytes | None = None  # the page's bytes when the text is their strict UTF-8 decoding (parse_html reads them)
    if isinstance(html, bytes | bytearray):
        if len(html) > max_bytes:
            return PageFailure("too_large", None)
        data = bytes(html)
        if looks_binary(data):
            return PageFailure("not_html", None)
        decoded = decode_html(data, content_type)
        text, encoding = decoded.text, decoded.encoding
        if decoded.strict and encoding == "utf-8":
            utf8 = data
    elif isinstance(html, str):
        if len(html) > max_bytes:
            return PageFailure("too_large", None)
        text = html
    else:
        return PageFailure("not_html", None)
    if not text or text.isspace():  # as `not text.strip()`, without copying the page
        return PageFailure("empty", encoding)
    if text.find("<", 0, _SNIFF_BYTES * 64) < 0:
        return PageFailure("not_html", encoding)
    root = parse_html(text, utf8)
    if root is None:
        return PageFailure("not_html", encoding)
    if budget is not None and budget.exceeded():
        return PageFailure("timeout", encoding)
    markup = read_markup(root)  # one walk for the head, the article mark and the dialogs that cleaning drops
    head = head_metadata(root, url, html_text=text, markup=markup)
    # parse_html gives the document element, so the walk from `root` sees the whole page: its dialogs and article mark
    marked = markup.article_marked
    title = root.findtext("head/title")
    clean_tree(root, markup)
    blocks = build_blocks(root)
    if sum(map(_CHARS, blocks)) <= MAX_WALL_CHARS and bot_wall(title, "\n".join(page_lines(blocks))):
        return PageFailure("bot_wall", encoding)
    if budget is not None and budget.exceeded():
        return PageFailure("timeout", encoding)
    return PreparedPage(root, blocks, head, encoding, marked, url_site(url), tuple(markup.hidden))


def _extract(
    html: bytes | str,
    url: str | None,
    content_type: str | None,
    method: str,
    max_seconds: float,
    max_bytes: int,
    model: block_scoring.BlockModel | None,
    learned: object = True,
) -> Extraction:
    if method not in METHODS:
        raise ValueError(f"unknown extraction method {method!r}; choose from {METHODS}")
    budget = _Budget(max_seconds)
    page = prepare_page(html, content_type, max_bytes, budget, url)
    if isinstance(page, PageFailure):
        return Extraction.failure(page.reason, page.encoding, method)
    blocks, head, encoding = page.blocks, page.head, page.encoding

    model = model or block_scoring.load_model()
    headline_found = False
    if method == "punctuation":
        lines = punctuation_method.select_lines(blocks, model.punctuation_p)
    elif method == "blocks":
        lines = block_scoring.select_blocks(blocks, model)
    else:
        choice = page_region(page, learned)
        lines = choice.lines
        headline_found = choice.headline is not None
    # Whether the page holds an article is the rules' call: the learned block model (block_classifier.py) adds to
    # an article's body, it does not make one of a list page (it turned 3 more of the 118 wcxb_listing pages into
    # articles, and no article page of the six dev sets gains from it).
    rules_lines = choice.rules_lines if method == "default" and choice.rules_lines is not None else lines
    body = "\n".join(lines)
    chars = body_chars(body)
    rules_body = body if rules_lines is lines else "\n".join(rules_lines)
    rules_chars = chars if rules_body is body else body_chars(rules_body)
    total_chars = sum(map(_CHARS, blocks))
    link_chars = sum(map(_LINK_CHARS, blocks))
    if rules_chars < MIN_BODY_CHARS:
        failure = Extraction.failure(no_body_reason(total_chars, link_chars), encoding, method)
        return failure.with_metadata(byline_metadata(page_lines(blocks), head, rules_lines or None))
    if method == "default" and is_listing(page.marked_article, headline_found, rules_body, rules_chars, total_chars,
                                          link_chars, blocks):
        # A body that is a sliver of a link-heavy page stating no article: a list page (page_kind.py).
        failure = Extraction.failure("listing_page", encoding, method)
        return failure.with_metadata(byline_metadata(page_lines(blocks), head, rules_lines))
    if budget.exceeded():
        return Extraction.failure("timeout", encoding, method)
    meta = byline_metadata(page_lines(blocks), head, lines)
    kinds = line_kinds(body, blocks)
    return Extraction(
        title=meta.title,
        author=meta.author,
        published_at=meta.published_at,
        authors=meta.authors,
        modified_at=meta.modified_at,
        site_name=meta.site_name,
        body=body,
        language=prose_language(lines, kinds),
        method=method,
        confidence=confidence(chars, total_chars, link_chars),
        reason=None,
        encoding=encoding,
        line_kinds=kinds,
    )
