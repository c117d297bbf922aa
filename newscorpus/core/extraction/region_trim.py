"""The trim of the default method's region: the blocks of the chosen region whose lines are the body (a table of
rules that drop a block, each with its reason), and the lines of a kept block (paper 000's punctuation statistics).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from newscorpus.core.domains import url_site
from newscorpus.core.extraction.block_tree import BLOCK_TAGS, HEADING_TAGS, Block
from newscorpus.core.extraction.punctuation import punctuation_ratio
from newscorpus.core.text import HAN_UNIFIED, characters

# Blocks in the region whose text is more than half links are dropped (readability uses 0.5 too).
MAX_LINK_DENSITY = 0.5
# ... except a punctuated <p> whose own (non-link) text is at least MIN_PARAGRAPH_OWN_CHARS: it is a
# sentence with inline links (nbcnews.com, bbc.com, blogs.wsj.com paragraphs), dropped only above this
# density. Swept with `newscorpus eval extraction` on the dev sets (density 0.6-0.8 x own characters 10-30: one
# plateau; own characters 0 lets "(编辑：小何)返回搜狐" through); the middle of the plateau.
MAX_PARAGRAPH_LINK_DENSITY = 0.7
MIN_PARAGRAPH_OWN_CHARS = 20
# Lines without punctuation inside the region are kept only in headings or when this long. Off (0): inside the
# chosen region unpunctuated lines are mostly sub-headings that the gold keeps (swept 0-80 with `newscorpus eval
# extraction` on the dev sets, 0 best).
MIN_UNPUNCTUATED_CHARS = 0


def hint_dropped(blocks: list[Block], index: int, top_hint: int) -> bool:
    """Blocks marked "comment/share/related/..." by class/id inside a region that is not so marked.

    A <p> whose own class alone is negative stays: class words name widgets, and a paragraph is text
    (youm7.com marks every body paragraph "selectionShareable").
    """
    block = blocks[index]
    if not block.hint < 0 <= top_hint:
        return False
    return not (block.tag == "p" and block.parent >= 0 and blocks[block.parent].hint >= 0)


# Image captions and credits are not body in the dev gold: <figure>/<figcaption> content is dropped from the
# region (the caption rule of TRIM_RULES).
CAPTION_TAGS = frozenset({"figure", "figcaption"})


# The tags whose punctuated own sentence keeps them despite their links: a paragraph, and a list entry (a link
# roundup's "<li><a>Title</a> - why it is worth reading.</li>", a menu's entries have no sentence of their own).
SENTENCE_TAGS = frozenset({"p", "li", "dd"})


def link_dropped(block: Block, max_ratio: float) -> bool:
    """Link-dense blocks are navigation, except a punctuated paragraph or list entry with a sentence of its own
    around its links."""
    density = block.link_chars / block.chars
    if (
        block.tag in SENTENCE_TAGS
        and 0.0 < block.punctuation / block.chars <= max_ratio
        and block.chars - block.link_chars >= MIN_PARAGRAPH_OWN_CHARS
    ):
        return density > MAX_PARAGRAPH_LINK_DENSITY
    return density > MAX_LINK_DENSITY


# Links to other sites are what a link roundup or a list of picks is made of ("Author, <a>Title</a>" lines linking
# to a bookshop, "<a>Story</a> - why read it" lines linking to other blogs); a site's menus, tag clouds and related
# lists link to the site itself. So in a punctuated block of the region, link text to another registrable domain
# counts as its own text in the density test (link_dropped): wcxb_train's best-books list kept its 90 entries
# (`newscorpus eval extraction` on the dev sets: 150 pages changed, net +1.2 F1 points summed). Not links to social
# networks ("Post to Facebook", "A post shared by ..." under an embed) nor links whose text is a bare URL (reference
# lists): the dev gold drops those.
SOCIAL_SITES = frozenset({
    "facebook.com", "twitter.com", "x.com", "instagram.com", "tiktok.com", "pinterest.com", "linkedin.com",
    "reddit.com", "digg.com", "fark.com", "del.icio.us", "stumbleupon.com", "tumblr.com", "whatsapp.com",
    "t.me", "youtube.com", "threads.net", "bsky.app", "weibo.com", "qq.com", "addthis.com", "sharethis.com",
})  # fmt: skip


def other_site_link_chars(block: Block, site: str) -> int:
    """Link text (non-space characters, as Block.link_chars counts it) of the block's own links, those not inside
    a nested block, whose href is on another site than `site` and not a social network, their text not a URL."""
    element = block.element
    chars = 0
    for link in element.iter("a"):
        linked = url_site(link.get("href"))
        if linked is None or linked == site or linked in SOCIAL_SITES:
            continue
        ancestor = link.getparent()
        while ancestor is not None and ancestor is not element and ancestor.tag not in BLOCK_TAGS:
            ancestor = ancestor.getparent()
        if ancestor is element:
            texts = [text.strip() for text in link.itertext()]
            if texts and texts[0].startswith(("http:", "https:", "www.")):
                continue
            chars += sum(map(len, texts))
    return min(chars, block.link_chars)


# A list of references or footnotes cites other sites too, and the dev gold leaves it out (zh.wikipedia's
# references, a blog's "[1] https://..." notes): a block inside an element so named is not a citing block.
REFERENCE_NAMES = re.compile(r"reference|reflist|footnote|citation|bibliograph", re.IGNORECASE)


def cites_other_sites(blocks: list[Block], index: int, trim: Trim) -> bool:
    """A punctuated block, not in a list of references, that is not link-dense once its links to other sites
    count as its own text."""
    block = blocks[index]
    if trim.site is None or not 0.0 < block.punctuation / block.chars <= trim.max_ratio:
        return False
    node = index
    while node >= 0:
        if REFERENCE_NAMES.search(blocks[node].class_names):
            return False
        node = blocks[node].parent
    return block.link_chars - other_site_link_chars(block, trim.site) <= MAX_LINK_DENSITY * block.chars


def in_caption(blocks: list[Block], index: int, root: int) -> bool:
    """Inside a <figure>/<figcaption> (image captions and credits are not body in the dev gold)."""
    while index >= root:
        if blocks[index].tag in CAPTION_TAGS:
            return True
        if index == root:
            break
        index = blocks[index].parent
    return False


def keep_line(line: str, block: Block, max_ratio: float) -> bool:
    """A line of a kept block stays when its punctuation share is at most max_ratio and it is punctuated, a
    heading, or long enough to be prose without punctuation."""
    ratio = punctuation_ratio(line)
    if ratio > max_ratio:
        return False
    if ratio > 0.0:
        return True
    return block.tag in HEADING_TAGS or len(line) >= MIN_UNPUNCTUATED_CHARS


def kept_lines(block: Block, max_ratio: float) -> list[str]:
    """The lines of a block that `keep_line` keeps. A one-line block's ratio is its own counts (its text is the
    line, and `_finish` counted its punctuation and non-space characters as `punctuation_ratio` does), so the
    punctuation is not searched again (tests/core/extraction/test_fast_forms_of_region.py compares it with keep_line
    on every block)."""
    text = block.text
    if "\n" in text or not block.chars:
        return [line for line in text.split("\n") if keep_line(line, block, max_ratio)]
    ratio = block.punctuation / block.chars
    if ratio > max_ratio:
        return []
    if ratio > 0.0 or block.tag in HEADING_TAGS or len(text) >= MIN_UNPUNCTUATED_CHARS:
        return [text]
    return []


# Chinese portals put their page furniture in the article's own container, as short lines the punctuation does not
# tell from prose: the date/source/author/views line under the headline, the "原标题：" (original headline) line, the
# reader's font-size switch, the disclaimer, and the "延伸阅读" (further reading) label over related links. A block of
# the region whose whole text is such a line is dropped (the portal-furniture rule of TRIM_RULES). Each pattern was
# run over every gold line of the dev sets and of wcxb_listing: none matches a gold line (photo captions, "推荐阅读",
# "关注公众号" and English "Disclaimer:" lines do, so they are not here), and the lines they match in our bodies
# (zh_web_content_69's date/source lines, a "原标题" line) are all outside the gold.
_DATE_OR_TIME = r"(?:\d{4}\s*[-年/.]\s*\d{1,2}\s*[-月/.]\s*\d{1,2}|\d{1,2}:\d{2})"
_NO_SENTENCE = r"(?!.*[。，！？；])"
PORTAL_FURNITURE = (
    ("a date and source line", re.compile(
        rf"^{_NO_SENTENCE}(?=.*{_DATE_OR_TIME})(?=.*(?:来源|作者|浏览|点击|阅读|编辑|发布|稿源|出处)\s*[:：(（])"
        r".{0,100}$")),
    ("a view count", re.compile(
        rf"^{_NO_SENTENCE}.{{0,30}}(?:浏览|阅读|点击|访问)(?:次数|量|数)?\s*[:：]\s*\d+\s*次?.{{0,30}}$")),
    ("an original-headline line", re.compile(r"^[【\[(（]?原标题\s*[:：]")),
    ("a disclaimer", re.compile(r"^[【\[(（]?(?:免责声明|版权声明|特别声明)\s*[:：】\])）]")),
    ("a font-size switch", re.compile(
        r"^(?:字号|字体)\s*[:：]?\s*(?:[【\[]?\s*(?:超大|特大|大|中|标准|小)\s*[】\]]?\s*){2,}$")),
    ("a further-reading label", re.compile(
        r"^[【\[]?(?:延伸阅读|相关阅读|相关新闻|相关文章|相关链接)\s*[】\]]?\s*[:：]?$")),
)
# Such lines are short: a date/source line is under 100 characters, a disclaimer paragraph under 300.
MAX_FURNITURE_CHARS = 300
_HAN = re.compile(f"[{characters(HAN_UNIFIED)}]")


def portal_furniture(block: Block) -> str | None:
    """What page furniture of a Chinese portal the block's whole text is (PORTAL_FURNITURE), None when none."""
    if block.chars > MAX_FURNITURE_CHARS or "\n" in block.text or not _HAN.search(block.text):
        return None
    for name, pattern in PORTAL_FURNITURE:
        if pattern.search(block.text):
            return name
    return None


