"""DOM normalisation: parse decoded HTML with lxml, drop non-content nodes, cut the page into text blocks.

Paper 000 (基于DOM树及行文本统计去噪的网页文本抽取) and paper 004 (基于权值优化的网页正文内容提取算法):
remove script/style/... and comments, fix broken markup into a DOM tree, unwrap inline formatting,
normalise &nbsp; and whitespace, then attach every text node to its nearest block tag.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from newscorpus.core.extraction.markup import DIALOG_ROLES, NESTING_DROPS, PageMarkup
from newscorpus.core.extraction.repair import close_title, repair, swallowing_title
from newscorpus.core.word_patterns import grouped_by_first_letter

# Paper 000 §2.1 drop list plus select/button/svg/... (no article text). Not <form>: ASP.NET pages wrap
# the whole page in one form (zh_web_content_69 has such pages).
DROPPED_TAGS = (
    "script", "style", "img", "iframe", "object", "meta", "applet", "link", "noscript",
    "embed", "svg", "canvas", "video", "audio", "source", "picture", "template", "select", "option",
    "button", "input", "textarea", "head", "map", "math",
)  # fmt: skip
# Tags that start a new block (paper 004 uses div/table/tr/td/p; the rest are their HTML5 / list /
# heading equivalents so text in them is not glued to the previous paragraph).
BLOCK_TAGS = frozenset(
    "div table tr td th p article section main body html li ul ol dl dt dd h1 h2 h3 h4 h5 h6 "
    "blockquote pre header footer nav aside figure figcaption center address tbody thead tfoot "
    "caption details summary fieldset hr".split()
)
# HTML5 landmarks that hold site chrome rather than the article; a light prior in the default method.
CHROME_TAGS = frozenset({"nav", "footer", "aside", "header"})
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
BOLD_TAGS = frozenset({"b", "strong"})

# Chinese and English sentence punctuation (paper 000: 中英文句号、逗号、感叹号、中括号等), plus the
# sentence marks of other scripts in the dev data (Arabic/Urdu ، ؛ ؟ ۔, Devanagari । ॥, Japanese ｡ ､,
# full-width ．：) so their bodies are not "unpunctuated" (youm7.com pages scored 0.05 without them).
PUNCTUATION = frozenset("。，！？；：、“”‘’「」『』《》（）【】…—,.!?;:\"'()[]،؛؟۔।॥｡､．：")
_PUNCT_CLASS = "[" + re.escape("".join(sorted(PUNCTUATION))) + "]"
PUNCT_RE = re.compile(_PUNCT_CLASS)
_SPACES = re.compile(r"[ \t\r\f\v\u3000\u200b\ufeff]+")


def _squash_spaces(text: str) -> str:
    """`_SPACES.sub(" ", text)`, skipped where it would change nothing: no run of two spaces and none of the other
    characters (~78% of block texts on the dev sets, where the regex took ~0.8 ms per page; the substring tests
    cost a fifth of that; issue 16, 2026-11-24)."""
    if ("  " in text or "\t" in text or "\r" in text or "\f" in text or "\v" in text or "\u3000" in text
            or "\u200b" in text or "\ufeff" in text):
        return _SPACES.sub(" ", text)
    return text
# Class/id words, as readability's positive/negative lists (arc90 readability.js, trimmed to names
# that mean the same thing on every site). Inherited by descendants; the closest hint wins, except that a
# negative hint is kept by everything inside it: a comment list's posts are often class "content" (the
# positive child made macrumors.com's longest comment the article, F1 .26; keeping the negative hint moved
# en .9404 -> .9462, zh flat, dev run of 2026-11-22). <body>'s own class/id gives no hint: it names the
# page's layout ("u-has-nav-bar"), and a negative one would then cover the whole page.
# Not "widget" (readability has it): page builders call every block a widget ("elementor-widget-container"
# around the whole article), and sidebar widgets sit inside a "sidebar"/"aside" anyway. Removing it (issue 16,
# 2026-11-24): wcxb_train .8808 -> .8991 (16 pages better, 10 of them from no body to .98-1.00; 3 a little
# worse, -0.006 to -0.023, a sidebar box joining), cleanportaleval -0.0006, the other dev sets unchanged.
NEGATIVE_HINT = re.compile(
    r"comment|disqus|respond|reply|sidebar|side-bar|related|recommend|footer|foot|masthead|share|social|"
    r"sponsor|advert|promo|popup|outbrain|taboola|breadcrumb|crumb|pagination|pager|newsletter|subscribe|"
    r"hot-?news|tags?-list|rank|nav|menu|cookie|signup|login|"
    # Captions, credits, bylines, author bios, disclaimers, "trending"/"read more" boxes (as trafilatura's
    # discard lists): en F1 .9246 -> .9262, zh .9198 -> .9232 on the dev run of 2026-11-22.
    r"caption|credit|byline|author-?bio|bio-?box|about-?the-?author|disclaimer|copyright|statement|"
    r"trending|more-?stories|read-?more|also-?read",
    re.IGNORECASE,
)
POSITIVE_HINT = re.compile(r"article|body|content|entry|main|post|story|text|detail|zhengwen", re.IGNORECASE)
# Dialogs (cookie notices, consent and sign-up pop-ups) are not the page's content: WAI-ARIA marks them
# role="dialog"/"alertdialog" or aria-modal="true". Dropping them moved en F1 .928 -> .938 on the dev
# pages (2026-11-22: the two nbcnews.com pages, whose consent dialog holds a long cookie policy); the
# other candidates measured then did not pay: hidden / display:none / aria-hidden="true" elements
# (en -0.0001 to +0.0001, a few pages worse: some sites hide body text until a script shows it).
# Found by a walk in Python: the XPath "//*[@role='dialog' or ...]" took ~0.6 ms per page on the dev sets, the walk
# half of that (issue 16, 2026-11-24).


def dialogs(root: etree._Element) -> list[etree._Element]:
    """The document's elements (all of it, as "//" reads it, wherever `root` is) marked as a dialog, in document
    order."""
    return [element for element in document_element(root).iter(etree.Element)
            if element.get("role") in DIALOG_ROLES or element.get("aria-modal") == "true"]


def document_element(element: etree._Element) -> etree._Element:
    """The document's root element: "descendant-or-self::" from it finds what "//" finds, in far less CPU in libxml2
    (a third for the e-mail fields and page_kind's queries on the dev sets; issue 16, 2026-11-24)."""
    return element.getroottree().getroot()


# E-mail sign-up boxes (newsletter, "get our stories in your inbox") are not the page's content; their one
# sure mark is an e-mail input field, found in any markup (utility-CSS sites give no class hint). The box
# is the largest ancestor of the field holding at most SIGNUP_BOX_MAX_CHARS non-space characters once
# scripts are gone, and no <p> of its own beside the box (so a short article holding a box keeps its text).
# Swept on the dev pages (2026-11-22, with the landmark rule of default.py): 200 / 400 / 600 / 800 / 1200 /
# 2000 gave en .9474 / .9540 / .9540 / .9540 / .9486 / .9420, zh .9566 and cleanportaleval .9239 throughout;
# at 200 a box's intro lines stay, from 1200 the box grows into a short video description (aeon.co) and a
# teaser column (theverge.com). Middle of the 400-800 plateau chosen. Comment forms ("name, e-mail,
# website") go too, which is no loss.
SIGNUP_BOX_MAX_CHARS = 600
_EMAIL_CASE = str.maketrans("EMAIL", "email")  # XPath translate(@type, 'EMAIL', 'email')


def email_fields(root: etree._Element) -> list[etree._Element]:
    """The document's e-mail input fields (what "descendant-or-self::input[translate(@type, 'EMAIL', 'email') =
    'email']" finds from the document element; tests/core/extraction/test_fast_walks.py compares them), in document
    order: libxml2's tag-filtered walk instead of the XPath engine's (~0.1 ms less per page on the dev sets; issue 16,
    2026-11-24)."""
    return [field for field in document_element(root).iter("input") if _is_email_field(field)]


def _is_email_field(field: etree._Element) -> bool:
    return (field.get("type") or "").translate(_EMAIL_CASE) == "email"


# A <button> holds a label; one that holds paragraphs, headings or sections, or this much text, wraps page
# content: a </button> met while a <div> opened inside the button is still open is ignored by libxml2, which
# then nests the rest of the page, <main> included, inside the button (wcxb_train: 5 pages of one publishing
# platform kept 4-5 blocks and no body). Such a button is kept as a plain container instead of dropped.
# Labels and menus are short; 1000 characters leaves room for a menu dropped with its button. Only <button>:
# a <textarea> holding much text holds escaped markup (1905.com), not page content.
BUTTON_MAX_CHARS = 1000
# The same for the other dropped elements that an unclosed start tag can make hold the page (markup.NESTING_DROPS:
# a <select>, an <object>, a <video> never closed): one holding paragraphs, headings or sections becomes a
# container. Not the text-count test: a <select> of 200 countries holds 2,000 characters of options.
# Found by one walk of the tree (`iter`, document order as the XPath union "//select | //option | ..." gave,
# which walked the tree once per tag: ~0.3 ms per page on the dev sets, issue 16, 2026-11-24).
_CONTENT_TAGS = ("p", "main", "article", "section", "h1", "h2", "h3")


def holds_content(element: etree._Element) -> bool:
    """Whether the element holds any of _CONTENT_TAGS ("boolean(.//p | .//main | ...)", which test_fast_walks.py
    compares), from one tag-filtered walk of its descendants that stops at the first hit (the XPath union walked them
    once per tag: ~0.2 ms per page on the dev sets; issue 16, 2026-11-24)."""
    for _ in element.iterdescendants(*_CONTENT_TAGS):
        return True
    return False


_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)

