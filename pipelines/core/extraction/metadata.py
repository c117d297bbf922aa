"""Title, author and publish time from <title>/og:title/h1, meta tags, JSON-LD, <time> and bylines.

Byline and date patterns are kept as data (as GNE does); no per-site rules.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from lxml import etree

TITLE_META = ("og:title", "twitter:title")
AUTHOR_META = ("author", "article:author", "dc.creator", "byl", "parsely-author", "sailthru.author")
DATE_META = (
    "article:published_time", "og:published_time", "published_time", "pubdate", "publishdate",
    "publish-date", "publish_date", "datepublished", "date", "dc.date.issued", "dc.date",
    "sailthru.date", "parsely-pub-date", "release_date", "article.published", "weibo:article:create_at",
)  # fmt: skip
# Chinese and English bylines: 作者/记者/责任编辑/编辑 then a name; "By Name Name".
BYLINE_PATTERNS = (
    re.compile(
        r"(?:作者|记者|撰文|文)\s*[:：/]\s*([\u4e00-\u9fffA-Za-z·• ]{2,20}?)(?=\s|$|[，,。|丨/]|来源|时间|发布)"
    ),
    re.compile(r"责任编辑\s*[:：]\s*([\u4e00-\u9fffA-Za-z· ]{2,12}?)(?=\s|$|[）)，,。|丨])"),
    re.compile(r"^\s*By\s+([A-Z][\w.'’-]+(?:\s+(?:and\s+)?[A-Z][\w.'’-]+){0,4})"),
)
# Dates in bylines: 2024-05-20 14:33, 2024年5月20日 14:33, 2024/05/20, 2024.05.20.
DATE_PATTERN = re.compile(
    r"(?<!\d)(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?"
    r"(?:\s*(\d{1,2})\s*[:：时]\s*(\d{2})(?:\s*[:：分]\s*(\d{2}))?)?"
)
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        "january february march april may june july august september october november december".split()
    )
}
ENGLISH_DATE = re.compile(
    r"\b(" + "|".join(_MONTHS) + r"|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?\s+(\d{1,2}),?\s+(\d{4})\b",
    re.IGNORECASE,
)
_TITLE_SEPARATORS = re.compile(r"\s+[-–—|_·]\s+|_|\|")
_SPACES = re.compile(r"\s+")
# Bylines sit near the headline: look at the first 40 short lines of the page text.
BYLINE_LINES = 40
BYLINE_MAX_CHARS = 200


@dataclass
class Metadata:
    title: str | None = None
    author: str | None = None
    published_at: str | None = None
    # Every title the page states (<title>, og:title, twitter:title), for locating the headline.
    titles: tuple[str, ...] = field(default=(), compare=False, repr=False)


_NOT_A_NAME = frozenset({"no author", "unknown", "admin", "staff", "none", "null"})


def _clean(text: str | None) -> str | None:
    if not text:
        return None
    text = _SPACES.sub(" ", text).strip()
    return text or None


def _clean_author(text: str | None) -> str | None:
    text = _clean(text)
    if text is None:
        return None
    text = re.sub(r"^(?:by|作者[:：]?)\s+", "", text, flags=re.IGNORECASE).strip()
    return None if not text or text.lower() in _NOT_A_NAME or text.startswith("http") else text


def iso_date(text: str | None) -> str | None:
    """An ISO 8601 date or datetime from common spellings, else None."""
    if not text:
        return None
    text = text.strip()
    iso = re.match(r"(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?", text)
    if iso:
        date, clock, zone = iso.groups()
        if not clock:
            return date
        zone = "" if not zone else "+00:00" if zone == "Z" else zone if ":" in zone else zone[:3] + ":" + zone[3:]
        return f"{date}T{clock if clock.count(':') == 2 else clock + ':00'}{zone}"
    match = DATE_PATTERN.search(text)
    if match:
        year, month, day, hour, minute, second = match.groups()
        if 1 <= int(month) <= 12 and 1 <= int(day) <= 31:
            date = f"{int(year):04d}-{int(month):02d}-{int(day):02d}"
            if hour is not None and int(hour) < 24:
                return f"{date}T{int(hour):02d}:{minute}:{second or '00'}"
            return date
    match = ENGLISH_DATE.search(text)
    if match:
        name, day, year = match.groups()
        month = _MONTHS.get(name.lower()) or next(v for k, v in _MONTHS.items() if k.startswith(name.lower()[:3]))
        if 1 <= int(day) <= 31:
            return f"{int(year):04d}-{month:02d}-{int(day):02d}"
    return None


def _json_ld(root: etree._Element) -> list[dict]:
    objects: list[dict] = []
    for script in root.iter("script"):
        if (script.get("type") or "").lower() != "application/ld+json" or not script.text:
            continue
        try:
            data = json.loads(script.text)
        except ValueError:
            continue
        stack = [data]
        while stack and len(objects) < 50:
            item = stack.pop()
            if isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, dict):
                objects.append(item)
                if isinstance(item.get("@graph"), list):
                    stack.extend(item["@graph"])
    return objects


def _ld_author(value) -> str | None:
    if isinstance(value, list):
        names = [_ld_author(v) for v in value]
        return ", ".join(n for n in names if n) or None
    if isinstance(value, dict):
        return _clean(value.get("name")) if isinstance(value.get("name"), str) else None
    return _clean(value) if isinstance(value, str) and not value.startswith("http") else None


def _best_title(page_title: str | None, og_title: str | None, h1: str | None) -> str | None:
    for candidate in (h1, og_title):
        if candidate and page_title and candidate in page_title:
            return candidate
    if og_title:
        return og_title
    if page_title:
        parts = [p.strip() for p in _TITLE_SEPARATORS.split(page_title) if p.strip()]
        return max(parts, key=len) if parts else page_title
    return h1


def head_metadata(root: etree._Element) -> Metadata:
    """Read before the tree is cleaned (needs <head>, <script type=application/ld+json>)."""
    meta: dict[str, str] = {}
    for element in root.iter("meta"):
        key = (element.get("property") or element.get("name") or element.get("itemprop") or "").lower()
        content = element.get("content")
        if key and content and key not in meta:
            meta[key] = content
    title_element = next(root.iter("title"), None)
    page_title = _clean(title_element.text if title_element is not None else None)
    h1_element = next(root.iter("h1"), None)
    h1 = _clean(h1_element.xpath("string()")) if h1_element is not None else None
    og_title = next((_clean(meta[k]) for k in TITLE_META if meta.get(k)), None)
    result = Metadata(title=_best_title(page_title, og_title, h1))
    stated = [page_title] + [_clean(meta.get(k)) for k in TITLE_META]
    result.titles = tuple(dict.fromkeys(t for t in stated if t))
    for obj in _json_ld(root):
        if result.published_at is None and isinstance(obj.get("datePublished"), str):
            result.published_at = iso_date(obj["datePublished"])
        if result.author is None and obj.get("author"):
            result.author = _clean_author(_ld_author(obj["author"]))
    if result.author is None:
        result.author = next((_clean_author(meta[k]) for k in AUTHOR_META if _clean_author(meta.get(k))), None)
    if result.published_at is None:
        result.published_at = next((iso_date(meta[k]) for k in DATE_META if iso_date(meta.get(k))), None)
    if result.published_at is None:
        time_element = next(root.iter("time"), None)
        if time_element is not None:
            result.published_at = iso_date(time_element.get("datetime") or time_element.xpath("string()"))
    return result


def byline_metadata(lines: list[str], found: Metadata) -> Metadata:
    """Fill author/time still missing from byline-looking lines near the top of the page text."""
    short = [line for line in lines if len(line) <= BYLINE_MAX_CHARS][:BYLINE_LINES]
    for line in short:
        if found.author is None:
            for pattern in BYLINE_PATTERNS:
                match = pattern.search(line)
                if match:
                    found.author = _clean_author(match.group(1))
                    break
        if found.published_at is None:
            found.published_at = iso_date(line)
        if found.author and found.published_at:
            break
    return found
