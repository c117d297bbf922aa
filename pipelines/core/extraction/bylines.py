"""Authors: from structured data (JSON-LD, microdata, rel=author, meta), class-marked byline elements and byline
lines in Chinese and English, as candidates named by source; names cleaned and split; an organisation, a
source (来源) or the site itself is not an author when a person is named. Patterns are kept as data.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from pipelines.core.extraction.markup import PageMarkup, article_objects, ld_types, text_of

AUTHOR_META = ("author", "article:author", "dc.creator", "dcterms.creator", "byl", "parsely-author",
               "sailthru.author", "citation_author", "og:article:author", "article:author_name", "twitter:data1")
# Chinese bylines: 作者/记者/撰文/文/作者：X; 记者 X (no colon); 本报记者 X; X 报道. The name: 2-4 Han characters
# (a minority name can be longer, written with ·), several names separated by spaces or 、; or a Latin handle.
_HAN_NAME = r"[\u4e00-\u9fff]{2,4}(?:·[\u4e00-\u9fff]{1,6})?"
_HAN_NAMES = _HAN_NAME + r"(?:[ 、，,　]+" + _HAN_NAME + r")*"
_HANDLE = r"[A-Za-z][\w.\-]{1,30}(?: [A-Z][\w.\-]{1,30}){0,2}"
ZH_LABELLED = re.compile(
    r"(?:作\s*者|撰\s*文|文\s*字|文|记\s*者|通讯员|文/图|图/文|撰稿人?|署名|发布者|发表人|博主|楼主)\s*[:：/]\s*"
    r"(" + _HAN_NAMES + r"|" + _HANDLE + r")"
)
# 记者 徐睿翔 / 本报记者 王建宏 张文攀 / 新华社记者李明 (no colon): the name follows the word 记者 directly.
ZH_REPORTER = re.compile(r"(?:记者|通讯员|特约撰稿人?)[ 　]*(" + _HAN_NAMES + r")(?![\u4e00-\u9fff])")
# Blog lines: 由海姑娘张贴, 海姑娘 发表于 / 写于
ZH_POSTED = re.compile(r"(?:^|\s)由\s*(\S{2,12}?)\s*(?:张贴|发表|发布)|^\s*(\S{2,12}?)\s*(?:发表于|写于|发布于)")
# Editors (责任编辑, 编辑) are taken only when no author is named: the gold names reporters, not editors.
ZH_EDITOR = re.compile(r"(?:责任编辑|责编|编辑)\s*[:：]?\s*(" + _HAN_NAMES + r")(?![\u4e00-\u9fff])")
# English: "By Jane Roe", "By: Jane Roe", "Written by Jane Roe", "Posted by jroe", "Author: Jane Roe".
EN_LABELLED = re.compile(
    r"(?:^|[|•·]\s*)(?:(?:written|posted|story|words|text|reported|article|published|report|compiled)\s+)?"
    r"by\s*:?\s+(.{2,80})|^\s*(?:authors?|writer|reporter|byline)\s*[:：]\s*(.{2,80})",
    re.IGNORECASE,
)
# What follows a name in a byline and is not part of it: a date, a separator, a role, "Updated ...".
_NAME_END = re.compile(
    r"\s*(?:[|•·—–]|\s-\s|\bon\s+\w+\s+\d|\bupdated\b|\bpublished\b|\bposted\b|\blast\s+updated\b|\breviewed\s+by\b|"
    r"\bfact[- ]checked\b|\bmedically\b|\bin\s+(?:news|blog|guides?|articles?)\b|\d{1,2}\s*(?:min|minute)s?\b|"
    r"\b\d{4}-\d{2}-\d{2}|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|\d{1,2}/\d{1,2}/"
    r"|\bfor\s+[A-Z]|\bfollow\b|\bemail\b|\bview\s+all|\bmore\s+(?:from|by|posts|articles)|\bread\s+more|\bphotograph)",
    re.IGNORECASE,
)
_LABEL = re.compile(r"^\s*(?:(?:written|posted|story|words|text|reported|article|published|compiled|"
                    r"recipe|contributed)\s+)?(?:by|from)\s*:?\s+|^\s*(?:authors?|writer|reporter|byline|作者|"
                    r"记者|文)\s*[:：]\s*", re.IGNORECASE)
_SPLIT = re.compile(r"\s+(?:and|&|und|et|y|e)\s+|\s*[;、]\s*|\s*&amp;\s*|\s+with\s+", re.IGNORECASE)
# Words that make a text something other than a person's name (site chrome, roles, placeholders).
NOT_A_NAME = frozenset(
    "admin administrator unknown none null anonymous guest user editor editors author authors by staff team "
    "contributor contributors published posted updated share comments comment reply home menu login subscribe "
    "follow view more read about contact search privacy terms cookie newsletter advertisement sponsored".split()
)  # fmt: skip
ORGANISATION_WORDS = re.compile(
    r"\b(?:inc|llc|ltd|limited|corp|corporation|company|co|group|media|news|press|agency|foundation|institute|"
    r"university|association|society|council|department|ministry|office|network|magazine|journal|times|post|"
    r"daily|herald|tribune|gazette|studio|studios|labs?|solutions|services|technologies|systems|hospital|clinic|"
    r"bank|partners|llp|gmbh|s\.a|plc)\b|报社?|社|网|台|局|部|委|集团|公司|中心|频道|新闻|日报|晚报|时报",
    re.IGNORECASE,
)
MAX_NAME_CHARS = 60
MAX_AUTHORS = 8


@dataclass(frozen=True)
class AuthorCandidate:
    source: str  # "jsonld", "itemprop", "rel", "meta", "marked", "line", "editor"
    names: tuple[str, ...]
    organisation: bool = False  # stated as an organisation (JSON-LD @type Organization)


def clean_name(text: str | None) -> str | None:
    """A byline's name part: label, trailing date/role/separators and decoration removed; None if not a name."""
    if not text or not isinstance(text, str):
        return None
    text = " ".join(html.unescape(text).split())
    text = _LABEL.sub("", text)
    end = _NAME_END.search(text)
    if end and end.start() > 0:
        text = text[: end.start()]
    text = text.strip(" ,.:;-–—|·•()[]（）【】\"'“”")
    if not text or len(text) > MAX_NAME_CHARS or text.startswith(("http", "@", "/")) or "://" in text:
        return None
    if any(char.isdigit() for char in text) and not re.search(r"[A-Za-z]{3}", text):
        return None
    words = text.lower().split()
    if not words or all(word.strip(".,") in NOT_A_NAME for word in words):
        return None
    if len(words) > 8 or (re.search(r"[A-Za-z]", text) and len(words) > 1 and not any(w[0].isupper() for w in
                                                                                        text.split())):
        return None  # a sentence, or lower-case words that are not a name
    return text


