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

from newscorpus.core.extraction import bylines, date_sources, titles
from newscorpus.core.extraction.dates import parse_date
from newscorpus.core.extraction.markup import PageMarkup, read_markup

# Byline lines are looked for from a few lines above the headline to this many lines below it (zh portals put
# 来源/时间 right under the title; English bylines sit under the headline or its standfirst). Without a located
# headline the window is the page's first lines. 40 was the old fixed window from the top of the page.
LINES_ABOVE_HEADLINE = 5
LINES_BELOW_HEADLINE = 40
BYLINE_MAX_CHARS = 200  # a longer line is prose, not a byline
# Without a located headline the window starts this many lines above the body's first line (the headline and
# byline sit just above the body); after the body, this many lines are read for a trailing date or author box.
LINES_BEFORE_BODY = 20
LINES_AFTER_BODY = 10

iso_date = parse_date  # the name tests and callers used before dates.py


@dataclass
class Metadata:
    title: str | None = None
    author: str | None = None  # the authors joined with ", " (what a single text column holds)
    published_at: str | None = None  # ISO 8601 with the page's own offset, or a bare day
    # Every title the page states (JSON-LD headline, og:title, <title>, ...), for locating the headline block
    # (not the chosen title: a logo <h1> chosen on a single page would become the body window).
    titles: tuple[str, ...] = field(default=(), compare=False, repr=False)
    authors: tuple[str, ...] = ()
    modified_at: str | None = None
    site_name: str | None = None
    # Candidates read from the markup, and all of them once byline_metadata added the page's lines (evaluation
    # reads them; byline_metadata may run more than once on one head: the site-aware cascade's configurations).
    markup_dates: list = field(default_factory=list, compare=False, repr=False)
    markup_authors: list = field(default_factory=list, compare=False, repr=False)
    date_candidates: list = field(default_factory=list, compare=False, repr=False)
    author_candidates: list = field(default_factory=list, compare=False, repr=False)
    site_names: tuple[str, ...] = field(default=(), compare=False, repr=False)
    title_source: str | None = field(default=None, compare=False, repr=False)
    stated_titles: tuple[str, ...] = field(default=(), compare=False, repr=False)  # without the site's name
    url: str | None = field(default=None, compare=False, repr=False)
    html_text: str | None = field(default=None, compare=False, repr=False)  # for the htmldate fallback


def head_metadata(root: etree._Element, url: str | None = None, today: date | None = None,
                  html_text: str | None = None, markup: PageMarkup | None = None) -> Metadata:
    """Read before the tree is cleaned (needs <head>, <script type=application/ld+json>, class names). `html_text`,
    the decoded page, is kept for the last date fallback (htmldate) that byline_metadata may run. `markup`:
    `read_markup(root)` when the caller has read it already."""
    if markup is None:
        markup = read_markup(root)
    choice = titles.choose_title(markup, url)
    result = Metadata(title=choice.title, site_name=choice.site_name, title_source=choice.source, url=url,
                      html_text=html_text, stated_titles=choice.stated)
    # the stated titles and site names as the title's choice read them (stated_titles, site_names)
    result.titles = tuple(dict.fromkeys(t for t in choice.stated_texts if t))
    # The names the page gives its site (never an author): stated (og:site_name, JSON-LD), its logo heading, and the
    # parts of its <title> beside the headline.
    result.site_names = tuple(dict.fromkeys(
        name for name in (*choice.site_names, choice.site_name, *choice.site_texts,
                          *titles.title_affixes(markup.title, choice.title)) if name))
    result.markup_dates = date_sources.markup_dates(markup, today) + date_sources.url_candidates(url, today)
    result.markup_authors = bylines.markup_authors(markup)
    result.date_candidates, result.author_candidates = result.markup_dates, result.markup_authors
    _decide(result)
    return result


def byline_window(lines: list[str], found: Metadata, body: list[str] | None = None) -> list[str]:
    """The short lines around the headline; without a located headline, around the body's first line (when the
    body is known), else the page's first lines."""
    above, below = byline_windows(lines, found, body)
    return above + below


def byline_windows(lines: list[str], found: Metadata,
                   body: list[str] | None = None) -> tuple[list[str], list[str]]:
    """byline_window in two parts: the lines above the located headline, and those from it on (all of them in the
    second part without a located headline)."""
    start = _headline_line(lines, found)
    if start is not None:
        return (_short_lines(lines[max(0, start - LINES_ABOVE_HEADLINE): start]),
                _short_lines(lines[start: start + LINES_BELOW_HEADLINE]))
    begin = _line_index(lines, body[0]) if body else None
    window = lines[max(0, begin - LINES_BEFORE_BODY): begin + LINES_BELOW_HEADLINE] if begin is not None \
        else lines[:LINES_BELOW_HEADLINE]
    return [], _short_lines(window)