_PARSER = etree.HTMLParser(
    recover=True,
    collect_ids=False,  # no id table: nothing looks elements up by id (the same tree, ~4% less parse CPU)
    remove_comments=True,
    remove_pis=True,
    no_network=True,
    # huge_tree stays off: libxml2 then caps nesting at 256 levels and text nodes at 10 MB, so a
    # pathological page (100k nested tags) parses in milliseconds instead of blowing the time cap.
    huge_tree=False,
)


@dataclass(slots=True)
class Block:
    """The text directly owned by one block element (text of nested blocks excluded)."""

    element: etree._Element
    tag: str
    parent: int  # index of the enclosing block, -1 for the root
    depth: int
    parts: list[str] | tuple[str, ...] = field(default_factory=list)  # () once finished (_finish)
    link_chars: int = 0
    bold_count: int = 0
    br_count: int = 0
    nbsp_count: int = 0
    in_chrome: bool = False
    hint: int = 0  # +1 / -1 from class/id names (article/content vs comment/sidebar/...), inherited
    comment: bool = False  # inside an element whose class/id names a comment section (COMMENT_TOKEN), inherited
    end: int = 0  # index one past the last descendant block (blocks are in document order)
    text: str = ""
    chars: int = 0  # non-space characters
    punctuation: int = 0
    # Its element's class attribute ("" without one) and the _names_flags of its class and id, as the walk read them
    # for the hints: the later steps ask them of many blocks (signatures, makes, the model's rows, code classes), each
    # ask an lxml call (issue 16 round 10, 2026-11-25; tests/core/extraction/test_fast_walks.py compares).
    class_names: str = ""
    name_flags: int = 0


