"""What a page's markup states about its article, read in one walk of the parsed tree before it is cleaned:
<meta> tags, JSON-LD, microdata (itemprop), <time>, <h1>, <title>, rel=author links and the elements whose
class or id names an author, byline or date. The field modules (dates, bylines, titles) choose from it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from lxml import etree

# Class/id words that mark a byline or date element (WordPress, Drupal, hAtom, news CMS conventions, and the
# Chinese portals' pinyin: zuozhe = author, fabu/pubtime = publish time). Matched inside one class token or the
# id ("post-author", "entry-date", "article__byline"), so "authority" or "update" match too: the readers check
# what they find (a name, a date) before using it.
AUTHOR_WORDS = ("author", "byline", "by-line", "writer", "creator", "reporter", "zuozhe", "journalist")
AUTHOR_NAMES = re.compile("|".join(AUTHOR_WORDS))
DATE_NAMES = re.compile(r"date|publish|posted|pubtime|pub-time|pub_time|timestamp|time-stamp|fabu|entry-time|"
                        r"post-time|post_time|article-time|article_time|news-time|news_time|^time$")
# Links to an author's page on the site: /author/jane-roe, /blog/authors/jane-roe/, /contributors/jane-roe.
AUTHOR_HREF = re.compile(r"^(?:https?://[^/]+)?(?:/[\w.-]+)*/(?:author|authors|autor|autores|writers?|contributors?|"
                         r"columnists?|reporters?|journalists?)/[\w%.\-]+/?(?:$|[?#])", re.IGNORECASE)
_HREF_WORDS = ("author", "autor", "writer", "contributor", "columnist", "reporter", "journalist")
_HREF_HINT = re.compile("|".join(_HREF_WORDS), re.IGNORECASE)
_HREF_HINT_LOWER = re.compile("|".join(_HREF_WORDS))


def _href_hint(href: str) -> bool:
    """Whether _HREF_HINT matches: for an ASCII href (nearly all) the same answer from the plain pattern on its lower
    case, several times faster than the case-insensitive alternation (every <a> is asked)."""
    if href.isascii():
        lowered = href.lower()
        # _HREF_WORDS hold "aut" (author, autor) or are one of the five others: few hrefs pass these substring tests,
        # which cost less than the search (tests/core/extraction/test_fast_forms_of_page_preparation.py compares)
        if ("aut" in lowered or "writer" in lowered or "contributor" in lowered or "columnist" in lowered
                or "reporter" in lowered or "journalist" in lowered):
            return _HREF_HINT_LOWER.search(lowered) is not None
        return False
    return _HREF_HINT.search(href) is not None


# JSON-LD: at most this many objects per page (a page with a huge product graph is not read past it).
MAX_JSON_LD_OBJECTS = 200
MAX_MARKED = 50  # class-marked elements kept per kind, in document order (the first ones are near the top)


@dataclass
class PageMarkup:
    meta: dict[str, list[str]] = field(default_factory=dict)  # lower-cased name/property -> contents in order
    json_ld: list[dict] = field(default_factory=list)
    itemprops: list[tuple[str, etree._Element]] = field(default_factory=list)  # (lower-cased itemprop, element)
    times: list[etree._Element] = field(default_factory=list)
    h1s: list[etree._Element] = field(default_factory=list)
    title: str | None = None
    rel_authors: list[etree._Element] = field(default_factory=list)
    author_links: list[etree._Element] = field(default_factory=list)  # <a href="/author/jane-roe">
    author_marked: list[etree._Element] = field(default_factory=list)
    date_marked: list[etree._Element] = field(default_factory=list)
    # Read in the same walk for the steps after it: the elements marked as a dialog (cleaning.dialogs, before
    # cleaning: clean_tree skips those it has dropped since) and whether the page states it is an article (og:type
    # "article" or a JSON-LD ARTICLE_LD type; page_kind.is_listing).
    dialogs: list[etree._Element] = field(default_factory=list)
    article_marked: bool = False
    # ... and the elements cleaning.clean_tree looks at, in document order: <input> (e-mail fields), <button>, and
    # the NESTING_DROPS elements (three walks of the whole tree fewer).
    inputs: list[etree._Element] = field(default_factory=list)
    buttons: list[etree._Element] = field(default_factory=list)
    nesting: list[etree._Element] = field(default_factory=list)
    # ... and the elements hidden by their inline style (display:none, visibility:hidden), in document order, for
    # region.hidden_blocks. Not the `hidden` attribute: script frameworks stream whole pages into <div hidden>.
    hidden: list[etree._Element] = field(default_factory=list)

    def first_meta(self, *names: str) -> str | None:
        for name in names:
            for value in self.meta.get(name, ()):
                if value.strip():
                    return value.strip()
        return None


_AUTHOR, _DATE = 1, 2
# Marks per class token, shared across pages (sites and CSS frameworks repeat their tokens); emptied when it
# reaches this size so a long crawl's memory stays bounded (~100k short strings, a few MB).
_TOKEN_CACHE_SIZE = 100_000
_token_marks: dict[str, int] = {}


# A word every alternative of DATE_NAMES holds (tests/core/extraction/test_fast_forms_of_page_preparation.py checks
# it): a token holding none (most tokens) is not searched. AUTHOR_NAMES is its words' alternation: finding one of
# them is its whole answer.
_DATE_WORDS = ("date", "publish", "posted", "time", "fabu")


def _holds_any(lowered: str, words: tuple[str, ...]) -> bool:
    for word in words:
        if word in lowered:
            return True
    return False


def _token_mark(token: str) -> int:
    mark = _token_marks.get(token)
    if mark is None:
        lowered = token.lower()
        # most new tokens (ids) hold no mark word: one search instead of 13 substring tests
        if _MARK_WORDS.search(lowered) is None:
            mark = 0
        else:
            mark = (_AUTHOR if _holds_any(lowered, AUTHOR_WORDS) else 0) | \
                (_DATE if _holds_any(lowered, _DATE_WORDS) and DATE_NAMES.search(lowered) else 0)
        if len(_token_marks) >= _TOKEN_CACHE_SIZE:
            _token_marks.clear()
        _token_marks[token] = mark
    return mark


# Any word a token needs for a mark: a class string holding none of them in lower case has no marked token, so it is
# answered without splitting it (most class strings; tests/core/extraction/test_fast_forms_of_page_preparation.py
# checks it against the per-token marks).
_MARK_WORDS = re.compile("|".join(AUTHOR_WORDS + _DATE_WORDS))


def _class_mark(names: str) -> int:
    """Marks of a whole class attribute (cached as a whole too: a page repeats its class strings)."""
    mark = _token_marks.get(names)
    if mark is None:
        mark = 0
        if _MARK_WORDS.search(names.lower()):
            for token in names.split():
                mark |= _token_mark(token)
        _token_marks[names] = mark
    return mark


# WAI-ARIA dialog roles (cleaning.py says why dialogs are dropped).
DIALOG_ROLES = frozenset({"dialog", "alertdialog"})
# JSON-LD types that say "this page is one article" (schema.org Article and its subtypes used by news sites).
ARTICLE_LD = re.compile(
    r'"@type"\s*:\s*\[?\s*"(?:Article|NewsArticle|BlogPosting|ReportageNewsArticle|AnalysisNewsArticle|'
    r'OpinionNewsArticle|TechArticle|ScholarlyArticle|Report|LiveBlogPosting)"'
)

_SKIPPED_TAGS = frozenset({"html", "body", "meta", "link", "head", "style", "noscript"})


def read_markup(root: etree._Element) -> PageMarkup:
    """One walk over the elements, reading each one's attributes once (`items()`: one call, empty for most): an
    element of a tag in _TAG_READERS is read by its reader, its class and id words are marked (cached per value and
    token), and its attributes named in _ATTRIBUTE_READERS are read by theirs. Most of the cost is the walk itself."""
    markup = PageMarkup()
    token_marks = _token_marks
    tag_readers = _TAG_READERS
    attribute_readers = _ATTRIBUTE_READERS
    for element in root.iter(etree.Element):
        tag = element.tag
        read_tag = tag_readers.get(tag)
        if read_tag is not None:
            read_tag(element, markup)
        attributes = element.items()
        if not attributes:
            continue
        mark = 0
        dialog = False
        for name, value in attributes:
            if name == "class":
                known = token_marks.get(value)  # _class_mark's cache, asked here first: no call for a known class
                mark |= _class_mark(value) if known is None else known
            elif name == "id":
                known = token_marks.get(value)  # as for classes: no call for a known id
                mark |= _token_mark(value) if known is None else known
            else:
                read_attribute = attribute_readers.get(name)  # style, src, data-*, ...: one lookup, no call
                if read_attribute is not None and read_attribute(value, element, tag, markup):
                    dialog = True
        if dialog:
            markup.dialogs.append(element)
        if mark and tag not in _SKIPPED_TAGS:
            _keep_marked(element, mark, markup)
    return markup


def _keep_marked(element: etree._Element, mark: int, markup: PageMarkup) -> None:
    """An element whose class or id marks an author or a date, kept among the first MAX_MARKED of its kind."""
    if mark & _AUTHOR and len(markup.author_marked) < MAX_MARKED:
        markup.author_marked.append(element)
    if mark & _DATE and len(markup.date_marked) < MAX_MARKED:
        markup.date_marked.append(element)


# The attributes read_markup reads besides class and id: (value, element, tag, markup) -> whether the attribute marks
# the element as a dialog.
def _read_itemprop(value: str, element: etree._Element, tag: str, markup: PageMarkup) -> bool:
    markup.itemprops.append((value.strip().lower(), element))
    return False


def _read_rel(value: str, element: etree._Element, tag: str, markup: PageMarkup) -> bool:
    if "author" in value.lower().split():
        markup.rel_authors.append(element)
    return False


def _read_href(value: str, element: etree._Element, tag: str, markup: PageMarkup) -> bool:
    """A link to an author's page (the first MAX_MARKED)."""
    if tag == "a" and len(markup.author_links) < MAX_MARKED and _href_hint(value) and AUTHOR_HREF.search(value):
        markup.author_links.append(element)
    return False


