"""The headline: chosen among the article's <h1>, og:title / twitter:title, the JSON-LD headline and <title>,
with the site's name removed; a site name is never a headline. Single-page rules only: the site-aware stage
learns a site's title template across pages and calls `strip_site_name` with what it learnt.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from lxml import etree

from newscorpus.core.extraction.markup import PageMarkup, article_objects, text_of
from newscorpus.core.text import HAN_UNIFIED, characters

# A Han character of the Unified Ideographs block (the range these patterns were written with).
_HAN = f"[{characters(HAN_UNIFIED)}]"
_HAN_CHAR = re.compile(_HAN)
TITLE_META = ("og:title", "twitter:title", "title", "dc.title", "sailthru.title", "parsely-title")
SITE_NAME_META = ("og:site_name", "application-name", "apple-mobile-web-app-title", "al:ios:app_name",
                  "twitter:app:name:iphone", "publisher", "copyright")
# Separators between a headline and the site's name in <title>/og:title: "Headline | Site", "Site - Headline",
# "标题_网站名", "标题-网站名", "Headline :: Site", "Site » Headline", "EuroNews : Headline". Dashes and colons
# between Latin words only with spaces, so "COVID-19" and "Step 1: Plan" are not split.
SEPARATOR = re.compile(r"\s+[|｜\-–—:·•»«~/]{1,2}\s+|\s*[|｜_]\s*|\s*::\s*|\s+[-–—]$|"
                       r"(?<=" + _HAN + r")\s*[-–—]\s*|\s*[-–—]\s*(?=" + _HAN + ")")
# Class/id words of a heading that names the site (logo, brand, masthead): never the headline.
SITE_HEADING = re.compile(r"logo|brand|^site-?title|^site-?name|site-?branding|^navbar", re.IGNORECASE)
# A heading's trailing edit link ("[edit]", "[ 编辑 ]" in wikis) is not part of it.
_EDIT_LINK = re.compile(r"\s*\[\s*(?:edit|编辑|編輯|modifier|bearbeiten|editar|modifica|修改)\s*\]$", re.IGNORECASE)
# A link to a site's home page (what a logo heading links to).
_HOME_LINK = re.compile(r"^(?:/|\./|/?index\.\w+|https?://[^/]+/?)$", re.IGNORECASE)
# Chinese site names at either end of a title: "_新浪网", "-铜雀历史网", "理论中国网-": a short segment ending with
# 网/在线/频道/门户 (the suffixes of Chinese portals' names).
ZH_SITE_PART = re.compile(f"^[{characters(HAN_UNIFIED)}A-Za-z0-9]{{1,8}}(?:网|在线|频道|门户|网站)$")
# Headline texts longer than this are not headlines (a paragraph marked up as h1). 300 characters is about
# twice the longest title in wcxb_train.
MAX_HEADLINE_CHARS = 300
# A heading matches a stated title when their words overlap this much (Jaccard on word keys); 0.5 keeps
# "Best Tax Prep Software of 2025" ~ "The Best Tax Prep Software of 2025 | Site" and rejects section labels.
MATCH_OVERLAP = 0.5
_WORD = re.compile(_HAN + r"|[^\W_]+")


@dataclass(frozen=True)
class TitleChoice:
    title: str | None
    site_name: str | None
    source: str | None  # "h1", "og", "jsonld", "title", "meta"
    stated: tuple[str, ...] = ()  # the stated titles without the site's name (none of them a site name)
    # What the choice read, for head_metadata (which need not read them again): the texts of stated_titles(markup)
    # and site_names(markup, url).
    stated_texts: tuple[str, ...] = field(default=(), compare=False)
    site_names: tuple[str, ...] = field(default=(), compare=False)
    site_texts: tuple[str, ...] = field(default=(), compare=False)  # site_names and the logo headings' texts


def _clean(text: str | None) -> str | None:
    if not text or not isinstance(text, str):
        return None
    import html

    text = " ".join(html.unescape(text).split()).strip()
    return text or None


_NOT_LETTERS = re.compile(r"[\W_]+")  # compiled once: key() runs for many lines of every page


# The last keys asked: a page asks for the key of the same line up to 4 times (its title and site name while the
# title is chosen, its lines near the headline and the visible title's). Small: it serves one page's repeats, and a
# site's next pages (its name), not a run over many sites.
KEY_CACHE_SIZE = 256


# The ASCII characters _NOT_LETTERS matches (all but letters and digits), deleted from an ASCII text's bytes: NFKC
# leaves ASCII as it is, so the key of an ASCII text (most lines) is its bytes without them, in lower case, in a
# third of the CPU of the regex (tests/core/extraction/test_fast_forms_of_metadata.py compares every ASCII character
# and random texts).
_ASCII_NOT_LETTERS = bytes(byte for byte in range(128) if _NOT_LETTERS.fullmatch(chr(byte)))


@lru_cache(maxsize=KEY_CACHE_SIZE)
def key(text: str | None) -> str:
    """Letters and digits only, lower-cased and NFKC-normalised (typographic quotes and dashes ignored)."""
    text = text or ""
    if text.isascii():
        return text.encode("ascii").translate(None, _ASCII_NOT_LETTERS).lower().decode("ascii")
    return _NOT_LETTERS.sub("", unicodedata.normalize("NFKC", text)).lower()


def _words(text: str) -> set[str]:
    return set(_WORD.findall(unicodedata.normalize("NFKC", text).lower()))


def overlap(first: str, second: str) -> float:
    a, b = _words(first), _words(second)
    return len(a & b) / len(a | b) if a and b else 0.0


def strip_site_name(title: str | None, site_name: str | None) -> str | None:
    """`title` without `site_name` at its start or end (with the separator between them). Pure: the site-aware
    stage calls it with a site name it learnt from many pages. Returns the title unchanged when the site name is
    not at either end, or when removing it would leave nothing."""
    title = _clean(title)
    if not title or not site_name or not key(site_name):
        return title
    site = key(site_name)
    parts = _split(title)
    if len(parts) < 2:
        return title
    if key(parts[-1]) == site or (key(parts[-1]) and key(parts[-1]) in site and len(key(parts[-1])) >= 4):
        rest = title[: title.rfind(parts[-1])]
    elif key(parts[0]) == site:
        rest = title[title.find(parts[0]) + len(parts[0]):]
    else:
        return title
    rest = SEPARATOR.sub(" ", " " + rest + " ").strip() if not rest.strip(" |｜-–—:·•»«~/_") else rest
    rest = rest.strip().strip("|｜-–—:·•»«~/_").strip()
    return rest or title


@lru_cache(maxsize=KEY_CACHE_SIZE)
def _split(title: str) -> tuple[str, ...]:
    """The title's parts between separators. Cached as `key` is: a page splits the same title a few times, and
    SEPARATOR's lookbehinds are costly."""
    return tuple(part.strip() for part in SEPARATOR.split(title) if part and part.strip())


