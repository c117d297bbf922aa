"""Where a page states its dates, as candidates named by source: JSON-LD, meta tags, microdata, <time>, elements
whose class names a date, byline lines near the headline, the URL. `choose_dates` takes them in the order
measured to be most precise (see the constants below) and keeps the page's own calendar day.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from pipelines.core.extraction.dates import calendar_day, parse_date, url_date, utc_stated
from pipelines.core.extraction.markup import PageMarkup, article_objects, text_of

PUBLISHED_META = (
    "article:published_time", "og:article:published_time", "og:published_time", "published_time",
    "article:published", "datepublished", "pubdate", "publishdate", "publish-date", "publish_date",
    "parsely-pub-date", "sailthru.date", "dc.date.issued", "dcterms.issued", "dcterms.created", "dc.date.created",
    "citation_publication_date", "citation_date", "originalpublicationdate", "article.published", "date.publish",
    "article_date_original", "datecreated", "weibo:article:create_at", "publishtime", "pubtime", "release_date",
    "date", "dc.date", "dcterms.date", "created", "og:pubdate", "cxenseparse:recs:publishtime", "article.created",
    "bt:pubdate", "eomportal-lastupdate",
)  # fmt: skip
MODIFIED_META = (
    "article:modified_time", "og:article:modified_time", "og:updated_time", "datemodified", "modified_time",
    "last-modified", "lastmod", "dcterms.modified", "dc.date.modified", "article.updated", "revised",
    "weibo:article:update_at", "updated_time",
)  # fmt: skip
# Labels in front of a date in bylines (zh and en, and the common European ones). A modification label makes
# the date a modified date; a publication label marks it as the article's.
MODIFIED_LABEL = re.compile(
    r"updated|modified|last\s+edit|revised|更新|修改|修订|aktualisiert|mis\s+à\s+jour|actualizado|aggiornato",
    re.IGNORECASE,
)
PUBLISHED_LABEL = re.compile(
    r"publi[sc]|posted|written|created|date[ds]?\b|on\s*$|发布|发表|时间|日期|刊发|写于|张贴|出版|稿|"
    r"veröffentlicht|publié|publicado|pubblicato|gepubliceerd",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class DateCandidate:
    source: str  # "jsonld", "meta", "itemprop", "time", "marked", "line", "url"
    value: str  # ISO 8601 as parse_date returns it
    kind: str  # "published", "modified" or "unlabelled"


def _attribute_or_text(element, today: date | None) -> str | None:
    for name in ("datetime", "content", "title", "data-date", "data-time", "data-timestamp"):
        value = element.get(name)
        if value:
            found = parse_date(value, today)
            if found:
                return found
    return parse_date(text_of(element, 200), today)


def markup_dates(markup: PageMarkup, today: date | None = None) -> list[DateCandidate]:
    """Dates the markup states, each source's first published and first modified value."""
    found: list[DateCandidate] = []
    for key, kind in (("datePublished", "published"), ("dateCreated", "published"), ("dateModified", "modified")):
        for item in article_objects(markup):
            value = item.get(key)
            parsed = parse_date(value, today) if isinstance(value, str) else None
            if parsed:
                found.append(DateCandidate("jsonld", parsed, kind))
                break
    for names, kind in ((PUBLISHED_META, "published"), (MODIFIED_META, "modified")):
        for name in names:
            parsed = next((p for p in (parse_date(v, today) for v in markup.meta.get(name, ())) if p), None)
            if parsed:
                found.append(DateCandidate("meta", parsed, kind))
                break
    for wanted, kind in (("datepublished", "published"), ("datecreated", "published"), ("datemodified", "modified")):
        for prop, element in markup.itemprops:
            if prop == wanted:
                parsed = _attribute_or_text(element, today)
                if parsed:
                    found.append(DateCandidate("itemprop", parsed, kind))
                    break
    for source, elements in (("time", markup.times), ("marked", markup.date_marked)):
        for element in elements:
            parsed = _attribute_or_text(element, today)
            if parsed:
                found.append(DateCandidate(source, parsed, _label_kind(_label_text(element))))
                break
    return found