_HIDING_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


def hides(style: str) -> bool:
    """Whether an inline style hides its element (display:none, visibility:hidden, in any case)."""
    # most inline styles hide nothing: the substring tests spare them the search
    lowered = style.lower()
    return ("none" in lowered or "hidden" in lowered) and _HIDING_STYLE.search(lowered) is not None


def _read_style(value: str, element: etree._Element, tag: str, markup: PageMarkup) -> bool:
    if hides(value):
        markup.hidden.append(element)
    return False


def _read_role(value: str, element: etree._Element, tag: str, markup: PageMarkup) -> bool:
    return value in DIALOG_ROLES


def _read_aria_modal(value: str, element: etree._Element, tag: str, markup: PageMarkup) -> bool:
    return value == "true"


_ATTRIBUTE_READERS = {
    "itemprop": _read_itemprop,
    "rel": _read_rel,
    "href": _read_href,
    "role": _read_role,
    "aria-modal": _read_aria_modal,
    "style": _read_style,
}


# The dropped elements that an unclosed start tag can make hold the page (cleaning.py says why).
NESTING_DROPS = ("select", "option", "object", "applet", "map", "video", "audio", "canvas", "picture", "embed")


# The elements read_markup reads by their tag: (element, markup).
def _read_meta(element: etree._Element, markup: PageMarkup) -> None:
    """A <meta>'s content under its lower-cased property, name or itemprop; og:type "article" marks the page."""
    key = (element.get("property") or element.get("name") or element.get("itemprop") or "").strip().lower()
    content = element.get("content")
    if key and content:
        markup.meta.setdefault(key, []).append(content)
    if not markup.article_marked and "og:type" in (element.get("property"), element.get("name")):
        markup.article_marked = (content or "").strip().lower() == "article"


