"""The plain forms of the metadata readers (titles, bylines, dates): each computes what a faster form in
newscorpus/core/extraction computes, the straightforward way the code first did it (a regex where a byte table
now stands, every pattern in turn, every name looked up). tests/core/extraction/test_fast_forms_of_metadata.py
compares the two.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date

from newscorpus.core.extraction import bylines, date_sources, dates, titles
from newscorpus.core.extraction.bylines import (
    EN_LABELLED,
    LABEL_ALONE,
    ZH_BRACKET,
    ZH_EDITOR,
    ZH_LABELLED,
    ZH_POSTED,
    ZH_REPORTER,
    AuthorCandidate,
    _byline_hint,
    _pattern_names,
)
from newscorpus.core.extraction.date_sources import (
    MODIFIED_META,
    PUBLISHED_META,
    DateCandidate,
    _date_position,
    _label_kind,
)
from newscorpus.core.extraction.dates import parse_date
from newscorpus.core.extraction.markup import PageMarkup, article_objects

# --- titles ----------------------------------------------------------------------------------------------------

_NOT_LETTERS = re.compile(r"[\W_]+")


def regex_key(text: str | None) -> str:
    """titles.key by its regex for every text, ASCII or not."""
    return _NOT_LETTERS.sub("", unicodedata.normalize("NFKC", text or "")).lower()


def visible_title_word_count_first(lines: list[str], stated: tuple[str, ...],
                                   sites: tuple[str, ...] = ()) -> str | None:
    """titles.visible_title testing a line's word count before its key."""
    keys = [titles.key(text) for text in stated if text]
    site_keys = {titles.key(site) for site in sites}
    best = None
    for line in lines:
        if len(line) > titles.MAX_HEADLINE_CHARS or (best is not None and len(line) <= len(best)):
            continue
        line_key = titles.key(line)
        long_enough = len(line.split()) >= titles.MIN_LINE_WORDS or \
            len(re.findall(titles._HAN, line)) >= titles.MIN_LINE_CJK_CHARS
        if long_enough and line_key and line_key not in site_keys and any(line_key in k for k in keys):
            best = line
    return best


# --- bylines ---------------------------------------------------------------------------------------------------


def line_authors_every_pattern(lines: list[str], source: str = "line") -> list[AuthorCandidate]:
    """bylines.line_authors asking every pattern in turn of every hinted line, ASCII or not."""
    found: dict[int, list[AuthorCandidate]] = {0: [], 1: [], 2: [], 3: []}
    for index, line in enumerate(lines):
        if not _byline_hint(line):
            continue
        if LABEL_ALONE.fullmatch(line) and index + 1 < len(lines):
            names = bylines.split_names(lines[index + 1])
            if names:
                found[0].append(AuthorCandidate(source, names))
            continue
        for strength, pattern in ((0, ZH_LABELLED), (0, EN_LABELLED), (1, ZH_REPORTER), (1, ZH_BRACKET),
                                  (2, ZH_POSTED)):
            names = _pattern_names(pattern, line)
            if names:
                found[strength].append(AuthorCandidate(source, names))
                break
        else:
            names = _pattern_names(ZH_EDITOR, line)
            if names:
                found[3].append(AuthorCandidate("editor", names))
    return found[0] + found[1] + found[2] + found[3]


def meta_author_every_name(page_markup: PageMarkup) -> AuthorCandidate | None:
    """The meta tags' author candidate, every name of AUTHOR_META looked up: the first that names someone, or a
    later one naming the same people and more."""
    chosen: tuple[str, ...] = ()
    stated: tuple[str, ...] = ()
    for key in bylines.AUTHOR_META:
        if key == "twitter:data1" and (page_markup.first_meta("twitter:label1") or "").lower() not in (
                "written by", "author", "by"):
            continue
        values = tuple(page_markup.meta.get(key, ()))
        names = tuple(dict.fromkeys(n for value in values for n in bylines.split_names(value, strict=False)))
        if not chosen:
            chosen, stated = names, values
        elif len(names) > len(chosen) and {bylines.name_key(n) for n in chosen} <= {bylines.name_key(n) for n in names}:
            chosen, stated = names, values
    return AuthorCandidate("meta", chosen[:bylines.MAX_AUTHORS], stated=stated) if chosen else None


