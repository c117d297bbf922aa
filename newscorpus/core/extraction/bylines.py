"""Authors: from structured data (JSON-LD, microdata, meta, rel=author and author-page links), class-marked byline
elements and byline lines in Chinese and English, as candidates named by source, taken in the order measured to
be most precise; an organisation, a source (来源), an editor or the site itself is not an author when a person is
named. Patterns are kept as data; names are cleaned in names.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from newscorpus.core.extraction.markup import PageMarkup, article_objects, ld_types, text_of
from newscorpus.core.extraction.names import (
    HAN_ONLY,
    MAX_AUTHORS,
    han_person_name,
    is_organisation_name,
    name_key,
    split_names,
)
from newscorpus.core.text import HAN_UNIFIED, characters

AUTHOR_META = ("author", "article:author", "dc.creator", "dcterms.creator", "byl", "parsely-author",
               "sailthru.author", "citation_author", "citation_authors", "og:article:author", "article:author_name",
               "twitter:data1")
# Chinese bylines. The name: 2-4 Han characters (a minority name is longer, written with ·), several names
# separated by spaces or 、; or a Latin handle (blogs).
_HAN = f"[{characters(HAN_UNIFIED)}]"  # a Han character of the Unified Ideographs block
_HAN_NAME = _HAN + "{2,4}(?:·" + _HAN + "{1,6})?"
_HAN_NAMES = _HAN_NAME + r"(?:[ 、，,　]+" + _HAN_NAME + r")*"
_HAN_NAMES_WHOLE = re.compile(_HAN_NAMES)
_HANDLE = r"[A-Za-z][\w.\-]{1,30}(?: [A-Z][\w.\-]{1,30}){0,2}"
_AFTER_NAME = r"(?=$|[\s）)】\]，,。;；|/]|报道|摄|电|发自)"
# 作者：X / 文/X / 撰稿：X (a label and a colon or slash)
ZH_LABELLED = re.compile(r"(?:作\s*者|撰\s*文|文\s*字|(?<!" + _HAN + r")文|撰稿人?|署名|发布者|发表人|博主|楼主)"
                         r"\s*[:：/]\s*((?:" + _HAN_NAMES + r"|" + _HANDLE + r")(?:\s*[（(][A-Za-z][^）)]{1,40}[）)])?)"
                         + _AFTER_NAME)
# 记者 徐睿翔 / 新华日报·交汇点记者 徐睿翔 / 光明日报记者 王建宏 张文攀 (no colon): only in a short line without
# sentence marks (a byline), never inside prose ("记者了解到"); bracketed bylines are read by ZH_BRACKET.
ZH_REPORTER = re.compile(r"(?:记者|通讯员|撰稿人?)[:：]?[ 　]*(" + _HAN_NAMES + r")" + _AFTER_NAME)
ZH_SHORT_LINE = 40
_SENTENCE_MARK = re.compile(r"[。！？!?；]")
# Bracketed bylines at a story's start or end: （记者 李明）, （实习记者 樊亮 张明超 记者惠禾）, （姚峰 上海报道）,
# （袁源）: the brackets' text without role words and "<place>报道/电" is the names.
ZH_BRACKET = re.compile(r"[（(【\[]\s*([^（()）【】\[\]]{2,40}?)\s*[）)】\]]")
# A bare bracketed name (no role word) counts alone on its line, or first in a short line of byline labels.
_BYLINE_LABELS = re.compile(r"来源|时间|日期|发布|编辑|出处")
_ZH_ROLES = re.compile(r"(?:本报|本刊|本台|本网|新华社|中新社)?(?:特约|实习|首席|驻\S{1,6})?(?:记者|通讯员|撰稿人?|"
                       r"摄影|文/图|图/文)[:：]?|" + _HAN + r"{0,6}(?:报道|电|讯)$")
# A reporter's credit in a paragraph of prose: a bracket holding a reporter's role word, within the paragraph's first
# PROSE_CREDIT_REACH characters (新华社北京3月5日电（记者 李明）) or closing it (…。（总台记者 张倩）).
PROSE_CREDIT = re.compile(r"[（(][^（()）]{0,12}?(?:记者|通讯员)[^（()）]{1,30}[）)]")
PROSE_CREDIT_REACH = 40


def prose_credits(line: str) -> list[str]:
    """The reporter credits at the start or the end of a long line (prose), as lines of their own."""
    if "记者" not in line and "通讯员" not in line:
        return []
    found = []
    for match in PROSE_CREDIT.finditer(line):
        if match.start() <= PROSE_CREDIT_REACH or len(line.rstrip()) - match.end() <= 1:
            found.append(line[:match.end()] if match.start() <= PROSE_CREDIT_REACH else match.group(0))
    return found


# Blog lines: 由海姑娘张贴, 本贴由大卫于2005年…发表, 是大卫在2005年…发表, 海姑娘 发表于 / 写于
ZH_POSTED = re.compile(r"由\s*(\S{2,12}?)\s*(?:张贴|发表|发布|于\s*\d|在\s*\d)|是\s*(\S{2,12}?)在\s*\d[^。]{0,30}发表|"
                       r"^\s*(\S{2,12}?)\s*(?:发表于|写于|发布于)")
# Editors (责任编辑, 编辑) are taken only when no author is named: zh_web_content_69 names reporters, not editors.
ZH_EDITOR = re.compile(r"(?:责任编辑|责编|编辑)\s*[:：]?\s*(" + _HAN_NAMES + r")" + _AFTER_NAME)
# English: "By Jane Roe", "By: Jane Roe", "Written by Jane Roe", "Posted by jroe", "Author: Jane Roe".
EN_LABELLED = re.compile(
    r"(?:^|[|•·〓]\s*|\d\s+)(?:(?:written|posted|story|words|text|reported|article|published|report|compiled)\s+)?"
    r"by\s*:?\s+(.{2,80})|^\s*(?:authors?|writer|reporter|byline)\s*[:：]\s*(.{2,80})",
    re.IGNORECASE,
)
# Words one of which every byline pattern needs (a cheap first test per line).
_BYLINE_HINT = re.compile(r"作|撰|文|记者|通讯员|稿|署名|发布|发表|博主|楼主|由|写于|编辑|责编|是|[（(【\[]|by|author|"
                          r"writer|reporter", re.IGNORECASE)
# Its alternatives an ASCII line can hold, in lower case: for an ASCII line (most English lines) _BYLINE_HINT's answer
# from the plain pattern on the line's lower case (tests/core/extraction/test_fast_forms_of_metadata.py compares).
_ASCII_BYLINE_HINT = re.compile(r"[(\[]|by|author|writer|reporter")


def _byline_hint(line: str) -> bool:
    """Whether _BYLINE_HINT matches the line."""
    if line.isascii():
        # _ASCII_BYLINE_HINT's alternatives as substring tests, cheaper than the regex (test_fast_forms_of_metadata.py
        # compares)
        lowered = line.lower()
        return "by" in lowered or "(" in lowered or "[" in lowered or "author" in lowered or "writer" in lowered \
            or "reporter" in lowered
    return _BYLINE_HINT.search(line) is not None


# A label alone on its line: the name is on the next line (table cells, stacked author boxes).
LABEL_ALONE = re.compile(r"\s*(?:作\s*者|记\s*者|author|authors|by|written\s+by|posted\s+by|words\s+by)\s*[:：]?\s*",
                         re.IGNORECASE)
# A byline element's linked names are its authors when the element is a byline's size (co-authors are linked);
# a larger box of links is a list of related authors or follow buttons.
MARKED_BOX_CHARS = 120
# A byline element inside a comment thread or a comment form names a commenter (tie: 跟贴, the comments of 163 and
# other portals: "single-tie", "tie-author").
COMMENT_CONTEXT = re.compile(r"comment|respond|reply|disqus|review-|testimonial|\btie[-_]|[-_]tie\b", re.IGNORECASE)


@dataclass(frozen=True)
class AuthorCandidate:
    source: str  # "jsonld", "itemprop", "meta", "rel", "href", "line", "marked", "tail", "editor"
    names: tuple[str, ...]
    organisation: bool = False  # stated as an organisation (JSON-LD @type Organization)
    # the texts of the field or element the names were read from, before a name was cut from them ("Code for
    # America" read as "Code"): the site's name as a whole is the publisher even where the cut name is not
    stated: tuple[str, ...] = ()


def _ld_names(value, graph: dict[str, dict]) -> tuple[tuple[str, ...], bool, tuple[str, ...]]:
    """Names of a JSON-LD author value (string, Person/Organization, @id reference, list), whether every one of them
    is an organisation, and the name texts as stated (strings and the names of its objects)."""
    values = value if isinstance(value, list) else [value]
    people: list[str] = []
    organisations: list[str] = []
    stated: list[str] = []
    for item in values[:MAX_AUTHORS]:
        if isinstance(item, dict) and "name" not in item and isinstance(item.get("@id"), str):
            item = graph.get(item["@id"], item)
        if isinstance(item, dict):
            name = item.get("name")
            name = name[0] if isinstance(name, list) and name else name
            if isinstance(name, str):
                stated.append(name)
            cleaned = split_names(name, strict=False) if isinstance(name, str) else ()
            stated_organisation = bool(ld_types(item) & {"organization", "newsmediaorganization", "corporation"})
            (organisations if stated_organisation else people).extend(cleaned)
        elif isinstance(item, str):
            stated.append(item)
            if not item.startswith("http"):
                people.extend(split_names(item, strict=False))
    # beside a person, an Organization in the author list is the publisher ([Person, NewsMediaOrganization])
    names = list(dict.fromkeys(people or organisations))
    return tuple(names[:MAX_AUTHORS]), not people and bool(names), tuple(stated)


def markup_authors(markup: PageMarkup) -> list[AuthorCandidate]:
    """Authors the markup states: the first answer of each of MARKUP_AUTHOR_SOURCES, in its order."""
    return [candidate for candidate in (source(markup) for source in MARKUP_AUTHOR_SOURCES) if candidate is not None]


def _json_ld_author(markup: PageMarkup) -> AuthorCandidate | None:
    """The author (or creator) of the first JSON-LD object that names one, articles first; @id references
    resolved."""
    graph = {o["@id"]: o for o in markup.json_ld if isinstance(o.get("@id"), str)}
    for item in article_objects(markup):
        value = item.get("author") or item.get("creator")
        names, organisation, stated = _ld_names(value, graph) if value else ((), False, ())
        if names:
            return AuthorCandidate("jsonld", names, organisation, stated)
    return None


def _itemprop_author(markup: PageMarkup) -> AuthorCandidate | None:
    """The first microdata author or creator outside a comment thread (its content, or its name's text)."""
    for prop, element in markup.itemprops:
        if prop in ("author", "creator") and not _in_comments(element):
            inner = element.find(".//*[@itemprop='name']")
            text = element.get("content") or text_of(inner if inner is not None else element, 120)
            names = split_names(text, strict=False)
            if names:
                organisation = "organization" in (element.get("itemtype") or "").lower()
                return AuthorCandidate("itemprop", names, organisation, (text,))
    return None


def _meta_author(markup: PageMarkup) -> AuthorCandidate | None:
    """The first of AUTHOR_META that names someone (twitter:data1 only under a "Written by" label), or a later one
    that names the same people and more (DC.Creator gives a paper's first author, citation_author metas all)."""
    chosen: tuple[str, ...] = ()
    stated: tuple[str, ...] = ()
    for key in AUTHOR_META:
        values = markup.meta.get(key)
        if not values:
            continue
        if key == "twitter:data1" and (markup.first_meta("twitter:label1") or "").lower() not in (
                "written by", "author", "by"):
            continue
        names = tuple(dict.fromkeys(n for value in values for n in split_names(value, strict=False)))
        if not names:
            continue
        if not chosen or (len(names) > len(chosen) and {name_key(n) for n in chosen} <= {name_key(n) for n in names}):
            chosen, stated = names, tuple(values)
    return AuthorCandidate("meta", chosen[:MAX_AUTHORS], stated=stated) if chosen else None


def _linked_author(source: str, elements: list[etree._Element]) -> AuthorCandidate | None:
    """The first link outside a comment thread whose text (or title) is a name."""
    for element in elements:
        if _in_comments(element):
            continue
        text = text_of(element, 120) or element.get("title")
        names = split_names(text)
        if names:
            return AuthorCandidate(source, names, stated=(text,))
    return None


def _rel_author(markup: PageMarkup) -> AuthorCandidate | None:
    return _linked_author("rel", markup.rel_authors)


def _href_author(markup: PageMarkup) -> AuthorCandidate | None:
    return _linked_author("href", markup.author_links)


def _marked_author(markup: PageMarkup) -> AuthorCandidate | None:
    """The first class-marked byline element outside a comment thread that holds names (_marked_names)."""
    for element in markup.author_marked:
        if _in_comments(element):
            continue
        names, stated = _marked_names(element)
        if names:
            return AuthorCandidate("marked", names, stated=stated)
    return None


# The markup's author sources, in the order their candidates are listed.
MARKUP_AUTHOR_SOURCES = (_json_ld_author, _itemprop_author, _meta_author, _rel_author, _href_author, _marked_author)


def _in_comments(element: etree._Element) -> bool:
    node = element
    for _ in range(8):
        if node is None or not isinstance(node.tag, str) or node.tag in ("body", "html", "article", "main"):
            return False
        if COMMENT_CONTEXT.search(f"{node.get('class') or ''} {node.get('id') or ''}"):
            return True
        node = node.getparent()
    return False


def _marked_names(element: etree._Element) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A byline element's names, and the texts they were read from: its name/link children when they hold names
    (co-authors are linked), else the first of its text pieces that is a name (an author box holds the name, then
    a role, then a bio)."""
    small = len(text_of(element, MARKED_BOX_CHARS + 1)) <= MARKED_BOX_CHARS
    for path in (".//*[@itemprop='name']", ".//a"):
        inners = list(element.iterfind(path))
        if path == ".//a" and len(inners) > MAX_AUTHORS // 2:
            return (), ()  # a box of many links (related authors, follow buttons) is no byline
        if path == ".//a" and not small:
            continue
        texts = [text for text in (text_of(inner, 80) for inner in inners) if split_names(text)]
        names = tuple(dict.fromkeys(n for text in texts for n in split_names(text)))
        if names:
            return names[:MAX_AUTHORS], tuple(texts)
    text = text_of(element, 120)
    whole = split_names(text)
    if whole and len(whole[0].split()) <= 3:
        return whole, (text,)
    for piece in element.itertext():
        names = split_names(piece)
        if names:
            return names, (piece,)
    return (), ()


# Of line_authors' patterns only EN_LABELLED can name someone in an ASCII line: ZH_LABELLED, ZH_REPORTER, ZH_POSTED and
# ZH_EDITOR hold a Han character in every alternative, and a ZH_BRACKET match names only what _HAN_NAMES matches whole.
# So an ASCII line (most lines of English pages) is read by EN_LABELLED alone
# (tests/core/extraction/test_fast_forms_of_metadata.py compares with every pattern in turn).
def line_authors(lines: list[str], source: str = "line") -> list[AuthorCandidate]:
    """Byline lines (short lines near the headline), by strength of pattern then order: 作者/By labels, then
    reporters (记者 X), then blog posters, then editors."""
    found: dict[int, list[AuthorCandidate]] = {0: [], 1: [], 2: [], 3: []}
    for index, line in enumerate(lines):
        if not _byline_hint(line):  # one test per line; the patterns below need one of these words
            continue
        if LABEL_ALONE.fullmatch(line) and index + 1 < len(lines):
            names = split_names(lines[index + 1])
            if names:
                found[0].append(AuthorCandidate(source, names))
            continue
        if line.isascii():  # only EN_LABELLED can name someone here (see above)
            names = _pattern_names(EN_LABELLED, line)
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


# A bare name is read only this many lines under the headline (an essay's or a forum post's author line).
BARE_NAME_LINES = 2


def bare_name_authors(below: list[str]) -> list[AuthorCandidate]:
    """A line under the headline that is a Chinese person's name alone (胡平): the author line of essays and forum
    posts, which carry no label. The name must look like one (a surname first, 2-3 characters)."""
    for line in below[1:1 + BARE_NAME_LINES]:
        text = line.strip()
        if HAN_ONLY.match(text) and han_person_name(text):
            names = split_names(text)
            if names:
                return [AuthorCandidate("line", names)]
    return []


def _pattern_names(pattern: re.Pattern, line: str) -> tuple[str, ...]:
    if pattern is ZH_REPORTER and (len(line) > ZH_SHORT_LINE or _SENTENCE_MARK.search(line)):
        return ()
    if pattern is ZH_BRACKET:
        for match in pattern.finditer(line):
            inner = " ".join(_ZH_ROLES.sub(" ", part) for part in match.group(1).split()).strip()
            bare = inner == match.group(1).strip()
            alone = match.group(0) == line.strip() or (match.start() == 0 and len(line) <= 60 and
                                                       _BYLINE_LABELS.search(line) is not None)
            if _HAN_NAMES_WHOLE.fullmatch(inner) and (not bare or alone):
                names = _surnamed(split_names(inner)) if bare else split_names(inner)
                if names:
                    return names
        return ()
    match = pattern.search(line)
    names = split_names(next(g for g in match.groups() if g)) if match else ()
    return _surnamed(names) if pattern in (ZH_REPORTER, ZH_EDITOR) else names


def _surnamed(names: tuple[str, ...]) -> tuple[str, ...]:
    """Chinese names read without a label must look like names (a surname first); Latin names pass."""
    return names if all(han_person_name(n) or not HAN_ONLY.match(n) for n in names) else ()


def is_organisation(names: tuple[str, ...], site_names: set[str]) -> bool:
    """Names that are the site or an organisation (by their words), not a person."""
    keys = {name_key(name) for name in site_names if name}
    return all(is_site_name(name, keys) for name in names) or all(is_organisation_name(name) for name in names)


# A name holds a site name (or is held by one) from this many key characters on: "TopGear" in "TopGear.com".
MIN_SITE_KEY_LATIN = 5


def is_site_name(name: str, site_keys: set[str]) -> bool:
    """Whether a name is one the page gives its site: the same key, or one key holding the other (a portal's short
    name: 网易 in 网易新闻; "TopGear.com" beside "TopGear"). A Chinese person's name counts only when equal."""
    if not site_keys:
        return False
    name_text = name_key(name)
    if not name_text:
        return False
    if name_text in site_keys:
        return True
    han = HAN_ONLY.match(name.replace(" ", "")) is not None
    if han and han_person_name(name):
        return False
    shortest = 2 if han else MIN_SITE_KEY_LATIN
    return any(min(len(site), len(name_text)) >= shortest and (name_text in site or site in name_text)
               for site in site_keys)


@dataclass(frozen=True)
class AuthorContext:
    """What a candidate is judged against: the keys of the site's names, of the editors the page names, and of the
    names a byline shows or JSON-LD states as a person."""

    site_keys: frozenset[str]
    editor_keys: frozenset[str]
    shown_by: dict[str, frozenset[str]]  # a shown name's key -> the sources that show it


def _shown_elsewhere(candidate: AuthorCandidate, context: AuthorContext) -> bool:
    """Whether another source than the candidate's own shows each of its names (a stated field cannot vouch for
    itself)."""
    return all(context.shown_by.get(name_key(name), frozenset()) - {candidate.source} for name in candidate.names)


def _the_site(candidate: AuthorCandidate, context: AuthorContext) -> str | None:
    """The site's own name (og:site_name, the <title>'s site part, a logo), where no other source shows it (a byline,
    or JSON-LD stating such a person beside a meta tag): the publisher, never an author (网易 on a 网易新闻 page,
    "Example Gazette", "Trezy").
    Only a site named like a person stands: a personal blog named after its writer ("Karl Voit"); on
    wcxb_train it is the gold author on the 4 such pages, the other site names on 3 of 7 (label noise).
    A field or element stating the site's name whole is the site even where its cut name is not ("Code for America",
    cut at "for" to "Code"), and whatever else shows it (an embedded post of the site's own account)."""
    stated_whole = bool(candidate.stated) and all(name_key(text) in context.site_keys for text in candidate.stated)
    if not stated_whole and not all(is_site_name(name, context.site_keys) for name in candidate.names):
        return None
    if not stated_whole and _shown_elsewhere(candidate, context):
        return None
    personal = not candidate.organisation and all(_named_like_a_person(name) for name in candidate.names)
    return None if personal else "the site"


def _named_like_a_person(name: str) -> bool:
    """Two or three capitalised Latin words, none of them an organisation's word or a digit ("Karl Voit")."""
    words = name.split()
    return 2 <= len(words) <= 3 and name.isascii() and all(w[:1].isupper() and w.isalpha() for w in words) \
        and not is_organisation_name(name)


def _an_editor(candidate: AuthorCandidate, context: AuthorContext) -> str | None:
    """A name the page labels its editor (责任编辑 X) given as the author elsewhere (a meta author, a marked box)."""
    if candidate.source == "editor" or not context.editor_keys:
        return None
    return "the editor" if all(name_key(name) in context.editor_keys for name in candidate.names) else None


# Why a candidate is no author at all, in order (each returns its reason or None).
AUTHOR_REJECTIONS = (_the_site, _an_editor)


def author_rejection(candidate: AuthorCandidate, context: AuthorContext) -> str | None:
    return next((reason for reason in (rule(candidate, context) for rule in AUTHOR_REJECTIONS) if reason), None)


# Sources in the order of their precision where they answer on wcxb_train + zh_web_content_69 (`newscorpus eval
# metadata`): JSON-LD .94, microdata .88, meta .88, rel=author .84, byline lines .74, class-marked elements .71,
# lines after the body .63; author-page links and editors last.
AUTHOR_ORDER = ("jsonld", "itemprop", "meta", "rel", "line", "href", "marked", "tail", "editor")


def choose_authors(candidates: list[AuthorCandidate], site_names: set[str],
                   order: tuple[str, ...] = AUTHOR_ORDER) -> tuple[str, ...]:
    """The first person-like candidate in AUTHOR_ORDER; the site or an organisation (stated, or by its words) only
    when nothing else. What AUTHOR_REJECTIONS rejects (the site as publisher, the editor under another source) never."""
    if not candidates:
        return ()
    context = AuthorContext(
        frozenset(k for k in (name_key(n) for n in site_names if n) if k),
        frozenset(name_key(n) for c in candidates if c.source == "editor" for n in c.names),
        _shown_by(candidates))
    ordered = [c for c in sorted(candidates, key=lambda c: order.index(c.source))
               if author_rejection(c, context) is None]
    people = [c for c in ordered if not c.organisation and not is_organisation(c.names, site_names)]
    if people:
        return _completed(people[0].names, people[1:])
    return ordered[0].names if ordered else ()


def _shown_by(candidates: list[AuthorCandidate]) -> dict[str, frozenset[str]]:
    shown: dict[str, set[str]] = {}
    for candidate in candidates:
        if candidate.source in SHOWN_AUTHOR_SOURCES and not candidate.organisation:
            for name in candidate.names:
                shown.setdefault(name_key(name), set()).add(candidate.source)
    return {key: frozenset(sources) for key, sources in shown.items()}


_USERNAME = re.compile(r"^[a-z0-9._\-]+$|^[\w]+[._][\w.]+$")


def _completed(names: tuple[str, ...], others: list[AuthorCandidate]) -> tuple[str, ...]:
    """A single first name ("Linda") or a user name ("jrobison", "andrew.keaveney") from the markup yields to the
    full name a visible byline gives (the one starting with that first name, or any, for a user name)."""
    if len(names) != 1 or " " in names[0]:
        return names
    first = names[0].lower()
    username = _USERNAME.match(names[0]) is not None
    for other in others:
        full = other.names[0]
        if other.source in VISIBLE_AUTHOR_SOURCES and " " in full and not HAN_ONLY.match(full) and (
                username or full.lower().startswith(first + " ")):
            return other.names
    return names


VISIBLE_AUTHOR_SOURCES = ("line", "href", "marked", "rel", "tail")
# Where a name is shown as a byline or stated as a person (not a meta tag's site-wide default).
SHOWN_AUTHOR_SOURCES = (*VISIBLE_AUTHOR_SOURCES, "jsonld", "itemprop")