def split_names(text: str | None) -> tuple[str, ...]:
    """Several names in one byline (`A and B`, `A, B and C`, `王建宏 张文攀`, `A、B`)."""
    name = clean_name(text)
    if name is None:
        return ()
    parts = [p for p in _SPLIT.split(name) if p]
    if re.fullmatch(_HAN_NAMES, name) and " " in name:
        parts = name.split()
    if len(parts) == 1 and name.count(",") >= 1 and all(len(p.split()) >= 2 for p in name.split(",")):
        parts = name.split(",")  # "Jane Roe, John Doe" (but not "Jane Roe, MD")
    names = [clean_name(part) for part in parts]
    names = [n for n in names if n]
    return tuple(dict.fromkeys(names))[:MAX_AUTHORS]


def _ld_names(value, graph: dict[str, dict]) -> tuple[tuple[str, ...], bool]:
    """Names of a JSON-LD author value (string, Person/Organization, @id reference, list); and whether every one
    of them is an organisation."""
    values = value if isinstance(value, list) else [value]
    names: list[str] = []
    organisations = 0
    for item in values[:MAX_AUTHORS]:
        if isinstance(item, dict) and "name" not in item and isinstance(item.get("@id"), str):
            item = graph.get(item["@id"], item)
        if isinstance(item, dict):
            name = item.get("name")
            if isinstance(name, list):
                name = name[0] if name else None
            if isinstance(name, str) and clean_name(name):
                names.append(clean_name(name))
                organisations += bool(ld_types(item) & {"organization", "newsmediaorganization", "corporation"})
        elif isinstance(item, str) and not item.startswith("http"):
            names.extend(split_names(item))
    return tuple(dict.fromkeys(names)), bool(names) and organisations == len(names)