def _read_script(element: etree._Element, markup: PageMarkup) -> None:
    """A JSON-LD script's objects; one of an ARTICLE_LD type marks the page."""
    kind = element.get("type")
    if element.text and (kind or "").strip().lower() == "application/ld+json":
        _read_json_ld(element.text, markup.json_ld)
    if not markup.article_marked and kind == "application/ld+json":
        markup.article_marked = any(ARTICLE_LD.search(str(text)) for text in element.xpath("text()"))


def _read_title(element: etree._Element, markup: PageMarkup) -> None:
    if markup.title is None:
        markup.title = element.text


def _kept_in(name: str) -> Callable[[etree._Element, PageMarkup], None]:
    """A reader that keeps the element in the markup's list `name`."""

    def keep(element: etree._Element, markup: PageMarkup) -> None:
        getattr(markup, name).append(element)

    return keep


_TAG_READERS = {
    "meta": _read_meta,
    "script": _read_script,
    "title": _read_title,
    "time": _kept_in("times"),
    "h1": _kept_in("h1s"),
    "input": _kept_in("inputs"),
    "button": _kept_in("buttons"),
    **dict.fromkeys(NESTING_DROPS, _kept_in("nesting")),
}


def _read_json_ld(text: str, objects: list[dict]) -> None:
    try:
        data = json.loads(text.strip().rstrip(";"))
    except ValueError:
        return
    stack = [data]
    while stack and len(objects) < MAX_JSON_LD_OBJECTS:
        item = stack.pop(0)
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            objects.append(item)
            graph = item.get("@graph")
            if isinstance(graph, list):
                stack.extend(graph)
            main = item.get("mainEntity") or item.get("mainEntityOfPage")
            if isinstance(main, dict) and ("@type" in main and main.get("headline") or main.get("datePublished")):
                stack.append(main)


def ld_types(item: dict) -> set[str]:
    kind = item.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return {k.rsplit("/", 1)[-1].lower() for k in kinds if isinstance(k, str)}


# JSON-LD types that describe an article (schema.org CreativeWork kinds used for news and blog posts).
ARTICLE_TYPES = frozenset({
    "article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle", "opinionnewsarticle",
    "backgroundnewsarticle", "reviewnewsarticle", "techarticle", "scholarlyarticle", "socialmediaposting",
    "liveblogposting", "report", "review", "posting", "advertisercontentarticle", "satiricalarticle", "howto",
    "recipe", "medicalwebpage", "creativework", "discussionforumposting", "qapage", "videoobject", "event",
})  # fmt: skip


def article_objects(markup: PageMarkup) -> list[dict]:
    """JSON-LD objects describing an article first, then web pages, then the rest (that order is what the
    readers trust: a WebPage's dates are often the page's, not the story's)."""
    articles = [o for o in markup.json_ld if ld_types(o) & ARTICLE_TYPES]
    pages = [o for o in markup.json_ld if "webpage" in ld_types(o) or "itempage" in ld_types(o)]
    rest = [o for o in markup.json_ld if o not in articles and o not in pages]
    return articles + pages + rest


def text_of(element: etree._Element, limit: int = 400) -> str:
    """The element's text, spaces collapsed, cut at `limit` characters."""
    parts: list[str] = []
    size = 0
    for piece in element.itertext():
        parts.append(piece)
        size += len(piece)
        if size > limit:
            break
    return " ".join(" ".join(parts).split())[:limit]