# A site's notice about the reader's browser ("You are using an outdated browser", "enable JavaScript",
# "您的浏览器版本过低") is not the article, though punctuated; beside a short post it joined the body. A region
# block of at most MAX_NOTICE_CHARS that says so is dropped (the browser-notice rule of TRIM_RULES). The pattern
# matches no gold line of the dev sets or wcxb_listing.
BROWSER_NOTICE = re.compile(
    r"(?:outdated|unsupported|out-of-date|older) (?:web )?browser|(?:upgrade|update) your (?:web )?browser|"
    r"(?:enable|turn on|activate) javascript|javascript (?:is )?(?:disabled|required)|"
    r"browser (?:is )?not (?:fully )?supported|您的浏览器(?:版本)?(?:过低|太旧|不支持|版本较低)|"
    r"请(?:升级|更新|更换)(?:您的)?浏览器|(?:启用|开启|打开)\s*javascript",
    re.IGNORECASE,
)
MAX_NOTICE_CHARS = 400


# Pages hold hidden copies of the article (read-aloud, print and AMP blocks, a mobile and a desktop copy) that the
# region would take twice. A copy is a block whose whole subtree has the same text, in the same block structure, as
# an earlier block of the region and at least MIN_COPY_CHARS characters: it is skipped. Repeated lines alone are
# not copies: pull quotes, refrains and a meal plan's recurring entries repeat, and the gold keeps them. Swept
# 100-400 with `newscorpus eval extraction` on the dev sets: 100 best, no page worse.
MIN_COPY_CHARS = 100