def site_names(markup: PageMarkup, url: str | None) -> list[str]:
    """What the page says its site is called: og:site_name and kin, JSON-LD WebSite/publisher names."""
    names = [_clean(markup.first_meta(name)) for name in SITE_NAME_META[:5]]
    for item in markup.json_ld:
        kinds = item.get("@type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if any(k in ("WebSite", "Organization", "NewsMediaOrganization") for k in kinds if isinstance(k, str)):
            names.append(_clean(item.get("name")) if isinstance(item.get("name"), str) else None)
        publisher = item.get("publisher")
        if isinstance(publisher, dict) and isinstance(publisher.get("name"), str):
            names.append(_clean(publisher["name"]))
    return list(dict.fromkeys(n for n in names if n))


# A <title> part beside the headline longer than this is no site name (a standfirst, a second headline).
MAX_AFFIX_CHARS = 40


def title_affixes(page_title: str | None, headline: str | None) -> tuple[str, ...]:
    """The first and last parts of the page's <title> beside the headline ("Headline_网易新闻" -> "网易新闻"): what
    the page calls its site there. None when the <title> does not hold the headline."""
    page_title, headline = _clean(page_title), _clean(headline)
    if not page_title or not headline:
        return ()
    headline_key = key(headline)
    parts = _split(page_title)
    if len(parts) < 2 or not headline_key or headline_key not in key(page_title):
        return ()
    edges = dict.fromkeys((parts[0], parts[-1]))  # a middle part is a section or a byline ("by Jane Roe")
    return tuple(part for part in edges if key(part) and key(part) not in headline_key and
                 headline_key not in key(part) and len(part) <= MAX_AFFIX_CHARS)


def _host_words(url: str | None) -> str:
    """The host's name as a key: its label before the top-level domain ("www.consumerreports.org" ->
    "consumerreports")."""
    if not url:
        return ""
    host = re.sub(r"^[a-z]+://", "", url.lower()).split("/", 1)[0].split(":", 1)[0]
    labels = [label for label in host.split(".") if label not in ("www", "m", "blog", "news", "en")]
    return labels[-2] if len(labels) >= 2 else (labels[0] if labels else "")


def _host_key(part_key: str, host: str) -> bool:
    """Whether a title part is the host's name, with or without its domain ("Move.org", "Gazette.example")."""
    return bool(host) and len(host) >= 3 and part_key.startswith(host) and (
        len(part_key) <= len(host) + 6 or re.fullmatch(re.escape(host) + r"[a-z]{2,12}", part_key) is not None)


def _is_site_part(part: str, sites: list[str], host: str) -> bool:
    part_key = key(part)
    if not part_key:
        return True
    if ZH_SITE_PART.match(part.strip(" |｜-–—:·•»«~/_")):  # also "-铜雀历史网", a <title> without its headline
        return True
    if any(part_key == key(site) or (len(part_key) >= 4 and part_key in key(site)) for site in sites):
        return True
    return _host_key(part_key, host)


def strip_site(title: str | None, sites: list[str], host: str) -> str | None:
    """A stated title without its site parts (site names the page states, or the host's name)."""
    title = _clean(title)
    if not title:
        return None
    for site in sites:
        title = strip_site_name(title, site)
    parts = _split(title)
    if len(parts) >= 2:
        while len(parts) >= 2 and _is_site_part(parts[-1], sites, host):
            title = title[: title.rfind(parts[-1])].rstrip().rstrip("|｜-–—:·•»«~/_").rstrip()
            parts = parts[:-1]
        while len(parts) >= 2 and _is_site_part(parts[0], sites, host):
            title = title[title.find(parts[0]) + len(parts[0]):].lstrip().lstrip("|｜-–—:·•»«~/_").lstrip()
            parts = parts[1:]
    return title or None


# Elements inside a heading that are no part of the headline: a byline or a date a theme nests in the <h1>.
HEADING_EXTRA = re.compile(r"byline|author|date|posted|timestamp|meta-?info|entry-meta", re.IGNORECASE)
# Tags that part words when rendered (a line break, a block); inline tags (<span>, <em>, <a>) join their text to the
# next ("<span>C</span>ycle" shows "Cycle").
_WORD_PARTING_TAGS = frozenset("br div p li ul ol table tr td th h1 h2 h3 h4 h5 h6 header section hr".split())


def heading_text(element: etree._Element, limit: int = MAX_HEADLINE_CHARS + 1) -> str:
    """A heading's text as it is shown: inline pieces joined as they stand, a space where a line break or a block
    parts them, a nested byline or date (<time>, HEADING_EXTRA classes) left out; spaces collapsed, cut at `limit`."""
    parts: list[str] = [element.text or ""]
    _shown_children(element, parts, 0)
    return " ".join("".join(parts).split())[:limit]


def _shown_children(element: etree._Element, parts: list[str], depth: int) -> None:
    for child in element:
        if isinstance(child.tag, str) and depth < 12 and not _heading_extra(child):
            parting = child.tag in _WORD_PARTING_TAGS
            parts.append(" " if parting else "")
            parts.append(child.text or "")
            _shown_children(child, parts, depth + 1)
            parts.append(" " if parting else "")
        parts.append(child.tail or "")


def _heading_extra(element: etree._Element) -> bool:
    return element.tag == "time" or HEADING_EXTRA.search(f"{element.get('class') or ''} {element.get('id') or ''}") \
        is not None


def _heading_candidates(markup: PageMarkup, sites: list[str], host: str) -> list[str]:
    """Texts of the page's <h1>s that can be a headline: not a logo/brand heading, not the site's name."""
    found = []
    for element in markup.h1s:
        text = _EDIT_LINK.sub("", _clean(heading_text(element)) or "") or None
        if not text or len(text) > MAX_HEADLINE_CHARS or _in_site_chrome(element):
            continue
        if _is_site_part(text, sites, host):
            continue
        found.append(strip_site(text, sites, host) or text)
    return found


def logo_texts(markup: PageMarkup) -> list[str]:
    """Texts of the page's logo headings: the site's name as the page shows it (h1.site-title)."""
    texts = (_clean(text_of(element, 80)) for element in markup.h1s if _in_site_chrome(element))
    return [text for text in texts if text]


def _in_site_chrome(element: etree._Element) -> bool:
    """A logo heading: the heading or one of its two closest ancestors is named logo/brand/site-title, or it sits
    in a page-level <header>/<nav> (not an article's) and links to the site's home page."""
    node = element
    for _ in range(3):
        if node is None or node.tag in ("body", "html", "article", "main"):
            break
        if any(SITE_HEADING.search(token) for token in f"{node.get('class') or ''} {node.get('id') or ''}".split()):
            return True
        node = node.getparent()
    node = element.getparent()
    while node is not None and node.tag not in ("body", "html"):
        if node.tag in ("article", "main"):
            return False
        if node.tag in ("header", "nav"):
            return any(_HOME_LINK.match((link.get("href") or "").strip()) for link in element.iter("a"))
        node = node.getparent()
    return False


def stated_titles(markup: PageMarkup) -> list[tuple[str, str]]:
    """(source, text) of every title the page states, in the order they are trusted."""
    found: list[tuple[str, str]] = []
    objects = article_objects(markup) if markup.json_ld else []  # ordered once, not again for each item
    for item in objects[:3]:
        headline = item.get("headline") or (item.get("name") if item in objects[:1] else None)
        if isinstance(headline, str) and _clean(headline):
            found.append(("jsonld", _clean(headline)))
            break
    for name in TITLE_META:
        value = _clean(markup.first_meta(name))
        if value:
            found.append(("og" if name != "title" else "meta", value))
    if _clean(markup.title):
        found.append(("title", _clean(markup.title)))
    return found


def choose_title(markup: PageMarkup, url: str | None = None) -> TitleChoice:
    """The article-region <h1> when it agrees with a stated title (or is the only candidate heading), else the
    first stated title (JSON-LD headline, og:title, <title>) with the site's name removed."""
    named = site_names(markup, url)
    sites = named + logo_texts(markup)
    host = _host_words(url)
    stated = stated_titles(markup)
    cleaned = [(source, strip_site(text, sites, host) or text) for source, text in stated]
    cleaned = [(source, text) for source, text in cleaned if not _is_site_part(text, sites, host)]
    headings = _heading_candidates(markup, sites, host)
    site = sites[0] if sites else _inferred_site(stated, cleaned)
    kept = tuple(dict.fromkeys(text for _, text in cleaned))
    read = (tuple(text for _, text in stated), tuple(named), tuple(sites))
    for heading in headings:
        if any(_agrees(heading, text) for _, text in cleaned + stated):
            return TitleChoice(_as_stated(heading, cleaned), site, "h1", kept, *read)
    if len(headings) == 1 and (not cleaned or overlap(headings[0], cleaned[0][1]) > 0):
        return TitleChoice(headings[0], site, "h1", kept, *read)
    if cleaned:
        return TitleChoice(cleaned[0][1], site, cleaned[0][0], kept, *read)
    return TitleChoice(headings[0] if headings else None, site, "h1" if headings else None, kept, *read)


def _as_stated(heading: str, cleaned: list[tuple[str, str]]) -> str:
    """An all-capitals heading (a theme's capitals) in the spelling of the stated title with the same words; a
    heading that lost a separator to a line break ("Headline<br>standfirst") with the stated title's."""
    heading_key = key(heading)
    same = [text for _, text in cleaned if key(text) == heading_key]
    if not any(char.islower() for char in heading):
        return same[0] if same else heading
    return next((text for text in same if _lost_separators(heading, text)), heading)


_SEPARATOR_MARKS = frozenset(":;,|–—-")


def _lost_separators(heading: str, stated: str) -> bool:
    """Whether `stated` is `heading` with separators inside it that the heading lacks ("Headline: standfirst" for
    "Headline<br>standfirst"): the same first and last characters, and only separator marks added."""
    shown, full = "".join(heading.split()), "".join(stated.split())
    if len(full) <= len(shown) or shown[:1] != full[:1] or shown[-1:] != full[-1:]:
        return False
    added = list(full)
    for char in shown:  # remove the heading's characters in order; what remains is what the stated title adds
        if char not in added:
            return False
        added.remove(char)
    return all(char in _SEPARATOR_MARKS for char in added)


def _agrees(heading: str, title: str) -> bool:
    heading_key, title_key = key(heading), key(title)
    if len(heading_key) >= 6 and (heading_key in title_key or title_key in heading_key):
        return True
    return overlap(heading, title) >= MATCH_OVERLAP


def _inferred_site(stated: list[tuple[str, str]], cleaned: list[tuple[str, str]]) -> str | None:
    """The part <title> adds to the og:title/JSON-LD headline ("Headline | Site" beside "Headline")."""
    page_title = next((text for source, text in stated if source == "title"), None)
    headline = next((text for source, text in stated if source in ("og", "jsonld")), None)
    if not page_title or not headline or key(headline) == key(page_title) or key(headline) not in key(page_title):
        return None
    rest = page_title.replace(headline, "", 1).strip().strip("|｜-–—:·•»«~/_").strip()
    return rest if rest and len(rest) <= 60 and len(_split(rest)) == 1 else None


# A page line is the visible form of a stated title when it is this many words long at least (a shorter line
# inside the title is a section label: "News", "Sport") and the title's words contain all of its words.
MIN_LINE_WORDS = 3
MIN_LINE_CJK_CHARS = 6


def visible_title(lines: list[str], stated: tuple[str, ...], sites: tuple[str, ...] = ()) -> str | None:
    """The longest page line that is one segment of a stated title (old pages without an <h1>: the <title>
    "Site : Headline" shows the headline as a line of its own), never a site's name. None when no line is."""
    keys = [key(text) for text in stated if text]
    site_keys = {key(site) for site in sites}
    best: str | None = None
    for line in lines:
        if len(line) > MAX_HEADLINE_CHARS or (best is not None and len(line) <= len(best)):
            continue
        line_key = key(line)
        # the word count last: few lines are a segment of a title (pure tests: the order changes no answer)
        if line_key and line_key not in site_keys and any(line_key in k for k in keys) and (
                len(line.split()) >= MIN_LINE_WORDS or len(_HAN_CHAR.findall(line)) >= MIN_LINE_CJK_CHARS):
            best = line
    return best
