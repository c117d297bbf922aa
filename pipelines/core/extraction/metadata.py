"""Title, authors, publication and modification dates and the site's name of a page.

Two steps, because cleaning the tree removes <head>: `head_metadata` reads the markup before cleaning (meta tags,
JSON-LD, microdata, <time>, <h1>, class-marked bylines) and `byline_metadata` then reads byline lines near the
headline in the page's text. Each field module (titles, bylines, date_sources) names its candidates by source and
takes them in the order measured to be most precise (`newscorpus eval metadata`). No per-site rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from lxml import etree

from pipelines.core.extraction import bylines, date_sources, titles
from pipelines.core.extraction.dates import parse_date
from pipelines.core.extraction.markup import read_markup

# Byline lines are looked for from a few lines above the headline to this many lines below it (zh portals put
# 来源/时间 right under the title; English bylines sit under the headline or its standfirst). Without a located
# headline the window is the page's first lines. 40 was the old fixed window from the top of the page.
LINES_ABOVE_HEADLINE = 5
LINES_BELOW_HEADLINE = 40
BYLINE_MAX_CHARS = 200  # a longer line is prose, not a byline

iso_date = parse_date  # the name tests and callers used before dates.py


@dataclass
class Metadata:
    title: str | None = None
    author: str | None = None  # the authors joined with ", " (what a single text column holds)
    published_at: str | None = None  # ISO 8601 with the page's own offset, or a bare day
    # Every title the page states (<title>, og:title, twitter:title, the chosen headline), for locating it.
    titles: tuple[str, ...] = field(default=(), compare=False, repr=False)
    authors: tuple[str, ...] = ()
    modified_at: str | None = None
    site_name: str | None = None
    # Candidates read from the markup, finished by byline_metadata with the page's lines.
    date_candidates: list = field(default_factory=list, compare=False, repr=False)
    author_candidates: list = field(default_factory=list, compare=False, repr=False)
    site_names: tuple[str, ...] = field(default=(), compare=False, repr=False)
    title_source: str | None = field(default=None, compare=False, repr=False)


def head_metadata(root: etree._Element, url: str | None = None, today: date | None = None) -> Metadata:
    """Read before the tree is cleaned (needs <head>, <script type=application/ld+json>, class names)."""
    markup = read_markup(root)
    choice = titles.choose_title(markup, url)
    stated = [text for _, text in titles.stated_titles(markup)]
    result = Metadata(title=choice.title, site_name=choice.site_name, title_source=choice.source)
    result.titles = tuple(dict.fromkeys(t for t in [*stated, choice.title] if t))
    result.site_names = tuple(titles.site_names(markup, url))
    result.date_candidates = date_sources.markup_dates(markup, today) + date_sources.url_candidates(url, today)
    result.author_candidates = bylines.markup_authors(markup)
    _decide(result)
    return result


def byline_window(lines: list[str], found: Metadata) -> list[str]:
    """The short lines around the headline (or the page's first lines when the headline is not among them)."""
    start = _headline_line(lines, found)
    if start is None:
        window = lines[: LINES_BELOW_HEADLINE]
    else:
        window = lines[max(0, start - LINES_ABOVE_HEADLINE): start + LINES_BELOW_HEADLINE]
    return [line for line in window if len(line) <= BYLINE_MAX_CHARS]


def _headline_line(lines: list[str], found: Metadata) -> int | None:
    keys = [k for k in (titles.key(t) for t in ((found.title,) + found.titles) if t) if len(k) >= 4]
    if not keys:
        return None
    for index, line in enumerate(lines):
        line_key = titles.key(line)
        if line_key and any(line_key == k or (len(line_key) >= 6 and line_key in k) or k in line_key
                            for k in keys) and len(line) <= titles.MAX_HEADLINE_CHARS:
            return index
    return None


def byline_metadata(lines: list[str], found: Metadata, today: date | None = None) -> Metadata:
    """Finish `found` with the byline lines near the headline: authors and dates the markup did not give, and the
    page's visible day where the markup states a UTC timestamp."""
    if found.title_source != "h1" and found.titles:
        found.title = titles.visible_title(lines, found.titles) or found.title
    window = byline_window(lines, found)
    candidates = found.date_candidates + date_sources.line_dates(window, today)
    authors = found.author_candidates + bylines.line_authors(window)
    _decide(found, candidates, authors)
    return found


def _decide(found: Metadata, dates: list | None = None, authors: list | None = None) -> None:
    chosen = date_sources.choose_dates(found.date_candidates if dates is None else dates)
    found.published_at, found.modified_at = chosen.published, chosen.modified
    names = bylines.choose_authors(found.author_candidates if authors is None else authors, set(found.site_names))
    found.authors = names
    found.author = ", ".join(names) if names else None