def subtree_keys(blocks: list[Block], roots: list[int]) -> dict[int, tuple[int, int]]:
    """Per block under the roots: (hash of its subtree's texts and shape, non-space characters in it)."""
    keys: dict[int, tuple[int, int]] = {}
    for root in roots:
        for index in range(blocks[root].end - 1, root - 1, -1):
            block = blocks[index]
            children, chars, child = [], block.chars, index + 1
            while child < block.end:
                child_key, child_chars = keys[child]
                children.append(child_key)
                chars += child_chars
                child = blocks[child].end
            keys[index] = (hash((block.tag, block.text, tuple(children))), chars)
    return keys


@dataclass(frozen=True, slots=True)
class Trim:
    """What the trim rules read besides the blocks: the headline's item window (None: no headline), the comment
    sections, the punctuation ratio p, the hint of the region's top block and the page's site (its URL's
    registrable domain; None when unknown)."""

    window: list[bool] | None
    comments: list[bool]
    max_ratio: float
    top_hint: int
    site: str | None = None
    hidden: list[bool] | None = None  # per block: hidden by its own or an ancestor's markup (None: nothing hidden)


# Rules that drop a block of the region: (blocks, index, the root whose subtree holds it, trim) -> reason or None.
def _no_text(blocks: list[Block], index: int, root: int, trim: Trim) -> str | None:
    return "no text" if not blocks[index].chars else None