# The same parser for a page's own UTF-8 bytes (parse_html's `utf8`).
_UTF8_PARSER = etree.HTMLParser(
    recover=True, collect_ids=False, remove_comments=True, remove_pis=True, no_network=True, huge_tree=False,
    encoding="utf-8",
)


def parse_html(text: str, utf8: bytes | None = None) -> etree._Element | None:
    """Parse decoded HTML, recovering broken markup. None when nothing parseable remains.

    libxml2 reads the text's UTF-8 bytes: `utf8` when the caller has them (the page's own bytes, when the text is
    their strict UTF-8 decoding: DecodedPage.strict), else the text encoded here once it holds more than ASCII. lxml
    would hand libxml2 such a text as Latin-1, UTF-16 or UCS-4 for it to convert: the same tree (every page of the dev
    sets; tests/core/extraction/test_fast_parse.py) for less CPU (UTF-8 pages of the dev sets 1.40 -> 1.11 ms from
    their own bytes; UCS-4 texts 2.39 -> 1.59 ms with the encoding; UTF-16 and Latin-1 texts alike either way), and
    the search for a NUL is in the bytes (~0.05 instead of ~0.6 ns a character; issue 16, 2026-11-24). A text with an
    XML declaration (cut here) or a NUL (removed) is parsed as before."""
    if utf8 is None and not text.isascii():
        try:
            utf8 = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate
            utf8 = None
    if utf8 is not None and b"\x00" not in utf8 and _XML_DECL.match(text) is None:
        if not text or text.isspace():
            return None
        root = _parse(utf8, _UTF8_PARSER)
    else:
        text = _XML_DECL.sub("", text, count=1).replace("\x00", "")
        if not text or text.isspace():  # as `not text.strip()`, without copying the page
            return None
        root = _parse(text)
    if root is not None and swallowing_title(root):  # an unclosed <title> took the page (repair.py)
        closed = close_title(text)
        reparsed = _parse(closed) if closed is not None else None
        root = reparsed if reparsed is not None else root
    if root is not None:
        repair(root)
    return root