def _short_lines(window: list[str]) -> list[str]:
    """The window's byline-sized lines; of a longer line (prose), only the reporter's credit at its start or end
    ("新华社北京3月5日电（记者 李明）…", "…。（总台记者 张倩）")."""
    short = [line for line in window if len(line) <= BYLINE_MAX_CHARS]
    if len(short) == len(window):  # no prose line in the window
        return short
    return [piece for line in window for piece in
            ((line,) if len(line) <= BYLINE_MAX_CHARS else bylines.prose_credits(line))]


def tail_window(lines: list[str], body: list[str] | None) -> list[str]:
    """The short lines at the body's end and just after it (a "Last updated" line, an author box)."""
    if not body:
        return []
    end = _line_index(lines, body[-1], last=True)
    if end is None:
        return []
    return _short_lines(lines[max(0, end - 2): end + LINES_AFTER_BODY])


def _line_index(lines: list[str], wanted: str, last: bool = False) -> int | None:
    first_line = wanted.split("\n", 1)[0] if not last else wanted.rsplit("\n", 1)[-1]
    indexes = range(len(lines) - 1, -1, -1) if last else range(len(lines))
    return next((index for index in indexes if lines[index] == first_line), None)


def _headline_line(lines: list[str], found: Metadata) -> int | None:
    """Index of the headline's line: the line equal to the chosen title, else to a stated title (in their order),
    else the first line containing (or contained in) a title."""
    keys = [k for k in (titles.key(t) for t in found.titles) if len(k) >= 4]
    if not keys:
        return None
    chosen = titles.key(found.title)
    wanted = ([chosen] if len(chosen) >= 4 else []) + keys
    exact, contained = _title_lines(lines, found.titles, wanted, keys)
    return next((exact[k] for k in wanted if k in exact), contained)


def _title_lines(lines: list[str], stated: tuple[str, ...], wanted: list[str],
                 keys: list[str]) -> tuple[dict[str, int], int | None]:
    """The first line equal to each of `wanted` (keys), and the first other line containing or contained in one of
    `keys`. Only lines of a title's length are compared (the cost is each line's key); the search ends at the
    line equal to wanted[0], which no other can outrank."""
    shortest = min(len(t) for t in stated if t) // 3
    longest = min(titles.MAX_HEADLINE_CHARS, 2 * max(len(t) for t in stated if t) + 20)
    exact: dict[str, int] = {}
    contained: int | None = None
    for index, line in enumerate(lines):
        if not shortest <= len(line) <= longest:
            continue
        line_key = titles.key(line)
        if not line_key:
            continue
        if line_key in wanted and line_key not in exact:
            exact[line_key] = index
            if line_key == wanted[0]:
                break
        elif contained is None and _holds_title(line_key, keys):
            contained = index
    return exact, contained


def _holds_title(line_key: str, keys: list[str]) -> bool:
    """Whether a line's key holds one of the title keys, or is a part (6 characters at least) of one."""
    return any((len(line_key) >= 6 and line_key in k) or k in line_key for k in keys)


def byline_metadata(lines: list[str], found: Metadata, body: list[str] | None = None,
                    today: date | None = None) -> Metadata:
    """Finish `found` with the byline lines near the headline (and after the body's end, when `body` gives its
    lines): authors and dates the markup did not give, and the page's visible day where the markup states a UTC
    timestamp."""
    if found.title_source != "h1" and found.stated_titles:
        found.title = titles.visible_title(lines, found.stated_titles, found.site_names) or found.title
    above, below = byline_windows(lines, found, body)
    window = above + below
    tail = tail_window(lines, body)
    candidates = found.markup_dates + date_sources.byline_dates(above, below, today) + \
        date_sources.line_dates(tail, today, source="tail")
    authors = found.markup_authors + bylines.line_authors(window) + bylines.bare_name_authors(below) + \
        bylines.line_authors(tail, source="tail")
    days = date_sources.stated_days(candidates)
    if not days:  # measured: where only a modified date is stated, it beats htmldate (.57 vs .48 exact)
        candidates += date_sources.htmldate_candidate(found.html_text, found.url) or \
            date_sources.month_candidates(window + tail, today)
    elif all(candidate.kind == "modified" for candidate in days) or \
            any(candidate.other_order for candidate in days):  # a month beats a modified date, fixes an order
        candidates += date_sources.month_candidates(window + tail, today)
    found.date_candidates, found.author_candidates = candidates, authors
    _decide(found)
    return found


def _decide(found: Metadata) -> None:
    chosen = date_sources.choose_dates(found.date_candidates)
    found.published_at, found.modified_at = chosen.published, chosen.modified
    names = bylines.choose_authors(found.author_candidates, set(found.site_names))
    found.authors = names
    found.author = ", ".join(names) if names else None