def _outside_window(blocks: list[Block], index: int, root: int, trim: Trim) -> str | None:
    return "outside the headline's item" if trim.window is not None and not trim.window[index] else None


def _comment_section(blocks: list[Block], index: int, root: int, trim: Trim) -> str | None:
    return "a comment section" if trim.comments[index] else None


def _link_dense(blocks: list[Block], index: int, root: int, trim: Trim) -> str | None:
    block = blocks[index]
    if link_dropped(block, trim.max_ratio) and not cites_other_sites(blocks, index, trim):
        return "mostly links"
    return None


def _negative_hint(blocks: list[Block], index: int, root: int, trim: Trim) -> str | None:
    return "a negative class hint" if hint_dropped(blocks, index, trim.top_hint) else None


def _caption(blocks: list[Block], index: int, root: int, trim: Trim) -> str | None:
    return "a caption" if in_caption(blocks, index, root) else None


def _hidden(blocks: list[Block], index: int, root: int, trim: Trim) -> str | None:
    hidden = trim.hidden
    return "hidden" if hidden is not None and hidden[index] and not hidden[root] else None


# Every alternative of BROWSER_NOTICE holds one of these words: a block without them is not searched (the search,
# case-insensitive and without a literal prefix, cost 4 % of the extraction's CPU on every short block).
_NOTICE_WORDS = ("browser", "javascript", "浏览器")


def browser_notice(block: Block) -> bool:
    if block.chars > MAX_NOTICE_CHARS:
        return False
    lowered = block.text.lower()
    return any(word in lowered for word in _NOTICE_WORDS) and BROWSER_NOTICE.search(block.text) is not None


def never_body(block: Block) -> bool:
    """A block that is page furniture by its text alone (a portal's furniture line, a browser notice): the trim drops
    it, and the learned model does not add it back."""
    return bool(block.chars) and (browser_notice(block) or portal_furniture(block) is not None)


def _browser_notice(blocks: list[Block], index: int, root: int, trim: Trim) -> str | None:
    return "a browser notice" if browser_notice(blocks[index]) else None


def _portal_furniture(blocks: list[Block], index: int, root: int, trim: Trim) -> str | None:
    return portal_furniture(blocks[index])


# In the order they are asked (every rule is a pure test, so the order only decides the reason given); a rule
# taken out of the table is switched off. `_no_text` first: most blocks of a region are wrappers without text of
# their own, and _link_dense divides by the block's characters.
TRIM_RULES = (_no_text, _outside_window, _comment_section, _link_dense, _negative_hint, _caption, _portal_furniture,
              _browser_notice, _hidden)


def trim_reason(blocks: list[Block], index: int, root: int, trim: Trim) -> str | None:
    """Why the trim drops the block (the first reason of TRIM_RULES), None when it keeps it."""
    for rule in TRIM_RULES:
        reason = rule(blocks, index, root, trim)
        if reason is not None:
            return reason
    return None


def trim_region(blocks: list[Block], roots: list[int], trim: Trim) -> tuple[list[str], list[int]]:
    """The region's lines and the blocks they come from, in document order: every block under the roots that no
    rule of TRIM_RULES drops gives its kept_lines; a block whose subtree copies an earlier one (MIN_COPY_CHARS) is
    skipped with its subtree."""
    lines: list[str] = []
    kept: list[int] = []
    keys = subtree_keys(blocks, roots)
    seen: set[int] = set()
    for root in roots:
        position = root
        while position < blocks[root].end:
            index, block = position, blocks[position]
            key, chars = keys[index]
            if chars >= MIN_COPY_CHARS and block.end > index + 1:
                if key in seen:  # a copy of an earlier part of the region: skip its subtree
                    position = block.end
                    continue
                seen.add(key)
            position += 1
            if trim_reason(blocks, index, root, trim) is None:
                before = len(lines)
                lines.extend(kept_lines(block, trim.max_ratio))
                if len(lines) > before:
                    kept.append(index)
    return lines, kept