def _parse(text: str | bytes, parser: etree.HTMLParser = _PARSER) -> etree._Element | None:
    try:
        return etree.fromstring(text, parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return None


def remove_keeping_tail(element: etree._Element) -> None:
    """Remove an element from the tree in place, keeping the text that follows it (its tail)."""
    parent = element.getparent()
    if parent is None:
        return
    if element.tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + element.tail
        else:
            parent.text = (parent.text or "") + element.tail
    parent.remove(element)


def more_text_than(element: etree._Element, max_chars: int) -> bool:
    """Whether the element's text, descendants included, has more than max_chars non-space characters; reads
    only as far as it needs to (a page with many e-mail fields asks this of the whole page once per field)."""
    chars = 0
    for text in element.itertext():
        chars += sum(map(len, text.split()))
        if chars > max_chars:
            return True
    return chars > max_chars


def signup_box(field_parent: etree._Element, max_chars: int = SIGNUP_BOX_MAX_CHARS) -> etree._Element | None:
    """The largest ancestor-or-self of an e-mail field's parent with at most max_chars of text, below <body>,
    that does not reach a container of paragraphs (a short article holding the box stays)."""
    box = None
    element: etree._Element | None = field_parent
    while element is not None and element.tag not in ("body", "html"):
        if more_text_than(element, max_chars):
            break
        if box is not None and any(child.tag == "p" and child is not box for child in element):
            break
        box = element
        element = element.getparent()
    return box


def clean_tree(root: etree._Element, markup: PageMarkup | None = None) -> None:
    """Drop non-content elements in place (comments are already dropped by the parser): scripts, media and
    form controls, dialogs, and e-mail sign-up boxes.

    `markup`: `read_markup(root)` (read before cleaning, `root` the document element, the tree unchanged since),
    whose walk found the elements asked for here (its inputs, buttons, NESTING_DROPS and dialogs), which saves four
    walks; the dialogs the drops below detach are skipped, as `dialogs(root)` after the drops would not see them
    (a dropped element has no parent; one inside a dropped element is removed from the detached copy only)."""
    fields = email_fields(root) if markup is None else [field for field in markup.inputs if _is_email_field(field)]
    field_parents = [field.getparent() for field in fields]
    buttons = root.iter("button") if markup is None else markup.buttons
    # An element without children holds no element, and a text of at most BUTTON_MAX_CHARS characters holds no more
    # non-space ones: ~3 of the ~6 buttons and most of the ~7 NESTING_DROPS elements of a page are answered without
    # the two walks (41 -> 28 us a page on every second dev page; issue 16 round 11, 2026-11-25; test_fast_tail.py
    # compares)
    for button in [b for b in buttons if (len(b) or len(b.text or "") > BUTTON_MAX_CHARS)
                   and (holds_content(b) or more_text_than(b, BUTTON_MAX_CHARS))]:
        button.tag = "div"
    nesting = root.iter(*NESTING_DROPS) if markup is None else markup.nesting
    for element in [e for e in nesting if len(e) and holds_content(e)]:
        element.tag = "div"
    etree.strip_elements(root, *DROPPED_TAGS, with_tail=False)
    boxes = [signup_box(parent) for parent in field_parents if parent is not None]
    found = dialogs(root) if markup is None else markup.dialogs
    for element in found + [box for box in boxes if box is not None]:
        if element.getparent() is not None:
            remove_keeping_tail(element)


# Both word lists in one pattern, lower case, so a class string is scanned once, not twice with IGNORECASE
# (class strings of utility-CSS sites run to hundreds of characters; the two scans were a tenth of extraction's
# CPU on wcxb_train). Words glued so that one starts inside another ("mainav") count once here; every page of
# the seven dev sets gets the same extraction as with the two scans (2026-11-24).
# One flat alternation (negative words first, as the two named groups it replaced) rather than two groups: the
# regex engine then skips positions whose letter starts no word, ~27% less CPU per token (issue 16, 2026-11-24).
# A match is negative exactly when it is a whole negative word: a negative word matching there would have won.
# The words are then grouped by their first letter (grouped_by_first_letter: the same matches, half the CPU).


# The groups are tried in the order of their letters' frequency in the class/id values _value_flag missed on every
# second dev page ("etnomialrcsudpbghfyw"): findall 1,118 -> 1,000 ns a value (issue 16 round 11, 2026-11-25).
_HINT_LETTER_ORDER = "etnomialrcsudpbghfyw"
_HINT_WORDS = re.compile(grouped_by_first_letter(f"{NEGATIVE_HINT.pattern.lower()}|{POSITIVE_HINT.pattern.lower()}",
                                                 order=_HINT_LETTER_ORDER))
_NEGATIVE_WORD = re.compile(NEGATIVE_HINT.pattern.lower())


def _own_hint(names: str) -> int:
    """+1 / -1 from one element's class and id words, 0 when they say nothing."""
    return _hint_of(_names_flags(names))


def _hint_of(flags: int) -> int:
    negative, positive = flags & _NEGATIVE, flags & _POSITIVE
    return 0 if negative and positive else -1 if negative else 1 if positive else 0


# Comment sections (issue 15: never the body): a class or id token that names one (WordPress "comments-area",
# "comment-list", "comment", "comment-body", "#respond", Disqus; not "commentary", not a post's state tokens
# "comments-open", "has-comments"). Inherited by descendants; default.comment_sections adds labelled sections.
COMMENT_TOKEN = re.compile(
    r"^(?:comments?|commentlist|replies|respond|pinglun|disqus\w*|(?:comments?|reply)[-_](?!open|closed)\w+)$",
    re.IGNORECASE,
)


def names_comment(names: str) -> bool:
    """Whether class/id words name a comment section."""
    return bool(_names_flags(names) & _COMMENT)


# What one class/id token says: _HINT_WORDS' matches in it (negative, positive) and whether it names a comment
# section. No hint word holds a space, so the matches in a whole class+id string are those of its tokens one by
# one: the flags of a string are the union of its tokens' (cached per token, as sites and CSS frameworks share
# tokens across class strings; per-string caching alone re-scanned every new combination of known tokens, a
# third of this step's CPU on the dev sets, issue 16, 2026-11-24). Both caches are emptied at _MARKS_SIZE
# entries so a long crawl's memory stays bounded.
_NEGATIVE, _POSITIVE, _COMMENT = 1, 2, 4
_MARKS_SIZE = 20_000
_token_flags: dict[str, int] = {}
# The flags of one attribute value (a class string, an id), shared across pages (sites repeat their class strings).
# Kept per attribute rather than per class+id string: the flags of "class id" are those of the class's tokens and the
# id's, and ids are mostly unique ("post-4711"), so a per-class+id cache missed whenever the id was new even when
# its class was known (10,409 of its 51,034 misses on every second dev page; A/B against the per-class+id cache on the
# 1,071 dev pages 0.990 and 0.997 CPU; issue 16 round 8, 2026-11-24).
_value_flags: dict[str, int] = {}
# _hint_of for flags & (_NEGATIVE | _POSITIVE): none, negative, positive, both.
_HINTS = (0, -1, 1, 0)


# The comment-section tokens that hold no hint word (every other alternative of COMMENT_TOKEN holds "comment",
# "reply", "respond" or "disqus"): an ASCII token without a hint word names a comment section only when it is one of
# these, in any case (tests/core/extraction/test_fast_parse.py checks both).
_COMMENT_ONLY_TOKENS = frozenset({"replies", "pinglun"})


def _token_flag(token: str) -> int:
    flags = _token_flags.get(token)
    if flags is None:
        lowered = token.lower()
        if token.isascii() and _HINT_WORDS.search(lowered) is None:  # most new tokens: one search, no iterator
            flags = _COMMENT if lowered in _COMMENT_ONLY_TOKENS else 0
        else:
            flags = _COMMENT if COMMENT_TOKEN.match(token) else 0
            for match in _HINT_WORDS.finditer(lowered):
                flags |= _NEGATIVE if _NEGATIVE_WORD.fullmatch(match.group()) else _POSITIVE
        if len(_token_flags) >= _MARKS_SIZE:
            _token_flags.clear()
        _token_flags[token] = flags
    return flags


def _names_flags(names: str) -> int:
    flags = 0
    for token in names.split():
        flag = _token_flags.get(token)
        flags |= _token_flag(token) if flag is None else flag
    return flags


# The hint words a token of COMMENT_TOKEN starts with, and the two of its starts that hold no hint word: findall finds
# the word at the token's start (no hint word holds whitespace, and each of these is the first word of its letter's
# group), so a value whose words include none of these and that holds neither of the two names no comment section:
# the word flags say it, not five substring tests (test_fast_paths.py checks it; issue 16 round 11, 2026-11-25).
_COMMENT_START_WORDS = frozenset({"comment", "respond", "reply", "disqus"})
_COMMENT_ONLY_STARTS = ("replies", "pinglun")
_MAYBE_COMMENT = 8  # in _word_flags only: the word is one of _COMMENT_START_WORDS


_find_hint_words = _HINT_WORDS.findall
# _NEGATIVE or _POSITIVE per word _HINT_WORDS finds (a few hundred spellings at most: "side-bar", "sidebar", ...), with
# _MAYBE_COMMENT.
_word_flags: dict[str, int] = {}


def _word_flag(word: str) -> int:
    flag = _NEGATIVE if _NEGATIVE_WORD.fullmatch(word) else _POSITIVE
    if word in _COMMENT_START_WORDS:
        flag |= _MAYBE_COMMENT
    _word_flags[word] = flag
    return flag


_DIGITS = "0123456789"


def _value_flag(value: str) -> int:
    """_names_flags of one attribute value, cached in _value_flags. An ASCII value (all but ~0.2% on the dev sets) is
    scanned whole rather than token by token: no hint word holds a space, so _HINT_WORDS finds in the value the
    matches it finds in its tokens (read with findall, each word's flag from a dict), and the comment test runs only
    on a value whose words or text may start a comment token (_COMMENT_START_WORDS). Most values missed here are new
    (ids, generated class names: ~100 a page, ~2.3 tokens each), so the per-token cache seldom answered; on the values
    missed on every second dev page 1.76 against 2.14-2.30 us each (issue 16 round 9, 2026-11-24; test_fast_parse.py
    compares the two).

    An ASCII value that ends in digits has the flags of the same value ending in "0" ("menu-item-4711" those of
    "menu-item-0"): no hint word holds a digit, and COMMENT_TOKEN reads a digit only inside a run of word characters.
    That key is cached too and asked first: a fifth of the values missed on every second dev page are answered by it;
    with the comment test above, 1.70 -> 1.44 us a missed value there (issue 16 round 11, 2026-11-25; test_fast_parse.py
    compares)."""
    if len(_value_flags) >= _MARKS_SIZE:
        _value_flags.clear()
    if value.isascii():
        stem = value.rstrip(_DIGITS)
        key = None
        if len(stem) != len(value):
            key = stem + "0"
            flags = _value_flags.get(key)
            if flags is not None:
                _value_flags[value] = flags
                return flags
        lowered = value.lower()
        flags = 0
        for word in _find_hint_words(lowered):  # the words as strings: no match objects (findall)
            flags |= _word_flags.get(word) or _word_flag(word)
        if flags & _MAYBE_COMMENT or _COMMENT_ONLY_STARTS[0] in lowered or _COMMENT_ONLY_STARTS[1] in lowered:
            flags &= ~_MAYBE_COMMENT
            for token in lowered.split():
                if COMMENT_TOKEN.match(token):
                    flags |= _COMMENT
                    break
        if key is not None:
            _value_flags[key] = flags
    else:
        flags = _names_flags(value)
    _value_flags[value] = flags
    return flags


def _class_and_flags(element: etree._Element) -> tuple[str, int]:
    """An element's class attribute ("" without one) and the flags of its class and id (Block.class_names,
    Block.name_flags)."""
    names = element.get("class") or ""
    return names, _names_flags(names + " " + (element.get("id") or ""))


def build_blocks(root: etree._Element) -> list[Block]:
    """Walk the tree once (iterative, so deep trees cannot overflow the stack) and collect blocks.

    Inline tags (span, font, b, a, em, ...) are unwrapped: their text joins the enclosing block.
    <br> becomes a line break inside the block.
    """
    root_block = Block(root, "html", -1, 0)
    root_block.class_names, root_block.name_flags = _class_and_flags(root)
    blocks: list[Block] = [root_block]
    link_depth = 0
    chrome_depth = 0
    # The innermost open block: its index, element and parts. The open blocks are it and its parents (`parent`), and
    # what it inherits is its own hint and comment mark: no stacks beside the blocks (issue 16, 2026-11-24).
    current = blocks[0]
    current_index = 0
    current_element = root
    parts = current.parts
    if root.text:
        parts.append(root.text)
    value_flags = _value_flags
    walk = etree.iterwalk(root, events=("start", "end"))
    next(walk)  # the root's own start (its text is read above)
    # One pass over start/end events; `current` and its `parts` change only when a block opens or closes
    # (the loop runs once per event of every element, so it holds no per-event lookups it can avoid).
    for event, element in walk:
        if event == "start":
            tag = element.tag  # lower case from lxml's HTML parser
            if tag in BLOCK_TAGS:
                if tag in CHROME_TAGS:
                    chrome_depth += 1
                hint, comment = current.hint, current.comment
                # the flags of "class id" (as _names_flags reads the joined string): those of each value
                flags = 0
                names = element.get("class")
                if names:
                    flags = value_flags.get(names)
                    if flags is None:
                        flags = _value_flag(names)
                else:
                    names = ""
                value = element.get("id")
                if value:
                    flag = value_flags.get(value)
                    flags |= _value_flag(value) if flag is None else flag
                if flags and tag != "body":  # <body>'s class names the page's layout: no hint, no comment section
                    if hint >= 0:
                        hint = _HINTS[flags & 3] or hint
                    if flags & _COMMENT:
                        comment = True
                # every field given in order (no keyword or default-factory handling per block)
                block = Block(element, tag, current_index, current.depth + 1, [], 0, 0, 0, 0, chrome_depth > 0, hint,
                              comment, 0, "", 0, 0, names, flags)
                current_index = len(blocks)
                blocks.append(block)
                current = block
                current_element = element
                parts = block.parts
            elif tag == "a":
                link_depth += 1
            elif tag == "br":
                current.br_count += 1
                parts.append("\n")
            elif tag in BOLD_TAGS:
                current.bold_count += 1
            elif not isinstance(tag, str):  # an entity or other non-element node
                continue
            text = element.text
            if text:
                parts.append(text)
                if link_depth:
                    current.link_chars += len(text.strip())
        else:
            if element is current_element:  # a block closes (iterwalk gives the same element object at its end)
                if element is root:
                    if element.tag == "a" and element.tail:  # as the stack walk before did for an <a> root
                        parts.append(element.tail)
                        current.link_chars += len(element.tail.strip())
                    break
                current.end = len(blocks)
                _finish(current)  # its own text is complete: its parts' list is let go now (see _NO_PARTS)
                if current.tag in CHROME_TAGS:
                    chrome_depth -= 1
                current_index = current.parent
                current = blocks[current_index]
                current_element = current.element
                parts = current.parts
            else:
                tag = element.tag
                if tag == "a":
                    link_depth -= 1
                elif not isinstance(tag, str):
                    continue
            tail = element.tail
            if tail:
                parts.append(tail)
                if link_depth:
                    current.link_chars += len(tail.strip())
    while current_index >= 0:  # the root, and any block left open
        block = blocks[current_index]
        block.end = len(blocks)
        _finish(block)
        current_index = block.parent
    return blocks


# A finished block's parts: its list is let go as soon as its text is made, when the block closes in the walk. A page's
# blocks live until its extraction ends, and with each its list and its element's proxy: ~1,370 objects the garbage
# collector tracks, which its young collections move on to the oldest generation, whose full collections then ran
# every ~90 pages of the dev sets (~0.13 ms a page). Freed lists make a third fewer (issue 16 round 10, 2026-11-25).
_NO_PARTS: tuple[str, ...] = ()


def _finish(block: Block) -> None:
    """A block's text from its parts: no-break spaces counted and made spaces, runs of spaces squashed, each line
    stripped, empty lines dropped; then its counts. Most wrappers own only whitespace (nothing to normalise), and
    most texts are one line (stripped without the split and join; tests/core/extraction/test_fast_walks.py checks
    this against the line-by-line form it replaces, issue 16, 2026-11-24)."""
    parts = block.parts
    raw = "".join(parts) if len(parts) != 1 else parts[0]
    block.parts = _NO_PARTS  # the list is freed now, not with the page (see _NO_PARTS)
    if not raw:
        block.link_chars = 0
        return
    nbsp = block.nbsp_count = raw.count("\xa0")
    if raw.isspace():  # its text is empty, so are its counts
        block.link_chars = 0
        return
    text = raw.replace("\xa0", " ") if nbsp else raw
    # Lines stripped before their runs of spaces are squashed, not after: the indentation and the spaces at a text's
    # ends then never reach the regex (half of its calls). The same text: a run of _SPACES inside a line is bounded
    # by the same characters either way, and every character of _SPACES but the two zero-width ones is whitespace to
    # str.strip, so a text holding one of those two is squashed first, as before (issue 16 round 11, 2026-11-25;
    # test_fast_xlast.py compares)
    if "\u200b" in text or "\ufeff" in text:
        text = _SPACES.sub(" ", text)
    if "\n" in text:
        text = _squash_spaces("\n".join(filter(None, map(str.strip, text.split("\n")))))
        chars = len(text) - text.count(" ") - text.count("\n")
    else:
        text = _squash_spaces(text.strip())
        chars = len(text) - text.count(" ")
    block.text, block.chars = text, chars
    if chars:
        block.punctuation = len(PUNCT_RE.findall(text))
        if block.link_chars > chars:
            block.link_chars = chars
    else:
        block.link_chars = 0