def markup_authors(markup: PageMarkup) -> list[AuthorCandidate]:
    """Authors the markup states: JSON-LD, microdata, rel=author, meta tags, class-marked elements."""
    found: list[AuthorCandidate] = []
    graph = {o["@id"]: o for o in markup.json_ld if isinstance(o.get("@id"), str)}
    for item in article_objects(markup):
        for key in ("author", "creator"):
            if item.get(key):
                names, organisation = _ld_names(item[key], graph)
                if names:
                    found.append(AuthorCandidate("jsonld", names, organisation))
                    break
        if found:
            break
    for prop, element in markup.itemprops:
        if prop in ("author", "creator"):
            inner = element.find(".//*[@itemprop='name']")
            text = element.get("content") or text_of(inner if inner is not None else element, 120)
            names = split_names(text)
            if names:
                organisation = "organization" in (element.get("itemtype") or "").lower()
                found.append(AuthorCandidate("itemprop", names, organisation))
                break
    for element in markup.rel_authors:
        names = split_names(text_of(element, 120) or element.get("title"))
        if names:
            found.append(AuthorCandidate("rel", names))
            break
    for key in AUTHOR_META:
        if key == "twitter:data1" and (markup.first_meta("twitter:label1") or "").lower() not in (
                "written by", "author", "by"):
            continue
        names = split_names(markup.first_meta(key))
        if names:
            found.append(AuthorCandidate("meta", names))
            break
    for element in markup.author_marked:
        names = split_names(_marked_text(element))
        if names:
            found.append(AuthorCandidate("marked", names))
            break
    return found


def _marked_text(element) -> str:
    """A byline element's name text: its name/link child when it has one, else its own text."""
    for path in (".//*[@itemprop='name']", ".//a[@rel='author']", ".//a"):
        inner = element.find(path)
        if inner is not None:
            text = text_of(inner, 120)
            if text and clean_name(text):
                return text
    return text_of(element, 120)


def line_authors(lines: list[str], source: str = "line") -> list[AuthorCandidate]:
    """Byline lines (short lines near the headline) in order: labelled/reporter bylines, then editors."""
    found: list[AuthorCandidate] = []
    editors: list[AuthorCandidate] = []
    for index, line in enumerate(lines):
        names = _line_names(line)
        if not names and index + 1 < len(lines) and re.fullmatch(r"\s*(?:作者|记者|author|by)\s*[:：]?\s*", line,
                                                                 re.IGNORECASE):
            names = split_names(lines[index + 1])  # a label alone on its line (table cells)
        if names:
            found.append(AuthorCandidate(source, names))
            continue
        match = ZH_EDITOR.search(line)
        if match:
            editor = split_names(match.group(1))
            if editor:
                editors.append(AuthorCandidate("editor", editor))
    return found + editors


def _line_names(line: str) -> tuple[str, ...]:
    for pattern in (ZH_LABELLED, ZH_REPORTER, ZH_POSTED):
        match = pattern.search(line)
        if match:
            names = split_names(next(g for g in match.groups() if g))
            if names and not ORGANISATION_WORDS.search(" ".join(names)):
                return names
    match = EN_LABELLED.search(line)
    if match:
        return split_names(next(g for g in match.groups() if g))
    return ()


def is_organisation(names: tuple[str, ...], site_names: set[str]) -> bool:
    """Names that are the site or an organisation (by its words), not a person."""
    keys = {_key(name) for name in site_names if name}
    return any(_key(name) in keys for name in names) or all(ORGANISATION_WORDS.search(name) for name in names)


def _key(text: str) -> str:
    return re.sub(r"[\W_]+", "", text).lower()


# Order measured on wcxb_train + zh_web_content_69 (precision of each source where it answers).
AUTHOR_ORDER = ("jsonld", "itemprop", "rel", "meta", "marked", "line", "tail", "editor")


def choose_authors(candidates: list[AuthorCandidate], site_names: set[str]) -> tuple[str, ...]:
    """The first person-like candidate in AUTHOR_ORDER; an organisation or the site only when nothing else."""
    ordered = sorted(candidates, key=lambda c: AUTHOR_ORDER.index(c.source))
    people = [c for c in ordered if not c.organisation and not is_organisation(c.names, site_names)]
    if people:
        return people[0].names
    return ordered[0].names if ordered else ()