def _label_text(element) -> str:
    """The element's own class/id and the text just before it (its parent's text up to it), where labels sit."""
    parent = element.getparent()
    before = ""
    if parent is not None:
        before = (parent.text or "") + " ".join((sibling.tail or "") for sibling in element.itersiblings(preceding=True))
    return f"{element.get('class') or ''} {element.get('itemprop') or ''} {before[-40:]} {text_of(element, 60)}"


def _label_kind(text: str) -> str:
    if MODIFIED_LABEL.search(text):
        return "modified"
    return "published" if PUBLISHED_LABEL.search(text) else "unlabelled"


def line_dates(lines: list[str], today: date | None = None) -> list[DateCandidate]:
    """Dates in byline-looking lines (short lines), in order; a label alone on a line takes the next line's date."""
    found: list[DateCandidate] = []
    for index, line in enumerate(lines):
        parsed = parse_date(line, today)
        label = line
        if parsed is None and len(line) <= 12 and index + 1 < len(lines) and _label_kind(line) != "unlabelled":
            parsed = parse_date(lines[index + 1], today)
        if parsed is None:
            continue
        position = _date_position(line)
        found.append(DateCandidate("line", parsed, _label_kind(label[:position] if position else label)))
    return found


def _date_position(line: str) -> int:
    match = re.search(r"\d{4}|\d{1,2}[./-]\d{1,2}", line)
    return match.start() if match else 0


def url_candidates(url: str | None, today: date | None = None) -> list[DateCandidate]:
    found = url_date(url, today)
    return [DateCandidate("url", found, "published")] if found else []


def same_day(first: str | None, second: str | None) -> bool:
    return first is not None and calendar_day(first) == calendar_day(second)


def visible_day_of_utc(value: str, visible: list[DateCandidate]) -> str:
    """A UTC timestamp (`+00:00`) shown on the page as a local date one day off: keep the page's day.

    Yoast-style JSON-LD states publication in UTC while the byline shows the site's local day; when a visible
    date (time element, date-classed element, byline line) lies one day from the UTC day, the visible one is the
    page's calendar day.
    """
    if not utc_stated(value):
        return value
    day = calendar_day(value)
    for candidate in visible:
        shown = calendar_day(candidate.value)
        if shown is not None and day is not None and abs((shown - day).days) == 1 and candidate.kind != "modified":
            return candidate.value
    return value


STRUCTURED_SOURCES = ("meta", "jsonld", "itemprop")  # measured precision on wcxb_train + zh: .95, .86, .84
VISIBLE_SOURCES = ("time", "marked", "line")


@dataclass(frozen=True)
class PageDates:
    published: str | None
    modified: str | None
    source: str | None  # where the published date came from


def _first(candidates: list[DateCandidate], sources: tuple[str, ...], kinds: tuple[str, ...]) -> DateCandidate | None:
    for source in sources:
        for candidate in candidates:
            if candidate.source == source and candidate.kind in kinds:
                return candidate
    return None


def choose_dates(candidates: list[DateCandidate]) -> PageDates:
    """The publication and modification dates from all candidates (see the module's docstring for the order)."""
    structured = _first(candidates, STRUCTURED_SOURCES, ("published",))
    visible = _first(candidates, VISIBLE_SOURCES, ("published",)) or _first(candidates, VISIBLE_SOURCES,
                                                                             ("unlabelled",))
    modified = _first(candidates, STRUCTURED_SOURCES + VISIBLE_SOURCES, ("modified",))
    chosen = structured
    if structured is not None and visible is not None:
        apart = (calendar_day(structured.value) - calendar_day(visible.value)).days
        if utc_stated(structured.value) and abs(apart) == 1:
            chosen = visible
        elif modified is not None and same_day(structured.value, modified.value) and apart > 0:
            chosen = visible
    if chosen is None:
        chosen = visible or _first(candidates, ("url",), ("published",)) or modified
    return PageDates(chosen.value if chosen else None, modified.value if modified else None,
                     chosen.source if chosen else None)