# --- dates -----------------------------------------------------------------------------------------------------


def line_dates_label_first(lines: list[str], today: date | None = None, source: str = "line") -> list[DateCandidate]:
    """date_sources.line_dates reading a short line's label before parsing the next line."""
    found = []
    for index, line in enumerate(lines):
        parsed = parse_date(line, today)
        label = line
        if parsed is None and len(line) <= 12 and index + 1 < len(lines) and _label_kind(line) != "unlabelled":
            parsed = parse_date(lines[index + 1], today)
        if parsed is None:
            continue
        position = _date_position(line)
        found.append(DateCandidate(source, parsed, _label_kind(label[:position] if position else label)))
    return found


def markup_dates_every_name(page_markup: PageMarkup, today: date | None = None) -> list[DateCandidate]:
    """date_sources.markup_dates in one function: the JSON-LD objects ordered once per key, every meta name looked
    up."""
    found = []
    for key, kind in (("datePublished", "published"), ("dateCreated", "published"), ("dateModified", "modified")):
        for item in article_objects(page_markup):
            value = item.get(key)
            parsed = parse_date(value, today) if isinstance(value, str) else None
            if parsed:
                found.append(DateCandidate("jsonld", parsed, kind))
                break
    for names, kind in ((PUBLISHED_META, "published"), (MODIFIED_META, "modified")):
        for name in names:
            parsed = next((p for p in (parse_date(v, today) for v in page_markup.meta.get(name, ())) if p), None)
            if parsed:
                found.append(DateCandidate("meta", parsed, kind))
                break
    if not any(candidate.source == "meta" and candidate.kind == "published" for candidate in found):
        for name, values in page_markup.meta.items():
            if date_sources.CUSTOM_PUBLISHED_META.search(name) and not date_sources.CUSTOM_OTHER_META.search(name):
                parsed = next((p for p in (parse_date(v, today) for v in values) if p), None)
                if parsed:
                    found.append(DateCandidate("meta", parsed, "published"))
                    break
    for wanted, kind in (("datepublished", "published"), ("datecreated", "published"), ("datemodified", "modified")):
        for prop, element in page_markup.itemprops:
            if prop == wanted:
                read = date_sources._attribute_or_text_read(element, today)
                parsed = read[0] if read else None
                if parsed:
                    found.append(DateCandidate("itemprop", parsed, kind))
                    break
    for source, elements in (("time", page_markup.times), ("marked", page_markup.date_marked)):
        for element in elements:
            read = date_sources._attribute_or_text_read(element, today)
            parsed = read[0] if read else None
            if parsed:
                label = date_sources._label_text(element, date_sources._label_words(element))
                found.append(DateCandidate(source, parsed, _label_kind(label)))
                break
    return found


def parse_date_every_pattern(text: str | None, today: date | None = None) -> str | None:
    """dates.parse_date scanning every pattern, after a date at the text's start too."""
    if not text:
        return None
    text = text[:2000]
    short = dates._short_year_first(text, None, today)
    if dates._YEAR_DIGITS.search(text) is None:
        return short[1] if short else None
    found = []
    match = dates.ISO.search(text)
    if match:
        year, month, day, hour, minute, second, zone = match.groups()
        valid = dates._valid(int(year), int(month), int(day), today)
        if valid:
            found.append((match.start(), dates._iso(valid, hour, minute, second, zone=zone)))
    match = dates.YEAR_FIRST.search(text)
    if match and (not found or match.start() < found[0][0]):
        year, _, month, day, *clock = match.groups()
        valid = dates._valid(int(year), int(month), int(day), today)
        if valid:
            found.append((match.start(), dates._iso(valid, *clock)))
    for pattern in (dates.NUMBER_FIRST, dates.MONTH_FIRST, dates.DAY_FIRST, dates.YEAR_MONTH_DAY):
        for match in pattern.finditer(text):
            if found and match.start() >= min(position for position, _ in found):
                break
            value = dates._read_match(pattern, match, today)
            if value:
                found.append((match.start(), value))
                break
    if short and (not found or short[0] < min(found)[0]):
        found.append(short)
    return min(found)[1] if found else None
